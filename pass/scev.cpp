// SPDX-License-Identifier: Apache-2.0
// Constant differences of addresses from LLVM's ScalarEvolution (LLVM-C
// has no loop or SCEV analysis): gm_scev_new builds the analyses of one
// function, gm_scev_diff(s, a, b, &d) says whether a - b is a constant d
// (bytes) whatever the thread, e.g. s_u[i + 1][j][k] - s_u[i][j][k] = 1024.
// A thin C++ wrapper for group.c; depends on LLVM's DominatorTree,
// LoopInfo, AssumptionCache, TargetLibraryInfo and ScalarEvolution only.
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm-c/Core.h"

using namespace llvm;

struct gm_scev {
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  DominatorTree DT;
  LoopInfo LI;
  ScalarEvolution SE;
  explicit gm_scev(Function &F)
      : TLII(F.getParent()->getTargetTriple()), TLI(TLII, &F), AC(F), DT(F), LI(DT),
        SE(F, TLI, AC, DT, LI) {}
};

extern "C" struct gm_scev *gm_scev_new(LLVMValueRef f)
{
  return new gm_scev(*unwrap<Function>(f));
}

extern "C" void gm_scev_free(struct gm_scev *s) { delete s; }

extern "C" int gm_scev_diff(struct gm_scev *s, LLVMValueRef a, LLVMValueRef b, long long *d)
{
  Value *A = unwrap(a), *B = unwrap(b);
  if (A->getType() != B->getType() || !s->SE.isSCEVable(A->getType()))
    return 0;
  std::optional<APInt> D = s->SE.computeConstantDifference(s->SE.getSCEV(A), s->SE.getSCEV(B));
  if (!D || D->getBitWidth() > 64)
    return 0;
  *d = (long long)D->getSExtValue();
  return 1;
}
