// SPDX-License-Identifier: Apache-2.0
// gm_clone_functions: copies a set of functions within their module under
// new names, the calls among them pointing at the copies (LLVM-C has no
// function cloning; llvm::CloneFunctionInto also gives each copy its own
// DISubprogram). A thin C++ wrapper for clone.c; depends on LLVM's
// Transforms/Utils/Cloning only.
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm-c/Core.h"

#include <cstddef>
#include <vector>

using namespace llvm;

extern "C" void gm_clone_functions(LLVMValueRef *fns, size_t n, const char *suffix,
                                   LLVMValueRef *out)
{
  std::vector<Function *> Old, New;
  for (size_t I = 0; I < n; I++) {
    Function *F = unwrap<Function>(fns[I]);
    Function *G = Function::Create(F->getFunctionType(), F->getLinkage(), F->getAddressSpace(),
                                   F->getName() + suffix, F->getParent());
    Old.push_back(F);
    New.push_back(G);
    out[I] = wrap(G);
  }
  for (size_t I = 0; I < n; I++) {
    // one map per copy: its debug metadata is its own; every copy's callees
    // among the set are remapped to their copies
    ValueToValueMapTy VMap;
    for (size_t J = 0; J < n; J++)
      VMap[Old[J]] = New[J];
    auto D = New[I]->arg_begin();
    for (const Argument &A : Old[I]->args()) {
      D->setName(A.getName());
      VMap[&A] = &*D++;
    }
    SmallVector<ReturnInst *, 8> Returns;
    CloneFunctionInto(New[I], Old[I], VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  }
}
