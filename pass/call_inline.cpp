// SPDX-License-Identifier: Apache-2.0
// gm_inline_call: inlines one call site (LLVM-C has no per-call inliner).
// A thin C++ wrapper for oolrun.c; depends on LLVM's IR and
// Transforms/Utils (InlineFunction) only.
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm-c/Core.h"

using namespace llvm;

extern "C" int gm_inline_call(LLVMValueRef call)
{
  CallBase *CB = dyn_cast<CallBase>(unwrap(call));
  if (!CB)
    return 0;
  InlineFunctionInfo IFI;
  return InlineFunction(*CB, IFI).isSuccess();
}
