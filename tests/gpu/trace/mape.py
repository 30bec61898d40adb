#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Per-kernel table of L1 and L2 sector hit rates, Nsight Compute vs the
# simulator, and their mean absolute percentage errors (issue 4 item 5).
# Reads DIR/cases ("TAG KERNEL" lines), DIR/TAG.ncu.csv (ncu --csv --page raw)
# DIR/TAG.sim.json (gpumem-sim --json, one launch) and DIR/TAG.sim.txt (its
# text output, for the L1 size the trace's carve-out gave). Simulator hit rates:
#   L1 = (l1_ld_hit + l1_st_hit) / (l1_ld + l1_st)   (also loads only)
#   L2 = (l2_rd_hit + l2_wr_hit + l2_atom_hit) / (l2_rd + l2_wr + l2_atom)
# MAPE skips kernels where ncu reports 0 (the error is then undefined) and
# says so; the mean absolute error in points covers every kernel.
# Usage: mape.py DIR. Depends on python3 only.
import csv
import json
import os
import re
import sys

M_L1, M_L2, M_CFG = ("l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
                     "launch__shared_mem_config_size")


def ncu_row(path):
    rows = [r for r in csv.reader(open(path)) if r]
    head = next(r for r in rows if M_L1 in r)
    units = dict(zip(head, rows[rows.index(head) + 1]))
    for r in rows[rows.index(head) + 1:]:
        if len(r) == len(head) and r[head.index("ID")].strip().isdigit():
            d = dict(zip(head, r))
            v = {k: float(d[k].replace(",", "")) for k in (M_L1, M_L2, M_CFG)}
            return v, units.get(M_CFG, "")
    raise ValueError("no kernel row")


def ratio(n, d):
    return 100.0 * n / d if d else 0.0


def sim_row(path):
    d = json.load(open(path))
    if len(d["launches"]) != 1:
        raise ValueError("%d traced launches, expected 1" % len(d["launches"]))
    c = d["launches"][0]["counts"]
    l1 = ratio(c["l1_ld_hit"] + c["l1_st_hit"], c["l1_ld"] + c["l1_st"])
    l1ld = ratio(c["l1_ld_hit"], c["l1_ld"])
    l2 = ratio(c["l2_rd_hit"] + c["l2_wr_hit"] + c["l2_atom_hit"], c["l2_rd"] + c["l2_wr"] + c["l2_atom"])
    txt = path[:-len(".sim.json")] + ".sim.txt"
    m = re.search(r"L1=(\d+)B", open(txt).read()) if os.path.exists(txt) else None
    return l1, l1ld, l2, m.group(1) if m else "?"


def mape(pairs):
    v = [abs(s - n) / n * 100.0 for n, s in pairs if n > 0]
    return (sum(v) / len(v), len(v)) if v else (float("nan"), 0)


def main():
    if len(sys.argv) != 2:
        print("usage: mape.py DIR", file=sys.stderr)
        return 2
    base = sys.argv[1]
    l1p, l2p, ae1, ae2 = [], [], [], []
    print("%-18s %8s %8s %8s | %8s %8s | %s" % ("kernel", "ncu L1%", "sim L1%", "(ld L1%)",
                                             "ncu L2%", "sim L2%", "ncu shared config"))
    for line in open(os.path.join(base, "cases")):
        tag = line.split()[0]
        try:
            n, unit = ncu_row(os.path.join(base, tag + ".ncu.csv"))
            l1, l1ld, l2, carve = sim_row(os.path.join(base, tag + ".sim.json"))
        except (OSError, ValueError, KeyError, StopIteration, json.JSONDecodeError) as e:
            print("%-18s missing: %s" % (tag, e))
            continue
        print("%-18s %8.2f %8.2f %8.2f | %8.2f %8.2f | %.2f %s (sim L1: %s B)"
              % (tag, n[M_L1], l1, l1ld, n[M_L2], l2, n[M_CFG], unit, carve))
        l1p.append((n[M_L1], l1))
        l2p.append((n[M_L2], l2))
        ae1.append(abs(n[M_L1] - l1))
        ae2.append(abs(n[M_L2] - l2))
    for name, pairs, ae in (("L1", l1p, ae1), ("L2", l2p, ae2)):
        m, k = mape(pairs)
        mae = sum(ae) / len(ae) if ae else float("nan")
        print("%s: MAPE %.2f %% over %d kernels (ncu > 0), mean abs error %.2f points over %d"
              % (name, m, k, mae, len(ae)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
