#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the known-answer programs on the GPU machine (from the repository
# root, with build-kat/ from tests/gpu/kat/build.sh). For each program:
# the hand-computed expectations it prints ("expect ..." lines) go to
# $OUT/kat/NAME.expect, the runtime's report to $OUT/kat/NAME/ (GPUMEM_OUT),
# check.py's comparison to $OUT/kat/NAME.check (FAIL and MANUAL lines and
# the count of failures are echoed); exits 1 if any program or check fails;
# with WITH_NCU=1 also Nsight Compute's sector and wavefront counters of the
# --gm-off build to $OUT/kat/NAME.ncu.csv. The NAME.ool build (every loop
# site out of line) is checked against the same expectations of
# coalescing and divergence ($OUT/kat/NAME.ool.*). Depends on: sh,
# python3, c++filt, the devbuild.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
dev=$root/build-kat
out=${OUT:-$root/out}/kat
mkdir -p "$out"
nvidia-smi >/dev/null 2>&1 || { echo "SKIP: no GPU"; exit 0; }
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum
# each binary finishes in seconds; a hang (exit 124) stops at GM_KAT_TIMEOUT s (default 120)
klimit=${GM_KAT_TIMEOUT:-120}
rc=0
for bin in "$dev"/bin/kat_*.inst; do
  n=$(basename "$bin" .inst)
  if GPUMEM_OUT="$out/$n" timeout "$klimit" "$bin" >"$out/$n.expect" 2>"$out/$n.stderr"; then
    echo "ran $n: $(grep -c '^expect' "$out/$n.expect") expectations, report in $out/$n/"
    python3 "$root/tests/gpu/kat/check.py" "$out/$n.expect" "$out/$n" >"$out/$n.check" 2>&1 || rc=1
    grep -E '^(FAIL|MANUAL)|failed$|check.py' "$out/$n.check"
  else
    echo "FAILED $n (exit $?): $(tail -3 "$out/$n.stderr")"; rc=1
  fi
  if [ -x "$dev/bin/$n.ool" ]; then
    if GPUMEM_OUT="$out/$n.ool" timeout "$klimit" "$dev/bin/$n.ool" >"$out/$n.ool.out" 2>"$out/$n.ool.stderr"; then
      grep -E '^expect .* (coalescing|divergence)\.' "$out/$n.ool.out" >"$out/$n.ool.expect"
      echo "ran $n.ool: $(grep -c '^expect' "$out/$n.ool.expect") expectations, report in $out/$n.ool/"
      python3 "$root/tests/gpu/kat/check.py" "$out/$n.ool.expect" "$out/$n.ool" >"$out/$n.ool.check" 2>&1 || rc=1
      grep -E '^(FAIL|MANUAL)|failed$|check.py' "$out/$n.ool.check"
    else
      echo "FAILED $n.ool (exit $?): $(tail -3 "$out/$n.ool.stderr")"; rc=1
    fi
  fi
  if [ "${WITH_NCU:-0}" = 1 ]; then
    ncu --csv --metrics "$metrics" "$dev/bin/$n.off" >"$out/$n.ncu.csv" 2>&1 || echo "ncu failed on $n"
  fi
done
exit $rc
