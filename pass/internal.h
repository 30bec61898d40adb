/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared state of the pass's C files: parsed options, handler sets, the list
 * of selected sites. Depends on LLVM-C and the contract headers only.
 */
#ifndef GM_PASS_INTERNAL_H
#define GM_PASS_INTERNAL_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include "gm_pass.h"
#include "gpumem/abi.h"
#include "gpumem/sitetab.h"

/* Bits of -gm-inst-before / -gm-inst-after. */
enum { GM_INST_MEMORY = 1, GM_INST_BRANCH = 2, GM_INST_ENTRY = 4, GM_INST_EXIT = 8 };

/* The five events, as indices. */
enum gm_ev { GM_EV_BMEM, GM_EV_ALOAD, GM_EV_BRANCH, GM_EV_ENTRY, GM_EV_EXIT, GM_EV_N };

/* Function attribute that marks code linked from handler bitcode. */
#define GM_HANDLER_ATTR "gm-handler"
/* Function attribute that marks an uninstrumented copy (clone.c). */
#define GM_NATIVE_ATTR "gm-native"

struct gm_err { char *buf; size_t len; };
struct gm_sites;
int gm_fail(struct gm_err *e, const char *fmt, ...);   /* always returns -1 */

struct gm_cfg {
    unsigned before, after;           /* GM_INST_* */
    regex_t kre, fre;
    int has_kre, has_fre;
    int strip, off;
    int reconverge;                   /* -gm-reconverge (insert.c) */
    int growth_pct;                   /* -gm-inline-growth (outline.c) */
    int native;                       /* -gm-native-copies (clone.c) */
    char **paths;                     /* handler bitcode files */
    int npaths;
};
int gm_cfg_parse(struct gm_cfg *c, const struct gm_pass_options *o, struct gm_err *e);
void gm_cfg_free(struct gm_cfg *c);

/* Analysis slot info read from gm_nslots__NAME / gm_slotnames__NAME. */
struct gm_slots { char *name; uint32_t nslots; char *slotnames; };
/* A handler data global renamed to <name>__<modid>. */
struct gm_hglobal { char *name, *sym; uint32_t size, slots, flags; char *slotnames; };

struct gm_handlers {
    LLVMModuleRef *mods; int nmods;   /* parsed, not yet linked */
    char *const *paths;               /* their files (the cfg's) */
    char **fn[GM_EV_N]; int nfn[GM_EV_N];
    struct gm_slots *slots; int nslots;
    struct gm_hglobal *globals; int nglobals;
};
int gm_handlers_load(struct gm_handlers *h, LLVMContextRef ctx, const struct gm_cfg *c,
                     struct gm_err *e);
int gm_handlers_link(struct gm_handlers *h, LLVMModuleRef m, uint64_t modid, struct gm_err *e);
/* Links src into dst (destroying src); 1 and a one-line message on error
 * (link_diag.cpp: the host's diagnostic handler is kept out of it). */
int gm_link_modules(LLVMModuleRef dst, LLVMModuleRef src, char *err, size_t len);
void gm_handlers_free(struct gm_handlers *h);
int gm_handlers_inline(LLVMModuleRef m, const struct gm_sites *s, struct gm_err *e);
void gm_fold_nsites(LLVMModuleRef m);
int gm_is_handler_code(LLVMValueRef f);          /* linked from handler bitcode */
void gm_drop_dead_handler_calls(LLVMModuleRef m);  /* dead.c */
/* Register accumulators (accum.c): returns 1 if any was made; s (may be
 * NULL) gives memory sites' instructions for loop steps (loopinv.c). */
int gm_accum_lower(LLVMModuleRef m, const struct gm_sites *s);
int gm_accum_is_late(LLVMValueRef f);
/* The blocks of a function on a CFG cycle (cycles.cpp, LLVM's scc_iterator). */
struct gm_cycles;
struct gm_cycles *gm_cycles_new(LLVMValueRef f);
void gm_cycles_free(struct gm_cycles *c);
int gm_on_cycle(const struct gm_cycles *c, LLVMBasicBlockRef b);   /* b lies in a loop */
/* Natural loops of f (loops.cpp, LLVM's LoopInfo; CycleInfo and
 * DominatorTree for gm_loop_once); f's blocks must stay while used. */
struct gm_loops;
struct gm_loop;                                     /* an llvm::Loop */
struct gm_loops *gm_loops_new(LLVMValueRef f);
void gm_loops_free(struct gm_loops *lp);
unsigned gm_loop_depth(const struct gm_loops *lp, LLVMBasicBlockRef bb);   /* 0: in no loop */
const struct gm_loop *gm_loop_headed(const struct gm_loops *lp, LLVMBasicBlockRef bb);  /* NULL: none */
LLVMBasicBlockRef gm_loop_latch(const struct gm_loop *l);   /* NULL: not exactly one */
LLVMBasicBlockRef gm_loop_entry(const struct gm_loop *l);   /* the one outside predecessor, or NULL */
int gm_loop_contains(const struct gm_loop *l, LLVMBasicBlockRef bb);
const struct gm_loop *gm_loop_of(const struct gm_loops *lp, LLVMBasicBlockRef bb);  /* innermost; NULL: none */
int gm_loop_once(const struct gm_loops *lp, const struct gm_loop *l, LLVMBasicBlockRef bb);
/* Loop steps (loopinv.c). */
int gm_loopinv_store(LLVMBuilderRef b, LLVMValueRef slot, LLVMValueRef inst, LLVMValueRef ptr,
                     const struct gm_cycles *g, const struct gm_loops *lp);
int gm_loopinv_has_step(LLVMValueRef inst, LLVMValueRef ptr, const struct gm_cycles *g,
                        const struct gm_loops *lp);
/* Dominance in f (domtree.cpp, LLVM's DominatorTree and PostDominatorTree):
 * blocks numbered 0 .. gm_dom_count - 1 in their order in f. */
struct gm_dom;
struct gm_dom *gm_dom_new(LLVMValueRef f);
void gm_dom_free(struct gm_dom *g);
int gm_dom_count(const struct gm_dom *g);
LLVMBasicBlockRef gm_dom_block(const struct gm_dom *g, int b);
int gm_dom_index(const struct gm_dom *g, LLVMBasicBlockRef bb);   /* -1: not in f */
int gm_dom_ipdom(const struct gm_dom *g, int b);  /* -1: none, the virtual exit */
int gm_dom_dominates(const struct gm_dom *g, int a, int b);
void gm_dom_reach(const struct gm_dom *g, int from, int avoid, char *mark);
void gm_fold_null_tests(LLVMValueRef call, int nonnull);     /* icmp call, null -> constant */
/* Block accumulators in shared memory (block.c): returns 1 if any was made. */
int gm_block_lower(LLVMModuleRef m);
int gm_block_is_late(LLVMValueRef f);

/* Which events are instrumented: options and handlers together. */
struct gm_active { int ev[GM_EV_N]; };

enum gm_site_kind { GM_SK_MEM, GM_SK_BRANCH, GM_SK_ENTRY, GM_SK_EXIT, GM_SK_ASM };
struct gm_site_rec {
    struct gm_site s;                 /* as written to the table (strings as ids) */
    enum gm_site_kind kind;
    LLVMValueRef inst;                /* instruction the calls go before (after) */
    LLVMValueRef ptr;                 /* memory: the address operand */
    LLVMValueRef val;                 /* memory: value for before_mem, or NULL */
};
/* String table of the site table: offset 0 is "", strings are interned. */
struct gm_strtab { char *buf; size_t len, cap; void *hash; };
uint32_t gm_str_intern(struct gm_strtab *t, const char *s, size_t n);
void gm_strtab_free(struct gm_strtab *t);

struct gm_sites { struct gm_site_rec *v; size_t n, cap; uint32_t n_asm; struct gm_strtab str; };

int gm_site_push(struct gm_sites *s, const struct gm_site_rec *r);
void gm_sites_free(struct gm_sites *s);

/* Function selection (filters, handler code, declarations). */
int gm_select_functions(LLVMModuleRef m, const struct gm_cfg *c, LLVMValueRef **out, size_t *n);
int gm_is_kernel(LLVMModuleRef m, LLVMValueRef f);
char *gm_func_file(LLVMValueRef f);   /* malloc'd "dir/file" or NULL */
char *gm_loc_file(LLVMValueRef v);    /* same for an instruction's location */

/* Site selection and call insertion. */
int gm_select_sites(LLVMModuleRef m, LLVMValueRef *fns, size_t nfns,
                    const struct gm_active *a, struct gm_sites *s);
/* param.c: 1 if a load from ptr reads a kernel's read-only byval argument. */
int gm_kernel_param_read(LLVMValueRef ptr);
int gm_mem_site(LLVMValueRef inst, LLVMTargetDataRef td, const struct gm_active *a,
                struct gm_sites *s, struct gm_site_rec *proto);
int gm_insert_calls(LLVMModuleRef m, const struct gm_sites *s, const struct gm_handlers *h,
                    const struct gm_active *a, const struct gm_cfg *c, struct gm_err *e);
/* The calls of every handler of ev at b's position, with reconvergence
 * (insert.c); ins is insert.c's state. */
struct gm_ins;
void gm_call_handlers(struct gm_ins *x, LLVMBuilderRef b, enum gm_ev ev, LLVMValueRef *args,
                      unsigned nargs);

/* Inlined or out-of-line handlers per site (outline.c). */
#define GM_OOL_PREFIX "gm_ool__"
/* Accumulators per kernel (GM_ACCUM_WORDS registers each; accum.c). */
#define GM_ACCUM_MAX 16
/* Memory accumulators per kernel (GM_ACCUM_WORDS words of local memory
 * each): out-of-line loop sites pass theirs to their copy (outline.c's
 * plan keeps to it; accum.c gives every one it asked for). */
#define GM_ACCUM_MEM_MAX 64
/* String attribute of a copy taking memory accumulators: the names of the
 * gm_accum__ stubs its last parameters stand for, space-separated. */
#define GM_ACC_PARAMS_ATTR "gm-acc-params"
/* Distinct accumulator stubs counted per event (outline.c). */
#define GM_OOL_ACCS 4
/* Bits of a site's plan (outline.c): in a kernel, on a CFG cycle, its
 * address has a loop step (loopinv.c), its budgeted handlers inlined, or
 * its copy called with memory accumulators; it runs on every iteration of
 * its innermost loop. */
enum { GM_OOL_KERNEL = 1, GM_OOL_LOOP = 2, GM_OOL_STEP = 4, GM_OOL_HOT = 8, GM_OOL_MACC = 16,
       GM_OOL_EVERY = 32 };
struct gm_ool {
    LLVMModuleRef m;
    const struct gm_handlers *h;
    const struct gm_sites *sites;
    struct gm_ins *ins;
    int growth_pct;                   /* -gm-inline-growth */
    unsigned cost[GM_EV_N], maxcost;  /* instructions of an event's handlers */
    unsigned accum[GM_EV_N];          /* register accumulators a site takes: ... */
    LLVMValueRef accfn[GM_EV_N][GM_OOL_ACCS];   /* ... the gm_accum__NAME they call */
    int block[GM_EV_N];               /* they use block accumulators */
    uint64_t infomask[GM_EV_N];       /* info word bits they read (infobits.c) */
    struct gm_ool_wrap { enum gm_ev ev; LLVMValueRef arg[4], fn; int group, acc; } *wrap;
    size_t nwrap;                     /* gm_ool__<event>__<n>, made on first use */
    unsigned char *plan;              /* per site: GM_OOL_* bits */
    unsigned char *depth;             /* per loop site: loop nesting depth (>= 1) */
    unsigned short *group;            /* per site (group.c): 1 alone; n >= 2 first of a
                                         group of n; 0 a later site of a group */
};
void gm_ool_init(struct gm_ool *o, LLVMModuleRef m, const struct gm_handlers *h,
                 const struct gm_sites *s, int growth_pct);
void gm_ool_free(struct gm_ool *o);
int gm_ool_hot(struct gm_ool *o, enum gm_ev ev, uint32_t site);
LLVMValueRef gm_ool_call(struct gm_ool *o, LLVMBuilderRef b, enum gm_ev ev, uint32_t site,
                         LLVMValueRef *args, unsigned nargs);
/* Site groups (group.c; handler.h GM_BEFORE_MEM_GROUP): the plan, a
 * before_mem handler's group handler, the call of a group's first site
 * (outline.c; args as for before_mem) and the handlers' calls in its copy
 * (insert.c; args: site, n, address, info). */
#define GM_GROUP_PREFIX "gm_before_mem_group__"
void gm_group_plan(struct gm_ool *o);
LLVMValueRef gm_group_fn(LLVMModuleRef m, const char *name);
LLVMValueRef gm_ool_group_call(struct gm_ool *o, LLVMBuilderRef b, LLVMValueRef *args, unsigned n);
void gm_call_group_handlers(struct gm_ins *x, LLVMBuilderRef b, LLVMValueRef *args);
/* -gm-diag-sites: one line to stderr about kernel f's loop sites (oolstats.c). */
void gm_ool_print_plan(const struct gm_ool *o, LLVMValueRef f, size_t i0, size_t i1,
                       unsigned long long spent, unsigned long long budget, unsigned acc,
                       unsigned macc);
void gm_ool_tidy(LLVMModuleRef m);   /* ooltidy.c: after inlining */
char *gm_ool_body_text(LLVMValueRef f);   /* ooltidy.c: IR text without the name (malloc'd) */
/* ooltidy.c, for the passes that rewrite copies: a new function like f
 * (return type, linkage, function attributes, subprogram) with parameters
 * t[0..n) holding f's blocks (f's parameters still to be replaced); every
 * call of old as a call of nf with the arguments at the positions live
 * marks (all when NULL) and then extra[0..nextra), nf's value replacing
 * the call's; f's name given to nf. */
LLVMValueRef gm_ool_move_body(LLVMModuleRef m, LLVMValueRef f, LLVMTypeRef *t, unsigned n);
void gm_ool_recall(LLVMValueRef old, LLVMValueRef nf, const int *live, LLVMValueRef *extra,
                   unsigned nextra);
void gm_ool_take_name(LLVMValueRef nf, LLVMValueRef f);
unsigned gm_ool_merge(LLVMModuleRef m);   /* oolmerge.c: after gm_ool_runs */
unsigned gm_ool_runs(LLVMModuleRef m);   /* oolrun.c: after gm_ool_tidy */
int gm_is_slow_helper(LLVMValueRef f);               /* GM_SLOW handler code (inline.c) */
void gm_specialise_slow_calls(LLVMModuleRef m);      /* slowspec.c */
void gm_order_functions(LLVMModuleRef m);   /* fnorder.c: added code first */
uint64_t gm_demanded_arg_bits(LLVMValueRef f, unsigned i);   /* infobits.c */
LLVMValueRef gm_to_i64(LLVMBuilderRef b, LLVMValueRef v, LLVMTargetDataRef td);

/* Uninstrumented copies of the kernels to be instrumented (clone.c):
 * returns how many functions were copied. */
int gm_clone_kernels(LLVMModuleRef m, const struct gm_cfg *c);
int gm_is_native_copy(LLVMValueRef f);

/* attrs.c: convergent where handler calls are, no stale memory(...)/nosync */
void gm_mend_attributes(LLVMModuleRef m);
void gm_drop_native_copies(LLVMModuleRef m);   /* those no longer needed */

/* Module-level pieces. */
int gm_prepare(LLVMModuleRef m, struct gm_err *e);
uint64_t gm_modid(LLVMModuleRef m);
int gm_define_module_globals(LLVMModuleRef m, uint64_t modid, uint32_t nsites,
                             struct gm_handlers *h);
int gm_emit_sitetab(LLVMModuleRef m, uint64_t modid, struct gm_sites *s,
                    const struct gm_handlers *h, struct gm_err *e);

/* llvm.used / llvm.compiler.used editing. */
void gm_used_remove(LLVMModuleRef m, int (*drop)(LLVMValueRef gv, void *arg), void *arg);
void gm_used_append(LLVMModuleRef m, LLVMValueRef gv);
void gm_used_move_last(LLVMModuleRef m);   /* after every other global */

/* Calls by callee-name prefix; debug locations of inserted calls (calls.c). */
LLVMValueRef gm_prefixed_callee(LLVMValueRef in, const char *prefix);
size_t gm_prefixed_calls(LLVMValueRef f, const char *prefix, LLVMValueRef **out);
void gm_set_loc(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef near);
/* util.c: an enum attribute's kind by name; 1 if attribute a is
 * memory(none); 1 if f is an intrinsic marked memory(none). */
unsigned gm_attr_kind(const char *name);
int gm_memory_none(LLVMAttributeRef a);
int gm_intrinsic_pure(LLVMValueRef f);
/* hoist.c: the instruction before which site's "before" calls go (site, or
 * the first of the loads above it that they may pass); ops: their operands. */
LLVMValueRef gm_hoist_point(LLVMValueRef site, LLVMValueRef *ops, int nops);

/* The function being worked on, for internal errors (gm_pass_where). */
void gm_note_function(LLVMValueRef f);

/* Strings. */
int gm_starts_with(const char *s, const char *prefix);
/* Instructions of f (0 for a declaration). */
unsigned gm_count_insts(LLVMValueRef f);
char *gm_strdup(const char *s, size_t n);

#endif /* GM_PASS_INTERNAL_H */
