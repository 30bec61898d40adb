/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem handler ABI (contract 2: pass -> handlers), version 1.
 *
 * Which events exist, what the by-value arguments of each handler call mean,
 * and how the pass finds handlers in the linked bitcode. Shared by the pass
 * (C, host) and the handler SDK (CUDA, device). Plain C, no includes beyond
 * <stdint.h>; must not depend on CUDA, LLVM or the runtime.
 *
 * Handler naming: a handler for event E of analysis NAME is an extern "C"
 * device function called  gm_<E>__<NAME>  (double underscore before NAME):
 *
 *   void gm_before_mem__NAME   (uint32_t site, uint64_t addr, uint32_t info, uint64_t value);
 *   void gm_after_load__NAME   (uint32_t site, uint64_t addr, uint32_t info, uint64_t value);
 *   void gm_before_branch__NAME(uint32_t site, uint32_t info, uint32_t dir);
 *   void gm_kernel_entry__NAME (uint32_t site);
 *   void gm_kernel_exit__NAME  (uint32_t site);
 *
 * The pass calls every handler of an event at every site of that event, in
 * the order the handler bitcode files were given. An event that no handler
 * implements is not instrumented at all.
 */
#ifndef GPUMEM_ABI_H
#define GPUMEM_ABI_H

#include <stdint.h>

#define GM_ABI_VERSION 1u

/* Function-name prefixes of the five events (append "__" and the analysis). */
#define GM_EV_BEFORE_MEM_PREFIX    "gm_before_mem__"
#define GM_EV_AFTER_LOAD_PREFIX    "gm_after_load__"
#define GM_EV_BEFORE_BRANCH_PREFIX "gm_before_branch__"
#define GM_EV_KERNEL_ENTRY_PREFIX  "gm_kernel_entry__"
#define GM_EV_KERNEL_EXIT_PREFIX   "gm_kernel_exit__"

/* Every symbol the toolchain adds starts with one of these; the pass never
 * instruments a function whose name starts with "gm_" or "__gm_". */
#define GM_SYMBOL_PREFIX "gm_"
#define GM_PRIVATE_PREFIX "__gm_"

/* Event kinds (also used in the site table). */
enum gm_event {
    GM_EVENT_MEM = 1,          /* load/store/atomic/memintrinsic: before (and after for loads) */
    GM_EVENT_BRANCH = 2,       /* conditional br or switch */
    GM_EVENT_KERNEL_ENTRY = 3,
    GM_EVENT_KERNEL_EXIT = 4,
    GM_EVENT_ASM_MEM = 5       /* inline asm with memory instructions: seen, not instrumented */
};

/* Address spaces, numbered as NVPTX numbers them. */
enum gm_space {
    GM_SPACE_GENERIC = 0,
    GM_SPACE_GLOBAL = 1,
    GM_SPACE_SHARED = 3,
    GM_SPACE_CONST = 4,
    GM_SPACE_LOCAL = 5,
    GM_SPACE_PARAM = 101
};

/*
 * info word of memory events (before_mem, after_load):
 *   bits  0..15  bytes accessed per thread (the whole vector for vector
 *                accesses); 0 for memory intrinsics whose length is not a
 *                compile-time constant below 65536 (value holds the length)
 *   bits 16..23  gm_space of the access as written in the IR
 *   bit  24      load (reads memory)
 *   bit  25      store (writes memory)
 *   bit  26      atomic (atomicrmw, cmpxchg, NVVM atomic intrinsics): load|store|atomic
 *   bit  27      memory intrinsic (memcpy/memmove source is a load site,
 *                destination a store site, memset a store site);
 *                value = length in bytes
 *   bit  28      value truncated: the access is wider than 64 bits and
 *                value holds its first 8 bytes
 *   bit  29      read-only / non-coherent path (ldg, ldu intrinsics)
 *   bit  30      vector access (e.g. ld.v4)
 *   bit  31      volatile
 * value: before_mem: stored value for stores, operand for atomics, 0 for
 *        loads (length for memory intrinsics); after_load: the loaded value
 *        (zero-extended, floats as their bits).
 */
#define GM_INFO_WIDTH_MASK   0xffffu
#define GM_INFO_SPACE_SHIFT  16
#define GM_INFO_SPACE_MASK   (0xffu << GM_INFO_SPACE_SHIFT)
#define GM_INFO_LOAD         (1u << 24)
#define GM_INFO_STORE        (1u << 25)
#define GM_INFO_ATOMIC       (1u << 26)
#define GM_INFO_MEMINTR      (1u << 27)
#define GM_INFO_VALUE_TRUNC  (1u << 28)
#define GM_INFO_NC           (1u << 29)
#define GM_INFO_VECTOR       (1u << 30)
#define GM_INFO_VOLATILE     (1u << 31)

#define GM_INFO_WIDTH(info) ((info) & GM_INFO_WIDTH_MASK)
#define GM_INFO_SPACE(info) (((info) & GM_INFO_SPACE_MASK) >> GM_INFO_SPACE_SHIFT)

/*
 * info word of branch events (before_branch):
 *   bits 0..15  number of successors (2 for a conditional br; cases+1 for switch)
 *   bit  16     switch (else conditional branch)
 * dir: conditional br: 1 if the condition is true (first successor taken),
 *      0 otherwise; switch: 0 for the default destination, k for the k-th case.
 */
#define GM_BRINFO_NSUCC_MASK 0xffffu
#define GM_BRINFO_SWITCH     (1u << 16)

/*
 * Module globals the pass defines in each instrumented device module, which
 * handlers may declare extern (see handler.h):
 *   __gm_nsites        const uint32_t, number of sites of this module
 *                      (internal: folds to a constant after inlining)
 *   __gm_replica_mask  uint32_t in __constant__, written by the runtime:
 *                      per-SM counter replicas - 1 (a power of two - 1);
 *                      emitted as __gm_replica_mask__<modid>
 * Data globals that handler bitcode defines and whose names start with
 * "gm_" (counter pointers, trace buffer pointers) are renamed per module to
 * <name>__<modid> so -rdc links never merge them; the site table lists them.
 */
#define GM_NSITES_SYM       "__gm_nsites"
#define GM_REPLICA_MASK_SYM "__gm_replica_mask"
#define GM_COUNTERS_PREFIX  "gm_counters__" /* gm_counters__NAME: uint64_t * */
#define GM_NSLOTS_PREFIX    "gm_nslots__"   /* gm_nslots__NAME: const uint32_t slots per site */
#define GM_SLOTNAMES_PREFIX "gm_slotnames__" /* gm_slotnames__NAME: const char[], "a,b,c" */
/* How counters combine. The runtime folds the per-SM replicas of a counter
 * into one value, and a kernel's launches into one total: by addition,
 * except for slots whose name in gm_slotnames__NAME ends in GM_SLOT_OR_SUFFIX
 * ("ones|or"): those hold bit masks and are combined with bitwise OR.
 * Reports show such a slot without the suffix ("ones") and record the rule
 * (docs/report-schema.md). */
#define GM_SLOT_OR_SUFFIX   "|or"
#define GM_NSLOTS_MASK      0x00ffffffu     /* slots; the high bits are flags: */
#define GM_NSLOTS_SINGLE    0x80000000u     /* one replica only (large per-site arrays) */

/*
 * Loop steps of register accumulators (additive): a handler that defines
 * GM_ACCUM_STEP(name) (handler.h) lets the pass store, in the preheader of
 * the innermost loop of a memory site whose address advances by a
 * loop-invariant D bytes at every iteration (the site running once per
 * iteration), D into accumulator words GM_ACCUM_STEP_D (low) and
 * GM_ACCUM_STEP_D + 1 (high), 0 into GM_ACCUM_STEP_RUN and 1 into
 * GM_ACCUM_STEP_KNOWN. Other sites keep 0 in these words.
 */
#define GM_ACCUM_STEP_PREFIX "gm_accum_step__"
#define GM_ACCUM_STEP_D      2
#define GM_ACCUM_STEP_RUN    4
#define GM_ACCUM_STEP_KNOWN  5

#endif /* GPUMEM_ABI_H */
