#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Scale bench of `gpumem report`: generates synthetic reports of growing size
# (gen_report.py: N allocations, M launches) and renders each in every format
# (`gpumem report IN --format all -o DIR`) under /usr/bin/time -v, recording
# input bytes, wall and user seconds and peak RSS per row. Writes the table
# with the command, commit, date and machine to bench/results/report-scale.md
# (or OUT). Cost should grow linearly with the input: compare the ratios.
# usage: sh bench/report/run.sh [BUILD_DIR] [OUT]
#        SIZES="allocs:launches ..." overrides the rows.
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}
out=${2:-bench/results/report-scale.md}
sizes=${SIZES:-"1000:10000 10000:10000 100000:10000 1000:100000 1000:1000000 100000:1000000"}
gm=$build/bin/gpumem
[ -x "$gm" ] || { echo "run.sh: no $gm (build the gpumem_cli target)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
{
    echo "# gpumem report: time and memory against input size"
    echo
    echo "Command: \`sh bench/report/run.sh $build\`; each row: \`gpumem report IN --format all -o DIR\`"
    echo "on \`python3 bench/report/gen_report.py --allocs N --launches M\`."
    echo "Commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- report driver || echo ' (+ uncommitted changes)'),"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n): $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
    echo "$(nproc) cores, load average at start $(cut -d' ' -f1-3 /proc/loadavg)."
    echo "Wall time depends on the machine's load; user time and peak RSS much less."
    echo
    echo "| allocations | launches | input MB | wall s | user s | peak RSS MB | RSS / input | user s per 100 MB |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$tmp/table"
for s in $sizes; do
    n=${s%%:*}; m=${s##*:}
    python3 bench/report/gen_report.py --allocs "$n" --launches "$m" > "$tmp/in.json"
    /usr/bin/time -v "$gm" report "$tmp/in.json" --format all -o "$tmp/out" 2> "$tmp/time" > /dev/null ||
        { cat "$tmp/time" >&2; exit 1; }
    bytes=$(wc -c < "$tmp/in.json")
    awk -v n="$n" -v m="$m" -v b="$bytes" -F': ' '
        /Elapsed \(wall clock\)/ { k = split($2, t, ":"); w = 0; for (i = 1; i <= k; i++) w = w * 60 + t[i] }
        /User time/ { u = $2 }
        /Maximum resident set size/ { r = $2 / 1024 }
        END { mb = b / 1048576; printf "| %d | %d | %.1f | %.2f | %.2f | %.0f | %.2f | %.2f |\n",
              n, m, mb, w, u, r, r / mb, u / mb * 100 }' "$tmp/time" >> "$tmp/table"
    tail -1 "$tmp/table"
    rm -rf "$tmp/out" "$tmp/in.json"
done
cp "$tmp/table" "$out"
echo "written: $out"
