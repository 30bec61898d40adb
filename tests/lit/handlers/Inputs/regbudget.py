#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Register-budget check for handler sources (used by the lit tests in
# tests/lit/handlers). Depends only on clang and ptxas; no gpumem code.
#
# Method. `ptxas -c -v` on a lone .func reports no register count, so each
# handler is compiled inside a one-line wrapper kernel that calls it with the
# kernel's parameters, for sm_90, and `ptxas -v` reports the kernel's
# registers N. The pass always passes the site's info word as a constant
# (pass/insert.c), so the handler is specialised per site after inlining:
# the check is done for each info word of a representative set (every space,
# width, vector, atomic, memory intrinsic; conditional branch and switch).
# GM_SLOW helpers are compiled inline: the pass inlines them, with the
# handler, into the out-of-line copy it makes per event and info word
# (pass/outline.c), where most sites go; what this measures.
# The same wrapper without the call uses B registers (ptxas reports 4 for
# an empty sm_90 kernel): those belong to any kernel, not to the handler, and
# are subtracted. A handler fails when N - B > budget (16, SASSI's limit).
import argparse, os, re, subprocess, sys, tempfile

G, S, L, C, GEN = 1 << 16, 3 << 16, 5 << 16, 4 << 16, 0
LD, ST, AT, MI, VEC = 1 << 24, 1 << 25, 1 << 26, 1 << 27, 1 << 30
MEM_INFOS = {
    "global ld 4": G | LD | 4, "global st 4": G | ST | 4, "global ld v4": G | LD | VEC | 16,
    "global st 8": G | ST | 8, "global ld 1": G | LD | 1, "global atom 4": G | LD | ST | AT | 4,
    "global atom 8": G | LD | ST | AT | 8, "shared ld 4": S | LD | 4, "shared st 8": S | ST | 8,
    "shared ld v4": S | LD | VEC | 16, "local st 4": L | ST | 4, "local ld 8": L | LD | 8,
    "generic ld 4": GEN | LD | 4, "generic st 16": GEN | ST | VEC | 16,
    "const ld 4": C | LD | 4, "memcpy dst": G | ST | MI, "memset 64": GEN | ST | MI | 64,
    "copy 16 src": G | LD | MI | 16, "shared copy 16": S | ST | MI | 16,
}
LOAD_INFOS = {k: v for k, v in MEM_INFOS.items() if v & LD and not v & MI}
BR_INFOS = {"cond br": 2, "switch 4": (1 << 16) | 4}
# Site groups (GM_BEFORE_MEM_GROUP): loads and stores of global, shared and
# local memory, no memory intrinsics (pass/group.c).
GROUP_INFOS = {k: v for k, v in MEM_INFOS.items()
               if not v & MI and (v & (0xff << 16)) in (G, S, L)}
EVENTS = {  # macro -> (function prefix, call arguments, info set)
    "GM_BEFORE_MEM": ("gm_before_mem__", "site, addr, {info}u, value", MEM_INFOS),
    "GM_BEFORE_MEM_GROUP": ("gm_before_mem_group__", "site, dir, addr, {info}u", GROUP_INFOS),
    "GM_AFTER_LOAD": ("gm_after_load__", "site, addr, {info}u, value", LOAD_INFOS),
    "GM_BEFORE_BRANCH": ("gm_before_branch__", "site, {info}u, dir", BR_INFOS),
    "GM_KERNEL_ENTRY": ("gm_kernel_entry__", "site", {"-": 0}),
    "GM_KERNEL_EXIT": ("gm_kernel_exit__", "site", {"-": 0}),
    "GM_ACCUM_FLUSH": ("gm_accum_flush__", "site, gm_rb_acc", {"-": 0}),
}
HEAD = """#include "{src}"
extern "C" __device__ const uint32_t __gm_nsites = 64;
extern "C" __constant__ uint32_t __gm_replica_mask = 0;
__device__ uint32_t gm_rb_acc[GM_ACCUM_WORDS];
"""
WRAP = """extern "C" __global__ void gm_wrap_{k}(uint32_t site, uint64_t addr, uint64_t value, uint32_t dir)
{{ (void)site; (void)addr; (void)value; (void)dir; {call}; }}
"""


def registers(a, src, calls):
    """Registers of one wrapper kernel per call (one clang, one ptxas run)."""
    with tempfile.TemporaryDirectory() as d:
        cu, ptx = os.path.join(d, "w.cu"), os.path.join(d, "w.ptx")
        with open(cu, "w") as f:
            f.write(HEAD.format(src=os.path.abspath(src)))
            for k, call in enumerate(calls):
                f.write(WRAP.format(k=k, call=call))
        cmd = [a.clang, "-x", "cuda", "--cuda-device-only", "-S", "-O3", "--cuda-gpu-arch=sm_90",
               "--cuda-path=" + a.cuda_path, "-Wno-unknown-cuda-version",
               "-DGM_SLOW=static __device__ __forceinline__", cu, "-o", ptx]
        for i in a.include:
            cmd += ["-I", i]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.exit("regbudget: clang failed on %s:\n%s" % (src, r.stderr))
        r = subprocess.run([a.ptxas, "-arch=sm_90", "-v", ptx, "-o", os.devnull],
                           capture_output=True, text=True)
        regs = dict(re.findall(r"Function properties for gm_wrap_(\d+)\n.*?Used (\d+) registers",
                               r.stderr, re.S))
        if r.returncode or len(regs) != len(calls):
            sys.exit("regbudget: ptxas gave no register counts for %s:\n%s" % (src, r.stderr))
        return [int(regs[str(k)]) for k in range(len(calls))]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clang", required=True)
    p.add_argument("--ptxas", required=True)
    p.add_argument("--cuda-path", required=True)
    p.add_argument("-I", dest="include", action="append", default=[])
    p.add_argument("--budget", type=int, default=16)
    # Accumulator flushes (GM_ACCUM_FLUSH) run once per thread before the
    # kernel returns, outside every loop, where only the accumulators are
    # live: they get their own, looser budget.
    p.add_argument("--flush-budget", type=int, default=20)
    p.add_argument("sources", nargs="+")
    a = p.parse_args()
    base = registers(a, a.sources[0], ["(void)0"])[0]
    print("baseline (wrapper without a call): %d registers" % base)
    bad = 0
    for src in a.sources:
        text = open(src).read()
        found = re.findall(r"^(GM_[A-Z_]+)\((\w+)\)", text, re.M)
        if not found:
            sys.exit("regbudget: no handler in %s" % src)
        for macro, name in found:
            if macro not in EVENTS:  # e.g. GM_ACCUM: not a handler
                continue
            prefix, args, infos = EVENTS[macro]
            budget = a.flush_budget if macro == "GM_ACCUM_FLUSH" else a.budget
            worst = 0
            calls = [prefix + name + "(" + args.format(info=i) + ")" for i in infos.values()]
            for label, n in zip(infos, registers(a, src, calls)):
                worst = max(worst, n - base)
                if n - base > budget:
                    print("FAIL %s%s [%s]: %d registers (%d net) > %d"
                          % (prefix, name, label, n, n - base, budget))
                    bad += 1
            print("%s %s%s: at most %d registers net" % ("OK" if worst <= budget else "OVER",
                                                          prefix, name, worst))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
