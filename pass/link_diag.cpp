// SPDX-License-Identifier: Apache-2.0
// gm_link_modules: LLVMLinkModules2 with the linker's diagnostics captured
// into a message instead of the host's diagnostic handler. LLVM-C can only
// replace a context's handler, not restore a C++ one (clang's); and clang's
// handler prints a link error with the name of the module clang itself was
// linking, which outside its own linking is uninitialised memory. A thin
// C++ wrapper for link.c; depends on LLVM's Linker and LLVMContext only.
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm-c/Core.h"

#include <cstdio>
#include <memory>
#include <string>

using namespace llvm;

namespace {
struct Capture : DiagnosticHandler {
  std::string *Msg;
  explicit Capture(std::string *M) : Msg(M) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error && Msg->empty()) {
      raw_string_ostream OS(*Msg);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
    }
    return true;
  }
};
} // namespace

extern "C" int gm_link_modules(LLVMModuleRef Dst, LLVMModuleRef Src, char *Err, size_t Len) {
  Module *D = unwrap(Dst);
  LLVMContext &Ctx = D->getContext();
  std::string Msg;
  std::unique_ptr<DiagnosticHandler> Old = Ctx.getDiagnosticHandler();
  Ctx.setDiagnosticHandler(std::make_unique<Capture>(&Msg));
  bool Failed = Linker::linkModules(*D, std::unique_ptr<Module>(unwrap(Src)));
  Ctx.setDiagnosticHandler(std::move(Old));
  if (Failed && Len) {
    size_t Line = Msg.find('\n');
    snprintf(Err, Len, "%s", Msg.substr(0, Line).c_str());
  }
  return Failed ? 1 : 0;
}
