/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry point of the gpumem pass, called by the plugin (plugin.cpp) with the
 * options it parsed from the command line. Plain C; depends only on the
 * LLVM-C types.
 */
#ifndef GM_PASS_H
#define GM_PASS_H

#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Options as given on the command line (strings may be empty, never NULL). */
struct gm_pass_options {
    uint32_t size;            /* sizeof(struct gm_pass_options) */
    const char *handlers;     /* -gm-handlers: comma-separated .bc files */
    const char *inst_before;  /* -gm-inst-before: memory,cond-branches,kernel-entry,kernel-exit */
    const char *inst_after;   /* -gm-inst-after: memory or "" */
    const char *kernels;      /* -gm-kernels: POSIX extended regex, "" = all */
    const char *files;        /* -gm-files: POSIX extended regex, "" = all */
    int strip_debug;          /* -gm-strip-debug */
    int off;                  /* -gm-off */
    int reconverge;           /* -gm-reconverge: warp sync after each handler call */
    int inline_growth;        /* -gm-inline-growth: % of a function's size for inlined
                                 handlers; -1: every site inlined (-gm-inline-all) */
    int native_copies;        /* -gm-native-copies: keep an uninstrumented copy of
                                 each instrumented kernel (clone.c) */
    unsigned diag;            /* GM_DIAG_* bits: the hidden -gm-diag-* switches */
};

/* -gm-diag-no-loopinv: no loop-step counting (loopinv.c);
 * -gm-diag-no-block: no block accumulators in shared memory (block.c);
 * -gm-diag-sites: a line per kernel to stderr, which loop sites got their
 * handlers inlined (outline.c);
 * -gm-diag-no-run: runs of out-of-line calls keep their calls (oolrun.c);
 * -gm-macc off: no memory accumulators for out-of-line loop sites (outline.c);
 * -gm-diag-no-merge: copies that differ in constants stay apart (oolmerge.c);
 * -gm-diag-no-region-sync: no region reconvergence syncs, the syncs after
 * handlers kept (insert.c; to tell the two apart on the GPU). */
#define GM_DIAG_NO_LOOPINV 1u
#define GM_DIAG_NO_BLOCK 2u
#define GM_DIAG_SITES 4u
#define GM_DIAG_NO_RUN 8u
#define GM_DIAG_NO_MACC 16u
#define GM_DIAG_NO_MERGE 32u
#define GM_DIAG_NO_REGION_SYNC 64u

/* Instruments module m. Returns 1 if it changed m, 0 if not, and -1 with a
 * one-line message in err on bad input (options, handler files). */
int gm_pass_run(LLVMModuleRef m, const struct gm_pass_options *o, char *err, size_t errlen);

/* The function the pass was working on last ("" before any), for internal
 * error messages. */
const char *gm_pass_where(void);

#ifdef __cplusplus
}
#endif
#endif /* GM_PASS_H */
