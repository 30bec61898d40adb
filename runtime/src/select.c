/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run-time selection of the launches that are measured, in Nsight
 * Compute's vocabulary, without rebuilding:
 *   GPUMEM_KERNEL_REGEX  POSIX extended regex; a kernel is eligible when it
 *                        matches its mangled or demangled name
 *   GPUMEM_LAUNCH_SKIP   eligible launches skipped before measuring (all kernels)
 *   GPUMEM_LAUNCH_EVERY  then every N-th eligible launch of each kernel
 *   GPUMEM_LAUNCH_COUNT  at most N launches measured in all (0: no limit)
 * A launch that is not measured adds nothing to any kernel's counts (they
 * are per measured launch, never extrapolated); the report says how many
 * launches were measured and why, and how many of the others ran the
 * kernel's uninstrumented copy (native.c). Depends on libc (regex) and the
 * runtime state; no CUDA.
 */
#include "rt.h"
#include "gm_demangle.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Per kernel: eligible launches so far, and whether its name matched
 * (regexec and the demangler once per kernel, not per launch). */
struct kcount { const char *name; uint64_t eligible; int match; UT_hash_handle hh; };

static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    int active;             /* some variable is set: selection applies */
    int have_re;
    regex_t re;
    const char *re_text;
    uint64_t skip, every, count;
    uint64_t seen, eligible, measured; /* launches */
    uint64_t native;        /* not measured, ran the uninstrumented copy */
    int checks;             /* flushes of the copies' counters checked */
    int failed;             /* one of them had counts: the driver ran the kernel itself */
    struct kcount *per_kernel;
} S = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

static void init(void)
{
    S.re_text = getenv("GPUMEM_KERNEL_REGEX");
    if (S.re_text && *S.re_text) {
        int r = regcomp(&S.re, S.re_text, REG_EXTENDED | REG_NOSUB);
        if (r == 0) S.have_re = 1;
        else {
            char msg[128];
            regerror(r, &S.re, msg, sizeof msg);
            gm_warn("GPUMEM_KERNEL_REGEX=%s: %s; every kernel is eligible", S.re_text, msg);
        }
    }
    S.skip = gm_env_u64("GPUMEM_LAUNCH_SKIP", 0, 0, UINT64_MAX);
    S.every = gm_env_u64("GPUMEM_LAUNCH_EVERY", 1, 1, UINT64_MAX);
    S.count = gm_env_u64("GPUMEM_LAUNCH_COUNT", 0, 0, UINT64_MAX);
    S.active = S.have_re || S.skip || S.every > 1 || S.count;
}

static int name_matches(const char *name)
{
    if (regexec(&S.re, name, 0, NULL, 0) == 0) return 1;
    char *dm = gm_demangle_dup(name);
    int hit = dm && regexec(&S.re, dm, 0, NULL, 0) == 0;
    free(dm);
    return hit;
}

/* This kernel's entry (names are interned: keyed by pointer), or NULL. */
static struct kcount *kernel_of(const char *name)
{
    struct kcount *k;
    HASH_FIND_PTR(S.per_kernel, &name, k);
    if (!k && (k = calloc(1, sizeof *k))) {
        k->name = name;
        k->match = !S.have_re || name_matches(name);
        HASH_ADD_PTR(S.per_kernel, name, k);
    }
    return k;
}

int gm_select_launch(const char *name)
{
    pthread_once(&S.once, init);
    if (!S.active) return 1;
    pthread_mutex_lock(&S.lock);
    S.seen++;
    struct kcount *k = kernel_of(name);
    int take = k ? k->match : !S.have_re || name_matches(name);
    if (take) take = S.eligible++ >= S.skip;
    if (take) take = k && k->eligible++ % S.every == 0;
    if (take) take = !S.count || S.measured < S.count;
    S.measured += take;
    pthread_mutex_unlock(&S.lock);
    return take;
}

void gm_select_unmeasured(int native)
{
    pthread_mutex_lock(&S.lock);
    S.native += native != 0;
    pthread_mutex_unlock(&S.lock);
}

/* Only the first flushes: a check costs a counter copy to the host. */
enum { CHECKS = 4 };

int gm_select_check_wanted(void)
{
    pthread_mutex_lock(&S.lock);
    int want = S.checks < CHECKS && !S.failed;
    S.checks += want;
    pthread_mutex_unlock(&S.lock);
    return want;
}

void gm_select_check(int clean)
{
    pthread_mutex_lock(&S.lock);
    int first = !clean && !S.failed++;
    pthread_mutex_unlock(&S.lock);
    if (first)
        gm_warn("launches switched to uninstrumented copies counted events: this CUDA driver "
                "ignored the switch and ran the instrumented kernels (at instrumented speed; "
                "counts stay exact)");
}

char *gm_select_note(void)
{
    if (!S.active) return NULL;
    char line[1024], every[48] = "", skip[48] = "", count[48] = "", others[256] = "";
    if (S.every > 1) snprintf(every, sizeof every, " GPUMEM_LAUNCH_EVERY=%llu", (unsigned long long)S.every);
    if (S.skip) snprintf(skip, sizeof skip, " GPUMEM_LAUNCH_SKIP=%llu", (unsigned long long)S.skip);
    if (S.count) snprintf(count, sizeof count, " GPUMEM_LAUNCH_COUNT=%llu", (unsigned long long)S.count);
    uint64_t rest = S.seen - S.measured;
    if (S.failed)
        snprintf(others, sizeof others, "; the %llu others ran the instrumented kernels (the driver "
                 "ignored the switch to the uninstrumented copies)", (unsigned long long)rest);
    else if (rest && S.native == rest)
        snprintf(others, sizeof others, "; the %llu others ran the uninstrumented copies",
                 (unsigned long long)rest);
    else if (rest)
        snprintf(others, sizeof others, "; of the %llu others %llu ran the uninstrumented copies, "
                 "%llu the kernel as built (graph launches, traced modules; kernels without a copy: build with --gm-native-copies)",
                 (unsigned long long)rest, (unsigned long long)S.native,
                 (unsigned long long)(rest - S.native));
    snprintf(line, sizeof line, "launch selection:%s%s%s%s%s: %llu of %llu instrumented launches "
             "measured; kernel counts cover the measured launches only (not extrapolated)%s",
             S.have_re ? " GPUMEM_KERNEL_REGEX=" : "", S.have_re ? S.re_text : "", skip, every, count,
             (unsigned long long)S.measured, (unsigned long long)S.seen, others);
    return strdup(line);
}
