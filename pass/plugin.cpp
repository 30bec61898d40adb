// SPDX-License-Identifier: Apache-2.0
// Plugin entry point of the gpumem pass: registers it at OptimizerLast (for
// clang -fpass-plugin=) and as pipeline name "gpumem" (for opt), declares the
// -gm-* options and hands them to gm_pass_run (C), turning an exception from
// underneath into a one-line error. Nothing else lives in C++;
// depends on LLVM's plugin API and gm_pass.h only.
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"

#include "gm_pass.h"

#include <exception>

using namespace llvm;

static cl::opt<std::string> Handlers("gm-handlers", cl::init(""),
    cl::desc("gpumem: comma-separated handler bitcode files"));
static cl::opt<std::string> InstBefore("gm-inst-before",
    cl::init("memory,cond-branches,kernel-entry,kernel-exit"),
    cl::desc("gpumem: events to instrument before (memory,cond-branches,kernel-entry,kernel-exit)"));
static cl::opt<std::string> InstAfter("gm-inst-after", cl::init("memory"),
    cl::desc("gpumem: events to instrument after (memory, or empty)"));
static cl::opt<std::string> Kernels("gm-kernels", cl::init(""),
    cl::desc("gpumem: POSIX regex on kernel names (mangled or demangled)"));
static cl::opt<std::string> Files("gm-files", cl::init(""),
    cl::desc("gpumem: POSIX regex on source file names"));
static cl::opt<bool> StripDebug("gm-strip-debug", cl::init(false),
    cl::desc("gpumem: strip debug info from device modules after reading locations"));
static cl::opt<bool> Reconverge("gm-reconverge", cl::init(true),
    cl::desc("gpumem: reconverge the lanes of a site after each handler call (default on)"));
static cl::opt<unsigned> InlineGrowth("gm-inline-growth", cl::init(100), cl::Hidden,
    cl::desc("gpumem: handlers inlined at sites in loops of a kernel up to this percentage "
             "of the kernel's instructions; other sites call one out-of-line copy"));
static cl::opt<bool> InlineAll("gm-inline-all", cl::init(false), cl::Hidden,
    cl::desc("gpumem: inline the handlers at every site (no out-of-line copies; tests)"));
static cl::opt<bool> NativeCopies("gm-native-copies", cl::init(false),
    cl::desc("gpumem: keep an uninstrumented copy K__gm_native of each instrumented kernel K"));
static cl::opt<bool> DiagNoLoopinv("gm-diag-no-loopinv", cl::init(false), cl::Hidden,
    cl::desc("gpumem: A/B switch: count loop sites per iteration, no loop steps"));
static cl::opt<bool> DiagNoBlock("gm-diag-no-block", cl::init(false), cl::Hidden,
    cl::desc("gpumem: A/B switch: no block accumulators in shared memory"));
static cl::opt<bool> DiagNoRun("gm-diag-no-run", cl::init(false), cl::Hidden,
    cl::desc("gpumem: A/B switch: runs of out-of-line calls keep their calls"));
static cl::opt<bool> Macc("gm-macc", cl::init(false), cl::Hidden,
    cl::desc("gpumem: memory accumulators for out-of-line loop sites (off: with them "
             "examples/spmv -rdc=true hung on the H200, docs/pass.md)"));
static cl::opt<bool> DiagNoMerge("gm-diag-no-merge", cl::init(false), cl::Hidden,
    cl::desc("gpumem: A/B switch: out-of-line copies that differ in constants stay apart"));
static cl::opt<bool> DiagNoRegionSync("gm-diag-no-region-sync", cl::init(false), cl::Hidden,
    cl::desc("gpumem: diagnostic: no region reconvergence syncs (the syncs after handlers stay)"));
static cl::opt<bool> DiagSites("gm-diag-sites", cl::init(false), cl::Hidden,
    cl::desc("gpumem: print per kernel how many loop sites got their handlers inlined"));
static cl::opt<bool> Off("gm-off", cl::init(false),
    cl::desc("gpumem: do nothing except -gm-strip-debug (native baseline)"));

namespace {
struct GpumemPass : PassInfoMixin<GpumemPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    gm_pass_options o = {sizeof(gm_pass_options), Handlers.c_str(), InstBefore.c_str(),
                         InstAfter.c_str(), Kernels.c_str(), Files.c_str(),
                         StripDebug ? 1 : 0, Off ? 1 : 0, Reconverge ? 1 : 0,
                         InlineAll ? -1 : (int)InlineGrowth, NativeCopies ? 1 : 0,
                         (DiagNoLoopinv ? GM_DIAG_NO_LOOPINV : 0u) |
                             (DiagNoBlock ? GM_DIAG_NO_BLOCK : 0u) |
                             (DiagNoRun ? GM_DIAG_NO_RUN : 0u) | (Macc ? 0u : GM_DIAG_NO_MACC) |
                             (DiagNoMerge ? GM_DIAG_NO_MERGE : 0u) |
                             (DiagNoRegionSync ? GM_DIAG_NO_REGION_SYNC : 0u) |
                             (DiagSites ? GM_DIAG_SITES : 0u)};
    char err[1024] = "";
    int r;
    // An exception from LLVM underneath (e.g. std::logic_error) ends in
    // one line naming the function being instrumented, never an abort.
    try {
      r = gm_pass_run(wrap(&M), &o, err, sizeof err);
    } catch (const std::exception &X) {
      report_fatal_error(Twine("gpumem: internal error in function '") + gm_pass_where() +
                             "': " + X.what(), false);
    }
    if (r < 0)
      report_fatal_error(Twine("gpumem: ") + err, false);
    return r ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default"))) PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpumem", "0.1", [](PassBuilder &PB) {
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
                  MPM.addPass(GpumemPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "gpumem")
                    return false;
                  MPM.addPass(GpumemPass());
                  return true;
                });
          }};
}
