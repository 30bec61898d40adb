#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# gpumem vs Nsight Compute, per example kernel (issue 3 item 4): global
# load/store requests and sectors and shared-memory wavefronts must be
# equal; divergent branches must equal ncu's SASS count or the source-level
# hand count (hand.py). Differences are explained by diagnostic counters
# (explain.py). Reads RAW/programs ("NAME ARGS..." lines), RAW/NAME.ncu.csv
# (ncu --csv --page raw over all launches) and RAW/NAME.gm/ (GPUMEM_OUT of
# NAME.inst with the same arguments). Writes the table (markdown) to OUT_MD
# and stdout; exits 1 when a required comparison differs or is missing.
# Usage: compare.py RAW_DIR OUT_MD. Depends on python3 (c++filt if present).
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import explain  # noqa: E402
import gm_totals  # noqa: E402
import hand  # noqa: E402
import metrics  # noqa: E402
import ncu_csv  # noqa: E402
import sass  # noqa: E402


def demangle(names):
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    return dict(zip(names, out.splitlines()))


def base(name, dem):
    """Kernel name without return type, parameters or spaces."""
    d = dem.get(name, name)
    d = d[5:] if d.startswith("void ") else d
    cut = d.find("(")
    return (d[:cut] if cut > 0 else d).replace(" ", "")


def ncu_sum(k, names):
    """Sum of the ncu metrics, None when any is missing."""
    if any(m not in k for m in names):
        return None
    return sum(k[m] for m in names)


def fmt(v):
    return "n/a" if v is None else f"{v:,}" if isinstance(v, int) else f"{v:,.2f}"


class Table:
    def __init__(self):
        self.lines, self.exact, self.differ, self.missing, self.bad = [], 0, 0, 0, []
        self.sass, self.sources = [], []

    def row(self, kernel, label, gm, ncu, verdict, why=""):
        self.lines.append(f"| {kernel} | {label} | {fmt(gm)} | {fmt(ncu)} | {verdict} | {why} |")


def required(tab, kname, g, k):
    for label, key, names in metrics.REQUIRED:
        gm, nv = g.get(key, 0), ncu_sum(k, names)
        if nv is None:
            tab.missing += 1
            tab.row(kname, label, gm, None, "MISSING", "ncu did not report " + "+".join(names))
            tab.bad.append((kname, label, "metric missing"))
        elif gm == nv:
            tab.exact += 1
            tab.row(kname, label, gm, nv, "exact")
        else:
            tab.differ += 1
            why = explain.why(label, g, k)
            tab.row(kname, label, gm, nv, f"DIFF {nv - gm:+,}", why)
            tab.bad.append((kname, label, why))


def branches(tab, kname, g, k, hands):
    """hands: [(count, label)] summed over launches, or None."""
    label, key, names = metrics.BRANCH
    gm, nv = g.get(key, 0), ncu_sum(k, names)
    ok = ["ncu"] if nv is not None and nv == gm else []
    ok += [f"hand count ({lab})" for h, lab in hands or [] if h == gm]
    hand_txt = ("hand " + ", ".join(f"{h:,} ({lab})" for h, lab in hands)) if hands else "no hand count"
    if ok:
        tab.exact += 1
        tab.row(kname, label, gm, nv, "agrees with " + ", ".join(ok), hand_txt)
    else:
        tab.differ += 1
        why = explain.why_branches(g, k, hands)
        tab.row(kname, label, gm, nv, "DIFF", hand_txt + "; " + why)
        tab.bad.append((kname, label, why))


def diagnostics(tab, kname, g, k):
    for label, key, names in metrics.DIAG:
        nv = ncu_sum(k, names)
        gm = g.get(key) if key else None
        if nv is None or (not nv and not gm):
            continue
        tab.row(kname, label, gm, nv, "(diag)" if gm is None or gm != nv else "(diag) equal")


def load(tab, raw, name):
    """(gpumem totals, ncu sums) of one program, or None (recorded as missing)."""
    rep_path, doc = gm_totals.find_report(os.path.join(raw, name + ".gm"))
    csv = os.path.join(raw, name + ".ncu.csv")
    try:
        if doc is None:
            raise ValueError(f"no gpumem report under {raw}/{name}.gm")
        ncu = ncu_csv.read(csv, metrics.all_names())
    except (OSError, ValueError) as e:
        tab.bad.append((name, "inputs", str(e)))
        tab.missing += 1
        return None
    tab.sources.append(f"- {name}: {rep_path}, {csv}")
    return gm_totals.kernel_totals(doc), ncu


def kernel(tab, kname, g, k, hands):
    if k["launches"] != g["launches"]:
        tab.row(kname, "launches", g["launches"], k["launches"], "DIFF", "launch sets differ")
        tab.differ += 1
        tab.bad.append((kname, "launches", "gpumem and ncu saw different launch counts"))
    required(tab, kname, g, k)
    branches(tab, kname, g, k, hands)
    diagnostics(tab, kname, g, k)


def program(tab, raw, name, args):
    got = load(tab, raw, name)
    if got is None:
        return
    gm, ncu = got
    dem = demangle(list(gm) + list(ncu))
    nb = {base(n, dem): v for n, v in ncu.items()}
    gb = {base(n, dem): v for n, v in gm.items()}
    per_launch = hand.per_launch(name, args)
    for kname in sorted(set(nb) ^ set(gb)):
        where = "gpumem's report" if kname in nb else "ncu's output"
        tab.bad.append((kname, "kernel", f"absent from {where}"))
        tab.missing += 1
    sass_lines(tab, raw, name)
    for kname in sorted(set(nb) & set(gb)):
        hands = [(h * gb[kname]["launches"], lab) for h, lab in per_launch.get(kname, [])] or None
        kernel(tab, kname, gb[kname], nb[kname], hands)


def sass_lines(tab, raw, name):
    path = os.path.join(raw, name + ".sass.txt")
    if not os.path.exists(path):
        return
    cen = sass.census(open(path, errors="replace").read())
    dem = demangle(list(cen))
    tab.sass += [f"- {base(k, dem)}: {sass.summary(c)}" for k, c in sorted(cen.items())] or \
        [f"- {name}: no kernels in {path} (cuobjdump failed?)"]


def write(tab, out_md):
    head = ["# gpumem vs Nsight Compute (H100), all launches summed", "",
            "| kernel | quantity | gpumem | ncu | verdict | cause / note |",
            "|---|---|---:|---:|---|---|"]
    tail = ["", f"required comparisons: {tab.exact} exact/agree, {tab.differ} differ, {tab.missing} missing", ""]
    if tab.bad:
        tail.append("## Disagreements")
        tail += [f"- {k}: {what}: {why}" for k, what, why in tab.bad]
    if tab.sources:
        tail += ["", "## Inputs (report, ncu CSV)"] + tab.sources
    if tab.sass:
        tail += ["", "## Native SASS per kernel (static counts, cuobjdump -sass of NAME.off)"] + tab.sass
    text = "\n".join(head + tab.lines + tail) + "\n"
    with open(out_md, "w") as f:
        f.write(text)
    print(text)


def main(argv):
    if len(argv) != 3:
        print("usage: compare.py RAW_DIR OUT_MD", file=sys.stderr)
        return 2
    raw, tab = argv[1], Table()
    try:
        progs = [ln.split() for ln in open(os.path.join(raw, "programs")) if ln.strip()]
    except OSError as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    for p in progs:
        program(tab, raw, p[0], p[1:])
    write(tab, argv[2])
    ok = tab.differ == 0 and tab.missing == 0 and tab.exact > 0
    print(f"ncu-compare: {tab.exact} exact, {tab.differ} differ, {tab.missing} missing: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
