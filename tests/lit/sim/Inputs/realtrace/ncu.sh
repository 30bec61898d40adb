#!/bin/sh
# Stand-in for Nsight Compute (tests/lit/sim/realtrace.test), fabricated
# values: prints ncu --csv --page raw rows for the launches --launch-skip /
# --launch-count select of a program of 3 launches of synth_warp, each
# 400 global-load sectors (0 L1 hits) and 400 L2 read sectors: 0 L2 hits
# with --cache-control all, 0 / 380 / 400 with none (application replay).
# Logs its arguments to $GM_TEST_NCU_LOG.
skip=0 count=3 cc=all
for a; do
  case $prev in --launch-skip) skip=$a ;; --launch-count) count=$a ;; --cache-control) cc=$a ;; esac
  prev=$a
done
echo "$*" >>"$GM_TEST_NCU_LOG"
echo "==PROF== Connected to process 1 (./main)"
echo "PASS"
printf '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC"'
m="l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
for o in read write atom red; do m="$m lts__t_sectors_srcunit_tex_op_$o.sum lts__t_sectors_srcunit_tex_op_${o}_lookup_hit.sum"; done
for x in $m; do printf ',"%s"' "$x"; done; echo
printf '"","","","","","","","","","",""'; for x in $m; do printf ',"sector"'; done; echo
id=0 i=$skip
while [ "$i" -lt 3 ] && [ "$id" -lt "$count" ]; do
  hit=0
  [ "$cc" = none ] && [ "$i" = 1 ] && hit=380
  [ "$cc" = none ] && [ "$i" = 2 ] && hit=400
  echo "\"$id\",\"1\",\"main\",\"h\",\"synth_warp\",\"1\",\"7\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\",\"400\",\"0\",\"400\",\"$hit\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\""
  id=$((id + 1)) i=$((i + 1))
done
echo "==PROF== Disconnected from process 1"
