# SPDX-License-Identifier: Apache-2.0
# Hand counts of divergent branch decisions per example kernel and launch,
# at the source level: one decision per if / switch / loop test that a warp
# evaluates, divergent when its active lanes go different ways. Where the
# compiler's evaluation order changes the count (a short-circuit && tested
# term by term vs as one predicate) every plausible count is listed.
# Keys are kernel base names; values are lists of acceptable totals per
# launch. Depends on python3 only.


def _lcg_lens(rows, avg):
    """Row lengths of examples/spmv.cu's generated matrix (ex_rand, seed 12345)."""
    seed, lens = 12345, []
    for _ in range(rows):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        lens.append(1 + (seed >> 33) % (2 * avg))
    return lens


def _warps(lens):
    return [lens[w:w + 32] for w in range(0, len(lens), 32)]


def spmv(rows, avg):
    lens = _lcg_lens(rows, avg)
    # CSR: the loop test after iteration j splits the warp when some lane has
    # exactly j entries and another more: distinct lengths but the longest.
    csr = sum(len(set(w)) - 1 for w in _warps(lens))
    # ELL: `if (c >= 0)` at column k splits when min(len) <= k < max(len).
    ell = sum(max(w) - min(w) for w in _warps(lens))
    return {"spmv_csr": [csr], "spmv_ell": [ell]}


def per_launch(program, args):
    """{kernel base name: [acceptable divergent decisions per launch]}."""
    a = [int(x) for x in args]
    if program == "vector_add":
        return {"vadd": [0], "vadd4": [0]}   # n % 1024 == 0: bounds tests are uniform
    if program == "branchy":
        # lane parity if/else 1, switch 1, uniform block test 0, loop of
        # 1 + (lane % 8) iterations: 7 of its 8 tests split the warp
        return {"branchy": [9 * (a[0] // 32)]}
    if program == "transpose":
        return {"transpose_naive": [0], "transpose_tiled": [0], "transpose_padded": [0]}
    if program == "reduction":
        return {"reduce_sum": [a[0] // 512]}          # `if (t == 0)` in warp 0 of each block
    if program == "pointer_chase":
        return {"chase": [0]}                         # one thread: nothing to split
    if program == "sgemm":
        return {"sgemm_naive": [0]}
    if program == "stencil":
        n = a[0]
        # first and last warp of a row hold x == 0 / x == n-1: 2 per interior
        # row as one predicate, 2 per row when x > 0 is tested first
        return {"stencil5": [2 * (n - 2), 2 * n]}
    if program == "spmv":
        return spmv(a[0], a[1])
    return {}
