/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem report model: everything one run of an instrumented program
 * produced, in memory. The runtime fills it (gm_report_add_*) and hands it
 * to the writers at exit; `gpumem report` rebuilds it from JSON.
 *
 * Plain C17 structs with dynamic arrays; the report owns every string and
 * array in it (the add functions copy their arguments). Pointers returned by
 * gm_report_add_X stay valid until the next gm_report_add_X on the same
 * array; keep indices (or ids) across adds. Depends on libc and the site
 * table contract only: no CUDA, no CUPTI, no JSON library.
 *
 * Units: sizes and byte counts in bytes; times in nanoseconds. Program start
 * and end are wall clock (Unix epoch); event and launch times are relative
 * to program start. Unknown values: -1 for signed fields, NULL for strings.
 */
#ifndef GM_REPORT_H
#define GM_REPORT_H

#include <stddef.h>
#include <stdint.h>

#define GM_REPORT_SCHEMA "gpumem-report"
#define GM_REPORT_SCHEMA_VERSION 1

/* A place in the host program (a call to a CUDA API). */
struct gm_report_hostsite {
    char *file;             /* source file, or the binary/library if no debug info */
    uint32_t line;          /* 0 if unknown */
    uint8_t interned;       /* file and func are the report's shared copies
                             * (read from JSON; internal: set them with
                             * gm_report_set_hostsite only) */
    char *func;             /* enclosing function, or NULL */
};

/* ---- program and devices --------------------------------------------- */

enum gm_report_end {
    GM_END_UNKNOWN = 0,
    GM_END_NORMAL = 1,      /* returned from main */
    GM_END_EXIT = 2,        /* called exit() / _exit() before main returned */
    GM_END_SIGNAL = 3,      /* killed by a signal (abort, segfault, ...) */
};

struct gm_report_program {
    int argc;
    char **argv;
    int64_t pid;
    int64_t start_ns;       /* wall clock at start, ns since the Unix epoch */
    int64_t end_ns;         /* wall clock at end */
    int exit_status;        /* exit code; for GM_END_SIGNAL the signal number */
    enum gm_report_end end;
    char *tool_version;     /* gpumem version that wrote the report */
    char *analyses;         /* e.g. "coalescing,divergence" */
};

struct gm_report_device {
    int32_t ordinal;
    char *name;
    int32_t cc_major, cc_minor;
    int32_t sm_count;
    uint64_t global_mem;    /* bytes */
    uint64_t l2_bytes;
};

/* ---- modules, sites and counter sets -------------------------------- */

/* One site, as in the site table (include/gpumem/sitetab.h), strings resolved. */
struct gm_report_site {
    uint8_t event;          /* enum gm_event */
    uint8_t space;          /* enum gm_space */
    uint8_t when;           /* GM_WHEN_* */
    uint32_t info;          /* abi.h info word */
    char *func;
    char *file;
    uint32_t line, column;
};

/* A counter array of one analysis: gm_counters__NAME with its slot names. */
struct gm_report_counter_set {
    char *name;             /* e.g. "coalescing" */
    uint32_t nslots;        /* per site */
    uint32_t flags;         /* GM_GLOBAL_* of the site table */
    char **slot_names;      /* nslots entries; a missing name is "" */
    uint8_t *or_slot;       /* nslots entries: 1 = a bit mask, combined across
                             * replicas and launches by OR (a slot named
                             * "x|or" in the site table, abi.h), 0 = summed */
};

struct gm_report_module {
    uint64_t modid;
    char *source;           /* the module's source file name */
    uint32_t n_asm_mem;     /* inline-asm memory statements not instrumented */
    size_t nsites;
    struct gm_report_site *sites;           /* index == site id */
    size_t nsets;
    struct gm_report_counter_set *sets;
};

/* ---- kernels and launches ------------------------------------------- */

/* Counters of one counter set summed over a kernel's launches, dense:
 * v[site * nslots + slot] for every site of the kernel's module. */
struct gm_report_kcounters {
    char *set;              /* counter set name (module's sets) */
    uint32_t nsites, nslots;
    uint64_t *v;
};

struct gm_report_kernel {
    char *name;             /* mangled name */
    uint64_t modid;         /* module the kernel lives in */
    uint64_t launches;
    int64_t gpu_ns;         /* summed kernel time, -1 if unknown */
    size_t nsets;
    struct gm_report_kcounters *sets;
};

/* (Fields ordered for size: a report may hold millions of launches and
 * events; 104 and 96 bytes.) */
struct gm_report_launch {
    uint64_t seq;           /* order among all timeline events */
    size_t kernel;          /* index into report->kernels */
    uint32_t grid[3], block[3];
    uint32_t shmem;         /* dynamic shared memory bytes */
    int32_t device;
    uint64_t stream;        /* stream handle value, 0 = default */
    char *api;              /* e.g. "cudaLaunchKernel", "cuLaunchKernelEx", "graph";
                             * stored once per report, shared: never set or
                             * free it on its own */
    struct gm_report_hostsite site;
    int64_t time_ns;        /* since program start */
    int64_t gpu_ns;         /* kernel time, -1 if unknown */
};

/* ---- allocations ---------------------------------------------------- */

/* Access-count histogram over the allocation's chunks (hist_chunk bytes
 * each): hist[0] = chunks never accessed; hist[b] for
 * 1 <= b < GM_REPORT_HIST_BUCKETS-1 = chunks accessed c times (thread-level
 * accesses) with 2^(b-1) <= c < 2^b; the last bucket is open-ended. */
#define GM_REPORT_HIST_BUCKETS 16

/* What one launch did to one allocation (per-launch bitmap). */
struct gm_report_alloc_launch {
    uint64_t launch_seq;
    uint64_t reads, writes; /* thread-level accesses (one per active lane) */
    uint64_t touched_units;
    uint64_t *bitmap;       /* (units+63)/64 words, bit i = unit i; or NULL */
};

struct gm_report_alloc {
    uint64_t id;            /* unique in the report, assigned by the runtime */
    uint64_t dev_ptr;
    uint64_t size;          /* bytes requested */
    char *api;              /* e.g. "cudaMalloc", "cudaMallocManaged", "cuMemAlloc";
                             * stored once per report, shared like a launch's */
    char *label;            /* gm_name_allocation label, or NULL */
    char *alloc_path;       /* callers above alloc_site, innermost first:
                             * "f (file:line) <- g (file:line)", or NULL */
    int32_t device;
    struct gm_report_hostsite alloc_site, free_site; /* free_site.file NULL: never freed */
    int freed;
    uint64_t alloc_seq;     /* seq of its GM_OP_ALLOC event (0: before the timeline) */
    uint64_t free_seq;      /* seq of its GM_OP_FREE event (0: not freed) */
    /* allocations analysis (has_access == 0: not measured) */
    int has_access;
    uint32_t granularity;   /* bytes per bitmap unit (default 4) */
    uint64_t units;         /* ceil(size / granularity) */
    uint64_t reads, writes; /* thread-level accesses (one per active lane) */
    uint64_t sectors;       /* unique 32 B sectors per warp access, summed */
    uint64_t touched_units; /* union over all launches */
    uint64_t largest_untouched_units; /* longest run of untouched units */
    uint64_t untouched_runs; /* number of maximal untouched runs */
    uint64_t *bitmap;       /* union bitmap, or NULL when only the summary was kept */
    uint64_t hist_chunk;    /* bytes per histogram chunk (0: granularity) */
    uint64_t hist[GM_REPORT_HIST_BUCKETS];
    size_t nlaunches;
    struct gm_report_alloc_launch *launches;
};

/* ---- timeline ------------------------------------------------------- */

enum gm_report_op {
    GM_OP_ALLOC = 1, GM_OP_FREE, GM_OP_MEMCPY, GM_OP_MEMSET, GM_OP_LAUNCH,
};
/* GM_XFER_, not GM_DIR_: the runtime core uses GM_DIR_ for its own enum. */
enum gm_report_dir {
    GM_XFER_NONE = 0, GM_XFER_H2D, GM_XFER_D2H, GM_XFER_D2D, GM_XFER_H2H, GM_XFER_DEFAULT,
};
/* How an event used an allocation. */
#define GM_USE_READ  1u
#define GM_USE_WRITE 2u
#define GM_USE_UNKNOWN 4u   /* used, direction not measured (launch without
                               the allocations analysis): treat as read+write */

struct gm_report_use {
    uint64_t alloc;         /* gm_report_alloc.id */
    uint32_t how;           /* GM_USE_* bits */
    uint64_t offset, bytes; /* range of the allocation involved (bytes 0: whole/unknown) */
};

/* Alloc and free events carry one use naming the allocation (how 0);
 * memcpy: source GM_USE_READ, destination GM_USE_WRITE; memset: WRITE;
 * launch: one use per allocation the kernel accessed, READ/WRITE from the
 * allocations analysis; without that analysis GM_USE_UNKNOWN for each
 * allocation the launch may use (e.g. its address is a kernel argument).
 * Pattern detection (gm_analysis.h) relies on these rules. */
struct gm_report_event {
    uint64_t seq;           /* strictly increasing in the order the APIs were called */
    int64_t time_ns;        /* since program start */
    enum gm_report_op op;
    enum gm_report_dir dir; /* memcpy only */
    uint64_t bytes;         /* alloc/free size, copy/set length; 0 for launches */
    uint64_t stream;
    int32_t device;
    int64_t launch;         /* GM_OP_LAUNCH: index into report->launches, else -1 */
    struct gm_report_hostsite site;
    size_t nuses;
    struct gm_report_use *uses;
};

/* A launch gpumem saw happen but could not instrument or account. */
struct gm_report_unobserved {
    char *kernel;           /* name if known, else NULL */
    char *reason;           /* e.g. "CUDA graph launch", "CUPTI held by another tool" */
    uint64_t count;
};

/* ---- the report ----------------------------------------------------- */

struct gm_report {
    int schema_version;     /* GM_REPORT_SCHEMA_VERSION */
    struct gm_report_program program;
    size_t ndevices;    struct gm_report_device *devices;
    size_t nmodules;    struct gm_report_module *modules;
    size_t nkernels;    struct gm_report_kernel *kernels;
    size_t nlaunches;   struct gm_report_launch *launches;
    size_t nallocs;     struct gm_report_alloc *allocs;
    size_t nevents;     struct gm_report_event *events;
    size_t nunobserved; struct gm_report_unobserved *unobserved;
    size_t nnotes;      char **notes;
    /* array capacities (internal) */
    size_t cap_devices, cap_modules, cap_kernels, cap_launches, cap_allocs,
           cap_events, cap_unobserved, cap_notes;
    struct gm_report_kindex *kindex; /* (modid, name) -> kernel (internal) */
    struct gm_report_strpool *strpool; /* strings stored once (internal) */
};

/* ---- building and freeing -------------------------------------------
 * Every function returning a pointer returns NULL when out of memory (the
 * report is left as it was); int functions return 0 or -1. */

struct gm_report *gm_report_new(void);
void gm_report_free(struct gm_report *r);

int gm_report_set_argv(struct gm_report *r, int argc, char *const *argv);
/* Replace *dst with a copy of s (NULL allowed). */
int gm_report_set_str(char **dst, const char *s);
int gm_report_set_hostsite(struct gm_report_hostsite *h, const char *file,
                           uint32_t line, const char *func);

struct gm_report_device *gm_report_add_device(struct gm_report *r, int32_t ordinal,
                                              const char *name);

/* Adds a module with nsites zeroed sites (fill them with gm_report_set_site). */
struct gm_report_module *gm_report_add_module(struct gm_report *r, uint64_t modid,
                                              const char *source, size_t nsites);
int gm_report_set_site(struct gm_report_module *m, uint32_t site, uint8_t event,
                       uint8_t space, uint8_t when, uint32_t info, const char *func,
                       const char *file, uint32_t line, uint32_t column);
/* slot_names: comma-separated as in gm_slotnames__NAME ("" or NULL: unnamed);
 * a name ending in GM_SLOT_OR_SUFFIX ("|or") marks an OR slot and is
 * stored without the suffix. */
struct gm_report_counter_set *gm_report_add_counter_set(struct gm_report_module *m,
                                                        const char *name, uint32_t nslots,
                                                        uint32_t flags,
                                                        const char *slot_names);

struct gm_report_module *gm_report_find_module(const struct gm_report *r, uint64_t modid);
const struct gm_report_counter_set *gm_report_find_set(const struct gm_report_module *m,
                                                       const char *name);
/* Index of a slot by name in a counter set, or -1. */
int gm_report_slot_index(const struct gm_report_counter_set *s, const char *slot);

/* Finds the kernel (modid, name) or adds it with zero launches. */
struct gm_report_kernel *gm_report_get_kernel(struct gm_report *r, uint64_t modid,
                                              const char *name);
struct gm_report_kernel *gm_report_find_kernel(const struct gm_report *r, uint64_t modid,
                                               const char *name);
/* Adds v[nsites * nslots] (site-major, one launch's counters of a whole
 * module, replicas already summed) into the kernel's totals for `set`. */
int gm_report_add_kernel_counters(struct gm_report_kernel *k, const char *set,
                                  uint32_t nsites, uint32_t nslots, const uint64_t *v);
/* Like gm_report_add_kernel_counters, but combines each slot as the
 * module's counter set `set` says (its or_slot flags, from the "|or" slot
 * names of the contract in abi.h): bit-mask slots are OR-ed, every other
 * slot is added. Use this one for launch totals. Falls back to adding when
 * the module or set is unknown. */
int gm_report_fold_kernel_counters(struct gm_report *r, struct gm_report_kernel *k,
                                   const char *set, uint32_t nsites, uint32_t nslots,
                                   const uint64_t *v);
/* 1 if slot `slot` of the counter set holds a bit mask (combined by OR). */
int gm_report_slot_is_or(const struct gm_report_counter_set *s, uint32_t slot);
/* Adds one site's n counters. */
int gm_report_add_kernel_site_counters(struct gm_report_kernel *k, const char *set,
                                       uint32_t nsites, uint32_t nslots, uint32_t site,
                                       const uint64_t *v, uint32_t n);
const struct gm_report_kcounters *gm_report_kernel_set(const struct gm_report_kernel *k,
                                                       const char *set);

/* Adds a launch of kernel index `kernel` (also counts it in kernel->launches). */
struct gm_report_launch *gm_report_add_launch(struct gm_report *r, uint64_t seq,
                                              size_t kernel, const char *api);

struct gm_report_alloc *gm_report_add_alloc(struct gm_report *r, uint64_t id,
                                            uint64_t dev_ptr, uint64_t size,
                                            const char *api);
struct gm_report_alloc *gm_report_find_alloc(const struct gm_report *r, uint64_t id);
/* Sets the union bitmap (copied; units from size and granularity) and
 * recomputes touched_units, largest_untouched_units and untouched_runs. */
int gm_report_alloc_set_bitmap(struct gm_report_alloc *a, uint32_t granularity,
                               const uint64_t *bitmap);
struct gm_report_alloc_launch *gm_report_alloc_add_launch(struct gm_report_alloc *a,
                                                          uint64_t launch_seq,
                                                          const uint64_t *bitmap);

struct gm_report_event *gm_report_add_event(struct gm_report *r, uint64_t seq,
                                            enum gm_report_op op, uint64_t bytes);
int gm_report_event_add_use(struct gm_report_event *e, uint64_t alloc, uint32_t how,
                            uint64_t offset, uint64_t bytes);

struct gm_report_unobserved *gm_report_add_unobserved(struct gm_report *r,
                                                      const char *kernel,
                                                      const char *reason, uint64_t count);
int gm_report_add_note(struct gm_report *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Names of enum values as they appear in JSON ("alloc", "h2d", "signal"...). */
const char *gm_report_op_name(enum gm_report_op op);
const char *gm_report_dir_name(enum gm_report_dir d);
const char *gm_report_end_name(enum gm_report_end e);
int gm_report_op_parse(const char *s);   /* -1 if unknown */
int gm_report_dir_parse(const char *s);
int gm_report_end_parse(const char *s);

/* Bitmap helpers (units bits in (units+63)/64 words). */
uint64_t gm_bitmap_count(const uint64_t *bm, uint64_t units);
/* Longest run of zero bits and the number of maximal zero runs. */
uint64_t gm_bitmap_largest_zero_run(const uint64_t *bm, uint64_t units, uint64_t *nruns);

#endif /* GM_REPORT_H */
