#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the trace-reader fuzz target a fixed number of times from a seed
# corpus of small valid traces (written by gpumem-sim --synth). Used by ctest.
# usage: run_fuzz.sh BINDIR RUNS
set -eu
bin=$1; runs=${2:-20000}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
mkdir "$dir/corpus"
"$bin/gpumem-sim" --synth 'warp:n=50,s=8,sms=3' --write "$dir/corpus/a.gmt"
"$bin/gpumem-sim" --synth 'random:n=20,N=4K,kind=st;chase:N=1K,s=64,space=local' --write "$dir/corpus/b.gmt"
"$bin/gpumem-sim" --synth 'list:a=0/128/4096,kind=atom,launches=2' --write "$dir/corpus/c.gmt"
"$bin/gm-fuzz-trace" -runs="$runs" -seed=1 -max_len=8192 "$dir/corpus" 2>&1 | tail -3
