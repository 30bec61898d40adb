#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Memory-fidelity check: extracts the multiset of ld/ldu/st/atom/red/cp
# instructions (opcode with space, cache and type qualifiers and vector
# shape; registers and addresses ignored) from two PTX files and fails with a
# diff if they differ. `--list A.ptx` prints one file's multiset.
# Standard library only.
import collections
import re
import sys

OP = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|ldu|st|atom|red|cp)\.[\w.:]+)")


def memops(path):
    ops = collections.Counter()
    with open(path) as f:
        for line in f:
            line = line.split("//", 1)[0]
            for stmt in line.split(";"):
                m = OP.match(stmt)
                if m:
                    ops[m.group(1)] += 1
    return ops


def main(argv):
    if len(argv) == 3 and argv[1] == "--list":
        for op, n in sorted(memops(argv[2]).items()):
            print(f"{n} {op}")
        return 0
    if len(argv) != 3:
        print("usage: ptx_memops.py A.ptx B.ptx | --list A.ptx", file=sys.stderr)
        return 2
    try:
        a, b = memops(argv[1]), memops(argv[2])
    except OSError as e:
        print(f"ptx_memops: {e}", file=sys.stderr)
        return 2
    if a == b:
        print(f"ptx_memops: same {sum(a.values())} memory instructions")
        return 0
    print(f"ptx_memops: memory instructions differ ({argv[1]} vs {argv[2]}):")
    for op in sorted(set(a) | set(b)):
        if a[op] != b[op]:
            print(f"  {op}: {a[op]} vs {b[op]}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
