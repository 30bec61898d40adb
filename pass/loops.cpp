// SPDX-License-Identifier: Apache-2.0
// gm_loop_depths: the loop nesting depth of blocks of a function, from
// LLVM's LoopInfo (LLVM-C has no loop analysis): 0 outside every natural
// loop, 1 in an outermost loop, and so on. A thin C++ wrapper for
// outline.c; depends on LLVM's DominatorTree and LoopInfo only.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"

#include <cstddef>

using namespace llvm;

extern "C" void gm_loop_depths(LLVMValueRef f, const LLVMBasicBlockRef *bb, size_t n,
                               unsigned *depth)
{
  Function *F = unwrap<Function>(f);
  DominatorTree DT(*F);
  LoopInfo LI(DT);
  for (size_t I = 0; I < n; I++)
    depth[I] = LI.getLoopDepth(unwrap(bb[I]));
}
