#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Simulator vs Nsight Compute (issue 4 item 5), on the GPU machine, from the
# repository root, with .devbuild/trace/ from tests/gpu/trace/build.sh. For
# each case (program, arguments, kernel) it
#   - runs ncu on the --gm-off build: the kernel's FIRST launch only, caches
#     flushed before it (--cache-control all), metrics
#     l1tex__t_sector_hit_rate.pct, lts__t_sector_hit_rate.pct and
#     launch__shared_mem_config_size;
#   - traces the same first launch of the instrumented build (kernel filter,
#     GPUMEM_TRACE_SAMPLE so only launch #0 is traced: the simulator then
#     also starts with empty caches) and replays the file with gpumem-sim --json;
#   - prints the per-kernel table and the MAPE of L1 and L2 hit rates (mape.py).
# Output: $OUT/ncu/table.txt (and the raw files). Cases: DELTA pointer-chase
# regimes (footprint in L1, in L2, beyond L2) and every example kernel.
# Depends on: ncu, python3, the devbuild. Exits 0 with "SKIP" without a GPU.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
dev=${GM_TRACE_DEVBUILD:-$root/.devbuild/trace}
out=${OUT:-/tmp/gm-trace-gpu}/ncu
ncu=${NCU:-ncu}
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
command -v "$ncu" >/dev/null 2>&1 || { echo "FAIL: ncu not found (set NCU)"; exit 1; }
export LD_LIBRARY_PATH="$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
: >"$out/cases"

# case TAG PROGRAM KERNEL ARGS...
case_() {
  tag=$1 prog=$2 k=$3
  shift 3
  [ -x "$dev/bin/$prog.off" ] && [ -x "$dev/bin/$prog.trace" ] || { echo "skip $tag: $prog not built"; return; }
  "$ncu" --csv --page raw --cache-control all --kernel-name "regex:^$k\$" --launch-count 1 \
    --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,launch__shared_mem_config_size \
    "$dev/bin/$prog.off" "$@" >"$out/$tag.ncu.csv" 2>"$out/$tag.ncu.err"
  rm -f "$out/$tag.gmt"
  GPUMEM_TRACE_FILE="$out/$tag.gmt" GPUMEM_TRACE_SIM=0 GPUMEM_QUIET=1 \
    GPUMEM_TRACE_KERNELS="^_Z${#k}$k" GPUMEM_TRACE_SAMPLE=1000000000 \
    timeout 900 "$dev/bin/$prog.trace" "$@" >"$out/$tag.trace.txt" 2>&1
  "$dev/bin/gpumem-sim" --json "$out/$tag.gmt" >"$out/$tag.sim.json" 2>"$out/$tag.sim.err"
  "$dev/bin/gpumem-sim" "$out/$tag.gmt" >"$out/$tag.sim.txt" 2>>"$out/$tag.sim.err"
  echo "$tag $k" >>"$out/cases"
  echo "ran $tag"
}

# DELTA regimes: one thread chases stride 33 (132 B: a new line per load)
case_ chase_l1 pointer_chase chase 16384 33 100000 1      # 64 KiB: fits L1
case_ chase_l2 pointer_chase chase 2097152 33 200000 1    # 8 MiB: beyond L1, fits L2
case_ chase_dram pointer_chase chase 33554432 33 200000 1 # 128 MiB: beyond L2
case_ vadd vector_add vadd 1048576 1
case_ vadd4 vector_add vadd4 1048576 1
case_ transpose_naive transpose transpose_naive 512 1
case_ transpose_tiled transpose transpose_tiled 512 1
case_ transpose_padded transpose transpose_padded 512 1
case_ reduce_sum reduction reduce_sum 1048576 1
case_ spmv_csr spmv spmv_csr 16384 8 1
case_ spmv_ell spmv spmv_ell 16384 8 1
case_ branchy branchy branchy 1048576 1
case_ sgemm_naive sgemm sgemm_naive 256 1
case_ stencil5 stencil stencil5 512 1
python3 "$root/tests/gpu/trace/mape.py" "$out" | tee "$out/table.txt"
