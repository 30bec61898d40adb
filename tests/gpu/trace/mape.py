#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Per-kernel table of L1 and L2 sector hit rates, Nsight Compute vs the
# simulator, and their mean absolute percentage errors (issue 4 item 5).
# Reads DIR/cases ("TAG KERNEL" lines), DIR/TAG.ncu.csv (ncu --csv --page raw
# with the metrics of metrics.txt), DIR/TAG.sim.json (gpumem-sim --json, one
# launch) and DIR/TAG.sim.txt (its text output: the L1 size it used).
# What is compared (like with like; docs/sim.md "Validation" says why):
#   L1 = global-load sector lookups that hit / global-load sector lookups
#        ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld{_lookup_hit,}.sum
#        sim: l1_ld_hit / l1_ld
#   L2 = sector lookups from the SMs' L1TEX units that hit / all of them
#        ncu: lts__t_sectors_srcunit_tex_op_{read,write,atom,red}{_lookup_hit,}
#        sim: (l2_rd_hit + l2_wr_hit + l2_atom_hit) / (l2_rd + l2_wr + l2_atom)
# The headline rates (l1tex__t_sector_hit_rate.pct: loads AND stores, whose
# L1 store hits depend on timing; lts__t_sector_hit_rate.pct: also counts the
# other L2 partition's fabric traffic and non-SM clients, and exceeds 100 %
# on small kernels) are printed alongside but not used. Without the split
# metrics (an older run) the headline rates are used, marked "*".
# MAPE skips kernels where ncu reports under 1 % (0 makes the relative error
# undefined, and e.g. 1 L2 write hit in 200,001 lookups vs 2 in 200,002 would
# count as 100 %) and says so; the mean absolute error in points covers every
# kernel.
# Usage: mape.py DIR [--md]  (--md: a markdown table). Depends on python3 only.
import csv
import json
import os
import re
import sys

H_L1, H_L2, M_CFG = ("l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
                     "launch__shared_mem_config_size")
L1_LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"
L2_TEX = "lts__t_sectors_srcunit_tex_op_"


def num(s):
    return float(s.replace(",", ""))


def ncu_row(path):
    rows = [r for r in csv.reader(open(path)) if len(r) > 5]
    head = rows[0]
    for r in rows[1:]:
        if len(r) == len(head) and r[head.index("ID")].strip().isdigit():
            return dict(zip(head, r))
    raise ValueError("no kernel row")


def ratio(n, d):
    return 100.0 * n / d if d else 0.0


def ncu_rates(d):
    """(L1 %, L2 %, exact?) from one ncu row."""
    if L1_LD + ".sum" in d and L2_TEX + "read.sum" in d:
        l1 = ratio(num(d[L1_LD + "_lookup_hit.sum"]), num(d[L1_LD + ".sum"]))
        ops = [op for op in ("read", "write", "atom", "red") if L2_TEX + op + ".sum" in d]
        hit = sum(num(d[L2_TEX + op + "_lookup_hit.sum"]) for op in ops)
        tot = sum(num(d[L2_TEX + op + ".sum"]) for op in ops)
        return l1, ratio(hit, tot), True
    return num(d[H_L1]), num(d[H_L2]), False


def sim_row(path):
    d = json.load(open(path))
    if len(d["launches"]) != 1:
        raise ValueError("%d traced launches, expected 1" % len(d["launches"]))
    c = d["launches"][0]["counts"]
    l1all = ratio(c["l1_ld_hit"] + c["l1_st_hit"], c["l1_ld"] + c["l1_st"])
    l1 = ratio(c["l1_ld_hit"], c["l1_ld"])
    l2 = ratio(c["l2_rd_hit"] + c["l2_wr_hit"] + c["l2_atom_hit"], c["l2_rd"] + c["l2_wr"] + c["l2_atom"])
    txt = path[:-len(".sim.json")] + ".sim.txt"
    m = re.search(r"L1=(\d+)B", open(txt).read()) if os.path.exists(txt) else None
    return l1, l1all, l2, m.group(1) if m else "?"


MAPE_MIN = 1.0   # percent: below it a relative error means nothing


def mape(pairs):
    v = [abs(s - n) / n * 100.0 for n, s in pairs if n >= MAPE_MIN]
    return (sum(v) / len(v), len(v)) if v else (float("nan"), 0)


def main():
    args = [a for a in sys.argv[1:] if a != "--md"]
    md = "--md" in sys.argv[1:]
    if len(args) != 1:
        print("usage: mape.py DIR [--md]", file=sys.stderr)
        return 2
    base = args[0]
    l1p, l2p, ae1, ae2 = [], [], [], []
    hdr = ("kernel", "ncu L1%", "sim L1%", "ncu L2%", "sim L2%", "ncu L1 ld+st%", "sim L1 ld+st%",
           "ncu lts%", "shared cfg B", "sim L1 B")
    if md:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
    else:
        print("%-17s %8s %8s | %8s %8s | %13s %13s %8s | %s / %s" % hdr)
    for line in open(os.path.join(base, "cases")):
        tag = line.split()[0]
        try:
            d = ncu_row(os.path.join(base, tag + ".ncu.csv"))
            n1, n2, exact = ncu_rates(d)
            s1, s1all, s2, l1b = sim_row(os.path.join(base, tag + ".sim.json"))
        except (OSError, ValueError, KeyError, StopIteration, json.JSONDecodeError) as e:
            print("%-17s missing: %s" % (tag, e))
            continue
        mark = "" if exact else "*"
        row = (tag + mark, "%.2f" % n1, "%.2f" % s1, "%.2f" % n2, "%.2f" % s2, d[H_L1], "%.2f" % s1all,
               d[H_L2], d.get(M_CFG, "?"), l1b)
        if md:
            print("| " + " | ".join(row) + " |")
        else:
            print("%-17s %8s %8s | %8s %8s | %13s %13s %8s | %s / %s" % row)
        l1p.append((n1, s1))
        l2p.append((n2, s2))
        ae1.append(abs(n1 - s1))
        ae2.append(abs(n2 - s2))
    print()
    for name, pairs, ae in (("L1", l1p, ae1), ("L2", l2p, ae2)):
        m, k = mape(pairs)
        mae = sum(ae) / len(ae) if ae else float("nan")
        print("%s: MAPE %.2f %% over %d kernels (ncu >= %g %%), mean abs error %.2f points over %d"
              % (name, m, k, MAPE_MIN, mae, len(ae)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
