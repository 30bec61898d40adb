# Helper of torn.test.
#   cut IN OUT        OUT = IN cut in the middle of its last records section
#   zero IN OUT       OUT = IN without its end section, 4096 zero bytes instead
#   each SIM IN TMP   cuts IN at many offsets from 100 bytes on (every byte
#                     near section boundaries), runs SIM on each and checks the exit status and the one-line
#                     message; exit 1 on the first wrong cut
import re, struct, subprocess, sys


def sections(data):
    off, out = 16, []
    while off + 16 <= len(data):
        typ, raw, comp, check = struct.unpack_from('<4I', data, off)
        out.append((typ, off, off + 16 + comp))
        off += 16 + comp
    return out


def cut(src, dst):
    data = open(src, 'rb').read()
    typ, start, end = [s for s in sections(data) if s[0] == 6][-1]
    open(dst, 'wb').write(data[:(start + end) // 2])


def each(sim, src, tmp):
    data = open(src, 'rb').read()
    usable_from = None
    # every byte of section headers and frame ends, every 13th elsewhere
    near = set()
    for typ, start, end in sections(data):
        near.update(range(start, start + 24))
        near.update(range(end - 8, end))
    cuts = [n for n in range(100, len(data)) if n in near or n % 13 == 0]
    for n in cuts:
        open(tmp, 'wb').write(data[:n])
        p = subprocess.run([sim, tmp], capture_output=True, text=True)
        lines = p.stderr.splitlines()
        ok = len(lines) == 1 and re.match(
            r'gpumem-sim: trace .* ends early after \d+ complete launches; \d+ records read \(', lines[0])
        if p.returncode == 0 and ok:
            usable_from = usable_from or n
            continue
        if p.returncode == 1 and usable_from is None and len(lines) == 1 and 'truncated' in lines[0]:
            continue
        print('cut at %d: exit %d, stderr %r' % (n, p.returncode, p.stderr))
        sys.exit(1)
    print('%d cuts: usable from byte %d' % (len(cuts), usable_from))


def zero(src, dst):
    data = open(src, 'rb').read()
    open(dst, 'wb').write(data[:sections(data)[-1][1]] + bytes(4096))


if sys.argv[1] == 'cut':
    cut(*sys.argv[2:4])
elif sys.argv[1] == 'zero':
    zero(*sys.argv[2:4])
else:
    each(*sys.argv[2:5])
