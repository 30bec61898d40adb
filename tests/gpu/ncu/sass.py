# SPDX-License-Identifier: Apache-2.0
# Static census of the native build's SASS (cuobjdump -sass) per kernel:
# memory instructions by full mnemonic (LDG.E.128.CONSTANT, STS, RED.E.ADD.64,
# LD/ST generic, LDL/STL local) and branch instructions, so that a request,
# sector or divergence difference can be read against what the hardware
# actually executes. Depends on python3 only.
import re

FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
INST = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)")
MEM = {"LDG", "STG", "LDS", "STS", "LD", "ST", "LDL", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDSM"}
BRANCH = {"BRA", "BRX", "JMP", "JMX"}


def census(text):
    """{mangled kernel: {mnemonic: static count}} of memory and branch instructions."""
    out, cur = {}, None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        m = INST.match(line)
        if cur is None or not m:
            continue
        op = m.group(1)
        if op.split(".")[0] in MEM or op.split(".")[0] in BRANCH:
            cur[op] = cur.get(op, 0) + 1
    return out


def summary(counts):
    """One line: 'LDG.E x2, STG.E x1; BRA x3'."""
    mem = [f"{k} x{v}" for k, v in sorted(counts.items()) if k.split(".")[0] in MEM]
    br = [f"{k} x{v}" for k, v in sorted(counts.items()) if k.split(".")[0] in BRANCH]
    return (", ".join(mem) or "no memory instructions") + "; " + (", ".join(br) or "no branches")
