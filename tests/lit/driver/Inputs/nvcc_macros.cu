// The predefined macros user code tests to mean "compiled by nvcc", and the
// toolkit's own compiler detection still seeing clang.
#ifndef __NVCC__
#error "__NVCC__ is not defined"
#endif
#if !defined(__CUDACC__) || !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) || !defined(__CUDACC_VER_BUILD__)
#error "__CUDACC__ / __CUDACC_VER_MAJOR__ / __CUDACC_VER_MINOR__ / __CUDACC_VER_BUILD__ missing"
#endif
#if __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDART_VERSION
#error "__CUDACC_VER_MAJOR__/MINOR__ do not match the toolkit"
#endif
#include <nv/target>
#include <cuda/std/type_traits>
#if !_CCCL_CUDA_COMPILER(CLANG) || _CCCL_CUDA_COMPILER(NVCC)
#error "CCCL takes clang for nvcc"
#endif
#if defined(__CUDA_ARCH__) && !defined(_NV_COMPILER_CLANG_CUDA)
#error "<nv/target> takes clang for nvcc"
#endif
__global__ void k(int *o) { NV_IF_TARGET(NV_IS_DEVICE, (o[0] = 1;)) }
