// SPDX-License-Identifier: Apache-2.0
// CFG cycle test for C code (LLVM-C has none): gm_cycles_new finds the
// blocks of a function that lie on a CFG cycle (reach themselves: a loop,
// reducible or not) from the strongly connected components of LLVM's
// scc_iterator; gm_on_cycle asks about one block. A thin C++ wrapper for
// accum.c, block.c, loopinv.c and outline.c; depends on LLVM's
// SCCIterator only.
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"

using namespace llvm;

struct gm_cycles {
  DenseSet<const BasicBlock *> On;
};

extern "C" struct gm_cycles *gm_cycles_new(LLVMValueRef f)
{
  auto *C = new gm_cycles;
  DenseSet<const BasicBlock *> Seen;
  // From the entry, then from each block it does not reach: a component
  // reached from any start is whole.
  for (BasicBlock &Start : *unwrap<Function>(f)) {
    if (Seen.contains(&Start))
      continue;
    for (scc_iterator<BasicBlock *> I = scc_begin(&Start); !I.isAtEnd(); ++I) {
      bool Cycle = I.hasCycle();
      for (BasicBlock *B : *I) {
        Seen.insert(B);
        if (Cycle)
          C->On.insert(B);
      }
    }
  }
  return C;
}

extern "C" void gm_cycles_free(struct gm_cycles *c) { delete c; }

extern "C" int gm_on_cycle(const struct gm_cycles *c, LLVMBasicBlockRef b)
{
  return c->On.contains(unwrap(b));
}
