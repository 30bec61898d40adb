#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a synthetic gpumem report (schema gpumem-report v1) of a chosen
size to stdout, for the scale bench (bench/report/run.sh) and the scale
ctest. Streams as it goes: memory does not grow with the size.

  gen_report.py --allocs N --launches M [--kernels K] [--sites S]

Timeline: the N allocations are made one after another, each written by a
memcpy right after it is made and then left alone (so every later one could
reuse an earlier one: the redundant-allocation detector's worst case); the M
launches follow, each using one allocation (round robin, r/w); then every
other allocation is freed. K kernels in one module of S memory sites, with
coalescing and divergence counters. Depends on the Python standard library.
"""
import argparse
import sys


def hostsite(line):
    return '{"file":"gen.cu","line":%d,"func":"main"}' % line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--allocs", type=int, default=1000)
    ap.add_argument("--launches", type=int, default=1000)
    ap.add_argument("--kernels", type=int, default=8)
    ap.add_argument("--sites", type=int, default=16)
    a = ap.parse_args()
    out = sys.stdout
    w = out.write
    w('{"schema":"gpumem-report","version":1,\n')
    w('"program":{"argv":["./gen"],"pid":1,"start_ns":0,"end_ns":1000000000,'
      '"exit_status":0,"end":"normal","tool_version":"0.1.0",'
      '"analyses":"coalescing,divergence,allocations"},\n')
    w('"devices":[{"ordinal":0,"name":"synthetic","cc_major":9,"cc_minor":0,'
      '"sm_count":132,"global_mem":85028569088,"l2_bytes":52428800}],\n')
    # one module: sites 0..S-2 memory loads, S-1 a branch
    sites = []
    for i in range(a.sites):
        ev, info = (2, 2) if i == a.sites - 1 else (1, 16842756)
        sites.append('{"id":%d,"event":%d,"space":1,"when":1,"info":%d,'
                     '"func":"k%d","file":"gen.cu","line":%d,"column":1}'
                     % (i, ev, info, i % a.kernels, 10 + i))
    w('"modules":[{"modid":"0x00000000000000ab","source":"gen.cu","n_asm_mem":0,'
      '"sites":[%s],\n' % ",".join(sites))
    w('"counter_sets":[{"name":"coalescing","nslots":7,"flags":0,"slots":["warps",'
      '"threads","sectors","lines","ideal_sectors","wavefronts","ideal_wavefronts"]},'
      '{"name":"divergence","nslots":5,"flags":0,"slots":["warps","threads","taken",'
      '"not_taken","divergent"]}]}],\n')
    w('"kernels":[')
    per = a.launches // a.kernels
    for k in range(a.kernels):
        n = per + (1 if k < a.launches % a.kernels else 0)
        rows = ",".join('{"site":%d,"v":[%d,%d,%d,%d,%d,0,0]}'
                        % (s, n * 10, n * 320, n * 40 + s, n * 10, n * 40)
                        for s in range(a.sites - 1))
        w('%s{"name":"k%d","modid":"0x00000000000000ab","launches":%d,"gpu_ns":%d,'
          '"counters":[{"set":"coalescing","nsites":%d,"nslots":7,"sites":[%s]},'
          '{"set":"divergence","nsites":%d,"nslots":5,"sites":[{"site":%d,'
          '"v":[%d,%d,%d,%d,%d]}]}]}\n'
          % ("," if k else "", k, n, n * 1000, a.sites, rows, a.sites, a.sites - 1,
             n, n * 32, n * 16, n * 16, n // 2))
    w('],\n')
    # seqs: alloc i -> 2i+1, its memcpy -> 2i+2; launch j -> 2N+1+j;
    # frees after that.
    n_alloc, n_launch = a.allocs, a.launches
    lseq0 = 2 * n_alloc + 1
    fseq0 = lseq0 + n_launch
    w('"launches":[')
    for j in range(n_launch):
        w('%s{"seq":%d,"kernel":%d,"grid":[64,1,1],"block":[256,1,1],"shmem":0,'
          '"stream":"0x0000000000000000","device":0,"api":"cudaLaunchKernel",'
          '"site":%s,"time_ns":%d,"gpu_ns":1000}\n'
          % ("," if j else "", lseq0 + j, j % a.kernels, hostsite(1000 + j % 50),
             lseq0 + j))
    w('],\n"allocations":[')
    freed = [i % 2 == 0 for i in range(n_alloc)]
    fseq = {}
    s = fseq0
    for i in range(n_alloc):
        if freed[i]:
            fseq[i] = s
            s += 1
    for i in range(n_alloc):
        size = 4096 * (1 + i % 7)
        w('%s{"id":%d,"dev_ptr":"0x%016x","size":%d,"api":"cudaMalloc","device":0,'
          '"alloc_site":%s,"free_site":%s,"freed":%s,"alloc_seq":%d,"free_seq":%d,'
          '"access":null}\n'
          % ("," if i else "", i + 1, 0x7f0000000000 + i * 65536, size, hostsite(100 + i % 30),
             hostsite(900) if freed[i] else "null", "true" if freed[i] else "false",
             2 * i + 1, fseq.get(i, 0)))
    w('],\n"events":[')
    first = True

    def ev(seq, op, nbytes, uses, extra=""):
        nonlocal first
        w('%s{"seq":%d,"time_ns":%d,"op":"%s","bytes":%d,"dir":"%s","stream":'
          '"0x0000000000000000","device":0,"launch":%s,"site":%s,"uses":[%s]}\n'
          % ("" if first else ",", seq, seq, op, nbytes, "h2d" if op == "memcpy" else "none",
             extra or "-1", hostsite(seq % 97), uses))
        first = False

    for i in range(n_alloc):
        size = 4096 * (1 + i % 7)
        ev(2 * i + 1, "alloc", size, '{"alloc":%d,"how":"-"}' % (i + 1))
        ev(2 * i + 2, "memcpy", size, '{"alloc":%d,"how":"w"}' % (i + 1))
    for j in range(n_launch):
        uses = ('{"alloc":%d,"how":"rw"}' % (j % n_alloc + 1)) if n_alloc else ""
        ev(lseq0 + j, "launch", 0, uses, str(j))
    for i in range(n_alloc):
        if freed[i]:
            ev(fseq[i], "free", 4096 * (1 + i % 7), '{"alloc":%d,"how":"-"}' % (i + 1))
    w('],\n"unobserved":[],\n"notes":["synthetic report from bench/report/gen_report.py"]}\n')


if __name__ == "__main__":
    main()
