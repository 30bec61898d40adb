#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Counts the PTX lines embedded in an ELF file's .nv_fatbin section (an
object, a shared library or an executable): every fatbin container in the
section, every PTX entry (kind 1), plain or zstd-compressed (inflated with
the zstd command). Prints "<ptx lines> <ptx entries>"; exit 1 with one line
on stderr if the file has no readable PTX. Used by bench/corpus to compare
instrumented and --gm-off builds. Depends on python3, objcopy and zstd."""
import os, struct, subprocess, sys, tempfile

MAGIC = 0xBA55ED50
KIND_PTX = 1
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def section(path):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "fatbin")
        r = subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", path, out],
                           capture_output=True)
        if r.returncode != 0 or not os.path.exists(out):
            return b""
        with open(out, "rb") as f:
            return f.read()


def inflate(payload):
    r = subprocess.run(["zstd", "-d", "-c", "-q"], input=payload, capture_output=True)
    if r.returncode != 0:
        raise ValueError("zstd: " + r.stderr.decode(errors="replace").strip())
    return r.stdout


def ptx_texts(blob):
    off = 0
    while off + 16 <= len(blob):
        magic, _ver, hsize, fsize = struct.unpack_from("<IHHQ", blob, off)
        if magic != MAGIC:          # containers are 8-byte aligned: skip padding
            off += 8
            continue
        end = off + hsize + fsize
        e = off + hsize
        while e + 64 <= end:
            kind, _u1, ehsize, size, csize = struct.unpack_from("<HHIQI", blob, e)
            if ehsize < 64 or e + ehsize + size > end:
                raise ValueError("fatbin entry out of bounds at %d" % e)
            payload = blob[e + ehsize:e + ehsize + size]
            if kind == KIND_PTX:
                if payload[:4] == ZSTD_MAGIC:
                    payload = inflate(payload[:csize or size])
                yield payload.rstrip(b"\0")
            e += ehsize + size
        off = end


def main():
    if len(sys.argv) != 2:
        print("usage: fatbin_ptx.py ELF-FILE", file=sys.stderr)
        return 2
    blob = section(sys.argv[1])
    try:
        texts = list(ptx_texts(blob))
    except ValueError as exc:
        print("fatbin_ptx: %s: %s" % (sys.argv[1], exc), file=sys.stderr)
        return 1
    if not texts:
        print("fatbin_ptx: %s: no PTX in .nv_fatbin" % sys.argv[1], file=sys.stderr)
        return 1
    if any(t[:4] != b"//\n/" and b".version" not in t[:4096] for t in texts):
        print("fatbin_ptx: %s: a PTX entry is compressed in an unknown format" % sys.argv[1],
              file=sys.stderr)
        return 1
    print(sum(t.count(b"\n") for t in texts), len(texts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
