// PART-OF: rdc_library.cu (compiled with -dc into a static library)
#include "gpu_test.h"

extern __device__ int offset; // defined by the program
__device__ int square(int x) { return x * x; }

__global__ void fill_squares(int *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = square(i) + offset;
}

void library_fill(int *out, int n) {
  fill_squares<<<1, n>>>(out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}
