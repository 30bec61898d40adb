#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Lists, sorted, the gm_ functions and gm_ globals that handler bitcode
# defines (test helper). Usage: symbols.sh LLVM-DIS FILE.bc
"$1" "$2" -o - | sed -nE 's/^define [^@]*@(gm_[A-Za-z0-9_]+)\(.*/define \1/p; s/^@(gm_[A-Za-z0-9_]+) = .*/global \1/p' | sort
