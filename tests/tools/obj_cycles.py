#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when the files of a static library call each other in a cycle.

usage: obj_cycles.py LIB.a...

Each member (one source file) depends on the members that define the
global symbols it uses (nm). A cycle (a.c calls b.c, which calls back
into a.c) means neither file can be understood, tested or moved alone;
each cycle found is printed with the symbols that close it, and the exit
status is 1. Depends on python3 and binutils' nm.
"""
import subprocess
import sys


def members(lib):
    out = subprocess.run(["nm", "-A", "-g", lib], capture_output=True, text=True, check=True).stdout
    defs, uses = {}, {}
    prefix = lib + ":"
    for line in out.splitlines():  # LIB:MEMBER:VALUE TYPE NAME
        if not line.startswith(prefix):
            continue
        obj, _, rest = line[len(prefix):].partition(":")
        f = rest.split()
        if len(f) == 2 and f[0] == "U":
            uses.setdefault(obj, set()).add(f[1])
        elif len(f) == 3 and f[1] in "TDBRCVW":
            defs[f[2]] = obj
            uses.setdefault(obj, set())
    return defs, uses


def cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(libs):
    if not libs:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bad = 0
    for lib in libs:
        defs, uses = members(lib)
        edges = {o: sorted({defs[s] for s in u if s in defs and defs[s] != o}) for o, u in uses.items()}
        found = cycles(edges)
        bad |= bool(found)
        for comp in found:
            print(f"{lib}: cycle between {', '.join(comp)}:")
            for a in comp:
                for b in edges[a]:
                    if b in comp:
                        syms = sorted(s for s in uses[a] if defs.get(s) == b)
                        print(f"  {a} uses {b}: {' '.join(syms)}")
        if not found:
            print(f"{lib}: {len(edges)} files, no cycles")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
