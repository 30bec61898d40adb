// SPDX-License-Identifier: Apache-2.0
// Natural loops for C code (LLVM-C has no loop analysis): gm_loops_new
// builds LLVM's DominatorTree, LoopInfo and CycleInfo of one function;
// gm_loop_depth gives a block's loop nesting depth (0 outside every
// natural loop), gm_loop_headed the loop a block heads, gm_loop_latch and
// gm_loop_entry its unique latch and unique predecessor outside it (NULL
// where LLVM's getLoopLatch, getLoopPredecessor give none),
// gm_loop_contains whether a block is in it and gm_loop_once whether a
// block runs exactly once per iteration of it. A thin C++ wrapper for
// outline.c and loopinv.c; depends on LLVM's DominatorTree, LoopInfo and
// CycleInfo only. The function's blocks must stay (instructions may come
// and go) while the analyses are used.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"

using namespace llvm;

struct gm_loops {
  DominatorTree DT;
  LoopInfo LI;
  CycleInfo CI;
  explicit gm_loops(Function &F) : DT(F), LI(DT) { CI.compute(F); }
};

extern "C" struct gm_loops *gm_loops_new(LLVMValueRef f) { return new gm_loops(*unwrap<Function>(f)); }

extern "C" void gm_loops_free(struct gm_loops *lp) { delete lp; }

extern "C" unsigned gm_loop_depth(const struct gm_loops *lp, LLVMBasicBlockRef bb)
{
  return lp->LI.getLoopDepth(unwrap(bb));
}

// The loops are LLVM's Loop objects, opaque to C.
extern "C" const struct gm_loop *gm_loop_headed(const struct gm_loops *lp, LLVMBasicBlockRef bb)
{
  BasicBlock *B = unwrap(bb);
  Loop *L = lp->LI.getLoopFor(B);
  return L && L->getHeader() == B ? reinterpret_cast<const struct gm_loop *>(L) : nullptr;
}

static const Loop *loop(const struct gm_loop *l) { return reinterpret_cast<const Loop *>(l); }

extern "C" LLVMBasicBlockRef gm_loop_latch(const struct gm_loop *l)
{
  return wrap(loop(l)->getLoopLatch());
}

extern "C" LLVMBasicBlockRef gm_loop_entry(const struct gm_loop *l)
{
  return wrap(loop(l)->getLoopPredecessor());
}

extern "C" const struct gm_loop *gm_loop_of(const struct gm_loops *lp, LLVMBasicBlockRef bb)
{
  return reinterpret_cast<const struct gm_loop *>(lp->LI.getLoopFor(unwrap(bb)));
}

extern "C" int gm_loop_contains(const struct gm_loop *l, LLVMBasicBlockRef bb)
{
  return loop(l)->contains(unwrap(bb));
}

// bb is in l and no cycle inside l holds it (CycleInfo: also irreducible
// ones, which LoopInfo does not see), and it dominates l's latch: every
// iteration runs it once.
extern "C" int gm_loop_once(const struct gm_loops *lp, const struct gm_loop *l, LLVMBasicBlockRef bb)
{
  const BasicBlock *B = unwrap(bb), *Latch = loop(l)->getLoopLatch();
  const Cycle *C = lp->CI.getCycle(B);
  return Latch && loop(l)->contains(B) && C && C->getHeader() == loop(l)->getHeader() &&
         lp->DT.dominates(B, Latch);
}
