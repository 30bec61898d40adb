/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal interface of the gpumem-sim command: the replay state shared by
 * option parsing (gpumem_sim.c), replay (gpumem_sim_run.c) and output
 * (gpumem_sim_print.c). Depends on libgmsim only.
 */
#ifndef GPUMEM_SIM_CLI_H
#define GPUMEM_SIM_CLI_H

#include <stdio.h>
#include "gpumem/sim.h"
#include "gpumem/synth.h"

/* incomplete: the trace ended (torn) inside this launch; c counts its
 * records up to the last whole block. */
struct gm_run_launch { struct gm_trace_launch l; struct gm_counts c; int ended, incomplete; };

struct gm_run {
    struct gm_sim_config cfg;
    const char *preset;
    struct gm_sim *sim;
    struct gm_ref *ref;                 /* --ref: reference model alongside */
    struct gm_trace_gpu gpu;
    char (*labels)[GM_TRACE_NAME_MAX];  /* by allocation id: label or "file:line" of the call */
    uint64_t *alloc_size;               /* by allocation id */
    struct gm_counts *ref_launch;
    uint32_t nlabels, nmods;
    size_t cap_labels, cap_alloc_size, cap_launches, cap_ref_launch;
    size_t cap_mod_nsites, cap_mod_sites, cap_mod_names;
    uint32_t *mod_nsites;
    struct gm_trace_site **mod_sites;
    char (*mod_names)[GM_TRACE_NAME_MAX];
    struct gm_run_launch *launches;
    size_t nlaunches;
    struct gm_counts final_wb;          /* dirty L2 written back at the end */
    struct gm_counts ref_final_wb;      /* the reference model's (--ref) */
    uint64_t records, dropped, copies;
    uint32_t overlaps;                  /* allocations ignored (overlapping) */
    int torn;                           /* the trace file ends early */
    double seconds;
    char err[512];
};

struct gm_sink gm_run_sink(struct gm_run *r);
int gm_run_trace(struct gm_run *r, const char *path);
int gm_run_finish(struct gm_run *r);
void gm_run_free(struct gm_run *r);
/* The counters of struct gm_counts in output order, with their names in
 * every format (gpumem_sim_print.c: the one table of them). */
size_t gm_count_fields(void);
const char *gm_count_name(size_t i);
uint64_t gm_count_get(const struct gm_counts *c, size_t i);
void gm_print_text(FILE *f, const struct gm_run *r);     /* --format counters */
void gm_print_table(FILE *f, const struct gm_run *r);    /* --format text */
void gm_print_csv(FILE *f, const struct gm_run *r);
void gm_print_json(FILE *f, const struct gm_run *r);
int gm_ref_compare(FILE *f, const struct gm_run *r);

#endif
