#!/bin/sh
# Stand-in for a corpus program's traced build (tests/lit/sim/realtrace.test):
# writes a synthetic trace of 3 launches of one kernel (each reads the same
# 400 sectors) where the runtime would write the real one, and the runtime's
# summary line. GM_TEST_SIM: the gpumem-sim that writes it.
"$GM_TEST_SIM" --synth 'warp:n=100,s=4,step=128,N=64K,launches=3' --write "$GPUMEM_TRACE_FILE" || exit 1
echo PASS
echo "gpumem: trace: 3 launches, 300 records saved, 0 dropped, 0 over the cap, 0 lost, 0 copies; file $GPUMEM_TRACE_FILE" >&2
