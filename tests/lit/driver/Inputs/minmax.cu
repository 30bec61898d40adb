// min/max in host and host-device code: nvcc's headers declare host
// overloads; clang's only device ones. Values as nvcc's host versions give.
#include <cstdio>
#include <cmath>
__host__ __device__ int hd(int a, int b) { return max(a, b) - min(a, b); }
int main()
{
    printf("%d %u %u %ld %lld %g %g %g\n", hd(3, 7), min(-1, 2u), max(-1, 2u), min(3L, -4L),
           max(1LL, 2LL), (double)min(1.5f, 2.5f), max(1.0, (double)NAN), max(2.0f, 3.0));
    return 0;
}
