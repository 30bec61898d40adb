// SPDX-License-Identifier: Apache-2.0
// Driver test input: host program calling the kernel wrapper in libshlib.so.
#include <cstdio>
extern "C" int gm_test_fill(int *p, int v);
int main()
{
    int *p;
    if (cudaMallocManaged(&p, 32 * sizeof *p)) {
        fprintf(stderr, "cudaMallocManaged failed\n");
        return 1;
    }
    if (gm_test_fill(p, 7))
        return 1;
    long sum = 0;
    for (int i = 0; i < 32; i++)
        sum += p[i];
    printf("checksum %ld\n", sum);
    return sum == 224 ? 0 : 1;
}
