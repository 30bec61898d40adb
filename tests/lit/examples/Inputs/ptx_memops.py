#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Memory-fidelity check for the examples' lit tests (fallback until the pass
# engineer's tests/tools/ptx_memops.py lands): compares the ld/st/atom/red/
# ldu/cp.async instructions (full opcode: space, width, vector shape,
# qualifiers) of two PTX files, as a multiset per .entry/.func. Parameter
# space (.param: the calling convention) is ignored. Standard library only.
# Usage: ptx_memops.py NATIVE.ptx INSTRUMENTED.ptx
import collections
import re
import sys

FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+)")
INSN = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|ldu|st|atom|red|cp\.async)(?:\.[\w:]+)*)\s")


def memops(path):
    """{function: Counter(opcode)} of the memory instructions in a PTX file."""
    funcs = collections.defaultdict(collections.Counter)
    cur = "<module>"
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"ptx_memops: cannot read {path}: {e.strerror}")
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            cur = m.group(1)
            continue
        m = INSN.match(line)
        if m and ".param" not in m.group(1):
            funcs[cur][m.group(1)] += 1
    return funcs


def diff(native, inst):
    """Lines describing every difference; empty when the listings agree."""
    out = []
    for f in sorted(set(native) | set(inst)):
        a, b = native.get(f, collections.Counter()), inst.get(f, collections.Counter())
        for op in sorted(set(a) | set(b)):
            if a[op] != b[op]:
                out.append(f"{f}: {op}: native {a[op]}, instrumented {b[op]}")
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: ptx_memops.py NATIVE.ptx INSTRUMENTED.ptx")
    native, inst = memops(argv[1]), memops(argv[2])
    total = sum(sum(c.values()) for c in native.values())
    if total == 0:
        sys.exit(f"ptx_memops: no memory instructions in {argv[1]}")
    problems = diff(native, inst)
    for p in problems:
        print("DIFF " + p)
    if problems:
        print(f"ptx_memops: DIFFERENT ({len(problems)} opcode counts differ)")
        return 1
    print(f"ptx_memops: same ({total} memory instructions in {len(native)} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
