# SPDX-License-Identifier: Apache-2.0
# Hand counts of divergent branch executions per example kernel and launch:
# a warp execution of a conditional branch is divergent when its active
# lanes go different ways. Two levels, each labelled:
#   "source": one decision per if / switch / loop test as written;
#   "PTX": the branches of the native -O3 PTX (clang 22, sm_90), which the
#          instrumented build's LLVM branches mirror: if/else turned into
#          selects, loops unrolled by 4 with a remainder loop, && folded.
# gpumem instruments LLVM branches, so its count should equal the PTX one;
# ncu counts SASS branches (ptxas may change them again). Keys are kernel
# base names; values are [(count per launch, label)]. Depends on python3.


def _lens(rows, avg):
    """Row lengths of examples/spmv.cu's generated matrix (ex_rand, seed 12345)."""
    seed, lens = 12345, []
    for _ in range(rows):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        lens.append(1 + (seed >> 33) % (2 * avg))
    return [lens[w:w + 32] for w in range(0, rows, 32)]


def _splits(vals, lo):
    """Exit tests j = lo.. of a loop whose lanes leave after v iterations:
    divergent when some active lane has v == j and another v > j."""
    return sum(1 for j in range(lo, max(vals) + 1)
               if j in vals and any(v > j for v in vals)) if vals else 0


def _split(pred):
    return 1 if 0 < sum(pred) < len(pred) else 0


def csr_ptx(w):
    """spmv_csr in PTX: remainder loop of len % 4 iterations (guarded by
    `len % 4 == 0`), `len < 4` skips the 4x unrolled loop of len / 4 rounds."""
    rem = [n % 4 for n in w]
    quads = [n // 4 for n in w]
    return (_split([r == 0 for r in rem]) + _splits([r for r in rem if r], 1)
            + _split([n < 4 for n in w]) + _splits([q for q in quads if q], 1))


def spmv(rows, avg):
    warps = _lens(rows, avg)
    csr_src = sum(_splits(w, 1) for w in warps)           # k < end after each iteration
    ell = sum(max(w) - min(w) for w in warps)              # `c >= 0` at column k
    return {"spmv_csr": [(csr_src, "source"), (sum(csr_ptx(w) for w in warps), "PTX")],
            "spmv_ell": [(ell, "source = PTX")]}


def per_launch(program, args):
    """{kernel base name: [(divergent executions per launch, label)]}."""
    a = [int(x) for x in args]
    zero = [(0, "source = PTX")]
    if program == "vector_add":                 # n % 1024 == 0: bounds tests are uniform
        return {"vadd": zero, "vadd4": zero}
    if program == "branchy":
        w = a[0] // 32
        # source: lane-parity if/else 1, switch 1, loop of 1 + lane % 8
        # iterations 7 (its 8th test is uniform); PTX: the if/else is a
        # select, the switch a brx.idx, the loop 7 unrolled exit tests
        return {"branchy": [(9 * w, "source"), (8 * w, "PTX")]}
    if program == "transpose":
        return {k: zero for k in ("transpose_naive", "transpose_tiled", "transpose_padded")}
    if program == "reduction":                  # `if (t == 0)` in warp 0 of each block
        return {"reduce_sum": [(a[0] // 512, "source = PTX")]}
    if program in ("pointer_chase", "sgemm"):   # one thread; n uniform
        return {"chase" if program == "pointer_chase" else "sgemm_naive": zero}
    if program == "stencil":
        n = a[0]
        # source, one predicate: the first and last warp of each interior row;
        # PTX: `x < 1` first (first warp of every row), then the rest
        return {"stencil5": [(2 * (n - 2), "source"), (2 * n - 2, "PTX")]}
    if program == "spmv":
        return spmv(a[0], a[1])
    return {}
