#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Corpus harness: turns OUTDIR/builds.tsv (bench/corpus/build.sh) and, when
present, OUTDIR/runs.tsv (bench/corpus/run.sh, copied back from the GPU
machine) into one markdown report on stdout: per program the build result of
each compiler, compile time and PTX lines instrumented vs --gm-off, and the
run comparison; then the totals against the real-programs targets.
Usage: summarize.py OUTDIR [--runs RUNS.TSV] [--title TEXT]
Depends on python3 only."""
import argparse, csv, math, os, platform, subprocess, sys, time


def read_tsv(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def fmt(x, unit="x", nd=2):
    return "-" if x is None else ("%.*f%s" % (nd, x, unit))


def commit(root):
    r = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return (r.stdout.strip() or "?") + ("+dirty" if dirty else "")


def build_section(rows, out):
    by = {}
    for r in rows:
        by.setdefault(r["program"], {})[r["compiler"]] = r
    progs = sorted(by)
    out.append("| program | nvcc | gpumemcc | --gm-off | CPU s gm / off | ratio | PTX gm / off | ratio | gpumemcc first error |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    ctime, ptxr = [], []
    for p in progs:
        b = by[p]
        res = {c: b.get(c, {}).get("result", "-") for c in ("nvcc", "gm", "off")}
        g, o = b.get("gm", {}), b.get("off", {})
        ct = pr = None
        if res["gm"] == "ok" and res["off"] == "ok":
            cg, co = num(g.get("cpu_s")), num(o.get("cpu_s"))
            if cg and co:
                ct = cg / co
                ctime.append((ct, p))
            pg, po = num(g.get("ptx_lines")), num(o.get("ptx_lines"))
            if pg and po:
                pr = pg / po
                ptxr.append((pr, p))
        out.append("| %s | %s | %s | %s | %s / %s | %s | %s / %s | %s | %s |" % (
            p, res["nvcc"], res["gm"], res["off"], g.get("cpu_s", "-"), o.get("cpu_s", "-"),
            fmt(ct), g.get("ptx_lines", "-"), o.get("ptx_lines", "-"), fmt(pr),
            (g.get("first_error") or "").replace("|", "\\|")))
    out.append("")
    n = len(progs)
    for c, name in (("nvcc", "nvcc"), ("gm", "gpumemcc"), ("off", "gpumemcc --gm-off")):
        ok = sum(1 for p in progs if by[p].get(c, {}).get("result") == "ok")
        out.append("- %s: %d of %d built" % (name, ok, n))
    if ctime:
        worst = max(ctime)
        out.append("- compile time (CPU seconds, user+sys of the whole make) gpumemcc / --gm-off over %d programs: "
                   "geomean %s, worst %s (%s); target at most 1.5x geomean and 3x worst: %s" % (
                       len(ctime), fmt(geomean([x for x, _ in ctime])), fmt(worst[0]), worst[1],
                       "met" if geomean([x for x, _ in ctime]) <= 1.5 and worst[0] <= 3 else "missed"))
    if ptxr:
        worst = max(ptxr)
        over = [p for x, p in sorted(ptxr, reverse=True) if x > 3]
        out.append("- PTX lines gpumemcc / --gm-off: geomean %s, worst %s (%s); over 3x: %s" % (
            fmt(geomean([x for x, _ in ptxr])), fmt(worst[0]), worst[1], ", ".join(over) or "none"))
    fails = [(p, by[p]["gm"].get("first_error", "")) for p in progs
             if by[p].get("gm", {}).get("result") not in ("ok", None)]
    if fails:
        out.append("")
        out.append("gpumemcc builds that failed:")
        for p, e in fails:
            out.append("- %s: %s `%s`" % (p, by[p]["gm"]["result"], e))


def run_section(rows, out):
    out.append("| program | exit nvcc / gm | verification output | kernel ms nvcc | gm | --gm-off | gm / nvcc | gm / off | note |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    verdicts = {}
    vs_nvcc, vs_off = [], []
    for r in sorted(rows, key=lambda r: r["program"]):
        kn, kg, ko = (num(r.get(k)) for k in ("nvcc_kernel_ms", "gm_kernel_ms", "off_kernel_ms"))
        rn = kg / kn if kg and kn else None
        ro = kg / ko if kg and ko else None
        if rn:
            vs_nvcc.append((rn, r["program"]))
        if ro:
            vs_off.append((ro, r["program"]))
        v = r.get("verdict", "-")
        verdicts[v] = verdicts.get(v, 0) + 1
        out.append("| %s | %s / %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["program"], r.get("nvcc_rc", "-"), r.get("gm_rc", "-"), v,
            r.get("nvcc_kernel_ms", "-"), r.get("gm_kernel_ms", "-"), r.get("off_kernel_ms", "-"),
            fmt(rn), fmt(ro), (r.get("note") or "").replace("|", "\\|")))
    out.append("")
    out.append("- verdicts over %d programs: %s" % (
        len(rows), ", ".join("%s %d" % kv for kv in sorted(verdicts.items()))))
    for name, xs in (("gpumemcc / nvcc", vs_nvcc), ("gpumemcc / --gm-off", vs_off)):
        if xs:
            w = max(xs)
            out.append("- kernel time %s (gm-ktime, all launches): geomean %s over %d programs, worst %s (%s)" % (
                name, fmt(geomean([x for x, _ in xs])), len(xs), fmt(w[0]), w[1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--runs")
    ap.add_argument("--title", default="Corpus builds")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    builds = read_tsv(os.path.join(a.outdir, "builds.tsv"))
    runs = read_tsv(a.runs or os.path.join(a.outdir, "runs.tsv"))
    if not builds and not runs:
        print("summarize.py: no builds.tsv or runs.tsv in %s" % a.outdir, file=sys.stderr)
        return 1
    out = ["# %s" % a.title, "",
           "Commit %s, %s, %s (%d cores), by `bench/corpus/build.sh` and `bench/corpus/summarize.py`." % (
               commit(root), time.strftime("%Y-%m-%d"), platform.node(), os.cpu_count()), ""]
    if builds:
        build_section(builds, out)
    if runs:
        out += ["", "## Runs on the GPU machine (bench/corpus/run.sh)", ""]
        run_section(runs, out)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
