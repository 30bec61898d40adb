#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU tests of the trace capture (issue 4 items 1 and 3), run on the GPU
# machine from the repository root with .devbuild/trace/ made by
# tests/gpu/trace/build.sh:
#  1. known-answer kernels (known.cu): exact records, sectors and atomics
#     per launch, a two-slot (64-bit delta) record, nothing dropped;
#  2. vector add of 2^20 floats: 3 * 2^20 / 32 records per launch, also
#     through a 4096-slot ring (back-pressure: the ring wraps 24 times per
#     launch and nothing is dropped); drop mode counts exactly what it
#     drops; the record cap, the kernel filter and launch sampling;
#  3. pointer chase: one load record per step;
#  4. online == offline: the runtime's online simulation equals
#     `gpumem-sim --json` on the trace file it wrote (compare.py);
#  5. records per site = the native kernel's warp executions: spmv_ell's
#     first launch, each unrolled copy of each load against the hand count
#     (sites.py; the lanes that skip its `if` must not run ahead);
#  6. small traces for the no-GPU demo are left in $OUT/traces/;
#  7. a kernel that outgrows the ring, followed at once by each kind of
#     host call that may block in the driver, finishes (stall.sh).
# Prints PASS/FAIL lines and "N passed, N failed"; exits 0 with "SKIP: no
# GPU" when nvidia-smi fails. Depends on: sh, grep, python3, the devbuild.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
dev=${GM_TRACE_DEVBUILD:-$root/.devbuild/trace}
out=${OUT:-/tmp/gm-trace-gpu}
work=$out/trace-work
pass=0 fail=0
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
[ -x "$dev/bin/gpumem-sim" ] || { echo "FAIL: $dev not built (run tests/gpu/trace/build.sh)"; exit 1; }
export LD_LIBRARY_PATH="$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$work" "$out/traces"

result() { echo "$1 $2"; if [ "$1" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

# trace TAG BINARY ARGS... (extra GPUMEM_TRACE_* come from the environment)
trace() {
  tag=$1 bin=$2
  shift 2
  rm -f "$work/$tag.gmt"
  GPUMEM_TRACE_FILE="$work/$tag.gmt" GPUMEM_TRACE_SIM_OUT="$work/$tag.online" \
    GPUMEM_OUT="$work/$tag.report" timeout 600 "$dev/bin/$bin" "$@" >"$work/$tag.txt" 2>&1
  echo $? >"$work/$tag.rc"
}

# expect TAG REGEX WHAT: a line of TAG's online report or stderr matches REGEX
expect() {
  if cat "$work/$1.online" "$work/$1.txt" 2>/dev/null | grep -Eq -- "$2"; then result PASS "$1: $3"
  else result FAIL "$1: $3 (no line matching '$2'; see $work/$1.online, $work/$1.txt)"; fi
}

ran() { # TAG: exit status 0
  if [ "$(cat "$work/$1.rc")" = 0 ]; then result PASS "$1: ran ($(grep -m1 checksum "$work/$1.txt"))"
  else result FAIL "$1: exit status $(cat "$work/$1.rc"): $(tail -3 "$work/$1.txt" | tr '\n' ' ')"; fi
}

offline() { # TAG: online equals gpumem-sim --json on the file
  if "$dev/bin/gpumem-sim" --json "$work/$1.gmt" >"$work/$1.json" 2>"$work/$1.sim.err" &&
     msg=$(python3 "$root/tests/gpu/trace/compare.py" "$work/$1.online" "$work/$1.json"); then
    result PASS "$1: online == offline: $msg"
  else result FAIL "$1: online != offline: ${msg:-$(head -2 "$work/$1.sim.err")}"; fi
}

L='gpumem-trace: launch'
# 1. known answers
trace known known.trace
ran known
expect known "$L 0 _Z8k_stridePf records=32 dropped=0 requests=32 sectors=1024 " "k_stride: 32 records, 1024 sectors"
expect known "$L 1 _Z6k_halfPf records=4 dropped=0 requests=4 sectors=8 " "k_half: 4 half-warp records, 8 sectors"
expect known "$L 2 _Z6k_widePKhPj records=2 dropped=0 requests=2 sectors=6 " "k_wide: 64-bit deltas decoded (6 sectors)"
expect known "$L 3 _Z8k_atomicPj records=8 dropped=0 .* l2_atom=8 " "k_atomic: 8 atomic records"
expect known "trace: 4 launches, 46 records saved, 0 dropped, 0 over the cap, 0 lost" "totals, nothing lost"
offline known

# 2. vector add, 2^20 floats: vadd (1 float/thread) then vadd4 (1 float4/thread),
#    each a warm-up + 1 timed launch; 3n/32 and 3n/128 records, 4 resp. 16 sectors each
n=1048576 r=98304 r4=24576
V='_Z4vaddPKfS0_Pfi' V4='_Z5vadd4PK6float4S1_PS_i'
trace va vector_add.trace $n 1
ran va
expect va "$L 0 $V records=$r dropped=0 requests=$r sectors=393216 " "vadd launch 0: 3n/32 records, 4 sectors each"
expect va "$L 1 $V records=$r dropped=0 " "vadd launch 1: 3n/32 records"
expect va "$L 2 $V4 records=$r4 dropped=0 requests=$r4 sectors=393216 " "vadd4 launch 0: 3n/128 records, 16 sectors each"
expect va "$L 3 $V4 records=$r4 dropped=0 " "vadd4 launch 1: 3n/128 records"
expect va "trace: 4 launches, 245760 records saved, 0 dropped, 0 over the cap, 0 lost" "nothing lost"
offline va
cp "$work/va.gmt" "$out/traces/vector_add_1M.gmt" 2>/dev/null

GPUMEM_TRACE_BUFFER_MB=1 trace va_ring vector_add.trace $n 1
expect va_ring "trace: 4 launches, 245760 records saved, 0 dropped, 0 over the cap, 0 lost" "4096-slot ring, back-pressure: nothing lost"
offline va_ring
GPUMEM_TRACE_BUFFER_MB=1 GPUMEM_TRACE_MODE=drop trace va_drop vector_add.trace $n 1
expect va_drop "trace: 4 launches, 16384 records saved, 229376 dropped, 0 over the cap, 0 lost" "drop mode: exactly the ring kept, the rest counted"
expect va_drop "$L 0 $V records=4096 dropped=94208 " "drop mode: per-launch counts"
GPUMEM_TRACE_MAX_RECORDS=1000 trace va_cap vector_add.trace $n 1
expect va_cap "trace: 4 launches, 4000 records saved, 0 dropped, 241760 over the cap, 0 lost" "record cap"
GPUMEM_TRACE_KERNELS='^nomatch$' trace va_filter vector_add.trace $n 1
if grep -q "gpumem-trace: launch" "$work/va_filter.online" 2>/dev/null; then result FAIL "va_filter: a launch was traced"
else result PASS "va_filter: kernel filter traced nothing"; fi
GPUMEM_TRACE_KERNELS='vadd4' GPUMEM_TRACE_SAMPLE=2 trace va_sample vector_add.trace 65536 3
expect va_sample "trace: 2 launches, 3072 records saved, 0 dropped" "filter vadd4, every 2nd of 4 launches"

# 2b. copies and memsets between launches reach the trace in program
#     order and the simulator passes them through L2 (copies.cu)
trace copies copies.trace
ran copies
S='_Z7k_scalePKfPf'
"$dev/bin/trace_events" "$work/copies.gmt" >"$work/copies.events" 2>&1
if tr '\n' '|' <"$work/copies.events" | grep -Eq \
  "copy h2d dst=0x[0-9a-f]+ src=0x[0-9a-f]+ bytes=1048576\|launch 0 $S\|.*end 0 records=16384 dropped=0\|copy set dst=0x[0-9a-f]+ src=0x0 bytes=1048576\|(copy h2d dst=0x[0-9a-f]+ src=0x[0-9a-f]+ bytes=256\|){4}launch 1 $S\|.*end 1 records=16384 dropped=0\|copy d2h dst=0x[0-9a-f]+ src=0x[0-9a-f]+ bytes=1048576\|eof"
then result PASS "copies: h2d, launch 0, memset, 4 rows of a 2D copy, launch 1, d2h, in this order"
else result FAIL "copies: events out of order or missing (see $work/copies.events)"; fi
expect copies "$L 0 $S records=16384 dropped=0 .* l2_rd=32768 l2_rd_hit=32768 " "warm L2: launch 0 hits all the copy wrote"
expect copies "$L 1 $S records=16384 dropped=0 .* l2_rd=32768 l2_rd_hit=32768 " "warm L2: launch 1 hits all the memset wrote"
if "$dev/bin/gpumem-sim" --format counters --l2-launch=cold "$work/copies.gmt" 2>&1 | grep -Eq "^launch 0 .* l2_rd=32768 l2_rd_hit=0 "
then result PASS "copies: cold L2: launch 0 misses every sector"
else result FAIL "copies: cold L2 launch 0 not 32768 misses"; fi
offline copies

# 3. pointer chase: 1000 dependent loads of one thread per launch
trace chase pointer_chase.trace 65536 33 1000 1
ran chase
expect chase "$L 0 _Z5chasePKjPji records=100[1-2] dropped=0 .* l1_ld=1000 " "1000 load records (+ the final stores)"
offline chase

# 5. records per site: spmv_ell (16384 rows, 8 per row on average), launch #0
GPUMEM_TRACE_KERNELS='^_Z8spmv_ell' GPUMEM_TRACE_SAMPLE=1000000000 trace ell spmv.trace 16384 8 1
ran ell
if "$dev/bin/gpumem-sim" --json "$work/ell.gmt" >"$work/ell.json" 2>"$work/ell.sim.err"; then
  msg=$(python3 "$root/tests/gpu/trace/sites.py" spmv_ell "$work/ell.json" 16384 8)
  result "${msg%% *}" "ell: ${msg#* }"
else result FAIL "ell: gpumem-sim failed: $(head -2 "$work/ell.sim.err")"; fi

# 6. small traces for the README demo
trace demo_va vector_add.trace 65536 1
cp "$work/demo_va.gmt" "$out/traces/vector_add_64k.gmt" 2>/dev/null
trace demo_chase pointer_chase.trace 4096 33 20000 1
cp "$work/demo_chase.gmt" "$out/traces/pointer_chase_16k.gmt" 2>/dev/null
ls -l "$out/traces" | sed 's/^/  /'

# 7. host calls that block in the driver while a traced kernel waits for ring space
GM_STALL_TIMEOUT=30 sh "$root/tests/gpu/trace/stall.sh" "$dev" >"$work/stall.txt" 2>&1
grep -E '^(PASS|FAIL)' "$work/stall.txt" | while read -r verdict rest; do echo "$verdict stall: $rest"; done
pass=$((pass + $(grep -c '^PASS' "$work/stall.txt"))) fail=$((fail + $(grep -c '^FAIL' "$work/stall.txt")))
grep -q passed "$work/stall.txt" || { echo "FAIL stall: no summary: $(tail -2 "$work/stall.txt" | tr '\n' ' ')"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
