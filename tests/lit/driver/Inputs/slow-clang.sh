#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Stand-in for clang (GM_CLANG) in interrupt tests: writes part of its -o
# output, records its pid and its child's (a sleeper, as clang's ptxas), then
# waits. Usage as clang; SLOW_DIR names where the pids go.
out=
while [ $# -gt 0 ]; do
  [ "$1" = -o ] && out=$2
  shift
done
[ -n "$out" ] && printf 'partial' > "$out"
# (sh ignores SIGINT in its background jobs; a real ptxas does not)
python3 -c 'import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_DFL)
open(sys.argv[1] + "/child.pid", "w").write(str(os.getpid()))
time.sleep(30)' "$SLOW_DIR" &
while [ ! -s "$SLOW_DIR/child.pid" ]; do sleep 0.05; done
echo $$ > "$SLOW_DIR/clang.pid"
wait
