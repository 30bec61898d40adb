/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libgpumem internals shared by the CUPTI-facing files: the CUDA/CUPTI entry
 * points (opened at run time), the process-wide state and its lock, the
 * per-thread re-entry guard. Depends on the runtime core, CUDA and CUPTI
 * headers (types only); never on LLVM.
 */
#ifndef GM_RT_H
#define GM_RT_H

#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <uthash.h>
#include "rt_core.h"

#define GM_HIDDEN __attribute__((visibility("hidden")))

/* ---- CUDA driver and CUPTI entry points (cuda_api.c) ------------------ */

#define GM_CU_FUNCS(X)                                                         \
    X(cuCtxGetCurrent) X(cuCtxGetDevice) X(cuDeviceGetAttribute)               \
    X(cuDeviceGetName) X(cuDeviceTotalMem) X(cuFuncGetModule) X(cuFuncGetName) \
    X(cuKernelGetFunction) X(cuKernelGetLibrary) X(cuKernelGetName)            \
    X(cuLibraryGetGlobal) X(cuModuleGetGlobal) X(cuMemAlloc) X(cuMemFree)      \
    X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8Async) X(cuStreamSynchronize)  \
    X(cuGetErrorString) X(cuStreamIsCapturing) X(cuEventCreate) X(cuEventRecord)  \
    X(cuEventElapsedTime) X(cuEventDestroy) X(cuEventQuery) X(cuEventSynchronize)  \
    X(cuStreamWaitEvent) X(cuMemcpyDtoHAsync) X(cuMemAllocHost) X(cuMemFreeHost)  \
    X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuModuleGetFunction) X(cuLibraryGetKernel)  \
    X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuGraphGetNodes) X(cuGraphNodeGetType) \
    X(cuGraphChildGraphNodeGetGraph)
#define GM_CUPTI_FUNCS(X)                                                      \
    X(cuptiSubscribe) X(cuptiEnableDomain) X(cuptiEnableCallback)              \
    X(cuptiGetResultString) X(cuptiUnsubscribe) X(cuptiGetCallbackName)

#define GM_CUPTI_ACTIVITY_FUNCS(X)                                             \
    X(cuptiActivityRegisterCallbacks) X(cuptiActivityEnable)                   \
    X(cuptiActivityGetNextRecord) X(cuptiActivityFlushAll)

#define GM_DECL_FN(fn) __typeof__(&fn) fn;
struct gm_cuda_api {
    GM_CU_FUNCS(GM_DECL_FN)
    GM_CUPTI_FUNCS(GM_DECL_FN)
    CUptiResult (*cuptiSubscribe_v2)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *,
                                     void *params);
    GM_CUPTI_ACTIVITY_FUNCS(GM_DECL_FN) /* optional: NULL where CUPTI lacks them */
};
#undef GM_DECL_FN
GM_HIDDEN extern struct gm_cuda_api gm_cu;
/* Open libcuda and libcupti; 0, or -1 with a reason in err. */
GM_HIDDEN int gm_cuda_api_load(char *err, size_t errlen);
GM_HIDDEN const char *gm_cu_err(CUresult r);

/* ---- per-thread state --------------------------------------------------- */

struct gm_tls {
    int in_runtime;         /* >0 while libgpumem itself calls CUDA: ignore callbacks */
    int api_depth;          /* nesting of API callbacks (runtime + driver) */
    const char *outer_api;  /* outermost API's name (e.g. cudaMalloc) */
    uintptr_t outer_site;   /* host return address of the outermost API call */
    int outer_recorded;     /* a memory event was recorded inside the outer call */
    uint32_t outer_corr;    /* CUPTI correlation id of the outermost call */
    size_t launch_rec;      /* index in gm_st.launch_recs of the launch being recorded */
    struct gm_launch_state *launch; /* instrumented launch between entry and exit */
};
GM_HIDDEN struct gm_tls *gm_tls(void);
#define GM_GUARD_BEGIN() (gm_tls()->in_runtime++)
#define GM_GUARD_END() (gm_tls()->in_runtime--)

/* ---- process-wide state (state.c) ------------------------------------- */

/* One instrumented module (one site table) loaded in one context, with the
 * counter buffers the runtime allocated for it. */
struct gm_modinst_set {
    const struct gm_sitetab_global *g;
    CUdeviceptr dev;        /* replicas * nsites * slots uint64_t */
    uint32_t replicas;
};
/* Allocation table of one launch (alloc_upload.c). */
struct gm_alloc_range;
struct gm_alloc_upload {
    int active;             /* uploaded for the launch in flight */
    uint32_t n;             /* ranges this launch */
    uint64_t *ids, *sizes;  /* per range */
    size_t ids_cap, sizes_cap, ranges_host_cap;
    struct gm_alloc_range *ranges; /* host copy of what was uploaded */
    CUdeviceptr ranges_dev, ctr_dev;
    size_t ranges_cap, ctr_cap;
};
struct gm_ev;               /* a pooled CUDA event (collect.c) */
struct gm_pin;              /* a pinned staging block (collect.c) */
/* A stream that ran launches of a module since its last flush (collect.c). */
struct gm_mstream {
    CUstream s;
    uint32_t tid;           /* for CU_STREAM_PER_THREAD: whose stream */
    struct gm_ev *last;     /* marks the end of its launches of the module, or NULL */
    int dirty;              /* launches since the last flush that no event marks */
    uint64_t gen;           /* flushes this stream is ordered after */
};
/* Counters of a module accumulate on the device for one owner (a kernel
 * name, or the graph pseudo-kernel, or all kernels of a module whose sites
 * all lie in kernels: then split by site) and are flushed -- copied to
 * pinned memory and zeroed, in stream order -- when the owner changes, and
 * at the end. Launches of the owner hold `rw` shared from entry to exit, a
 * flush holds it exclusively. */
struct gm_modinst {
    CUcontext ctx;
    pthread_rwlock_t rw;
    pthread_mutex_t mu;     /* guards streams, owned, tally */
    const char *owner;      /* interned kernel name, or NULL */
    int owner_graph;        /* the owner is the [CUDA graph] pseudo-kernel */
    int owner_discard;      /* the owner is launches not selected: zero, never read */
    int owner_native;       /* ... that ran uninstrumented copies: read to check they counted nothing */
    uint64_t owned;         /* owner's launches since the last flush */
    struct gm_kpart *parts; /* its sites by kernel when all lie in kernels (kpart.c), else NULL */
    uint32_t nparts;
    struct gm_ktally tally; /* owner "kernels of the module" (parts): launches per kernel */
    struct gm_mstream *streams;
    uint32_t nstreams;
    size_t capstreams;
    struct gm_ev *flush_ev; /* end of the last flush */
    uint64_t flush_gen;     /* flushes so far */
    struct gm_pin *pins;    /* free staging blocks */
    uint32_t npins;         /* staging blocks allocated (free or in flight) */
    uint32_t replicas;
    CUdeviceptr alloctab_global; /* gm_alloctab__allocations__<modid>, or 0 */
    int traced;             /* has a gm_trace_buf global (tracing) */
    struct gm_alloc_upload up;
    CUmodule mod;           /* where its globals are found: a module ... */
    CUlibrary lib;          /* ... or a library (CUDA 12+ runtime) */
    const struct gm_rt_sitetab *tab;
    uint32_t nsets;
    struct gm_modinst_set *sets;
    struct gm_modinst *next;
};

/* What a launch handle (CUfunction or CUkernel) resolves to, per context. */
struct gm_fnkey { void *fn; CUcontext ctx; };
struct gm_fninfo {
    struct gm_fnkey key;
    const char *name;       /* interned mangled name */
    struct gm_modinst **mods; /* instrumented modules reachable from it */
    uint32_t nmods;
    unsigned reg_count;     /* site tables known when resolved (lazy loading) */
    struct gm_native {      /* its uninstrumented copy in this context (native.c) */
        int known;          /* looked up */
        CUfunction copy;    /* NULL: none */
        CUfunction orig;    /* the kernel itself, whose attributes the copy mirrors */
        int attr[4];        /* the copy's mirrored attributes as last set */
    } native;
    UT_hash_handle hh;
};

struct gm_kstat;            /* kstats.c */

/* One kernel launch as the report lists it. */
struct gm_launch_rec {
    uint64_t seq;           /* timeline event */
    const char *kernel;     /* interned */
    const struct gm_rt_sitetab *tab; /* first instrumented module, or NULL */
    uint32_t grid[3], block[3], shmem;
    uint64_t stream;
    int device;
    const char *api;
    uintptr_t callsite;
    uint64_t t_ns;
    int64_t gpu_ns;         /* kernel time (CUPTI activity, gputime.c), -1 if unknown */
    int instrumented;
};

/* A GPU seen at a launch, for the report. */
struct gm_device_info {
    int ordinal, cc_major, cc_minor, sm_count;
    uint64_t global_mem, l2_bytes;
    char name[128];
};

struct gm_state {
    pthread_mutex_t lock;   /* guards everything below */
    pthread_mutex_t launch_lock; /* guards fns and mods (resolving a launch) */
    pthread_mutex_t sync_lock; /* held from entry to exit of a launch with the allocations analysis */
    int active;             /* subscribed to CUPTI */
    int reported;
    struct gm_modreg reg;
    struct gm_alloc_table allocs;
    struct gm_timeline tl;
    struct gm_modinst *mods;
    struct gm_fninfo *fns;
    struct gm_kstat *kstats;
    struct gm_launch_rec *launch_recs;
    size_t nlaunch_recs, cap_launch_recs;
    struct gm_device_info devices[16];
    unsigned ndevices;
    uint64_t graph_launches, captured_launches, launches, inst_launches;
    uint64_t image_errors;
    uint64_t t0_ns;         /* CLOCK_MONOTONIC at start */
    int64_t wall0_ns;
    char *notes[32];
    unsigned nnotes;
};
GM_HIDDEN extern struct gm_state gm_st;

GM_HIDDEN void gm_state_init(void);
GM_HIDDEN uint64_t gm_now_ns(void);
/* One line to stderr, prefixed "gpumem: "; also kept as a report note. */
GM_HIDDEN void gm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Debug lines when GPUMEM_VERBOSE is 2. */
GM_HIDDEN void gm_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* GPUMEM_VERBOSE: 0 (default), 1 counter tables on stderr at exit, 2 also debug lines. */
GM_HIDDEN extern int gm_verbose;

/* ---- environment (env.c) ---------------------------------------------- */
/* One line per GPUMEM_* / GPU_MEM_* variable the runtime does not know. */
GM_HIDDEN void gm_env_check(void);
/* name's value: digits only, in [min, max]; else one line and def. */
GM_HIDDEN uint64_t gm_env_u64(const char *name, uint64_t def, uint64_t min, uint64_t max);

/* ---- host call sites (callsite.c) ------------------------------------- */
/* Return address of the first frame outside libgpumem/CUDA/CUPTI; key
 * names the call path (the API), for a per-thread cache of stack slots. */
GM_HIDDEN uintptr_t gm_callsite_capture(const void *key);
/* "file:line (func)" or "binary+0xoff (func)"; buf is filled. */
struct gm_symbolized { char file[512]; unsigned line; char func[256]; };
GM_HIDDEN void gm_callsite_resolve(uintptr_t pc, struct gm_symbolized *out, int use_addr2line);
/* Return addresses of up to max callers above the first user frame
 * (innermost first), stopping at libc; the rest of pcs is zeroed. A full
 * stack walk: for allocations, not launches. */
GM_HIDDEN void gm_callsite_path(uintptr_t *pcs, int max);
/* callsite_syms.c: 1 if pc (a return address in the object at path, loaded
 * at base) lies in a CUDA runtime/driver function or a kernel launch stub
 * linked into that object; gm_callsite_cuda_name judges a symbol name. */
GM_HIDDEN int gm_callsite_in_cuda_code(const char *path, uintptr_t base, uintptr_t pc);
GM_HIDDEN int gm_callsite_cuda_name(const char *name);

/* ---- CUPTI (cupti_sub.c), events (mem_events.c), launches (launch.c) -- */
GM_HIDDEN int gm_cupti_start(void);
GM_HIDDEN void gm_cupti_stop(void);
GM_HIDDEN void gm_on_module_loaded(const CUpti_ResourceData *rd);
GM_HIDDEN void gm_on_context_destroy(CUcontext ctx);
GM_HIDDEN void gm_on_driver_mem(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);
GM_HIDDEN void gm_on_runtime_mem(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);
GM_HIDDEN int gm_is_launch_cbid(CUpti_CallbackId cbid);
GM_HIDDEN void gm_on_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);

/* ---- kernel time (gputime.c) ------------------------------------------ */
/* Enable CUPTI kernel activity; -1 (said in one line) if it cannot be. */
GM_HIDDEN void gm_on_capture(CUpti_CallbackId cbid, const CUpti_CallbackData *cb);
GM_HIDDEN int gm_gputime_start(void);
/* A launch with CUPTI correlation ids corr (its driver call) and
 * outer_corr (the runtime call around it, or 0): its kernels' time goes to
 * launch record rec and to the kernel's entry for each of tabs. exec: the
 * graph it launches, or NULL for a kernel. */
GM_HIDDEN void gm_gputime_launch(uint32_t corr, uint32_t outer_corr, size_t rec, const char *name,
                                 CUgraphExec exec, const struct gm_rt_sitetab *const *tabs,
                                 uint32_t ntabs);
/* A graph instantiated as exec (its kernel nodes are counted), or exec
 * destroyed. */
GM_HIDDEN void gm_gputime_graph_instantiated(CUgraphExec exec, CUgraph graph);
GM_HIDDEN void gm_gputime_graph_destroyed(CUgraphExec exec);
/* Launches whose kernel records have not all arrived yet. */
GM_HIDDEN size_t gm_gputime_waiting(void);
/* Deliver every kernel record CUPTI holds (not from a signal handler). */
GM_HIDDEN void gm_gputime_flush(void);

/* ---- asynchronous collection (collect.c) ------------------------------ */

/* One instrumented launch between its entry and exit callbacks. */
struct gm_launch_state {
    const char *name;       /* interned kernel name */
    int graph;              /* the [CUDA graph] pseudo-kernel */
    int sync;               /* waits for the kernel at exit (allocations analysis) */
    int traced;             /* a module has a trace buffer (trace_session.h) */
    int discard;            /* not selected (select.c): counts are thrown away */
    int native;             /* not selected and switched to the uninstrumented copy (native.c) */
    struct gm_modinst **mods; /* its modules, sorted by address, locked */
    uint32_t nmods, cap;
    size_t rec;             /* index in gm_st.launch_recs, or SIZE_MAX */
    uint64_t seq;           /* timeline event */
};
/* Take the modules' locks, flush counters owned by another kernel, order
 * the stream after earlier flushes. */
GM_HIDDEN void gm_col_enter(struct gm_launch_state *ls, CUstream s);
/* After the launch call: ok if the kernel was enqueued. Notes that the
 * stream has work of the modules (a later flush orders after it). */
GM_HIDDEN void gm_col_end(struct gm_launch_state *ls, CUstream s, int ok);
/* Releases what gm_col_enter took (after any waiting a sync launch does). */
GM_HIDDEN void gm_col_release(struct gm_launch_state *ls);
/* Collect everything in flight (ctx NULL: every context) and wait for it.
 * bounded (signal handler, context destruction): never wait for a lock
 * for long. */
GM_HIDDEN void gm_col_drain(CUcontext ctx, int in_signal);
GM_HIDDEN void gm_col_modinst_init(struct gm_modinst *m);
/* After its counter sets exist: one pinned staging block ready. */
GM_HIDDEN void gm_col_modinst_ready(struct gm_modinst *m);
GM_HIDDEN void gm_col_modinst_free(struct gm_modinst *m);
/* A stream is being destroyed: its handle may come back as a new stream,
 * which is not ordered after the old one's work (its entries are retired). */
GM_HIDDEN void gm_col_stream_destroyed(CUstream s);
/* Drop pooled events of a context being destroyed. */
GM_HIDDEN void gm_col_forget_ctx(CUcontext ctx);

/* ---- run-time launch selection (select.c) ---------------------------- */
/* 1 if this launch of kernel `name` (interned) is measured: GPUMEM_KERNEL_REGEX,
 * GPUMEM_LAUNCH_SKIP, GPUMEM_LAUNCH_EVERY, GPUMEM_LAUNCH_COUNT. */
GM_HIDDEN int gm_select_launch(const char *name);
/* A launch that is not measured ran the uninstrumented copy (native 1) or
 * the instrumented kernel (0: no copy, or a graph launch). */
GM_HIDDEN void gm_select_unmeasured(int native);
/* 1 while the counters of launches switched to copies are still to be
 * checked (the first few flushes); then the result of one check: clean is
 * 1 if they counted nothing (the copies ran), 0 if not (warned once). */
GM_HIDDEN int gm_select_check_wanted(void);
GM_HIDDEN void gm_select_check(int clean);
/* The report note on what was measured (NULL when every launch was). */
GM_HIDDEN char *gm_select_note(void);

/* ---- uninstrumented copies (native.c) --------------------------------- */
/* Finds the copy of kernel `name` launched through handle fn (CUfunction
 * or CUkernel) in the current context; n->copy stays NULL if there is none. */
GM_HIDDEN void gm_native_lookup(struct gm_native *n, void *fn, const char *name);
/* Gives the copy the kernel's attributes the program may have set
 * (dynamic shared memory limit, carveout, cluster policy) and puts it in
 * place of the kernel in a launch's entry-callback parameters; 1 if done,
 * 0 if not (no copy, an attribute could not be set). Caller serialises. */
GM_HIDDEN int gm_native_switch(struct gm_native *n, CUpti_CallbackId cbid, const CUpti_CallbackData *cb);

/* ---- allocations analysis (alloc_upload.c) --------------------------- */
struct gm_astat_launch {
    uint64_t seq, reads, writes, rsec, wsec, touched;
    uint64_t *bitmap;       /* this launch's bitmap (64-bit words), or NULL if large */
};
#define GM_CHUNK_SHIFT 12u  /* access histogram chunks of 4 KiB */
struct gm_astat {            /* what the handler measured for one allocation */
    uint64_t id, units, nchunks;
    uint32_t gran;          /* bytes per bitmap unit */
    uint32_t chunk;         /* bytes per histogram chunk (1 << GM_CHUNK_SHIFT) */
    uint64_t reads, writes, rsec, wsec; /* thread accesses; unique sectors per warp access */
    uint64_t *bitmap;       /* union over launches */
    uint64_t *chunk_acc;    /* accesses per 4 KiB chunk */
    size_t nl, capl;
    struct gm_astat_launch *l;
    UT_hash_handle hh;
};
GM_HIDDEN void gm_alloctab_enter(struct gm_modinst *m, CUstream stream, int device);
GM_HIDDEN void gm_alloctab_exit(struct gm_modinst *m, uint64_t seq);
/* A launch that is not measured: the handler is off (empty table). */
GM_HIDDEN void gm_alloctab_off(struct gm_modinst *m);
GM_HIDDEN void gm_alloctab_forget_ctx(CUcontext ctx);
GM_HIDDEN const struct gm_astat *gm_astat_find(uint64_t id);

/* ---- kernel statistics (kstats.c) ------------------------------------- */
struct gm_kstat {
    char *key;              /* name + "\n" + modid */
    const char *name;
    const struct gm_rt_sitetab *tab;
    uint64_t launches;
    int64_t gpu_ns;         /* summed over timed launches, -1 if none */
    uint32_t nsets;
    const struct gm_sitetab_global **set_g;
    uint64_t **sums;        /* per set: nsites * slots */
    uint8_t **or_slots;     /* per set: OR-folded slots (gm_slot_or_flags), or NULL */
    UT_hash_handle hh;
};
GM_HIDDEN struct gm_kstat *gm_kstat_get(const char *name, const struct gm_rt_sitetab *tab);
GM_HIDDEN void gm_kstat_add(struct gm_kstat *k, const struct gm_sitetab_global *g,
                            const uint64_t *host, uint32_t replicas);
/* The same for sites [lo, hi) of the module only. */
GM_HIDDEN void gm_kstat_add_sites(struct gm_kstat *k, const struct gm_sitetab_global *g,
                                  const uint64_t *host, uint32_t replicas, uint32_t lo, uint32_t hi);

/* ---- reports (report_plain.c / report_model.c) ------------------------ */
enum gm_end_kind { GM_RT_END_NORMAL = 1, GM_RT_END_EXIT, GM_RT_END_SIGNAL };
GM_HIDDEN void gm_report_all(int end_kind, int status, int in_signal);
GM_HIDDEN void gm_report_plain(FILE *f);
/* Demangled C++ name (malloc'd) or NULL, via the C++ ABI if it is loaded. */
GM_HIDDEN void gm_report_timeline_csv(FILE *f, int symbolize);
GM_HIDDEN void gm_report_counters_csv(FILE *f);
/* Fill the report library's model and write it (report_model.c). */
/* 0 if every name in GPUMEM_FORMAT is known, else -1 with err. */
GM_HIDDEN int gm_report_formats_check(const char *formats, char *err, size_t errlen);
GM_HIDDEN int gm_report_model_write(const char *dir, const char *formats, int end_kind,
                                    int status, int symbolize);
/* report_dir.c: the report directory written into buf (GM_REPORT_DIR_MAX
 * bytes): GPUMEM_OUT with %p (the process id) and %% expanded, 1; else
 * "gpumem-<program>", 0. */
#define GM_REPORT_DIR_MAX 4096
GM_HIDDEN int gm_report_dir(char *buf, size_t len);
/* At start: one line when GPUMEM_OUT holds a % sequence it keeps as
 * written, or is too long once expanded. */
GM_HIDDEN void gm_report_dir_check(void);
/* 1 if format f (or "all") is in the comma-separated list. */
GM_HIDDEN int gm_formats_has(const char *formats, const char *f);
/* The exit line: "gpumem: report in DIR (summary.txt, ...)". */
GM_HIDDEN void gm_report_announce(FILE *f, const char *dir, const char *formats);

#endif /* GM_RT_H */
