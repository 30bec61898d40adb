#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scale test of `gpumem report` (ctest report_scale): a synthetic report
with 10^5 allocations and 2x10^5 launches (gen_report.py) rendered in every
format must finish within a generous time and stay within a few times its
input in memory. Both bounds fail for cost that grows with the square of the
allocations (the old redundant-allocation scan: minutes) or with a tree of
the whole document (about 12x the input).

  scale_check.py GPUMEM [--allocs N] [--launches M] [--max-seconds S]
                 [--max-rss-per-input-byte K]

Peak RSS is the child's ru_maxrss; the bound is K x input + 64 MiB.
Depends on the Python standard library.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpumem")
    ap.add_argument("--allocs", type=int, default=100000)
    ap.add_argument("--launches", type=int, default=200000)
    ap.add_argument("--max-seconds", type=float, default=120)
    ap.add_argument("--max-rss-per-input-byte", type=float, default=5)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory(prefix="gm-report-scale-") as tmp:
        inp = os.path.join(tmp, "in.json")
        with open(inp, "w") as f:
            subprocess.run([sys.executable, os.path.join(here, "gen_report.py"),
                            "--allocs", str(a.allocs), "--launches", str(a.launches)],
                           stdout=f, check=True)
        size = os.path.getsize(inp)
        t0 = time.monotonic()
        try:
            p = subprocess.run([a.gpumem, "report", inp, "--format", "all", "-o",
                                os.path.join(tmp, "out")], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, timeout=a.max_seconds * 2)
        except subprocess.TimeoutExpired:
            print("FAIL: gpumem report still running after %.0f s (bound %.0f s): killed"
                  % (a.max_seconds * 2, a.max_seconds))
            return 1
        wall = time.monotonic() - t0
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        limit = a.max_rss_per_input_byte * size + 64 * 2**20
        print("allocations %d, launches %d: input %.1f MB, %.1f s, peak RSS %.1f MB "
              "(bound %.0f s, %.1f MB)" % (a.allocs, a.launches, size / 2**20, wall,
                                            rss / 2**20, a.max_seconds, limit / 2**20))
        if p.returncode != 0:
            print("FAIL: gpumem report exited %d: %s" % (p.returncode, p.stderr.strip()))
            return 1
        if wall > a.max_seconds:
            print("FAIL: slower than %.0f s" % a.max_seconds)
            return 1
        if rss > limit:
            print("FAIL: peak RSS above %.1f x input + 64 MiB" % a.max_rss_per_input_byte)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
