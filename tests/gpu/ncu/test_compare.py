#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# CPU test of the ncu-compare parsers and table (no GPU): fixtures/ holds one
# ncu CSV saved on the H100 (h100_vadd_hitrate.ncu.csv, tests/gpu/trace/ncu.sh,
# run2) for the table layout, and FABRICATED parser fixtures
# (vector_add.ncu.csv, vector_add.gm/report.json, vector_add.sass.txt: made-up values, two launches
# per kernel, vadd4's load requests set to 4 per instruction on purpose so
# that one comparison differs). Exits 1 on the first failed check.
# Usage: test_compare.py. Depends on python3 only.
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import gm_totals  # noqa: E402
import ncu_csv  # noqa: E402

fx = os.path.join(here, "fixtures")
failed = 0


def check(what, got, want):
    global failed
    ok = got == want
    failed += not ok
    print(f"{'PASS' if ok else 'FAIL'} {what}: got {got!r}" + ("" if ok else f", want {want!r}"))


def real_csv():
    k = ncu_csv.read(os.path.join(fx, "h100_vadd_hitrate.ncu.csv"),
                     ["lts__t_sector_hit_rate.pct", "launch__grid_size", "no_such_metric.sum"])
    name = "vadd(const float *, const float *, float *, int)"
    check("real CSV: kernels", sorted(k), [name])
    check("real CSV: launches", k[name]["launches"], 1)
    check("real CSV: L2 hit rate", k[name]["lts__t_sector_hit_rate.pct"], 38.59)
    check("real CSV: thousands separator", k[name]["launch__grid_size"], 4096)
    check("real CSV: absent metric left out", "no_such_metric.sum" in k[name], False)


def units():
    check("unit scale Ksector", ncu_csv._scale("Ksector"), 1000)
    check("unit scale sector", ncu_csv._scale("sector"), 1)
    check("unit scale ns (not a count)", ncu_csv._scale("ns"), 1)


def hand_counts():
    import hand
    h = dict((lab, v) for v, lab in hand.per_launch("stencil", ["512", "1"])["stencil5"])
    check("hand: stencil source / PTX", (h["source"], h["PTX"]), (1020, 1022))
    check("hand: CSR PTX, one warp of lengths 1..8 x4", hand.csr_ptx([1, 2, 3, 4, 5, 6, 7, 8] * 4), 1 + 2 + 1 + 1)


def fabricated():
    k = ncu_csv.read(os.path.join(fx, "vector_add.ncu.csv"), ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                                             "smsp__sass_branch_targets.sum"])
    v = k["_Z4vaddPKfS0_Pfi"]
    check("fixture CSV: two launches summed", (v["launches"], v["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]), (2, 128))
    check("fixture CSV: 1,024 per launch", v["smsp__sass_branch_targets.sum"], 2048)
    _, doc = gm_totals.find_report(os.path.join(fx, "vector_add.gm"))
    t = gm_totals.kernel_totals(doc)["_Z5vadd4PK6float4S1_PS_i"]
    check("report: vadd4 load requests", t["global_ld_requests"], 32)
    check("report: vadd4 store sectors (string integer)", t["global_st_sectors"], 256)
    check("report: vadd4 one request per 128 B", t["global_ld_req128"], 128)
    check("report: branch executions", t["branch_execs"], 16)


def table():
    with tempfile.TemporaryDirectory() as d:
        md = os.path.join(d, "out.md")
        r = subprocess.run([sys.executable, os.path.join(here, "compare.py"), fx, md], capture_output=True, text=True)
        text = open(md).read() if os.path.exists(md) else ""
    check("compare exit status (one difference)", r.returncode, 1)
    check("vadd requests exact", "| vadd | global ld requests | 128 | 128 | exact |" in text, True)
    check("vadd4 requests differ", "| vadd4 | global ld requests | 32 | 128 | DIFF +96 |" in text, True)
    check("cause: 4 requests per instruction", "ncu sends 4.000 requests per instruction" in text, True)
    check("divergence agrees with ncu and hand count", "| vadd | divergent branches | 0 | 0 | agrees with ncu, hand count (source = PTX) |" in text, True)
    check("summary", "13 exact/agree, 1 differ, 0 missing" in text, True)
    check("SASS census", "- vadd4: LDG.E.128.CONSTANT x2, STG.E.128 x1; BRA x1" in text, True)


def bad_inputs():
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "programs"), "w").write("nosuch 1 2\n")
        r = subprocess.run([sys.executable, os.path.join(here, "compare.py"), d, os.path.join(d, "o.md")],
                           capture_output=True, text=True)
        check("missing inputs: exit 1, no traceback", (r.returncode, "Traceback" in r.stderr), (1, False))
        check("missing inputs: named", "nosuch: inputs: no gpumem report" in r.stdout, True)
        r = subprocess.run([sys.executable, os.path.join(here, "compare.py")], capture_output=True, text=True)
        check("usage: exit 2", r.returncode, 2)


real_csv()
bad_inputs()
units()
hand_counts()
fabricated()
table()
print(f"{failed} failed")
sys.exit(1 if failed else 0)
