#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Builds the results table of bench/realtrace/run.sh from its raw outputs
# (issue 14 items 6 and 7): capture against the native run, decode and
# simulation time per thread count, and per-kernel L1 / L2 hit rates against
# Nsight Compute, warm and cold, with the targets (bench/sim/compare_ncu.py).
# A step that did not run or failed shows as such; the table is whatever the
# directory holds so far.
# usage: table.py OUT   (OUT/env.txt, OUT/programs, OUT/PROGRAM/STEP.{out,err,rc,s}, ...)
# Prints Markdown. Depends on python3 and bench/sim/compare_ncu.py.
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sim"))
import compare_ncu  # noqa: E402


def read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def status(d, step):
    """None when the step ran and exited 0; else a short reason."""
    rc = read(os.path.join(d, step + ".rc"))
    if rc is None:
        return "not run"
    rc = rc.strip()
    if rc == "0":
        return None
    if rc == "skipped":
        return "skipped (budget)"
    if rc in ("124", "137"):
        return f"time limit ({seconds(d, step)} s)"
    last = [l for l in (read(os.path.join(d, step + ".err"), "") or "").splitlines() if l.strip()]
    return f"exit {rc}" + (f": {last[-1][:120]}" if last else "")


def seconds(d, step):
    s = read(os.path.join(d, step + ".s"))
    return float(s) if s else None


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


def capture_row(p, d):
    args = (read(os.path.join(d, "args"), "") or "").strip()
    nat, tr = seconds(d, "native"), seconds(d, "capture")
    why = status(d, "capture")
    m = re.search(r"trace: (\d+) launches, (\d+) records saved, (\d+) dropped, (\d+) over the cap, (\d+) lost, (\d+) copies",
                  read(os.path.join(d, "capture.err"), "") or "")
    launches, saved, lostall, copies = (int(m[1]), int(m[2]), f"{m[3]} / {m[4]} / {m[5]}", m[6]) if m else (None,) * 4
    size = read(os.path.join(d, "trace.bytes"))
    size = int(size) if size and size.strip().isdigit() else None
    sectors = sim_sectors(d)
    ok = status(d, "native")
    return (f"| {p} | `{args}` | {fmt(nat, '.3f') if not ok else ok} | {fmt(tr, '.3f') if not why else why} | "
            f"{fmt(tr / nat if tr and nat else None, '.1f')}x | {fmt(tr - nat if tr and nat else None, '.3f')} | "
            f"{launches if launches is not None else '-'} | {saved if saved is not None else '-'} | {lostall or '-'} | "
            f"{copies or '-'} | {fmt(saved / tr / 1e6 if saved and tr else None, '.1f')} | "
            f"{fmt(saved / (tr - nat) / 1e6 if saved and tr and nat and tr > nat else None, '.1f')} | "
            f"{fmt(size / 1e6 if size else None, '.1f')} | {fmt(size / saved if size and saved else None, '.1f')} | "
            f"{fmt(sectors / 1e6 if sectors else None, '.1f')} |")


def sim_sectors(d):
    try:
        with open(os.path.join(d, "sim.warm.out")) as f:
            j = json.load(f)
        return sum(l["counts"]["sectors"] for l in j["launches"])
    except (OSError, ValueError, KeyError):
        return None


def scaling_row(p, d):
    rows = {}
    for line in (read(os.path.join(d, "sim-trace.md"), "") or "").splitlines():
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) >= 10 and c[4].isdigit():   # bench_trace may add columns after the tenth
            rows[int(c[4])] = c
    one = rows.get(1)
    dec = one[3] if one else (next(iter(rows.values()))[3] if rows else "-")
    t = {n: float(rows[n][5]) for n in rows}
    cells = [fmt(t.get(n), ".2f") for n in (1, 2, 4, 8, 16)]
    sp = t[1] / t[16] if 1 in t and 16 in t else None
    same = "-" if not rows else ("identical" if all(r[9] == "identical" for r in rows.values()) else "DIFFERENT")
    why = status(d, "scaling")
    note = "" if not why or len(rows) == 5 else f" ({why})"
    warm, cold = seconds(d, "sim.warm"), seconds(d, "sim.cold")
    return (f"| {p} | {one[1] if one else '-'} | {one[2] if one else '-'} | {dec} | " + " | ".join(cells) +
            f" | {fmt(sp, '.2f')}x ({fmt(sp / 16 if sp else None, '.2f')} N) | {rows[1][7] if 1 in rows else '-'} / "
            f"{rows[16][7] if 16 in rows else '-'} | {same}{note} | "
            f"{fmt(warm) if not status(d, 'sim.warm') else status(d, 'sim.warm')} / "
            f"{fmt(cold) if not status(d, 'sim.cold') else status(d, 'sim.cold')} |")


def accuracy(p, d, mode):
    """Markdown lines for one program and mode (warm / cold), and its kernel rows."""
    sim = os.path.join(d, f"sim.{mode}.out")
    why = status(d, f"sim.{mode}")
    if why:
        return [f"{p}: no simulation ({why})"], []
    if mode == "cold":
        csvs = sorted(glob.glob(os.path.join(d, "ncu.cold.*.out")),
                      key=lambda f: int(f.rsplit(".", 2)[-2]))
        steps = [os.path.basename(f)[:-4] for f in csvs]
    else:
        csvs, steps = [os.path.join(d, "ncu.warm.out")], ["ncu.warm"]
    bad = [f"{s}: {status(d, s)}" for s in steps if status(d, s)]
    usable = []
    for c, s in zip(csvs, steps):
        if status(d, s):
            continue
        skip = (read(os.path.join(d, s + ".skip"), "") or "").strip()
        try:
            compare_ncu.read_ncu(c)
            usable.append((c, int(skip) if skip.isdigit() else None))
        except compare_ncu.BadInput as e:
            bad.append(f"{s}: {e}")
    if not usable:
        return [f"{p}: no ncu table ({'; '.join(bad) or 'not run'})"], []
    try:
        rows, _, _, _, notes = compare_ncu.compare(sim, usable)
    except compare_ncu.BadInput as e:
        return [f"{p}: {e}"], []
    lines = compare_ncu.kernel_table(rows, f"{p} ({mode}): ")
    lines += [f"note: {n}" for n in notes + bad]
    return lines, rows


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: table.py OUT")
    out = sys.argv[1]
    progs = (read(os.path.join(out, "programs"), "") or "").split()
    progs = [p for p in progs if os.path.isdir(os.path.join(out, p))]
    print("# Real traces: capture, decode, simulation, hit rates against Nsight Compute (issue 14 items 6, 7)")
    print()
    for line in (read(os.path.join(out, "env.txt"), "") or "").splitlines():
        print(f"- {line}")
    print()
    print("Made by `bench/realtrace/run.sh` (pack from `bench/realtrace/build.sh`); raw outputs beside this file.")
    print()
    print("## Capture: the traced build against the native (--gm-off) build, whole process, wall clock")
    print()
    print("| program | arguments | native s | traced s | slowdown | added s | launches | records saved | "
          "dropped / over cap / lost | copies | M records/s (traced wall) | M records/s (added s) | trace MB | "
          "bytes/record | M sector accesses (sim) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in progs:
        print(capture_row(p, os.path.join(out, p)))
    print()
    print("## Decode and simulation (the GPU machine's CPUs; gpumem-sim --preset h100)")
    print()
    print("bench/sim/trace_scaling.sh on each trace (bench_trace: the replay gpumem-sim runs, end to end "
          "from the file, one run each): decode alone on one thread, then decode + simulate with N threads "
          "(seconds); counts compared across thread counts. Last column: `gpumem-sim --threads 16 --json` "
          "wall seconds, L2 warm / cold.")
    print()
    print("| program | records | sector accesses | decode M records/s | 1 thread s | 2 | 4 | 8 | 16 | "
          "speed-up at 16 | M sector accesses/s 1 / 16 threads | counts | gpumem-sim 16 threads s warm / cold |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in progs:
        print(scaling_row(p, os.path.join(out, p)))
    for mode, what in (("warm", "L2 warm across launches (gpumem-sim default) vs ncu --cache-control none "
                                "--replay-mode application"),
                       ("cold", "L2 emptied before each launch (gpumem-sim --l2-launch=cold) vs ncu's default "
                                "--cache-control all")):
        print()
        print(f"## Hit rates per kernel, {mode}: {what}")
        print()
        allrows = []
        for p in progs:
            lines, rows = accuracy(p, os.path.join(out, p), mode)
            allrows += rows
            print(f"### {p}")
            print()
            print("\n".join(lines))
            print()
        if allrows:
            print(compare_ncu.summary(allrows, f"All programs ({mode}): "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
