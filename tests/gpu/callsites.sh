#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU suite `callsites` (issue 9 item 2): host call sites of allocations in
# source terms. tests/gpu/callsites/callsites.cu makes six allocations on
# six lines marked "// site N" (in main, a helper and a template) and frees
# them on one line; the report must name every one of those lines and its
# function, not a place inside the statically linked CUDA runtime.
#   tests/gpu/callsites.sh build [BUILD_DIR]  # here: gpumemcc, 3 builds
#   tests/gpu/callsites.sh run   [BUILD_DIR]  # on the GPU (tests/gpu/all.sh callsites)
# Builds (in BUILD_DIR/tests/gpu/callsites):
#   static   default (static cudart; gpumemcc's default host line tables)
#   shared   -cudart shared
#   nolines  -Xcompiler -g0 (no host line tables): function and binary+0xoff
# Each is also run under `gpumem profile`, whose summary must name the
# report directory and the program's exit status 0.
# Prints PASS/FAIL lines; exits non-zero if a check fails.
set -u
cmd=${1:-run}
B=$(cd "${2:-build}" 2>/dev/null && pwd) || { echo "callsites: no build dir ${2:-build}" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUTD=$B/tests/gpu/callsites
CU=$SRC/tests/gpu/callsites/callsites.cu

build() {
  rm -rf "$OUTD" && mkdir -p "$OUTD" || exit 2
  gm="$B/bin/gpumemcc -arch=sm_90 -O2"
  set -e
  $gm "$CU" -o "$OUTD/static"
  $gm -cudart shared "$CU" -o "$OUTD/shared"
  $gm -Xcompiler -g0 "$CU" -o "$OUTD/nolines"
  set +e
  cp "$CU" "$OUTD/callsites.cu" # the expected lines, read at run time
  echo "callsites: built $OUTD/static shared nolines"
}

fails=0
pass() { echo "PASS: callsites $*"; }
fail() { echo "FAIL: callsites $*"; fails=$((fails + 1)); }

# check NAME LINES(0/1): the report of run NAME against the marked lines
check() {
  python3 - "$OUTD/$1.d/report.json" "$OUTD/callsites.cu" "$1" "$2" <<'PY'
import json, re, sys
rep, src, name, lines = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
text = open(src).read().split("\n")
site_line = {int(m.group(1)): i + 1 for i, l in enumerate(text) for m in [re.search(r"// site (\d)", l)] if m}
free_line = [i + 1 for i, l in enumerate(text) if "cudaFree(p[k])" in l][0]
# allocation sizes -> site number and enclosing function
want = {1 << 11: (1, "main"), 1 << 12: (2, "alloc_pair"), 1 << 13: (3, "alloc_pair"),
        1 << 14: (4, "alloc_in_template"), 1 << 15: (5, "main"), 1 << 16: (6, "main")}
r = json.load(open(rep))
seen, bad = 0, 0
for a in r["allocations"]:
    if a["size"] not in want:
        continue
    seen += 1
    n, fn = want[a["size"]]
    s, f = a.get("alloc_site") or {}, a.get("free_site") or {}
    func = s.get("func") or ""
    if lines:
        ok = (s.get("file") or "").endswith("callsites.cu") and s.get("line") == site_line[n] and fn in func
        okf = (f.get("file") or "").endswith("callsites.cu") and f.get("line") == free_line
    else:
        ok = "+0x" in (s.get("file") or "") and fn in func
        okf = "main" in (f.get("func") or "")
    print("%s %s site %d: allocated at %s:%s (%s), freed at %s:%s; want %s%s" % (
        "PASS" if ok and okf else "FAIL", name, n, s.get("file"), s.get("line"), func,
        f.get("file"), f.get("line"), ("line %d, " % site_line[n]) if lines else "", fn))
    bad += not (ok and okf)
# the call path above site 2 (in alloc_pair): main's line that called alloc_pair
pair_line = [i + 1 for i, l in enumerate(text) if "alloc_pair(&p[1]" in l][0]
path = [a.get("alloc_path") or "" for a in r["allocations"] if a["size"] == 1 << 12]
okp = bool(path) and path[0].startswith("main (") and (not lines or path[0].split(" <- ")[0].endswith("callsites.cu:%d)" % pair_line))
print("%s %s call path of site 2: %s" % ("PASS" if okp else "FAIL", name, path))
bad += not okp
lab = [a.get("label") for a in r["allocations"] if a["size"] == 1 << 13]
print("%s %s label of site 3: %s" % ("PASS" if lab == ["named buffer"] else "FAIL", name, lab))
print("%s %s six allocations in the report (%d)" % ("PASS" if seen == 6 else "FAIL", name, seen))
sys.exit(1 if bad or seen != 6 or lab != ["named buffer"] else 0)
PY
}

run() {
  [ -x "$OUTD/static" ] || { echo "callsites: $OUTD/static missing: run '$0 build' on the build machine" >&2; exit 2; }
  for v in static shared nolines; do
    rm -rf "$OUTD/$v.d"
    (cd "$OUTD" && GPUMEM_OUT="$OUTD/$v.d" "./$v" >"$v.out" 2>"$v.err")
    rc=$?
    [ $rc = 0 ] && grep -q "checksum: 7" "$OUTD/$v.out" && pass "$v: runs (checksum 7)" \
      || { fail "$v: exit status $rc: $(tail -2 "$OUTD/$v.err" | tr '\n' ' ')"; continue; }
    grep -qx "gpumem: report in $OUTD/$v.d (summary.txt, report.json, \*.csv)" "$OUTD/$v.err" \
      && [ "$(grep -c '^gpumem' "$OUTD/$v.err")" = 1 ] && pass "$v: one line at exit" \
      || fail "$v: exit lines: $(grep '^gpumem' "$OUTD/$v.err" | head -3 | tr '\n' '|')"
    lines=1
    [ $v = nolines ] && lines=0
    check "$v" $lines >"$OUTD/$v.check"
    rc=$?
    sed 's/^\(PASS\|FAIL\) /\1: callsites /' "$OUTD/$v.check"
    [ $rc = 0 ] || fails=$((fails + 1))
    (cd "$OUTD" && "$B/bin/gpumem" profile -o "$OUTD/$v.p" "./$v" >"$v.p.out" 2>"$v.p.err")
    rc=$?
    [ $rc = 0 ] && grep -q "exited with status 0" "$OUTD/$v.p.err" && grep -q "^Full report: $OUTD/$v.p/" "$OUTD/$v.p.err" \
      && cmp -s "$OUTD/$v.out" "$OUTD/$v.p.out" && pass "$v: gpumem profile: summary, same stdout" \
      || fail "$v: gpumem profile rc=$rc: $(head -3 "$OUTD/$v.p.err" | tr '\n' '|')"
  done
  cat "$OUTD/static.p.err" 2>/dev/null
  echo "callsites: $fails failed"
  [ $fails = 0 ]
}

case $cmd in
build) build ;;
run) run ;;
*) echo "usage: $0 build|run [BUILD_DIR]" >&2; exit 2 ;;
esac
