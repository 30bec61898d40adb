#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs a fuzz target a fixed number of times from a small seed corpus. Used
# by ctest; exits 77 (skipped) when the target was not built (no libFuzzer).
#   reader: gm-fuzz-trace from small valid traces (written by gpumem-sim --synth,
#           and the same three in version 1: seeds/v1-*.gmt, written by the
#           version 1 gpumem-sim of commit a028624)
#   model:  gm-fuzz-model from hand-made programs (fuzz_model.c says how the
#           bytes are read): a 1024 B-wide global access, a 2048 B-wide local
#           access, a 65535 B-wide store; and the inputs that once found a
#           difference (seeds/model-*.bin; model-top.bin: a 2048 B-wide load
#           whose lanes end at 2^64 - 1 and go on at 0, where the reference
#           dropped the top sector's bytes)
# usage: run_fuzz.sh BINDIR reader|model RUNS
set -eu
bin=$1; which=$2; runs=${3:-20000}
target=$bin/gm-fuzz-trace
[ "$which" = model ] && target=$bin/gm-fuzz-model
if [ ! -x "$target" ]; then echo "skipped: $target not built (no libFuzzer)"; exit 77; fi
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
mkdir "$dir/corpus"
if [ "$which" = reader ]; then
  "$bin/gpumem-sim" --synth 'warp:n=50,s=8,sms=3' --write "$dir/corpus/a.gmt"
  "$bin/gpumem-sim" --synth 'random:n=20,N=4K,kind=st;chase:N=1K,s=64,space=local' --write "$dir/corpus/b.gmt"
  "$bin/gpumem-sim" --synth 'list:a=0/128/4096,kind=atom,launches=2' --write "$dir/corpus/c.gmt"
  cp "$(dirname "$0")"/seeds/v1-*.gmt "$dir/corpus/"
else
  # config (3 bytes), alloc (op 0: base, size), launch (op 2), one record
  # (op 3: mask, width, space|kind, smid, slot, site, cta, lane mode, base,
  # stride), end (op 2)
  printf '\000\000\000\000\000\020\377\377\002\003\001\360\000\004\011\000\000\000\000\000\000\000\020\000\004\002' > "$dir/corpus/wide"
  printf '\025\005\000\002\003\001\360\000\010\014\001\003\000\000\000\000\000\000\000\000\002' > "$dir/corpus/local"
  printf '\000\000\000\000\000\020\377\377\002\003\001\360\377\377\021\000\000\000\000\000\000\000\020\004\000\002' > "$dir/corpus/max"
  cp "$(dirname "$0")"/seeds/model-*.bin "$dir/corpus/"
fi
# the target's status, not tail's: a crash or a difference fails the test
if ! "$target" -runs="$runs" -seed=1 -max_len=8192 "$dir/corpus" > "$dir/log" 2>&1; then
  tail -40 "$dir/log"
  exit 1
fi
tail -3 "$dir/log"
