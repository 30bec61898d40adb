#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Simulator vs Nsight Compute (issue 4 item 5), on the GPU machine, from the
# repository root, with .devbuild/trace/ from tests/gpu/trace/build.sh. For
# each case (program, arguments, kernel) it
#   - runs ncu on the --gm-off build: the kernel's FIRST launch only, caches
#     flushed before it (--cache-control all), the metrics of metrics.txt
#     (headline hit rates, plus the same split by source unit and operation;
#     names this ncu does not know are dropped, see $out/metrics.used);
#   - traces the same first launch of the instrumented build (kernel filter,
#     GPUMEM_TRACE_SAMPLE so only launch #0 is traced: the simulator then
#     also starts with empty caches) and replays the file with gpumem-sim --json;
#   - prints the per-kernel table and the MAPE of L1 and L2 hit rates (mape.py),
#     then per kernel whether the trace's global load and store records equal
#     ncu's requests (sites.py; $out/requests.txt).
# It also profiles the cache microbenchmarks (cachemb.cu: bin/cachemb.off from
# build.sh, or bin/cachemb) with the same metrics. Output: $OUT/ncu/table.txt and the raw files.
# Environment: GM_TRACE_DEVBUILD (default .devbuild/trace), GM_NCU_ONLY=1
# (skip tracing: compare against traces already in $GM_NCU_TRACES),
# GM_NCU_BUDGET (seconds; later cases are skipped past it, default 100000),
# GM_NCU_TAGS (an extended regex: run only the cases whose tag matches).
# Depends on: ncu, python3, the devbuild. Exits 0 with "SKIP" without a GPU.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
dev=${GM_TRACE_DEVBUILD:-$root/.devbuild/trace}
out=${OUT:-/tmp/gm-trace-gpu}/ncu
ncu=${NCU:-ncu}
budget=${GM_NCU_BUDGET:-100000}
start=$(date +%s)
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
command -v "$ncu" >/dev/null 2>&1 || { echo "FAIL: ncu not found (set NCU)"; exit 1; }
export LD_LIBRARY_PATH="$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
: >"$out/cases"
"$ncu" --version >"$out/ncu.version" 2>&1
"$ncu" --query-metrics --chip gh100 >"$out/query.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt" 2>&1
metrics=
for m in $(grep -v '^#' "$root/tests/gpu/trace/metrics.txt"); do
  base=${m%.*}
  case $m in
  l1tex__t_sector_hit_rate.pct|lts__t_sector_hit_rate.pct|launch__*) ;;
  *) grep -Eq "(^|[[:space:]])$base([[:space:]]|\$)" "$out/query.txt" || { echo "$m" >>"$out/metrics.dropped"; continue; } ;;
  esac
  metrics=${metrics:+$metrics,}$m
done
echo "$metrics" | tr , '\n' >"$out/metrics.used"

base3=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,launch__shared_mem_config_size
over() { [ $(($(date +%s) - start)) -ge "$budget" ]; }

# case TAG PROGRAM KERNEL ARGS...
case_() {
  tag=$1 prog=$2 k=$3
  shift 3
  if over; then echo "skip $tag: over budget"; return; fi
  if [ -n "${GM_NCU_TAGS:-}" ] && ! echo "$tag" | grep -Eq "^(${GM_NCU_TAGS})\$"; then return; fi
  [ -x "$dev/bin/$prog.off" ] || { echo "skip $tag: $prog not built"; return; }
  "$ncu" --csv --page raw --cache-control all --kernel-name "regex:^$k\$" --launch-count 1 \
    --metrics "${mset:-$metrics}" "$dev/bin/$prog.off" "$@" >"$out/$tag.ncu.csv" 2>"$out/$tag.ncu.err"
  grep -q lts__t_sector_hit_rate "$out/$tag.ncu.csv" ||  # a metric it rejected: headline only
    "$ncu" --csv --page raw --cache-control all --kernel-name "regex:^$k\$" --launch-count 1 \
      --metrics "$base3" "$dev/bin/$prog.off" "$@" >"$out/$tag.ncu.csv" 2>>"$out/$tag.ncu.err"
  if [ "${GM_NCU_ONLY:-0}" = 1 ]; then
    echo "$tag $k" >>"$out/cases"
    echo "ran $tag (ncu only)"
    return
  fi
  [ -x "$dev/bin/$prog.trace" ] || { echo "skip $tag: $prog.trace not built"; return; }
  rm -f "$out/$tag.gmt"
  GPUMEM_TRACE_FILE="$out/$tag.gmt" GPUMEM_TRACE_SIM=0 GPUMEM_QUIET=1 \
    GPUMEM_TRACE_KERNELS="^_Z${#k}$k" GPUMEM_TRACE_SAMPLE=1000000000 \
    timeout 900 "$dev/bin/$prog.trace" "$@" >"$out/$tag.trace.txt" 2>&1
  "$dev/bin/gpumem-sim" --l2-launch=cold --json "$out/$tag.gmt" >"$out/$tag.sim.json" 2>"$out/$tag.sim.err"
  "$dev/bin/gpumem-sim" --l2-launch=cold --format counters "$out/$tag.gmt" >"$out/$tag.sim.txt" 2>>"$out/$tag.sim.err"
  echo "$tag $k" >>"$out/cases"
  echo "ran $tag"
}

# Cache microbenchmarks first (small, and they explain the rest)
mb=$dev/bin/cachemb.off
[ -x "$mb" ] || mb=$dev/bin/cachemb
if [ -x "$mb" ] && [ -z "${GM_NCU_TAGS:-}" ] && ! over; then
  "$ncu" --csv --page raw --cache-control all --kernel-name "regex:^mb_" \
    --metrics "$metrics" "$mb" >"$out/cachemb.ncu.csv" 2>"$out/cachemb.ncu.err"
  echo "ran cachemb"
fi

# DELTA regimes: one thread chases stride 33 (132 B: a new line per load)
case_ chase_l1 pointer_chase chase 16384 33 100000 1      # 64 KiB: fits L1
case_ chase_l2 pointer_chase chase 2097152 33 200000 1    # 8 MiB: beyond L1, fits L2
case_ chase_dram pointer_chase chase 33554432 33 200000 1 # 128 MiB: beyond L2
# L1 capacity: footprints around the L1 size the carve-out leaves (224 KiB)
case_ chase_160k pointer_chase chase 40960 33 100000 1
case_ chase_208k pointer_chase chase 53248 33 100000 1
case_ chase_240k pointer_chase chase 61440 33 100000 1
# L2 capacity seen by one SM (one partition's 25 MiB, or all 50 MiB?):
# 2.5 passes over 16..64 MiB; few metrics (each replay pass is ~1 s)
mset=$base3,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum
case_ chase_16m pointer_chase chase 4194304 33 317000 1
case_ chase_24m pointer_chase chase 6291456 33 476000 1
case_ chase_32m pointer_chase chase 8388608 33 635000 1
case_ chase_40m pointer_chase chase 10485760 33 794000 1
case_ chase_48m pointer_chase chase 12582912 33 953000 1
mset=
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
[ "${GM_NCU_ONLY:-0}" = 1 ] && exit 0
python3 "$root/tests/gpu/trace/mape.py" "$out" | tee "$out/table.txt"
# the trace is the native access stream: load/store records = ncu's requests
python3 "$root/tests/gpu/trace/sites.py" ncu "$out" | tee "$out/requests.txt"
