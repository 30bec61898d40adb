#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scale test of `gpumem report` (ctest report_scale): a synthetic report
with 10^5 allocations and 2x10^5 launches (gen_report.py) rendered in every
format must finish within a generous time and stay within a few times its
input in memory. Both bounds fail for cost that grows with the square of the
allocations (the old redundant-allocation scan: minutes) or with a tree of
the whole document (about 12x the input); with --max-rss-per-input-byte 1
the memory bound also fails for a reader that holds the whole text (ctest
report_scale_launches: a launch-heavy report must take less memory than
its text).

  scale_check.py GPUMEM [--allocs N] [--launches M] [--max-seconds S]
                 [--max-rss-per-input-byte K]

Peak RSS is the child's ru_maxrss (wait4); the bound is K x input + 64 MiB.
Depends on the Python standard library.
"""
import argparse
import os
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
        err = open(os.path.join(tmp, "err"), "w+")
        p = subprocess.Popen([a.gpumem, "report", inp, "--format", "all", "-o",
                              os.path.join(tmp, "out")], stdout=subprocess.DEVNULL, stderr=err)
        # wait4: this child's own peak RSS (RUSAGE_CHILDREN would also hold
        # the peak of an earlier, larger child: the kernel keeps it across fork)
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > a.max_seconds * 2:
                p.kill()
                os.wait4(p.pid, 0)
                print("FAIL: gpumem report still running after %.0f s (bound %.0f s): killed"
                      % (a.max_seconds * 2, a.max_seconds))
                return 1
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        p.stderr = err.read()
        wall = time.monotonic() - t0
        rss = ru.ru_maxrss * 1024
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
