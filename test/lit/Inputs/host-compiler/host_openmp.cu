// Host OpenMP in a .cu (-Xcompiler -fopenmp): omp.h on both sides, the
// parallel region runs on every thread OMP_NUM_THREADS asks for.
#include <omp.h>
#include <cstdio>
__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  int threads = 0;
#pragma omp parallel
  {
#pragma omp atomic
    threads++;
  }
  std::printf("threads %d max %d\n", threads, omp_get_max_threads());
  return threads == omp_get_max_threads() ? 0 : 1;
}
