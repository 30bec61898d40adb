#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU suite `link` (issue 13): objects from `gpumemcc -c` linked by other
# tools report exactly what the gpumemcc-linked build reports.
#   tests/gpu/link.sh build [BUILD_DIR]   # here: gpumemcc, gcc, g++, clang, ar, nvcc
#   tests/gpu/link.sh run   [BUILD_DIR]   # on the H100 (tests/gpu/all.sh link)
# Styles (programs from tests/lit/runtime/Inputs/link, in BUILD_DIR/tests/gpu/link):
#   ref      gpumemcc main.o kern.o            (the reference)
#   gcc      gcc main.o kern.o -lcudart -lstdc++
#   gxx      g++ ... -lcudart_static
#   clang    clang++-22 ... -lcudart
#   ar       gcc main.o libkern.a ...
#   dlopen   host-only C program dlopen()ing libkern.so (g++ -shared)
#   late     the same after the program initialised CUDA itself
#   python   python3 loading libkern.so through ctypes (as an extension)
#   mpi      mpicxx ... (only where mpicxx was found at build time)
#   mixed    gcc main.o plain.o kern.o, plain.o from nvcc (else plain clang):
#            one more launch, uninstrumented and not measured
#   rdc      gcc of -dc objects + the gpumemcc -dlink object, against
#   rdc-ref  gpumemcc's own link of the same -dc objects
# Each run gets GPUMEM_RUNTIME=BUILD_DIR/lib/libgpumem.so: the path the
# objects recorded is this build machine's. Checks per style: exit status 0,
# checksum equal to ref's, the launch summary line, and gpumem-counters.csv
# equal to its reference's. Then `missing`: the gcc build with
# GPUMEM_RUNTIME naming no file prints one line, the right checksum and no
# report. Prints PASS/FAIL lines; exits non-zero if any check fails.
set -u
cmd=${1:-run}
B=$(cd "${2:-build}" 2>/dev/null && pwd) || { echo "link: no build dir ${2:-build}" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
IN=$SRC/tests/lit/runtime/Inputs/link
CUDA=${CUDA_PATH:-/usr/local/cuda}
OUTD=$B/tests/gpu/link
ARCH=sm_90

build() {
  rm -rf "$OUTD" && mkdir -p "$OUTD" && cd "$OUTD" || exit 2
  gm="$B/bin/gpumemcc -arch=$ARCH"
  cudart="-L$CUDA/lib64 -lcudart -Wl,-rpath,$CUDA/lib64"
  set -e
  $gm -c -Xcompiler -fPIC "$IN/kern.cu" -o kern.o
  $gm -dc -DGM_LINK_RDC "$IN/kern.cu" -o kern_rdc.o
  $gm -dc "$IN/rdc_scale.cu" -o scale_rdc.o
  $gm -dlink kern_rdc.o scale_rdc.o -o dlink.o
  if command -v nvcc >/dev/null || [ -x "$CUDA/bin/nvcc" ]; then
    PATH=$PATH:$CUDA/bin nvcc -arch=$ARCH -c "$IN/plain.cu" -o plain.o; echo nvcc >plain.by
  else
    clang++-22 -x cuda --cuda-path="$CUDA" -Wno-unknown-cuda-version --cuda-gpu-arch=$ARCH -c "$IN/plain.cu" -o plain.o
    echo clang >plain.by
  fi
  gcc -c "$IN/main.c" -o main.o
  gcc -DGM_LINK_MIXED -c "$IN/main.c" -o main_mixed.o
  $gm main.o kern.o -o ref -Xlinker -rpath -Xlinker '$ORIGIN/../../../lib'
  gcc main.o kern.o $cudart -lstdc++ -o gcc
  g++ main.o kern.o -L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread -o gxx
  clang++-22 main.o kern.o $cudart -o clang
  ar rcs libkern.a kern.o
  gcc main.o -L. -lkern $cudart -lstdc++ -o ar
  g++ -shared kern.o -o libkern.so $cudart
  gcc "$IN/dlopen_main.c" -o dlopen
  gcc -DGM_LINK_LATE "$IN/dlopen_main.c" -o late $cudart
  printf '#!/bin/sh\nexec python3 -c "import ctypes, sys; sys.exit(ctypes.CDLL(sys.argv[1]).gm_link_run(1 << 16))" "$1"\n' >python
  chmod +x python
  if command -v mpicxx >/dev/null; then mpicxx main.o kern.o $cudart -o mpi
  else echo "NOTE: no mpicxx here: style mpi not built"; fi
  gcc main_mixed.o plain.o kern.o $cudart -lstdc++ -o mixed
  $gm main.o kern_rdc.o scale_rdc.o -o rdc-ref -Xlinker -rpath -Xlinker '$ORIGIN/../../../lib'
  gcc main.o kern_rdc.o scale_rdc.o dlink.o $cudart -lstdc++ -o rdc
  set +e
  echo "link: built $(ls "$OUTD" | wc -l) files in $OUTD (plain.o by $(cat plain.by))"
}

fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run_style() { # style -> $rc; files $OUTD/run/$style.{out,err}, dir $OUTD/run/$style.d
  s=$1
  rm -rf "$OUTD/run/$s.d"
  case $s in dlopen|late|python) set -- "$OUTD/libkern.so" ;; *) set -- ;; esac
  # GPUMEM_VERBOSE=1: the counter tables on stderr, whose first line summary() reads
  (cd "$OUTD/run" && GPUMEM_VERBOSE=1 GPUMEM_RUNTIME="$B/lib/libgpumem.so" GPUMEM_OUT="$OUTD/run/$s.d" \
     timeout 300 "$OUTD/$s" "$@" >"$s.out" 2>"$s.err")
  rc=$?
}

summary() { grep -o -m1 'gpumem: [0-9]* kernel launches ([0-9]* instrumented)' "$OUTD/run/$1.err"; }
counters() { sort "$OUTD/run/$1.d/gpumem-counters.csv" 2>/dev/null; }

check_style() { # style reference
  s=$1 r=$2
  [ -x "$OUTD/$s" ] || { echo "NOTE: $s not built (see the build log)"; return; }
  run_style "$s"
  [ $rc = 0 ] && pass "$s: exit status 0" || { fail "$s: exit status $rc: $(tail -2 "$OUTD/run/$s.err" | tr '\n' ' ')"; return; }
  sum=$(grep checksum "$OUTD/run/$s.out")
  [ -n "$sum" ] && [ "$sum" = "$refsum" ] && pass "$s: $sum as ref" || fail "$s: '$sum', ref '$refsum'"
  want=$(summary "$r")
  [ "$s" = mixed ] && want=$(echo "$want" | sed 's/^gpumem: 2 kernel launches/gpumem: 3 kernel launches/')
  got=$(summary "$s")
  [ -n "$got" ] && [ "$got" = "$want" ] && pass "$s: $got" || fail "$s: '$got', expected '$want'"
  n=$(counters "$s" | wc -l)
  if [ "$n" -gt 1 ] && [ "$(counters "$s")" = "$(counters "$r")" ]; then
    pass "$s: gpumem-counters.csv ($((n - 1)) rows) equal to $r's"
  else
    fail "$s: gpumem-counters.csv ($n lines) differs from $r's"
    counters "$s" | diff - "$OUTD/run/$r.sorted" | head -5
  fi
}

run() {
  [ -x "$OUTD/ref" ] || { echo "link: $OUTD/ref missing: run '$0 build' on the build machine" >&2; exit 2; }
  mkdir -p "$OUTD/run"
  for r in ref rdc-ref; do
    run_style $r
    [ $rc = 0 ] || fail "$r: exit status $rc: $(tail -2 "$OUTD/run/$r.err" | tr '\n' ' ')"
    counters $r >"$OUTD/run/$r.sorted"
    grep -q '(2 instrumented)' "$OUTD/run/$r.err" && pass "$r: $(summary $r)" || fail "$r: no report: $(head -3 "$OUTD/run/$r.err" | tr '\n' ' ')"
  done
  refsum=$(grep checksum "$OUTD/run/ref.out")
  case $refsum in "checksum "*WRONG|"") fail "ref: no right result: '$refsum'" ;; esac
  for s in gcc gxx clang ar dlopen late python mpi mixed; do check_style $s ref; done
  check_style rdc rdc-ref
  grep -q '^plain ok' "$OUTD/run/mixed.out" && pass "mixed: $(cat "$OUTD/plain.by")-built kernel ran (plain ok)" || fail "mixed: plain kernel: $(cat "$OUTD/run/mixed.out")"

  rm -rf "$OUTD/run/missing.d"
  (cd "$OUTD/run" && GPUMEM_RUNTIME=/nonexistent/libgpumem.so GPUMEM_OUT="$OUTD/run/missing.d" \
     timeout 300 "$OUTD/gcc" >missing.out 2>missing.err)
  rc=$?
  [ $rc = 0 ] && pass "missing: exit status 0" || fail "missing: exit status $rc"
  [ -n "$refsum" ] && [ "$(grep checksum "$OUTD/run/missing.out")" = "$refsum" ] && pass "missing: checksum as ref" || fail "missing: checksum $(cat "$OUTD/run/missing.out")"
  n=$(grep -c '^gpumem:' "$OUTD/run/missing.err")
  [ "$n" = 1 ] && grep -q '^gpumem: cannot load the runtime (/nonexistent/libgpumem.so' "$OUTD/run/missing.err" \
    && pass "missing: one line: $(grep '^gpumem:' "$OUTD/run/missing.err")" || fail "missing: $n gpumem lines: $(head -3 "$OUTD/run/missing.err")"
  [ ! -e "$OUTD/run/missing.d" ] && pass "missing: no report" || fail "missing: a report was written"
  [ $fails = 0 ] && echo "link: ALL PASS" || echo "link: $fails FAILED (outputs in $OUTD/run)"
  [ $fails = 0 ]
}

case $cmd in
  build) build ;;
  run) run ;;
  *) echo "usage: $0 build|run [BUILD_DIR]" >&2; exit 2 ;;
esac
