/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem runtime: the public C API an instrumented program may call.
 * Linked in by gpumemcc (-lgpumem). Plain C; no CUDA types, so it can be
 * included from any translation unit. Every call is a no-op when the runtime
 * is not active (for example when another tool holds CUPTI).
 */
#ifndef GPUMEM_RUNTIME_H
#define GPUMEM_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Give the device allocation that contains @p ptr a label for reports
 * (e.g. gm_name_allocation(d_a, "A matrix")). The label is copied. A pointer
 * that is not inside a live tracked allocation is remembered and applied when
 * an allocation at exactly that address appears later.
 */
void gm_name_allocation(const void *ptr, const char *label);

/** Write the report now (normally done at exit); safe to call repeatedly:
 *  later reports include everything collected so far. */
void gm_flush_report(void);

#ifdef __cplusplus
}
#endif
#endif /* GPUMEM_RUNTIME_H */
