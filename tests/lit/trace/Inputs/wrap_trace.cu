// SPDX-License-Identifier: Apache-2.0
// A one-line kernel around the trace handler, so ptxas -v reports the
// handler's registers (ptxas gives no count for a lone .func). Test input only.
#include "../../../../handlers/builtin/trace.cu"
extern "C" __global__ void gm_wrap_trace(float *a, uint32_t info)
{
    gm_before_mem__trace(7, (uint64_t)&a[threadIdx.x], info, 0);
}
