/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem site table (contract 1: pass -> runtime), version 1.
 *
 * For every instrumented device module the pass emits one read-only global
 * byte array named  __gm_sitetab__<modid>  (<modid>: 16 lowercase hex digits,
 * a hash of the module's source file name and its defined functions) in the
 * global address space, kept alive with llvm.used. In the cubin it is an
 * ordinary ELF symbol in an initialised data section (.nv.global.init), so the
 * runtime reads it straight from the cubin bytes that CUPTI hands over at
 * module load: look up the symbol, take st_size bytes at st_value in section
 * st_shndx. With -rdc a linked cubin holds one table per translation unit.
 *
 * Layout (little endian, all offsets in bytes from the start of the table):
 *   struct gm_sitetab_header
 *   struct gm_site      sites[nsites]       at sites_off   (site id == index)
 *   struct gm_sitetab_global globals[nglobals] at globals_off
 *   char                strings[strings_size] at strings_off (NUL-terminated,
 *                                              referenced by offset; 0 = "")
 * Plain C, no includes beyond <stdint.h>; shared by pass and runtime.
 */
#ifndef GPUMEM_SITETAB_H
#define GPUMEM_SITETAB_H

#include <stdint.h>

#define GM_SITETAB_MAGIC "GMSITES"   /* 8 bytes with the NUL */
#define GM_SITETAB_VERSION 1u
#define GM_SITETAB_SYM_PREFIX "__gm_sitetab__"

/* With gpumemcc --gm-native-copies the pass also keeps an uninstrumented copy
 * of every instrumented kernel K, itself a kernel, named K GM_NATIVE_SUFFIX
 * (e.g. _Z6vecaddPfi__gm_native); the runtime launches it in K's place for
 * launches that run-time selection does not measure. Not in the table: the
 * runtime looks the name up in the module or library. */
#define GM_NATIVE_SUFFIX "__gm_native"

struct gm_sitetab_header {
    char magic[8];          /* GM_SITETAB_MAGIC */
    uint32_t version;       /* GM_SITETAB_VERSION */
    uint32_t header_size;   /* sizeof(struct gm_sitetab_header) */
    uint64_t modid;         /* same value as in the symbol suffix */
    uint32_t nsites;        /* instrumented sites + uncovered inline-asm sites */
    uint32_t nglobals;      /* handler globals renamed for this module */
    uint32_t sites_off, globals_off, strings_off, strings_size;
    uint32_t n_asm_mem;     /* inline-asm statements with memory instructions */
    uint32_t abi_version;   /* GM_ABI_VERSION of the handlers linked in */
    uint32_t source_str;    /* the module's source file name */
    uint32_t reserved;
};

/* One instruction that was instrumented (or, for GM_EVENT_ASM_MEM, seen). */
struct gm_site {
    uint8_t event;          /* enum gm_event */
    uint8_t space;          /* enum gm_space (memory events) */
    uint8_t when;           /* GM_WHEN_* bits: which calls were inserted */
    uint8_t flags;          /* GM_SITE_* bits (0 in tables of earlier passes) */
    uint32_t info;          /* the info word passed to the handlers (abi.h) */
    uint32_t func_str;      /* enclosing function (mangled name) */
    uint32_t file_str;      /* source file; 0 if unknown */
    uint32_t line;          /* 0 if unknown */
    uint32_t column;        /* 0 if unknown */
};

#define GM_WHEN_BEFORE 1u
#define GM_WHEN_AFTER  2u

/* The enclosing function is a kernel: only that kernel's launches run the
 * site. When every site of a table has it, the runtime attributes counts
 * to kernels by site and need not separate launches of different kernels. */
#define GM_SITE_IN_KERNEL 1u

/* A handler global renamed for this module: the runtime finds the device
 * symbol `sym_str` (e.g. gm_counters__coalescing__<modid>) and, for counter
 * pointers, allocates nsites * slots * replicas uint64_t behind it. */
struct gm_sitetab_global {
    uint32_t name_str;      /* name in the handler source, e.g. gm_counters__coalescing */
    uint32_t sym_str;       /* name in the module, e.g. gm_counters__coalescing__0123... */
    uint32_t slots;         /* for gm_counters__NAME: gm_nslots__NAME & GM_NSLOTS_MASK, else 0 */
    uint32_t size;          /* size of the global in bytes */
    uint32_t flags;         /* GM_GLOBAL_* */
    uint32_t slotnames_str; /* gm_slotnames__NAME: comma-separated slot names, or 0 */
};
#define GM_GLOBAL_COUNTERS   1u /* a gm_counters__NAME pointer the runtime allocates */
#define GM_GLOBAL_SINGLE     2u /* counters with one replica (not per SM) */
#define GM_GLOBAL_MODULE     4u /* defined by the pass (e.g. __gm_replica_mask) */

#endif /* GPUMEM_SITETAB_H */
