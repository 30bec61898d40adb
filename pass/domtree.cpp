// SPDX-License-Identifier: Apache-2.0
// Dominance for C code (LLVM-C has none): gm_dom_new numbers the blocks of
// one function in their order and builds LLVM's DominatorTree and
// PostDominatorTree of it; gm_dom_ipdom gives a block's immediate
// post-dominator, gm_dom_dominates whether a block dominates another,
// gm_dom_reach the blocks reached from a block's successors without
// entering a given one (LLVM's depth-first iterator). A thin C++ wrapper
// for insert.c's region reconvergence; depends on LLVM's DominatorTree,
// PostDominatorTree and DepthFirstIterator only.
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"

#include <cstring>

using namespace llvm;

struct gm_dom {
  SmallVector<BasicBlock *, 0> BB;
  DenseMap<const BasicBlock *, int> Index;
  df_iterator_default_set<BasicBlock *> ToExit; // blocks that reach an exit
  DominatorTree DT;
  PostDominatorTree PDT;
  explicit gm_dom(Function &F) : DT(F), PDT(F)
  {
    for (BasicBlock &B : F) {
      Index[&B] = (int)BB.size();
      BB.push_back(&B);
    }
    // LLVM's post-dominator tree also ends a region that reaches no exit
    // (an endless loop) at its virtual exit; here no block of one has a
    // post-dominator (gm_dom_ipdom).
    for (BasicBlock *B : BB)
      if (succ_empty(B))
        for (BasicBlock *V : inverse_depth_first_ext(B, ToExit))
          (void)V;
  }
};

extern "C" struct gm_dom *gm_dom_new(LLVMValueRef fn) { return new gm_dom(*unwrap<Function>(fn)); }

extern "C" void gm_dom_free(struct gm_dom *g) { delete g; }

extern "C" int gm_dom_count(const struct gm_dom *g) { return (int)g->BB.size(); }

extern "C" LLVMBasicBlockRef gm_dom_block(const struct gm_dom *g, int b) { return wrap(g->BB[b]); }

extern "C" int gm_dom_index(const struct gm_dom *g, LLVMBasicBlockRef bb)
{
  auto It = g->Index.find(unwrap(bb));
  return It == g->Index.end() ? -1 : It->second;
}

// -1 when b's paths to the exits (blocks without successors: ret,
// unreachable) meet first at the virtual exit, or b reaches no exit.
extern "C" int gm_dom_ipdom(const struct gm_dom *g, int b)
{
  if (!g->ToExit.count(g->BB[b]))
    return -1;
  DomTreeNode *N = g->PDT.getNode(g->BB[b]);
  DomTreeNode *P = N ? N->getIDom() : nullptr;
  return P && P->getBlock() ? g->Index.lookup(P->getBlock()) : -1;
}

// Blocks unreachable from the entry dominate nothing and are dominated by
// nothing (LLVM says every block dominates them).
extern "C" int gm_dom_dominates(const struct gm_dom *g, int a, int b)
{
  const BasicBlock *A = g->BB[a], *B = g->BB[b];
  return g->DT.isReachableFromEntry(A) && g->DT.isReachableFromEntry(B) && g->DT.dominates(A, B);
}

// mark[v] = 1 for the blocks v reached from the successors of from
// without entering avoid (from itself if it lies on a cycle avoiding
// avoid), 0 for the others.
extern "C" void gm_dom_reach(const struct gm_dom *g, int from, int avoid, char *mark)
{
  memset(mark, 0, g->BB.size());
  df_iterator_default_set<BasicBlock *> Seen;
  Seen.insert(g->BB[avoid]);
  for (BasicBlock *S : successors(g->BB[from]))
    for (BasicBlock *V : depth_first_ext(S, Seen))
      mark[g->Index.lookup(V)] = 1;
}
