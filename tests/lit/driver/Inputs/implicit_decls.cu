// No includes: what nvcc's cuda_runtime.h makes visible to host code and
// clang's CUDA wrapper did not (<time.h>, from crt/common_functions.h).
long t1() { return (long)time(0); }
long t2() { clock_t c = clock(); return (long)c; }
int t3() { struct tm t = {}; time_t x = mktime(&t); char b[8]; return (int)strftime(b, sizeof b, "%Y", &t) + (int)x; }
double t4() { return difftime(2, 1) + (double)CLOCKS_PER_SEC; }
__host__ __device__ long t5() { return (long)clock(); }
// already visible under clang as under nvcc (<string.h>, <stdlib.h>, <cmath>)
int t6() { return (int)strlen("abc") + abs(-1) + (int)::sqrt(4.0); }
