/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Derived analyses over a report model (pure C, no CUDA): per-kernel and
 * per-source-line aggregation of the built-in counter sets, worst-coalesced
 * lines, most divergent branches, scalar and narrow values, and DrGPUM's
 * object-level and intra-object patterns (definitions: docs/reports.md).
 * Depends on gm_report.h only. Results point into the report they came
 * from: free them before the report.
 */
#ifndef GM_ANALYSIS_H
#define GM_ANALYSIS_H

#include "gm_report.h"

/* ---- counter slots, looked up by name ------------------------------ */

/* Index of the first slot of `set` named one of the NULL-terminated names,
 * or -1. Analyses never assume slot positions. */
int gm_slot_find(const struct gm_report_counter_set *set, const char *const *names);

/* ---- per kernel ------------------------------------------------------ */

struct gm_kernel_stat {
    const struct gm_report_kernel *k;
    int instrumented;        /* its module is in the report; 0: modid 0, a kernel of a
                              * module gpumem did not instrument (counters unknown) */
    uint64_t mem_warps;      /* coalescing: warp executions of memory sites */
    uint64_t sectors, ideal_sectors, excess_sectors;
    uint64_t wavefronts, ideal_wavefronts;
    uint64_t br_execs, br_divergent;
};
/* One entry per kernel, sorted by GPU time (if known) then memory warps.
 * Returns the count, or -1 when out of memory. */
long gm_kernel_stats(const struct gm_report *r, struct gm_kernel_stat **out);

/* SASSI's memory-divergence matrix of one kernel, summed over its sites:
 * m[(threads - 1) * 32 + (sectors - 1)] = warp accesses with that many
 * active threads and unique 32 B sectors (32 = 32 or more), from the
 * `coalescing_matrix` counter set. Returns 1 when the kernel has it, else 0
 * (m zeroed). */
int gm_kernel_matrix(const struct gm_report *r, const struct gm_report_kernel *k,
                     uint64_t m[1024]);

/* ---- per source line (coalescing) ---------------------------------- */

struct gm_line_stat {
    const char *file;        /* "" when the site has no location */
    uint32_t line;
    const char *kernel;      /* first kernel seen at this line */
    uint32_t nkernels;
    uint64_t warps, threads, sectors, lines, ideal_sectors, excess_sectors;
    uint64_t wavefronts, ideal_wavefronts, excess_wavefronts;
};
/* Memory sites aggregated per file:line over all kernels, sorted by
 * excess sectors (sectors - ideal_sectors), then excess wavefronts. */
long gm_line_stats(const struct gm_report *r, struct gm_line_stat **out);

/* ---- branches (divergence) ----------------------------------------- */

struct gm_branch_stat {
    const struct gm_report_module *m;
    uint32_t site;
    const struct gm_report_site *s;
    uint64_t execs, threads, taken, not_taken, divergent;
};
/* Branch sites with executions, sorted by divergent executions, then share. */
long gm_branch_stats(const struct gm_report *r, struct gm_branch_stat **out);

/* ---- values -------------------------------------------------------- */

struct gm_value_stat {
    const struct gm_report_module *m;
    uint32_t site;
    const struct gm_report_site *s;
    uint64_t warps, uniform;     /* executions; those with one value in all active lanes */
    int have_bits;               /* the set has the "ones" and "zeros" slots */
    uint64_t const_one, const_zero; /* bits 1 (0) in every value seen, within the width */
    uint32_t width_bits;         /* access width in bits (from the site's info) */
    uint32_t narrow_bits;        /* bits that vary: width - constant bits */
};
/* Value sites with executions, sorted by uniform share, then executions. */
long gm_value_stats(const struct gm_report *r, struct gm_value_stat **out);

/* ---- allocation metrics (intra-object) ---------------------------- */

struct gm_alloc_metrics {
    int measured;               /* the allocations analysis ran for it */
    double touched_share;       /* touched units / units */
    uint64_t untouched_bytes, largest_untouched_bytes;
    double fragmentation;       /* 1 - largest untouched / untouched (0 if none) */
    int hot_bucket, median_bucket; /* histogram buckets (see gm_report.h), -1 if none */
    uint64_t hot_units;         /* histogram chunks in buckets above the median bucket */
    uint64_t max_launch_touched;/* most units one launch touched */
};
void gm_alloc_metrics(const struct gm_report_alloc *a, struct gm_alloc_metrics *m);

/* ---- findings (DrGPUM patterns) ----------------------------------- */

enum gm_pattern {
    GM_PAT_EARLY_ALLOC = 1, GM_PAT_LATE_FREE, GM_PAT_REDUNDANT_ALLOC, GM_PAT_UNUSED_ALLOC,
    GM_PAT_LEAK, GM_PAT_IDLE, GM_PAT_DEAD_WRITE,
    GM_PAT_OVERALLOC, GM_PAT_NONUNIFORM, GM_PAT_STRUCTURED,
};

struct gm_finding {
    enum gm_pattern pattern;
    uint64_t alloc;             /* allocation id */
    uint64_t other;             /* redundant allocation: the object it could reuse */
    uint64_t bytes;             /* bytes at stake */
    uint64_t seq_from, seq_to;  /* the timeline window involved (0 if none) */
    uint64_t gap;               /* work events (copy/set/launch) inside the window */
    const struct gm_report_hostsite *site1, *site2; /* NULL if unknown */
    char *what;                 /* one line: what was found */
    char *suggestion;           /* one line: what to do */
};

struct gm_findings {
    size_t n, cap;
    struct gm_finding *v;
};

struct gm_pattern_opts {
    uint64_t early_gap;         /* early allocation: >= this many work events before first use */
    uint64_t late_gap;          /* late deallocation: >= this many after last use */
    uint64_t idle_gap;          /* temporary idleness: >= this many between two uses */
    double overalloc_max_touched;  /* overallocation: touched share below this */
    int nonuniform_buckets;     /* hot bucket - median bucket >= this */
    double structured_max_share;/* each launch touches <= this share of the touched units */
};
void gm_pattern_opts_default(struct gm_pattern_opts *o);

/* 1 when the timeline says which allocations launches used: some launch
 * event has a use, or there is no launch event. When 0, an allocation used
 * only by kernels would look unused, so gm_find_object_patterns reports
 * memory leaks only. */
int gm_launch_uses_known(const struct gm_report *r);

/* Runs every detector; findings are sorted by bytes at stake (descending,
 * ties by pattern then allocation id). Returns 0, or -1 when out of memory. */
int gm_find_patterns(const struct gm_report *r, const struct gm_pattern_opts *o,
                     struct gm_findings *out);
/* The object-level detectors alone (timeline) and the intra-object ones
 * alone (bitmaps); both append to out. */
int gm_find_object_patterns(const struct gm_report *r, const struct gm_pattern_opts *o,
                            struct gm_findings *out);
int gm_find_intra_patterns(const struct gm_report *r, const struct gm_pattern_opts *o,
                           struct gm_findings *out);
void gm_findings_sort(struct gm_findings *f);
void gm_findings_free(struct gm_findings *f);

const char *gm_pattern_name(enum gm_pattern p);  /* "early-allocation", ... */

/* "file:line" of a host site into buf ("?" when unknown). */
const char *gm_hostsite_str(const struct gm_report_hostsite *h, char *buf, size_t len);
/* "label (#id)" or "#id" for an allocation. */
const char *gm_alloc_name(const struct gm_report *r, uint64_t id, char *buf, size_t len);

/* ---- formatting shared by the writers and the `gpumem` CLI ---------- */

/* "1.50 MiB" style (exact "N B" below 1 KiB) into buf. */
const char *gm_fmt_bytes(uint64_t bytes, char *buf, size_t len);
/* Demangled C++ name when the C++ runtime's demangler is linked in (weak
 * reference to __cxa_demangle), else the name itself; cut to len-1
 * characters with "..." at the end when longer. */
const char *gm_demangle(const char *name, char *buf, size_t len);

#endif /* GM_ANALYSIS_H */
