#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU tests of issue 2, run on the GPU machine from the repository root with
# the .devbuild/ folder made by tests/gpu/build.sh (no compiler needed):
#  1. every instrumented build of every example (default analyses, -rdc,
#     empty handler, counting handler) prints checksum lines identical to its
#     --gm-off build;
#  2. the count_memops handler sees exactly the analytically expected number
#     of warp executions per memory site / per kernel (read from the JSON
#     report the runtime writes into GPUMEM_OUT), and the runtime saw every
#     launch.
# Prints one PASS/FAIL line per check and "N passed, N failed"; the log goes
# to $OUT/gpu_tests.log (program outputs and reports to $OUT/gpu_work) when
# OUT is set. Exits 0 with "SKIP: no GPU" when
# nvidia-smi fails. Depends on: sh, python3 (check 2 only), the devbuild.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
dev=${GM_DEVBUILD:-$root/.devbuild}
cuda=${CUDA_PATH:-/usr/local/cuda}
pass=0 fail=0

result() { # STATUS MESSAGE
  echo "$1 $2"
  if [ "$1" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

# Arguments per example (shared with the other GPU checks).
. "$root/tests/gpu/example_args.sh"

# Each run's limit: the examples finish in seconds; a hang (exit 124) should
# not eat the device call (GM_EXAMPLE_TIMEOUT seconds, default 60).
limit=${GM_EXAMPLE_TIMEOUT:-60}

run_variant() { # NAME VARIANT ARGS... ; output in $work/NAME.VARIANT.txt, status in $rc
  n=$1 v=$2
  shift 2
  mkdir -p "$work/$n.$v.out" "$work/$n.$v.cwd"
  (cd "$work/$n.$v.cwd" && GPUMEM_OUT="$work/$n.$v.out" timeout "$limit" "$dev/bin/$n.$v" "$@") \
    >"$work/$n.$v.txt" 2>&1
  rc=$?
  return $rc
}

# "exit status N" or "timed out after S s" for a failed run_variant
how() { if [ "$rc" = 124 ]; then echo "timed out after $limit s"; else echo "exit status $rc"; fi; }

check_variant() { # NAME VARIANT ARGS... ; compares with $work/NAME.off.sum
  n=$1 v=$2
  shift 2
  if [ ! -x "$dev/bin/$n.$v" ]; then result FAIL "$n.$v: not built"; return; fi
  if ! run_variant "$n" "$v" "$@"; then
    result FAIL "$n.$v: $(how): $(tail -2 "$work/$n.$v.txt" | tr '\n' ' ')"
    return
  fi
  grep 'checksum:' "$work/$n.$v.txt" >"$work/$n.$v.sum"
  if cmp -s "$work/$n.off.sum" "$work/$n.$v.sum"; then
    result PASS "$n.$v: checksums identical to --gm-off ($(wc -l <"$work/$n.off.sum") lines)"
  else
    result FAIL "$n.$v: checksums differ: off [$(tr '\n' ' ' <"$work/$n.off.sum")] $v [$(tr '\n' ' ' <"$work/$n.$v.sum")]"
  fi
}

check_checksums() { # NAME ARGS...
  n=$1
  shift
  if ! run_variant "$n" off "$@"; then
    result FAIL "$n.off: $(how): $(tail -2 "$work/$n.off.txt" | tr '\n' ' ')"
    return
  fi
  grep 'checksum:' "$work/$n.off.txt" >"$work/$n.off.sum"
  if [ ! -s "$work/$n.off.sum" ]; then result FAIL "$n.off: no checksum line"; return; fi
  for v in inst rdc empty count; do check_variant "$n" "$v" "$@"; done
}

check_counts() { # NAME ARGS... ; after check_checksums ran NAME.count
  n=$1
  shift
  [ -s "$work/$n.count.txt" ] || return
  if ! command -v python3 >/dev/null; then
    echo "SKIP $n.count: no python3 to read the JSON report"
    return
  fi
  python3 "$work/count_check.py" "$n" "$work/$n.count.txt" "$work/$n.count.out" \
    "$work/$n.count.cwd" "$@" >"$work/$n.count.check" 2>&1 ||
    echo "FAIL $n.count: the count checker failed (exit $?)" >>"$work/$n.count.check"
  while read -r st msg; do
    case $st in PASS|FAIL) result "$st" "$msg" ;; *) echo "  $st $msg" ;; esac
  done <"$work/$n.count.check"
}

main() {
  if [ ! -d "$dev/bin" ]; then
    echo "FAIL: no $dev/bin (run tests/gpu/build.sh on the build machine, carry .devbuild)"
    echo "0 passed, 1 failed"
    return 1
  fi
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /'
  echo "devbuild: commit $(cat "$dev/commit" 2>/dev/null), $(ls "$dev/bin" | wc -l) binaries"
  export LD_LIBRARY_PATH="$dev/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for bin in "$dev"/bin/*.off; do
    [ -e "$bin" ] || continue
    n=$(basename "$bin" .off)
    # word splitting of the argument list is intended
    check_checksums "$n" $(args_of "$n")
    check_counts "$n" $(args_of "$n")
  done
  echo "log files: $work"
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
}

# The count checker (python3, standard library only), written out at run time.
write_count_check() {
cat >"$work/count_check.py" <<'PY'
# Count check of tests/gpu/run.sh (written out and run by it): compares the
# count_memops handler's per-site warp executions in the runtime's JSON report
# with the analytically expected numbers for one example run.
# argv: NAME STDOUT_FILE REPORT_DIR CWD ARGS...   Prints PASS/FAIL/NOTE lines.
import glob, json, os, re, sys

LOAD, STORE, ATOMIC = 1 << 24, 1 << 25, 1 << 26


def lcg(state):
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return state, state >> 33


def ell_counts(rows, avg):
    """spmv_ell: (width, sum over warps of the longest row in the warp)."""
    seed, lens = 12345, []
    for _ in range(rows):
        seed, r = lcg(seed)
        lens.append(1 + r % (2 * avg))
    width = max(lens)
    return width, sum(max(lens[w:w + 32]) for w in range(0, rows, 32))


def expectations(name, a, L):
    """{kernel: (per_site or None, {(kind, space): warp executions})}."""
    if name == "vector_add":
        n = a[0]; w = n // 32 * L; w4 = n // 128 * L   # n % 128 == 0
        return {"vadd": ([w] * 3, {("load", "global"): 2 * w, ("store", "global"): w}),
                "vadd4": ([w4] * 3, {("load", "global"): 2 * w4, ("store", "global"): w4})}
    if name == "branchy":
        w = a[0] // 32 * L
        return {"branchy": ([w] * 2, {("load", "global"): w, ("store", "global"): w})}
    if name == "stencil":
        n = a[0]; w = (n - 2) * (n // 32) * L
        return {"stencil5": ([w] * 6, {("load", "global"): 5 * w, ("store", "global"): w})}
    if name == "transpose":
        w = a[0] * a[0] // 32 * L
        tiled = {("load", "global"): w, ("store", "shared"): w,
                 ("load", "shared"): w, ("store", "global"): w}
        return {"transpose_naive": (None, {("load", "global"): w, ("store", "global"): w}),
                "transpose_tiled": (None, tiled), "transpose_padded": (None, dict(tiled))}
    if name == "reduction":
        b = a[0] // 512 * L   # blocks of 256 threads, 2 elements each (n % 512 == 0)
        return {"reduce_sum": (None, {("load", "global"): 16 * b, ("load", "shared"): 7 * b,
                                      ("store", "shared"): 15 * b, ("atomic", "global"): b})}
    if name == "pointer_chase":
        steps = a[2]
        return {"chase": (None, {("load", "global"): steps * L, ("store", "global"): 2 * L})}
    if name == "sgemm":
        n = a[0]
        return {"sgemm_naive": (None, {("load", "global"): 2 * n * n * n // 32 * L,
                                       ("store", "global"): n * n // 32 * L})}
    if name == "spmv":
        rows, avg = a[0], a[1]
        width, maxsum = ell_counts(rows, avg)
        w = rows // 32
        return {"spmv_ell": (None, {("load", "global"): (w * width + 2 * maxsum) * L,
                                    ("store", "global"): w * L})}
    return {}


def find_report(dirs):
    best = None
    for d in dirs:
        for f in glob.glob(os.path.join(d, "**", "*.json"), recursive=True):
            try:
                doc = json.load(open(f))
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and "kernels" in doc and "modules" in doc:
                if best is None or os.path.getmtime(f) > best[0]:
                    best = (os.path.getmtime(f), f, doc)
    return best


def kind_space(site):
    info, space = int(site.get("info", 0)), int(site.get("space", 0))
    kind = "atomic" if info & ATOMIC else "store" if info & STORE else "load"
    return kind, {3: "shared", 5: "local"}.get(space, "global")


def pick_set(kernel):
    """The counting handler's counter set of a kernel, or None."""
    sets = kernel.get("counters", [])
    named = [c for c in sets if "memops" in c.get("set", "") or "count" in c.get("set", "")]
    if named:
        return named[0]
    return sets[0] if len(sets) == 1 else None


def merge_spaces(d):
    """{(kind, space): n} -> {(kind, "any"): n}."""
    out = {}
    for (kind, _), v in d.items():
        out[(kind, "any")] = out.get((kind, "any"), 0) + v
    return out


def check_kernel(name, kname, kernel, module, exp, L):
    per_site, totals = exp
    ok = True
    if int(kernel.get("launches", -1)) != L:
        print(f"FAIL {name}.count {kname}: runtime saw {kernel.get('launches')} launches, program made {L}")
        ok = False
    cs = pick_set(kernel)
    if cs is None:
        print(f"FAIL {name}.count {kname}: no counter set in the report")
        return False
    sites = {int(s["id"]): s for s in module.get("sites", [])}
    got, counts = {}, []
    for e in cs.get("sites", []):
        s = sites.get(int(e["site"]))
        if s is None or int(s.get("event", 0)) != 1:
            continue
        c = int(e["v"][0])
        counts.append(c)
        k = kind_space(s)
        got[k] = got.get(k, 0) + c
    if any(kind_space(s)[1] == "global" and int(s.get("space", 0)) == 0
           for s in sites.values() if int(s.get("event", 0)) == 1) and \
            any(k[1] == "shared" for k in totals):
        print(f"NOTE {name}.count {kname}: generic-space sites: comparing shared+global together")
        got, totals = merge_spaces(got), merge_spaces(totals)
    if got != totals:
        print(f"FAIL {name}.count {kname}: warp executions {sorted(got.items())}, expected {sorted(totals.items())}")
        ok = False
    else:
        print(f"PASS {name}.count {kname}: warp executions {sorted(totals.items())} as expected")
    if per_site is not None:
        if sorted(counts) == sorted(per_site):
            print(f"PASS {name}.count {kname}: {len(per_site)} memory sites, each {per_site[0]}")
        else:
            print(f"FAIL {name}.count {kname}: per-site {sorted(counts)}, expected {sorted(per_site)}")
            ok = False
    return ok


def main(argv):
    name, stdout, dirs, a = argv[1], argv[2], argv[3:5], [int(x) for x in argv[5:]]
    launches = re.findall(r"launches: (\d+)", open(stdout).read())
    if not launches:
        print(f"FAIL {name}.count: no 'launches:' line in the program output")
        return
    L = int(launches[0])
    exps = expectations(name, a, L)
    if not exps:
        print(f"NOTE {name}.count: no expectations for this example")
        return
    rep = find_report(dirs)
    if rep is None:
        print(f"FAIL {name}.count: no JSON report in {dirs[0]} or {dirs[1]}")
        return
    _, path, doc = rep
    print(f"NOTE {name}.count: report {path}")
    modules = {m.get("modid"): m for m in doc.get("modules", [])}
    for kname, exp in exps.items():
        ks = [k for k in doc.get("kernels", []) if re.search(r"(^|\d)" + kname + r"($|[A-Z])", k.get("name", ""))]
        if len(ks) != 1:
            print(f"FAIL {name}.count {kname}: {len(ks)} kernels of that name in the report")
            continue
        check_kernel(name, kname, ks[0], modules.get(ks[0].get("modid"), {}), exp, L)


main(sys.argv)
PY
}

if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gm_gpu.XXXXXX")
write_count_check
log=/dev/null
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && log=$OUT/gpu_tests.log; fi
{ main; echo $? >"$work/rc"; } 2>&1 | tee "$log"
# program outputs and JSON reports, for looking into a failure
if [ -n "${OUT:-}" ]; then cp -r "$work" "$OUT/gpu_work" 2>/dev/null; fi
exit "$(cat "$work/rc" 2>/dev/null || echo 1)"
