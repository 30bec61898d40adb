#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Where a corpus build's embedded PTX lines go (issue 11's PTX-size target):
# per program, the instrumented lines, the --gm-off lines, and the lines of
# the module's copies of handler code (out-of-line site copies gm_ool__*,
# and the handlers' own out-of-line functions co_*, dv_*, va_*, gm_*);
# the geomean of instrumented / --gm-off with and without those copies, and
# the handler functions summed over all programs by kind.
# Usage: bench/corpus/ptx_handler_share.py GM_OUT OFF_OUT
#   (OUTDIRs of bench/corpus/build.sh: GM_OUT/gm/P/main, OFF_OUT/off/P/main)
# Depends on: python3, bench/corpus/fatbin_ptx.py.
import collections
import glob
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fatbin_ptx  # noqa: E402

HEADER = re.compile(r'^(?:\.visible |\.weak )?\.(?:func|entry)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)')
HANDLER = re.compile(r'^(_ZL\d+(co|dv|va|al|tr|gm)_|co_|dv_|va_|gm_|__gm|_Z\d+gm_)')


def ptx(binary):
    return b''.join(fatbin_ptx.ptx_texts(fatbin_ptx.section(binary))).decode('latin-1')


def function_lines(text):
    """Lines per function (a function runs from its header to the next)."""
    out, cur = collections.Counter(), '<module>'
    for line in text.split('\n'):
        m = HEADER.match(line)
        if m and not line.rstrip().endswith(';'):
            cur = m.group(1)
        out[cur] += 1
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main(gm_out, off_out):
    rows, kinds, copies = [], collections.Counter(), collections.Counter()
    for binary in sorted(glob.glob(os.path.join(gm_out, 'gm', '*', 'main'))):
        prog = binary.split(os.sep)[-2]
        off = os.path.join(off_out, 'off', prog, 'main')
        if not os.path.exists(off):
            continue
        g, o = ptx(binary), ptx(off)
        fl = function_lines(g)
        handler = 0
        for name, n in fl.items():
            if HANDLER.match(name):
                handler += n
                kind = re.sub(r'__\d+$', '__N', name)
                kinds[kind] += n
                copies[kind] += 1
        rows.append((prog, o.count('\n'), g.count('\n'), handler))
    if not rows:
        sys.exit('ptx_handler_share.py: no program built in both %s/gm and %s/off' % (gm_out, off_out))
    print('| program | --gm-off lines | instrumented | handler copies | ratio | ratio without copies |')
    print('|---|---:|---:|---:|---:|---:|')
    for p, o, g, h in sorted(rows, key=lambda r: -r[2] / r[1]):
        print('| %s | %d | %d | %d | %.2fx | %.2fx |' % (p, o, g, h, g / o, (g - h) / o))
    print()
    print('%d programs: instrumented / --gm-off %.2fx geomean; without the handler copies %.2fx; '
          'median handler-copy lines %d' % (len(rows), geomean([g / o for _, o, g, _ in rows]),
                                            geomean([(g - h) / o for _, o, g, h in rows]),
                                            sorted(h for *_, h in rows)[len(rows) // 2]))
    print()
    print('| handler function | copies | lines | lines per copy |')
    print('|---|---:|---:|---:|')
    for k, n in kinds.most_common():
        print('| %s | %d | %d | %d |' % (k, copies[k], n, n // copies[k]))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: ptx_handler_share.py GM_OUT OFF_OUT')
    main(sys.argv[1], sys.argv[2])
