#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Static count, in the PTX embedded in a program (fatbin_ptx.py): calls that
# follow a global, shared or local load in the same basic block. Such a call
# makes ptxas wait for the loaded value before it (the register must be
# valid across the call), so each one can end a load's overlap with the next
# (pass/hoist.c). Prints: PROGRAM_BINARY calls_after_load loads calls.
# Usage: bench/corpus/ptx_load_calls.py BINARY...
# Depends on: python3, bench/corpus/fatbin_ptx.py.
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fatbin_ptx  # noqa: E402

LABEL = re.compile(r'^\$?[\w.$]+:$')
LOAD = re.compile(r'^(@!?%p\d+\s+)?ld\.(global|shared|local)\b')
CALL = re.compile(r'^(@!?%p\d+\s+)?call')
FUNC = re.compile(r'^(\.visible\s+|\.weak\s+)?\.(entry|func)\b')


def count(text):
    after = loads = calls = 0
    pending = False
    for line in text.splitlines():
        s = line.strip()
        if LABEL.match(s) or FUNC.match(s):
            pending = False
        elif LOAD.match(s):
            pending = True
            loads += 1
        elif CALL.match(s):
            calls += 1
            after += pending
            pending = False
    return after, loads, calls


def main(paths):
    for p in paths:
        if not os.path.isfile(p):
            sys.exit(f'ptx_load_calls.py: {p}: no such file')
        texts = fatbin_ptx.ptx_texts(fatbin_ptx.section(p))
        a = l = c = 0
        for t in texts:
            x = count(t.decode(errors='replace'))
            a, l, c = a + x[0], l + x[1], c + x[2]
        print(p, a, l, c)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: ptx_load_calls.py BINARY...')
    main(sys.argv[1:])
