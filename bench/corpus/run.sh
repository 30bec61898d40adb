#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Corpus harness, GPU part (run on the GPU machine from the repository root,
# after bench/corpus/pack.sh made .devpack/corpus.tar.gz here): runs each
# packed program's nvcc build and gpumemcc build, one after the other, with
# its Makefile's run arguments (PROGRAMS.txt), and compares what they print;
# with -c "nvcc gm off" also the --gm-off build (kernel time only); with
# "sel" in -c the --gm-native-copies build, run with GPUMEM_LAUNCH_EVERY=N
# (GM_SEL_EVERY, default 10: every 10th launch of each kernel measured, the
# others run the kernels' uninstrumented copies; kernel time only). Every run
# has gm-ktime injected (bench/ktime: kernel time summed over all launches,
# measured the same way for every build; GPUMEM_FORCE=1 lets gpumem's
# runtime run beside it). A gpumemcc or sel run stopped at the time limit
# gets its first K launches compared with the same launches of the complete
# --gm-off run in its note (gm-ktime's per-launch times, GM_KTIME_SEQ).
# Lines that report times or rates are set aside (times.tsv keeps them side
# by side); the rest of stdout and the exit status must be equal ("same").
# Where they differ only in lines that carry no verification word, the
# verdict is "same-verification"; otherwise "differs", with the first
# differing lines in the note. Results go to $OUT (or out/corpus-run):
# runs.tsv, times.tsv, logs.tar.gz; each row is written as soon as known.
# -p N runs N programs at once (each program's builds still one after the
# other): for verdicts only, since programs sharing the GPU slow each other,
# so runs.tsv then marks every time as concurrent.
# Usage: bench/corpus/run.sh [-t SECONDS per run] [-c "nvcc gm off"] [-p N] [PROGRAM...]
# Depends on: sh, tar, timeout, diff, awk; a CUDA driver.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmo=120 configs="nvcc gm" par=1
while getopts t:c:p: f; do
  case $f in t) tmo=$OPTARG ;; c) configs=$OPTARG ;; p) par=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
out=${OUT:-$root/out/corpus-run}
mkdir -p "$out"
work=${GM_CORPUS_RUN:-/tmp/gm-corpus-run}
rm -rf "$work" && mkdir -p "$work" && tar xzf "$root/.devpack/corpus.tar.gz" -C "$work" || exit 1
c=$work/corpus
export LD_LIBRARY_PATH="$c/lib:${CUDA_PATH:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}"
logs=$work/logs
mkdir -p "$logs"
progs=${*:-$(ls "$c/gm" 2>/dev/null)}
printf 'program\tnvcc_rc\tgm_rc\tverdict\tnvcc_s\tgm_s\tnvcc_kernel_ms\tgm_kernel_ms\toff_kernel_ms\tnote\tsel_kernel_ms\n' >"$out/runs.tsv"
printf 'program\tnvcc timing lines\tgpumemcc timing lines\n' >"$out/times.tsv"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/device: /'

TIMING='[Tt]ime|TIME|[^a-z]ms|msec|[^a-z]us[^a-z]|usec|[Ss]ec|[Tt]hroughput|GB/s|GiB/s|[Bb]andwidth|[Ee]lapsed|GFLOP|Gflop|[Ss]peed'
VERIFY='PASS|FAIL|[Pp]ass|[Ff]ail|[Ee]rror|ERROR|[Cc]orrect|[Mm]ismatch|[Vv]erif|[Cc]heck|[Dd]iff|[Mm]atch'

args_of() { # the Makefile run target's command, with ./main and $(LAUNCHER) as the program
  awk -F'|' -v p="$1" '$1 == p {print $2}' "$c/PROGRAMS.txt"
}

run_one() { # CONFIG PROGRAM ARGS -> $logs/P.CONFIG.{out,err,rc,s}
  d=$c/$1/$2 l=$logs/$2.$1
  case $3 in
  *'$(LAUNCHER)'*) cmd=$(printf '%s' "$3" | sed 's/\$(LAUNCHER)//') ;;
  *) cmd="./main $3" ;;
  esac
  t0=$(date +%s.%N) every=1
  [ "$1" = sel ] && every=${GM_SEL_EVERY:-10}
  ( cd "$d" && GPUMEM_LAUNCH_EVERY=$every GPUMEM_OUT="$l.report" GPUMEM_FORCE=1 CUDA_INJECTION64_PATH="$c/lib/libgm-ktime.so" \
      GM_KTIME_OUT="$l.ktime" GM_KTIME_SEQ="$l.seq" timeout -k 5 "$tmo" sh -c "$cmd" ) >"$l.out" 2>"$l.err" </dev/null
  echo $? >"$l.rc"
  echo "$t0 $(date +%s.%N)" | awk '{printf "%.2f\n", $2 - $1}' >"$l.s"
}

kernel_ms() { # PROGRAM CONFIG: total kernel time of the run, or - without a complete run
  f=$logs/$1.$2.ktime
  [ -s "$f" ] && [ "$(cat "$logs/$1.$2.rc" 2>/dev/null)" != 124 ] || { echo -; return; }
  awk -F'\t' '{ns += $3} END {printf "%.3f\n", ns / 1e6}' "$f"
}

first_k() { # PROGRAM CONFIG: for a run stopped at the time limit, its first K
  # launches' kernel time beside the same launches of the complete --gm-off run
  # (launches in start order, from gm-ktime's GM_KTIME_SEQ)
  s=$logs/$1.$2.seq o=$logs/$1.off.seq
  case $(cat "$logs/$1.$2.rc" 2>/dev/null) in 124|137) ;; *) return 0 ;; esac
  [ -s "$s" ] && [ -s "$o" ] || return 0
  case $(cat "$logs/$1.off.rc") in 124|137) return 0 ;; esac
  k=$(wc -l <"$s")
  sort -n "$o" | awk -F'\t' -v k="$k" -v c="$2" -v g="$(awk -F'\t' '{ns += $2} END {print ns}' "$s")" \
    'NR <= k {ns += $2} END {printf "; %s first %d of %d launches: %.1f ms vs --gm-off %.1f ms (%.2fx)", c, k, NR, g / 1e6, ns / 1e6, ns ? g / ns : 0}'
}

one_program() { # PROGRAM: run its builds, compare, append its rows
  p=$1 a=$(args_of "$1")
  case $a in
  '#'*|'	#'*) printf '%s\t-\t-\tnot run\t-\t-\t-\t-\t-\tthe Makefile run target is commented out\n' "$p" >>"$out/runs.tsv"; return ;;
  esac
  [ -x "$c/nvcc/$p/main" ] && [ -x "$c/gm/$p/main" ] || return
  for k in $configs; do
    [ -x "$c/$k/$p/main" ] && run_one "$k" "$p" "$a"
  done
  rn=$(cat "$logs/$p.nvcc.rc") rg=$(cat "$logs/$p.gm.rc")
  for k in nvcc gm; do
    grep -Ev "$TIMING" "$logs/$p.$k.out" >"$logs/$p.$k.cmp"
    grep -E "$TIMING" "$logs/$p.$k.out" | head -20 | tr '\t\n' '  ' >"$logs/$p.$k.times"
  done
  note=
  [ "$par" -gt 1 ] && note="times concurrent (-p $par); "
  if [ "$rg" = 124 ] || [ "$rg" = 137 ]; then
    verdict=timeout note="${note}gpumemcc build still running after $tmo s"
  elif [ "$rn" != "$rg" ]; then
    verdict=differs note="${note}exit status $rn vs $rg: $(tail -n 1 "$logs/$p.gm.err" | cut -c1-160)"
  elif cmp -s "$logs/$p.nvcc.cmp" "$logs/$p.gm.cmp"; then
    verdict=same
  elif [ "$(grep -E "$VERIFY" "$logs/$p.nvcc.cmp")" = "$(grep -E "$VERIFY" "$logs/$p.gm.cmp")" ]; then
    verdict=same-verification
    note="${note}other lines differ: $(diff "$logs/$p.nvcc.cmp" "$logs/$p.gm.cmp" | grep '^[<>]' | head -2 | cut -c1-80 | tr '\t\n' '  ')"
  else
    verdict=differs
    note=$note$(diff "$logs/$p.nvcc.cmp" "$logs/$p.gm.cmp" | grep '^[<>]' | head -2 | cut -c1-100 | tr '\t\n' '  ')
  fi
  if [ -f "$logs/$p.sel.out" ]; then # the sampled build must print what nvcc's does
    grep -Ev "$TIMING" "$logs/$p.sel.out" >"$logs/$p.sel.cmp"
    if [ "$(cat "$logs/$p.sel.rc")" = "$rn" ] && cmp -s "$logs/$p.nvcc.cmp" "$logs/$p.sel.cmp"; then
      note="${note}${note:+; }sel: same"
    elif [ "$(cat "$logs/$p.sel.rc")" = "$rn" ] &&
         [ "$(grep -E "$VERIFY" "$logs/$p.nvcc.cmp")" = "$(grep -E "$VERIFY" "$logs/$p.sel.cmp")" ]; then
      note="${note}${note:+; }sel: same-verification"
    else
      note="${note}${note:+; }sel: DIFFERS (exit $(cat "$logs/$p.sel.rc"))"
    fi
  fi
  note=$note$(first_k "$p" gm)$(first_k "$p" sel)
  rm -f "$logs/$p".*.seq
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$rn" "$rg" "$verdict" "$(cat "$logs/$p.nvcc.s")" \
    "$(cat "$logs/$p.gm.s")" "$(kernel_ms "$p" nvcc)" "$(kernel_ms "$p" gm)" "$(kernel_ms "$p" off)" \
    "$note" "$(kernel_ms "$p" sel)" >>"$out/runs.tsv"
  printf '%s\t%s\t%s\n' "$p" "$(cat "$logs/$p.nvcc.times")" "$(cat "$logs/$p.gm.times")" >>"$out/times.tsv"
  echo "$p: $verdict ($(cat "$logs/$p.nvcc.s") s / $(cat "$logs/$p.gm.s") s) $note"
}

running=0
for p in $progs; do
  if [ "$par" -le 1 ]; then
    one_program "$p"
  else
    one_program "$p" &
    running=$((running + 1))
    [ "$running" -ge "$par" ] && { wait; running=0; }
  fi
  tar czf "$out/logs.tar.gz.part" -C "$work" logs 2>/dev/null && mv "$out/logs.tar.gz.part" "$out/logs.tar.gz"
done
wait
tar czf "$out/logs.tar.gz.part" -C "$work" logs 2>/dev/null && mv "$out/logs.tar.gz.part" "$out/logs.tar.gz"
