#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the report fuzz target (fuzz_report.c) for a bounded time from the
# seed corpus in the repository (fuzz/corpus: r* raw JSON reports, s* inputs
# of the structured generator). New inputs go to a scratch directory, so the
# repository's corpus only changes by hand. On a finding, libFuzzer's report
# and the input that caused it (crash-*, leak-*, oom-*, timeout-*) are left
# in the directory named at the end; exit status non-zero. Used by ctest
# (report_fuzz).
# usage: run_fuzz.sh FUZZER SECONDS [more libFuzzer options]
set -eu
fuzzer=$1; secs=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gm-report-fuzz.XXXXXX")
mkdir "$work/new"
cd "$work"
if "$fuzzer" -max_total_time="$secs" -seed=1 -max_len=4096 -rss_limit_mb=2048 -timeout=30 \
     -print_final_stats=1 "$@" "$work/new" "$here/corpus" > "$work/log" 2>&1; then
    grep -E '^(Done|stat::number_of_executed_units)' "$work/log" || true
    rm -rf "$work"
    exit 0
fi
tail -40 "$work/log"
echo "run_fuzz.sh: finding kept in $work" >&2
exit 1
