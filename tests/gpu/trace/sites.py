#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Records per site against the native kernel's warp executions (issue 4
# item 5: a trace must be the native access stream, one record per native
# warp request). Reads `gpumem-sim --json` output (its per-site "requests"
# are the site's records; a site is a load site when it looked up L1 load
# sectors, a store site when store sectors). Two modes, one line per check:
#   sites.py spmv_ell JSON ROWS AVG
#       one traced launch of spmv_ell (examples/spmv.cu, same generator):
#       per source location, the records of each unrolled copy equal the
#       hand-computed warp executions (col[] load: every warp, every k <
#       width; val[] and x[] loads: k below the warp's longest row; y store:
#       once per warp);
#   sites.py ncu DIR
#       for every case of tests/gpu/trace/ncu.sh's output DIR: the trace's
#       global load and store records equal ncu's request counts
#       (l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum).
# Prints PASS/FAIL lines; exits 1 if any FAIL. Depends on python3 only.
import csv
import json
import os
import sys


def sites(path):
    d = json.load(open(path))
    return [s for s in d["sites"] if s["counts"]["requests"] > 0]


def kind(s):
    c = s["counts"]
    return "st" if c["l1_st"] > 0 else "ld" if c["l1_ld"] > 0 else "other"


def ell_expected(rows, avg, unroll=4):
    """Per location: the sorted non-zero per-copy warp executions."""
    state, mask = 12345, (1 << 64) - 1
    nnz = []
    for _ in range(rows):
        state = (state * 6364136223846793005 + 1442695040888963407) & mask
        nnz.append(1 + (state >> 33) % (2 * avg))
    width, warps = max(nnz), (rows + 31) // 32
    longest = [max(nnz[w * 32:(w + 1) * 32]) for w in range(warps)]
    main = width - width % unroll
    col = [warps * len(range(j, main, unroll)) for j in range(unroll)] + [warps * (width - main)]
    vx = [sum(len(range(j, min(m, main), unroll)) for m in longest) for j in range(unroll)]
    vx.append(sum(max(0, m - main) for m in longest))
    nz = lambda v: sorted(x for x in v if x)
    return sorted([nz(col), nz(vx), nz(vx)]), warps


def check_ell(path, rows, avg):
    got, st = {}, 0
    for s in sites(path):
        if kind(s) == "st":
            st += s["counts"]["requests"]
        else:
            got.setdefault(s["where"], []).append(s["counts"]["requests"])
    want, warps = ell_expected(rows, avg)
    have = sorted(sorted(v) for v in got.values())
    ok = have == want and st == warps
    print("%s spmv_ell records per site: loads %s, stores %d; hand count %s, %d"
          % ("PASS" if ok else "FAIL", have, st, want, warps))
    return ok


def ncu_requests(path):
    rows = [r for r in csv.reader(open(path)) if len(r) > 5]
    head = rows[0]
    for r in rows[1:]:
        if len(r) == len(head) and r[head.index("ID")].strip().isdigit():
            d = dict(zip(head, r))
            key = "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum"
            if key % "ld" not in d:
                return None
            return tuple(int(float(d[key % op].replace(",", ""))) for op in ("ld", "st"))
    return None


def check_ncu(out):
    ok = True
    for line in open(os.path.join(out, "cases")):
        tag = line.split()[0]
        js, nc = os.path.join(out, tag + ".sim.json"), os.path.join(out, tag + ".ncu.csv")
        if not (os.path.exists(js) and os.path.exists(nc)):
            continue
        native = ncu_requests(nc)
        if native is None:
            print("SKIP %s: ncu has no request counts" % tag)
            continue
        rec = {"ld": 0, "st": 0}
        for s in sites(js):
            if kind(s) in rec:
                rec[kind(s)] += s["counts"]["requests"]
        same = (rec["ld"], rec["st"]) == native
        ok &= same
        print("%s %s: trace records ld %d st %d, ncu requests ld %d st %d"
              % ("PASS" if same else "FAIL", tag, rec["ld"], rec["st"], native[0], native[1]))
    return ok


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "spmv_ell":
        return 0 if check_ell(a[1], int(a[2]), int(a[3])) else 1
    if len(a) == 2 and a[0] == "ncu":
        return 0 if check_ncu(a[1]) else 1
    print("usage: sites.py spmv_ell JSON ROWS AVG | sites.py ncu DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
