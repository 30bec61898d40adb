#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Decodes gpumem site tables (include/gpumem/sitetab.h) from LLVM IR text
# (@__gm_sitetab__<modid> = ... c"...") or PTX (.b8 __gm_sitetab__...[N] =
# {...}) and prints them one line per item; checks the layout and exits 1
# with a message if it is inconsistent. Standard library only.
import re
import struct
import sys

EVENTS = {1: "mem", 2: "branch", 3: "entry", 4: "exit", 5: "asm"}
FLAGS = [(24, "load"), (25, "store"), (26, "atomic"), (27, "memintr"), (28, "trunc"),
         (29, "nc"), (30, "vector"), (31, "volatile")]


def ir_bytes(s):
    out, i = bytearray(), 0
    while i < len(s):
        if s.startswith("\\\\", i):
            out.append(0x5C)
            i += 2
        elif s[i] == "\\":
            out.append(int(s[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(ord(s[i]))
            i += 1
    return bytes(out)


def tables(text):
    for m in re.finditer(r'@(__gm_sitetab__[0-9a-f]+) = .*?c"((?:[^"\\]|\\\\|\\[0-9A-Fa-f]{2})*)"', text):
        yield m.group(1), ir_bytes(m.group(2))
    for m in re.finditer(r'\b(__gm_sitetab__[0-9a-f]+)\[(\d+)\]\s*=\s*\{([^}]*)\}', text):
        b = bytes(int(x) for x in m.group(3).split(","))  # PTX may omit trailing zeros
        yield m.group(1), b + bytes(max(0, int(m.group(2)) - len(b)))


def cstr(b, strings_off, strings_size, off):
    if off >= strings_size:
        raise ValueError(f"string offset {off} out of range")
    end = b.index(b"\0", strings_off + off)
    return b[strings_off + off:end].decode()


def dump(sym, b):
    if len(b) < 64 or b[:8] != b"GMSITES\0":
        raise ValueError(f"{sym}: bad magic or size")
    (ver, hsz, modid, nsites, nglob, soff, goff, stroff, strsz, nasm, abi, src, _) = \
        struct.unpack_from("<IIQIIIIIIIIII", b, 8)
    if hsz != 64 or soff != 64 or goff != soff + 24 * nsites or stroff != goff + 24 * nglob \
            or stroff + strsz != len(b) or f"__gm_sitetab__{modid:016x}" != sym:
        raise ValueError(f"{sym}: inconsistent header")
    s = lambda o: cstr(b, stroff, strsz, o)
    print(f"sitetab {sym} version={ver} nsites={nsites} nglobals={nglob} n_asm_mem={nasm} "
          f"abi={abi} source={s(src)}")
    for i in range(nsites):
        ev, sp, when, sflags, info, fn, fl, line, col = struct.unpack_from("<BBBBIIIII", b, soff + 24 * i)
        w = ",".join(n for bit, n in ((1, "before"), (2, "after")) if when & bit) or "none"
        if ev == 2:
            desc = f"nsucc={info & 0xffff}" + (" switch" if info & 0x10000 else "")
        else:
            desc = f"width={info & 0xffff} " + ",".join(n for bit, n in FLAGS if info >> bit & 1)
        print(f"site {i} {EVENTS.get(ev, ev)} space={sp} when={w} info={info:#x} {desc.strip()} "
              f"func={s(fn)} loc={s(fl)}:{line}:{col}" + (" in-kernel" if sflags & 1 else ""))
    for i in range(nglob):
        name, sym_, slots, size, flags, sn = struct.unpack_from("<IIIIII", b, goff + 24 * i)
        print(f"global {s(name)} sym={s(sym_)} slots={slots} size={size} flags={flags} "
              f"slotnames={s(sn)}")


def main():
    try:
        text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    except OSError as e:
        sys.exit(f"sitetab_dump: {e}")
    found = 0
    try:
        for sym, b in tables(text):
            dump(sym, b)
            found += 1
    except ValueError as e:
        sys.exit(f"sitetab_dump: {e}")
    if not found:
        sys.exit("sitetab_dump: no site table found")


if __name__ == "__main__":
    main()
