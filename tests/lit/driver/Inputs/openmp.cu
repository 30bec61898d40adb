// Host OpenMP in a CUDA source, as the corpus's reference code uses it.
#include <omp.h>
#include <stdio.h>
int main()
{
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 1; i <= 1000; i++)
        sum += i;
    printf("sum %ld threads>=1 %d\n", sum, omp_get_max_threads() >= 1);
    return 0;
}
