// Second translation unit of the two_units_a test; not a test on its own.
// PART-OF: two_units_a.cu
#include "gpu_test.h"

static __device__ int tag = 200;

static __global__ void fill(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tag + 2;
}

__global__ void fill_unique_b(int* out) { out[threadIdx.x] = -2; }

void fill_b(int* d, int n) {
  fill<<<n / 32, 32>>>(d);
  CHECK(cudaGetLastError());
}

int read_tag_b() {
  int v = 0;
  CHECK(cudaMemcpyFromSymbol(&v, tag, sizeof(v)));
  return v;
}

void fill_unique_b_launch(int* d) {
  fill_unique_b<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
}
