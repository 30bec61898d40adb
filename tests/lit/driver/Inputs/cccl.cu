// CCCL headers as user code includes them with nvcc: no -I for them.
#include <cub/version.cuh>
#include <thrust/version.h>
#include <cuda/std/type_traits>
#include <cooperative_groups.h>
static_assert(CUB_VERSION > 0 && THRUST_VERSION > 0, "CCCL versions");
__global__ void k(int *o) { o[cooperative_groups::this_thread_block().thread_rank()] = 1; }
