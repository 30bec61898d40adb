# SPDX-License-Identifier: Apache-2.0
# Writes a kernel with N conditional branches outside loops (input of
# block.ll's budget check). Usage: block_many.py N
import sys
n = int(sys.argv[1])
print('target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"')
print('target triple = "nvptx64-nvidia-cuda"')
print('define ptx_kernel void @many(i32 %n) {')
print('b0:')
for i in range(n):
    print(f'  %c{i} = icmp slt i32 {i}, %n')
    print(f'  br i1 %c{i}, label %t{i}, label %b{i + 1}')
    print(f't{i}:')
    print(f'  br label %b{i + 1}')
    print(f'b{i + 1}:')
print('  ret void')
print('}')
