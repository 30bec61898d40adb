// SPDX-License-Identifier: Apache-2.0
// gm_move_function_before: moves a function to just before another one in
// their module's function list (LLVM-C cannot reorder functions). A thin
// C++ wrapper for order.c; depends on LLVM's IR (Function, Module) only.
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm-c/Core.h"

using namespace llvm;

extern "C" void gm_move_function_before(LLVMValueRef fn, LLVMValueRef before)
{
  Function *F = unwrap<Function>(fn), *B = unwrap<Function>(before);
  if (F == B || F->getParent() != B->getParent())
    return;
  Module::FunctionListType &L = F->getParent()->getFunctionList();
  L.remove(F);
  L.insert(B->getIterator(), F);
}
