/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libgpumem core: site-table decoding, cubin/fatbin scanning, the allocation
 * range table, the API timeline and counter folding. Pure C17 + uthash:
 * must not depend on CUDA, CUPTI or LLVM, so it is unit-tested on any CPU.
 */
#ifndef GM_RT_CORE_H
#define GM_RT_CORE_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/abi.h"
#include "gpumem/sitetab.h"

/* ---- site tables (sitetab.c) ------------------------------------------ */

/* A validated site table; owns an aligned copy of its bytes. */
struct gm_rt_sitetab {
    uint64_t modid;
    const struct gm_sitetab_header *hdr;
    const struct gm_site *sites;
    const struct gm_sitetab_global *globals;
    const char *strings;
    unsigned char *bytes;
    size_t size;
};

/* Decode and validate (magic, version, ABI, bounds, strings). Returns 0, or
 * -1 with a one-line reason in err. */
int gm_sitetab_decode(const void *data, size_t size, struct gm_rt_sitetab *out,
                      char *err, size_t errlen);
void gm_sitetab_free(struct gm_rt_sitetab *t);
/* String at offset off (validated at decode time; "" for 0). */
const char *gm_sitetab_str(const struct gm_rt_sitetab *t, uint32_t off);
/* Parse the 16-hex-digit suffix of a __gm_sitetab__<modid> symbol. */
int gm_sitetab_symbol_modid(const char *sym, uint64_t *modid);
/* Short text for a site: "load.global.4", "branch", "entry", ... */
void gm_site_describe(const struct gm_site *s, char *buf, size_t len);

/* ---- cubin / fatbin scanning (cubin.c) -------------------------------- */

/* Called for each __gm_sitetab__* symbol with its initialised bytes. */
typedef void (*gm_sitetab_sink)(void *ctx, const char *sym, const void *data, size_t size);
/* Scan an ELF cubin or a fatbin of cubins. Returns the number of tables
 * handed to sink, or -1 with a one-line reason in err (not an ELF/fatbin,
 * truncated, compressed entries only, ...). A partial problem (one bad
 * entry among good ones) is reported in err while the return stays >= 0. */
int gm_cubin_scan(const void *img, size_t size, gm_sitetab_sink sink, void *ctx,
                  char *err, size_t errlen);

/* ---- registry of site tables by modid (modreg.c) --------------------- */

struct gm_modreg_entry;     /* uthash node owning one gm_rt_sitetab */
struct gm_modreg { struct gm_modreg_entry *by_modid; unsigned count; };

/* Read every site table of a device image into reg. Returns tables added
 * (a table already known by modid is kept, not duplicated), or -1; on any
 * rejected table or unreadable part err holds one line naming it. */
int gm_modreg_add_image(struct gm_modreg *reg, const void *img, size_t size,
                        char *err, size_t errlen);
/* Validate one raw table as if found under symbol sym (NULL: skip the
 * symbol/modid check) and add it. 0 added, 1 already known, -1 rejected. */
int gm_modreg_add_table(struct gm_modreg *reg, const char *sym, const void *data,
                        size_t size, char *err, size_t errlen);
const struct gm_rt_sitetab *gm_modreg_find(const struct gm_modreg *reg, uint64_t modid);
/* Iterate: pass NULL first; returns NULL at the end. */
const struct gm_rt_sitetab *gm_modreg_next(const struct gm_modreg *reg,
                                           const struct gm_rt_sitetab *prev);
void gm_modreg_destroy(struct gm_modreg *reg);

/* ---- allocations (alloc.c) ------------------------------------------- */

enum gm_alloc_kind {
    GM_ALLOC_DEVICE = 0, GM_ALLOC_MANAGED, GM_ALLOC_ASYNC, GM_ALLOC_PITCH, GM_ALLOC_HOST
};

#define GM_CALLPATH_MAX 4 /* callers kept above an allocation's call site */
struct gm_alloc {
    uint64_t id;            /* 1-based, in order of allocation */
    uint64_t base, size;
    int kind;               /* enum gm_alloc_kind */
    int device;
    int live;
    uint64_t alloc_seq, free_seq;   /* timeline events; free_seq 0 while live */
    uintptr_t alloc_site, free_site;/* host return addresses */
    uintptr_t alloc_path[GM_CALLPATH_MAX]; /* then the callers' (innermost first; 0 ends) */
    char *label;            /* gm_name_allocation, or NULL */
};

struct gm_alloc_table {
    struct gm_alloc **all;  size_t n, cap;        /* every allocation, by id */
    struct gm_alloc **live; size_t nlive, livecap;/* live ones sorted by base */
    struct gm_pending_name *pending;              /* names for future allocations */
};

void gm_alloc_init(struct gm_alloc_table *t);
void gm_alloc_destroy(struct gm_alloc_table *t);
/* Record a new live allocation. A live allocation overlapping it (a free
 * the runtime did not see) is retired first. NULL on out-of-memory. */
struct gm_alloc *gm_alloc_add(struct gm_alloc_table *t, uint64_t base, uint64_t size,
                              int kind, int device);
/* Live allocation containing addr, or NULL. */
struct gm_alloc *gm_alloc_find(const struct gm_alloc_table *t, uint64_t addr);
/* Retire the live allocation starting at base; NULL if there is none. */
struct gm_alloc *gm_alloc_remove(struct gm_alloc_table *t, uint64_t base);
/* Label the allocation containing ptr (or remember it for later). 0 if
 * applied now, 1 if pending, -1 on bad input. */
int gm_alloc_set_label(struct gm_alloc_table *t, uint64_t ptr, const char *label);

/* ---- timeline (timeline.c) ------------------------------------------- */

enum gm_tl_kind { GM_TL_ALLOC = 1, GM_TL_FREE, GM_TL_COPY, GM_TL_SET, GM_TL_LAUNCH, GM_TL_GRAPH };
enum gm_tl_dir { GM_DIR_NONE = 0, GM_DIR_H2D, GM_DIR_D2H, GM_DIR_D2D, GM_DIR_H2H, GM_DIR_UNKNOWN };

struct gm_tl_event {
    uint64_t seq;           /* 1-based order */
    uint64_t t_ns;          /* CLOCK_MONOTONIC at the API call */
    uint8_t kind, dir;
    uint16_t device;
    uint32_t tid;           /* host thread (gettid) */
    uint64_t bytes;
    uint64_t dst, src;      /* device/host addresses involved (0 if none) */
    uint64_t dst_alloc, src_alloc; /* gm_alloc ids (0: not a tracked allocation) */
    uint64_t stream;
    uintptr_t callsite;     /* host return address of the API call */
    const char *api;        /* API name (static or interned string) */
    const char *kernel;     /* launches: kernel name (interned) */
};

struct gm_timeline {
    struct gm_tl_event *ev;
    size_t n, cap;
    size_t limit;           /* most events kept (0: no limit) */
    uint64_t dropped;       /* events not kept because of the limit */
};

void gm_timeline_init(struct gm_timeline *tl);
void gm_timeline_destroy(struct gm_timeline *tl);
/* Append a copy of *e with seq assigned; returns seq, or 0 when not kept
 * (limit reached: counted in dropped; or out of memory). */
uint64_t gm_timeline_append(struct gm_timeline *tl, const struct gm_tl_event *e);
const char *gm_tl_kind_name(int kind);
const char *gm_tl_dir_name(int dir);

/* ---- counters (counters.c) ------------------------------------------- */

/* dst[site*slots+slot] += sum over replicas of src[(r*nsites+site)*slots+slot],
 * or |= their OR for slots with or_slot[slot] set (or_slot NULL: all summed). */
void gm_counters_fold(uint64_t *dst, const uint64_t *src, uint32_t replicas,
                      uint32_t nsites, uint32_t slots, const uint8_t *or_slot);
/* The same for sites [lo, hi) only (lo <= hi <= nsites); dst's other sites
 * stay as they are. */
void gm_counters_fold_sites(uint64_t *dst, const uint64_t *src, uint32_t replicas, uint32_t nsites,
                            uint32_t slots, const uint8_t *or_slot, uint32_t lo, uint32_t hi);
/* Per-slot OR flags from slot names "a,b|or,c" (abi.h GM_SLOT_OR_SUFFIX):
 * malloc'd array of slots bytes, NULL when no slot is an OR slot. Sets
 * *err on out of memory. */
uint8_t *gm_slot_or_flags(const char *names, uint32_t slots, int *err);
/* Length of slot name s (up to ',' or the end) without GM_SLOT_OR_SUFFIX. */
size_t gm_slot_name_len(const char *s);
/* Smallest power of two >= n (n >= 1), capped at 1<<16. */
uint32_t gm_replicas_for(uint32_t sm_count);

/* ---- %p in output names (outname.c) ----------------------------------- */

/* name, the value of variable var (GPUMEM_OUT, GPUMEM_TRACE_FILE, ...),
 * with %p the process id pid and %% one %, written into buf (len bytes,
 * cut short and NUL-terminated as by snprintf; buf may be NULL when len is
 * 0). An unknown %x, or a % at the end, stays as written; err then holds
 *   VAR=NAME: unknown %x kept as written (%p: the process id, %%: a percent sign)
 * (the first one only), else "". Returns the expanded length, as snprintf:
 * a result >= len did not fit. */
size_t gm_outname_expand(const char *var, const char *name, long pid, char *buf, size_t len,
                         char *err, size_t errlen);

/* ---- kernels of a module told apart by site (kpart.c) ------------------ */

/* Sites [lo, hi) of the table lie in kernel name (interned). */
struct gm_kpart { uint32_t lo, hi; const char *name; };
/* Launches per kernel name (interned: compared by address). */
struct gm_klaunches { const char *name; uint64_t launches; };
struct gm_ktally { struct gm_klaunches *v; uint32_t n, cap; };

/* When every site of t has GM_SITE_IN_KERNEL: *out = its runs of sites of
 * one kernel, in site order (malloc'd), *nout their number. Otherwise (a
 * site another kernel may run, a table of an earlier pass, no sites)
 * *out = NULL, *nout = 0. Returns -1 on out of memory, else 0. */
int gm_kpart_build(const struct gm_rt_sitetab *t, struct gm_kpart **out, uint32_t *nout);
/* One more launch of name; -1 on out of memory. */
int gm_ktally_add(struct gm_ktally *t, const char *name);
void gm_ktally_free(struct gm_ktally *t);

/* ---- string interning (intern.c) -------------------------------------- */
const char *gm_intern(const char *s);   /* lives until process exit */

#endif /* GM_RT_CORE_H */
