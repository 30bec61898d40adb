#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Online vs offline: compares the runtime's online simulation report
# (GPUMEM_TRACE_SIM_OUT, "gpumem-trace: ..." lines) with `gpumem-sim --json`
# on the trace file the same run wrote. Every counter of every launch and
# allocation must be equal. Prints one line; exit 0 when identical.
# Usage: compare.py ONLINE.txt OFFLINE.json. Depends on python3 only.
import json
import re
import sys

FIELDS = ["requests", "sectors", "l1_ld", "l1_ld_hit", "l1_st", "l1_st_hit", "l2_rd",
          "l2_rd_hit", "l2_wr", "l2_wr_hit", "l2_atom", "l2_atom_hit", "dram_rd", "dram_wr"]


def online(path):
    launches, allocs = [], {}
    for line in open(path):
        kv = dict(re.findall(r"(\w+)=(\d+)", line))
        m = re.match(r"gpumem-trace: launch (\d+) (\S+) ", line)
        if m:
            launches.append((m.group(2), {f: int(kv[f]) for f in FIELDS}))
        m = re.match(r"gpumem-trace: alloc (\d+) ", line)
        if m:
            allocs[int(m.group(1))] = {f: int(kv[f]) for f in FIELDS}
    return launches, allocs


def offline(path):
    d = json.load(open(path))
    launches = [(l["name"], {f: int(l["counts"][f]) for f in FIELDS}) for l in d["launches"]]
    allocs = {int(a["id"]): {f: int(a["counts"][f]) for f in FIELDS}
              for a in d["allocations"] if int(a["id"]) > 0}
    return launches, allocs


def main():
    if len(sys.argv) != 3:
        print("usage: compare.py ONLINE.txt OFFLINE.json", file=sys.stderr)
        return 2
    on_l, on_a = online(sys.argv[1])
    off_l, off_a = offline(sys.argv[2])
    diffs = []
    if len(on_l) != len(off_l):
        diffs.append("launches: online %d, offline %d" % (len(on_l), len(off_l)))
    for i, ((n1, c1), (n2, c2)) in enumerate(zip(on_l, off_l)):
        for f in FIELDS:
            if n1 != n2 or c1[f] != c2[f]:
                diffs.append("launch %d %s %s: online %d, offline %d" % (i, n1, f, c1[f], c2[f]))
    if set(on_a) != set(off_a):
        diffs.append("allocations: online %s, offline %s" % (sorted(on_a), sorted(off_a)))
    for a in sorted(set(on_a) & set(off_a)):
        for f in FIELDS:
            if on_a[a][f] != off_a[a][f]:
                diffs.append("alloc %d %s: online %d, offline %d" % (a, f, on_a[a][f], off_a[a][f]))
    if not on_l:
        diffs.append("no launches in the online report")
    if diffs:
        print("DIFFERENT: " + "; ".join(diffs[:5]) + (" ..." if len(diffs) > 5 else ""))
        return 1
    print("identical: %d launches, %d allocations, %d counters each" % (len(on_l), len(on_a), len(FIELDS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
