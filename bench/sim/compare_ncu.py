#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Compares gpumem-sim per-launch hit rates with Nsight Compute's, launch by
# launch (ncu's launch order = the trace's launch seq), and prints a Markdown
# table with the absolute percentage errors and the MAPE (issue 4, item 5).
# usage: compare_ncu.py SIM.json NCU.csv
#   SIM.json: gpumem-sim TRACE --json
#   NCU.csv:  ncu --csv --cache-control all --metrics $(grep -v '^#' tests/gpu/trace/metrics.txt | paste -sd,) ./app
#             (or just the headline l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct)
# Depends on the Python standard library only.
import csv
import json
import sys


def ncu_rows(path):
    """{launch index: {metric: value}} and names, from ncu's --csv output."""
    rows, names = {}, {}
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]   # skip ncu's "==PROF==" lines
    for r in csv.DictReader(lines):
        i = int(r["ID"])
        names[i] = r["Kernel Name"]
        v = r["Metric Value"].replace(",", "")
        rows.setdefault(i, {})[r["Metric Name"]] = float(v) if v not in ("", "n/a") else None
    return rows, names


def pct(a, b):
    return 100.0 * a / b if b else None


LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"
TEX = "lts__t_sectors_srcunit_tex_op_"


def ncu_rates(r):
    """(L1 %, L2 %, split?): with the split metrics of tests/gpu/trace/metrics.txt,
    L1 = global-load sector hits / lookups and L2 = hits / lookups of sectors
    from the SMs (srcunit_tex: reads, writes, atomics, reductions); otherwise
    the headline rates (docs/sim.md, Validation, says why they mislead)."""
    if r.get(LD + ".sum") is not None and r.get(TEX + "read.sum") is not None:
        ops = [o for o in ("read", "write", "atom", "red") if r.get(TEX + o + ".sum") is not None]
        return (pct(r[LD + "_lookup_hit.sum"], r[LD + ".sum"]),
                pct(sum(r[TEX + o + "_lookup_hit.sum"] for o in ops), sum(r[TEX + o + ".sum"] for o in ops)), True)
    return r.get("l1tex__t_sector_hit_rate.pct"), r.get("lts__t_sector_hit_rate.pct"), False


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_ncu.py SIM.json NCU.csv")
    sim = json.load(open(sys.argv[1]))
    rows, names = ncu_rows(sys.argv[2])
    ids = sorted(rows)
    if len(ids) != len(sim["launches"]):
        print(f"warning: ncu has {len(ids)} launches, the trace {len(sim['launches'])}; comparing the first "
              f"{min(len(ids), len(sim['launches']))} in order", file=sys.stderr)
    print("| seq | kernel | sim L1 (ld) | sim L1 (ld+st) | ncu L1 | sim L2 | ncu L2 | L1 abs err | L2 abs err |")
    print("|---|---|---|---|---|---|---|---|---|")
    e1, e2 = [], []
    for launch, i in zip(sim["launches"], ids):
        c = launch["counts"]
        l1 = pct(c["l1_ld_hit"], c["l1_ld"])
        l1all = pct(c["l1_ld_hit"] + c["l1_st_hit"], c["l1_ld"] + c["l1_st"])
        l2 = pct(c["l2_rd_hit"] + c["l2_wr_hit"] + c["l2_atom_hit"], c["l2_rd"] + c["l2_wr"] + c["l2_atom"])
        n1, n2, exact = ncu_rates(rows[i])
        a1 = abs((l1 if exact else l1all) - n1) if None not in (l1, l1all, n1) else None
        a2 = abs(l2 - n2) if None not in (l2, n2) else None
        if a1 is not None:
            e1.append(a1)
        if a2 is not None:
            e2.append(a2)
        f = lambda x: "-" if x is None else f"{x:.2f}"
        print(f"| {launch['seq']} | {names[i][:40]} | {f(l1)} | {f(l1all)} | {f(n1)} | {f(l2)} | {f(n2)} | {f(a1)} | {f(a2)} |")
    m = lambda e: f"{sum(e) / len(e):.2f}" if e else "-"
    print(f"\nMean absolute error, percentage points: L1 {m(e1)}, L2 {m(e2)}; "
          f"{len(e1)} / {len(e2)} launches")


if __name__ == "__main__":
    main()
