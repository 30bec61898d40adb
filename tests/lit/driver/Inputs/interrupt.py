#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Starts gpumemcc ARGS... with clang replaced by slow-clang.sh, sends SIGNAL
# once the stand-in runs, and prints what an interrupted build leaves behind:
# the exit status, whether the -o file exists, the temporary directories left
# in TMPDIR, and whether the stand-in and its child still run.
# Usage: interrupt.py SIGNAL WORKDIR GPUMEMCC ARGS...
import os, signal, subprocess, sys, time

sig, work, args = getattr(signal, sys.argv[1]), sys.argv[2], sys.argv[3:]
tmp = os.path.join(work, "tmp")
os.makedirs(tmp, exist_ok=True)
env = dict(os.environ, GM_CLANG=os.path.join(os.path.dirname(__file__), "slow-clang.sh"),
           SLOW_DIR=work, TMPDIR=tmp)
for f in ("clang.pid", "child.pid"):
    if os.path.exists(os.path.join(work, f)):
        os.remove(os.path.join(work, f))
p = subprocess.Popen(args, env=env, cwd=work, restore_signals=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
for _ in range(300):
    if os.path.exists(os.path.join(work, "clang.pid")):
        break
    time.sleep(0.05)
p.send_signal(sig)
rc = p.wait(timeout=20)
print("status", rc if rc >= 0 else 128 - rc)
out = args[args.index("-o") + 1]
print("output", "exists" if os.path.exists(os.path.join(work, out)) else "absent")
print("tmp", sorted(os.listdir(tmp)))


def alive(name):
    pid = int(open(os.path.join(work, name)).read())
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return "gone"
        time.sleep(0.05)
    return "running"


print("clang", alive("clang.pid"), "child", alive("child.pid"))
