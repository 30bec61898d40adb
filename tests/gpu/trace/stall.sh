#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU test: a traced kernel that outgrows the trace ring, followed by each
# kind of host call a program makes after a launch (stall.cu), must finish.
# On a time-out the threads of the stuck process are listed (state, kernel
# wait channel, CPU ticks, and gdb backtraces where gdb exists) before it is
# killed. Prints PASS/FAIL lines and "N passed, N failed".
# Usage: tests/gpu/trace/stall.sh DEVBUILD [MODE...] (DEVBUILD holds
# bin/stall.trace and lib/). Environment: GM_STALL_TIMEOUT (s, default 30).
# Depends on: sh, timeout, nvidia-smi; gdb optional.
set -u
dev=$1
shift
modes=${*:-"devsync streamsync eventsync pageable_d2h pageable_h2d pinned_d2h async_pageable_d2h async_pinned_d2h free malloc memset hostalloc streamcreate funcattr"}
limit=${GM_STALL_TIMEOUT:-30}
pass=0 fail=0
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
export LD_LIBRARY_PATH="$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

threads() { # PID: one line per thread
  for t in /proc/"$1"/task/*; do
    [ -d "$t" ] || continue
    set -- $(cut -d' ' -f3,14,15 "$t/stat" 2>/dev/null)
    echo "  thread $(basename "$t") $(cat "$t/comm" 2>/dev/null): state ${1:-?} utime ${2:-?} stime ${3:-?} wchan $(cat "$t/wchan" 2>/dev/null)"
  done
}

for m in $modes; do
  t0=$(date +%s%N)
  GPUMEM_QUIET=1 GPUMEM_TRACE_FILE=/tmp/gm-stall-$m.gmt "$dev/bin/stall.trace" "$m" >/tmp/gm-stall-$m.txt 2>&1 &
  pid=$!
  waited=0
  while kill -0 $pid 2>/dev/null && [ $waited -lt $((limit * 10)) ]; do sleep 0.1; waited=$((waited + 1)); done
  if kill -0 $pid 2>/dev/null; then
    echo "FAIL $m: still running after $limit s; threads:"
    threads $pid
    sleep 2
    echo "  2 s later:"
    threads $pid
    command -v gdb >/dev/null && gdb -p $pid -batch -ex "thread apply all bt 12" 2>&1 | grep -E "^Thread|^#" | head -120
    ls -l /tmp/gm-stall-$m.gmt 2>&1 | sed 's/^/  /'
    kill -9 $pid
    wait $pid 2>/dev/null
    fail=$((fail + 1))
    continue
  fi
  wait $pid
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ $rc = 0 ] && grep -q "checksum ok" /tmp/gm-stall-$m.txt; then
    echo "PASS $m: $ms ms, $(grep -m1 'trace:' /tmp/gm-stall-$m.txt)"
    pass=$((pass + 1))
  else
    echo "FAIL $m: exit status $rc: $(tail -3 /tmp/gm-stall-$m.txt | tr '\n' ' ')"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
