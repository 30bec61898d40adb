/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem_nvcc_compat.h: what nvcc gives CUDA source files without an include
 * and clang's CUDA wrapper (__clang_cuda_runtime_wrapper.h) does not. gpumemcc
 * pre-includes it in every .cu compile, after clang's wrapper and before the
 * user's own -include files (docs/gpumemcc.md, "nvcc compatibility").
 * Depends on the CUDA toolkit headers and the C/C++ library only.
 *
 * 1. <time.h>: nvcc's crt/common_functions.h includes it for host code, so
 *    time(), clock(), struct tm, difftime and CLOCKS_PER_SEC need no include.
 *    (Everything else that header and math_functions.h bring to host code,
 *    <string.h>, <stdlib.h>, <cmath>, <cstdlib>, clang's wrapper includes too.)
 * 2. __NVCC__, defined as nvcc defines it, after the toolkit headers that test
 *    it to tell which compiler runs (CCCL's compiler detection, <nv/target>)
 *    have been included: their include guards keep clang's answers there.
 * 3. Host overloads of min() and max(): nvcc declares them for host and device
 *    code (crt/math_functions.h and .hpp); clang's headers declare the device
 *    ones only, so host and host-device code calling min/max failed.
 * 4. In device compiles, __constant__ also annotates the variable
 *    "gpumem.constant": clang gives const namespace-scope variables an
 *    implicit __constant__ (nvcc: __device__ const is global memory), and
 *    the pass (pass/constdata.c) moves those, never these marked ones, to
 *    global memory when the module's constant data exceeds 64 KiB. The pass
 *    removes the annotations.
 */
#ifndef GPUMEM_NVCC_COMPAT_H
#define GPUMEM_NVCC_COMPAT_H
#if defined(__CUDA__) && defined(__cplusplus)

#include <time.h>

#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#if __has_include(<nv/target>)
#include <nv/target>
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif

/* nvcc's host versions: integers compare after converting both operands to
 * the result type (as umin/llmin/ullmin do); floating point uses fmin/fmax. */
#define GM_NVCC_MINMAX_INT(R, A, B)                                               \
    static inline __host__ R min(const A a, const B b)                            \
    {                                                                             \
        return (R)a < (R)b ? (R)a : (R)b;                                         \
    }                                                                             \
    static inline __host__ R max(const A a, const B b)                            \
    {                                                                             \
        return (R)a > (R)b ? (R)a : (R)b;                                         \
    }
#define GM_NVCC_MINMAX_FP(R, A, B, MIN, MAX)                                      \
    static inline __host__ R min(const A a, const B b) { return MIN((R)a, (R)b); } \
    static inline __host__ R max(const A a, const B b) { return MAX((R)a, (R)b); }

GM_NVCC_MINMAX_INT(int, int, int)
GM_NVCC_MINMAX_INT(unsigned int, unsigned int, unsigned int)
GM_NVCC_MINMAX_INT(unsigned int, int, unsigned int)
GM_NVCC_MINMAX_INT(unsigned int, unsigned int, int)
GM_NVCC_MINMAX_INT(long int, long int, long int)
GM_NVCC_MINMAX_INT(unsigned long int, unsigned long int, unsigned long int)
GM_NVCC_MINMAX_INT(unsigned long int, long int, unsigned long int)
GM_NVCC_MINMAX_INT(unsigned long int, unsigned long int, long int)
GM_NVCC_MINMAX_INT(long long int, long long int, long long int)
GM_NVCC_MINMAX_INT(unsigned long long int, unsigned long long int, unsigned long long int)
GM_NVCC_MINMAX_INT(unsigned long long int, long long int, unsigned long long int)
GM_NVCC_MINMAX_INT(unsigned long long int, unsigned long long int, long long int)
GM_NVCC_MINMAX_FP(float, float, float, fminf, fmaxf)
GM_NVCC_MINMAX_FP(double, double, double, fmin, fmax)
GM_NVCC_MINMAX_FP(double, float, double, fmin, fmax)
GM_NVCC_MINMAX_FP(double, double, float, fmin, fmax)

#undef GM_NVCC_MINMAX_INT
#undef GM_NVCC_MINMAX_FP

#ifdef __CUDA_ARCH__
#undef __constant__
#define __constant__ __attribute__((constant, annotate("gpumem.constant")))
#endif

#endif /* __CUDA__ && __cplusplus */
#endif
