#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Compares gpumem-sim's hit rates with Nsight Compute's, per kernel over all
# compared launches (issue 14 items 6 and 7: L1 load hit rate within 3
# points, L2 read hit rate within 5 points), and optionally per launch.
# usage: compare_ncu.py [--per-launch] SIM.json [--skip N] NCU.csv [[--skip N] NCU.csv...]
#   SIM.json: gpumem-sim --json TRACE (warm, or --l2-launch=cold)
#   NCU.csv:  ncu --csv --page raw --print-units base --print-kernel-base mangled
#             --metrics $(METRICS below, comma-separated) ./app ...
#             (several files: launch ranges of one program in launch order,
#             ncu --launch-skip / --launch-count chunks; --skip N: the next
#             file was profiled with --launch-skip N, else it follows the
#             previous one)
# Launches are matched by kernel name and occurrence (the k-th launch of a
# kernel in ncu's rows = the k-th in the trace) when ncu printed mangled names
# the trace knows, else in launch order (one warning line). Trace launches
# ncu did not profile are left out of both sides.
# Definitions (docs/sim.md, Validation): L1 = global-load sector hits /
# lookups (sim l1_ld_hit / l1_ld); L2 read = hits / lookups of read sectors
# from the SMs (sim l2_rd_hit / l2_rd); L2 all = reads, writes, atomics and
# reductions from the SMs (sim l2_{rd,wr,atom}).
# Bad input: one line on stderr, exit 2. Depends on the Python standard library.
import csv
import json
import shutil
import subprocess
import sys

L1_TARGET, L2_TARGET = 3.0, 5.0
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"
TEX = "lts__t_sectors_srcunit_tex_op_"
OPS = ("read", "write", "atom", "red")
METRICS = [LD + ".sum", LD + "_lookup_hit.sum"] + \
    [TEX + o + s for o in OPS for s in (".sum", "_lookup_hit.sum")]
NAME_COLS = ("Kernel Name", "launch__kernel_name")
SCALE = {"K": 10**3, "M": 10**6, "G": 10**9}


class BadInput(Exception):
    pass


def _number(cell):
    s = cell.strip().replace(",", "")
    if s in ("", "n/a", "N/A"):
        return None
    try:
        return float(s)
    except ValueError:
        raise BadInput(f"not a number: {cell!r}")


def _scale(unit):
    """Factor of an auto-scaled unit (Ksector); 1 for base units."""
    u = unit.strip()
    return SCALE[u[0]] if len(u) > 1 and u[0] in SCALE and u[1:].startswith("sector") else 1


def read_ncu(path):
    """[(kernel name, {metric: value})] in row order, from one ncu --csv --page
    raw output (program output, ==PROF== lines and a units row around it)."""
    try:
        with open(path, newline="", errors="replace") as f:
            rows = [r for r in csv.reader(f) if r]
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}")
    head = next((i for i, r in enumerate(rows) if r[0] == "ID" and any(c in r for c in NAME_COLS)), None)
    if head is None:
        raise BadInput(f"{path}: no ncu CSV table (no header row starting with \"ID\")")
    cols = rows[head]
    missing = [m for m in METRICS if m not in cols]
    if missing:
        raise BadInput(f"{path}: lacks metric {missing[0]} (profile with the --metrics list METRICS in compare_ncu.py)")
    units = rows[head + 1] if head + 1 < len(rows) and not rows[head + 1][0].strip().isdigit() else [""] * len(cols)
    name = next(cols.index(c) for c in NAME_COLS if c in cols)
    out = []
    for r in rows[head + 1:]:
        if len(r) != len(cols) or not r[0].strip().isdigit():
            continue
        vals = {}
        for m in METRICS:
            i = cols.index(m)
            v = _number(r[i])
            vals[m] = None if v is None else v * _scale(units[i] if i < len(units) else "")
        out.append((r[name], vals))
    return out


def read_sim(path):
    """[(kernel name, counts)] per launch, in trace order."""
    try:
        with open(path) as f:
            d = json.load(f)
        return [(l["name"], l["counts"]) for l in d["launches"]]
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        raise BadInput(f"{path}: not gpumem-sim --json output ({e})")


def match(sim, chunks):
    """[(sim index, ncu row index)] over the chunks' rows in order, and a note.
    chunks: [(ncu rows, launch skip)], skip None = right after the previous
    chunk. By kernel name and occurrence when every ncu name is a trace kernel
    name (a chunk that skips S launches starts after the occurrences in the
    trace's first S), else by position."""
    names = {n for n, _ in sim}
    byname = all(n in names for rows, _ in chunks for n, _ in rows)
    where = {}
    for i, (n, _) in enumerate(sim):
        where.setdefault(n, []).append(i)
    pairs, j, pos = [], 0, 0
    for rows, skip in chunks:
        start = pos if skip is None else skip
        seen = {}
        if byname:
            for n, _ in sim[:start]:
                seen[n] = seen.get(n, 0) + 1
        for k, (n, _) in enumerate(rows):
            if byname:
                o = seen.get(n, 0)
                seen[n] = o + 1
                if o < len(where[n]):
                    pairs.append((where[n][o], j))
            elif start + k < len(sim):
                pairs.append((start + k, j))
            j += 1
        pos = start + len(rows)
    note = None if byname else ("ncu's kernel names are not the trace's (profile with --print-kernel-base "
                                f"mangled): launches matched by position, {len(pairs)} of {len(sim)} / {j}")
    return pairs, note


def pct(a, b):
    return 100.0 * a / b if b else None


def _add(acc, key, v):
    acc[key] = acc.get(key, 0) + (v or 0)


def kernels(sim, ncu, pairs):
    """Per kernel (first-launch order): launch counts and summed sectors/hits."""
    per, order = {}, []
    traced = {}
    for n, _ in sim:
        traced[n] = traced.get(n, 0) + 1
    for i, j in pairs:
        n, c = sim[i]
        m = ncu[j][1]
        if n not in per:
            per[n] = {"name": n, "launches": 0, "traced": traced[n]}
            order.append(n)
        k = per[n]
        k["launches"] += 1
        _add(k, "s_l1", c["l1_ld"]); _add(k, "s_l1h", c["l1_ld_hit"])
        _add(k, "s_rd", c["l2_rd"]); _add(k, "s_rdh", c["l2_rd_hit"])
        _add(k, "s_all", c["l2_rd"] + c["l2_wr"] + c["l2_atom"])
        _add(k, "s_allh", c["l2_rd_hit"] + c["l2_wr_hit"] + c["l2_atom_hit"])
        _add(k, "n_l1", m[LD + ".sum"]); _add(k, "n_l1h", m[LD + "_lookup_hit.sum"])
        _add(k, "n_rd", m[TEX + "read.sum"]); _add(k, "n_rdh", m[TEX + "read_lookup_hit.sum"])
        for o in OPS:
            _add(k, "n_all", m[TEX + o + ".sum"]); _add(k, "n_allh", m[TEX + o + "_lookup_hit.sum"])
    rows = []
    for n in order:
        k = per[n]
        k["l1"] = (pct(k["s_l1h"], k["s_l1"]), pct(k["n_l1h"], k["n_l1"]))
        k["l2"] = (pct(k["s_rdh"], k["s_rd"]), pct(k["n_rdh"], k["n_rd"]))
        k["l2all"] = (pct(k["s_allh"], k["s_all"]), pct(k["n_allh"], k["n_all"]))
        rows.append(k)
    return rows


def err(p):
    return None if None in p else abs(p[0] - p[1])


def verdict(k):
    """'met', 'MISSED (L1 +x)', or '-' when neither rate is defined on both sides."""
    e1, e2 = err(k["l1"]), err(k["l2"])
    if e1 is None and e2 is None:
        return "-"
    miss = [f"{w} {e:.2f}" for w, e, t in (("L1", e1, L1_TARGET), ("L2", e2, L2_TARGET)) if e is not None and e > t]
    return "MISSED: " + ", ".join(miss) if miss else "met"


def demangle(names):
    """{mangled: readable} through c++filt where installed, else unchanged."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    try:
        r = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, timeout=10)
        out = r.stdout.splitlines()
        return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}
    except (OSError, subprocess.SubprocessError):
        return {n: n for n in names}


def short(s, n=48):
    s = s.replace("|", "/")
    return s if len(s) <= n else s[:n - 3] + "..."


def f2(x):
    return "-" if x is None else f"{x:.2f}"


def f0(x):
    return "-" if x is None else f"{x:,.0f}"


def kernel_table(rows, label=""):
    """Markdown lines: one row per kernel, then the summary line."""
    names = demangle([k["name"] for k in rows])
    out = ["| kernel | launches compared / traced | L1 ld sectors sim / ncu | L1 sim % | L1 ncu % | L1 err | "
           "L2 read sectors sim / ncu | L2 read sim % | L2 read ncu % | L2 read err | L2 all sim % | L2 all ncu % | "
           f"target (L1 <= {L1_TARGET:g}, L2 read <= {L2_TARGET:g}) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for k in rows:
        out.append(f"| {short(names[k['name']])} | {k['launches']} / {k['traced']} | {f0(k['s_l1'])} / {f0(k['n_l1'])} | "
                   f"{f2(k['l1'][0])} | {f2(k['l1'][1])} | {f2(err(k['l1']))} | {f0(k['s_rd'])} / {f0(k['n_rd'])} | "
                   f"{f2(k['l2'][0])} | {f2(k['l2'][1])} | {f2(err(k['l2']))} | {f2(k['l2all'][0])} | "
                   f"{f2(k['l2all'][1])} | {verdict(k)} |")
    out.append("")
    out.append(summary(rows, label))
    return out


def summary(rows, label=""):
    n1 = [e for e in (err(k["l1"]) for k in rows) if e is not None]
    n2 = [e for e in (err(k["l2"]) for k in rows) if e is not None]
    judged = [k for k in rows if verdict(k) != "-"]
    met = sum(verdict(k) == "met" for k in judged)
    return (f"{label}targets met by {met} of {len(judged)} kernels; L1 within {L1_TARGET:g} points: "
            f"{sum(e <= L1_TARGET for e in n1)} of {len(n1)}, worst {f2(max(n1) if n1 else None)}; "
            f"L2 read within {L2_TARGET:g} points: {sum(e <= L2_TARGET for e in n2)} of {len(n2)}, "
            f"worst {f2(max(n2) if n2 else None)}")


def launch_table(sim, ncu, pairs):
    out = ["| seq | kernel | L1 sim % | L1 ncu % | L2 read sim % | L2 read ncu % |", "|---|---|---|---|---|---|"]
    for i, j in pairs:
        n, c = sim[i]
        m = ncu[j][1]
        out.append(f"| {i} | {short(n, 40)} | {f2(pct(c['l1_ld_hit'], c['l1_ld']))} | "
                   f"{f2(pct(m[LD + '_lookup_hit.sum'] or 0, m[LD + '.sum'] or 0))} | "
                   f"{f2(pct(c['l2_rd_hit'], c['l2_rd']))} | "
                   f"{f2(pct(m[TEX + 'read_lookup_hit.sum'] or 0, m[TEX + 'read.sum'] or 0))} |")
    return out


def compare(sim_path, ncu_files):
    """(kernel rows, pairs, sim, ncu rows, notes) for one simulation and its ncu
    files: paths, or (path, launch skip) pairs."""
    sim = read_sim(sim_path)
    chunks = [(read_ncu(f), None) if isinstance(f, str) else (read_ncu(f[0]), f[1]) for f in ncu_files]
    ncu = [x for rows, _ in chunks for x in rows]
    pairs, note = match(sim, chunks)
    notes = [note] if note else []
    if len(pairs) < len(sim):
        notes.append(f"{len(sim) - len(pairs)} of {len(sim)} traced launches not profiled by ncu: left out")
    if len(pairs) < len(ncu):
        notes.append(f"{len(ncu) - len(pairs)} ncu rows without a traced launch: left out")
    return kernels(sim, ncu, pairs), pairs, sim, ncu, notes


USAGE = "usage: compare_ncu.py [--per-launch] SIM.json [--skip N] NCU.csv [[--skip N] NCU.csv...]"


def parse(argv):
    """(per launch?, SIM.json, [(NCU.csv, skip or None)]); --skip N: the next
    file's rows start at launch N (its ncu --launch-skip)."""
    per, sim, files, skip, it = False, None, [], None, iter(argv)
    for a in it:
        if a == "--per-launch":
            per = True
        elif a == "--skip":
            v = next(it, "")
            if not v.isdigit():
                raise BadInput(f"--skip needs a launch number, not {v!r}")
            skip = int(v)
        elif a.startswith("-"):
            raise BadInput(f"unknown option {a}")
        elif sim is None:
            sim = a
        else:
            files.append((a, skip))
            skip = None
    if sim is None or not files:
        raise BadInput(USAGE)
    return per, sim, files


def main(argv):
    try:
        per, sim_path, files = parse(argv)
        rows, pairs, sim, ncu, notes = compare(sim_path, files)
    except BadInput as e:
        print(f"compare_ncu.py: {e}", file=sys.stderr)
        return 2
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    print("\n".join(kernel_table(rows)))
    if per:
        print()
        print("\n".join(launch_table(sim, ncu, pairs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
