// PART-OF: rdc_extern.cu
#include "gpu_test.h"

__device__ int counter;
__device__ float scale(float x) { return 2.0f * x; }
extern __constant__ int table[4];

static __device__ int tag = 200;

static __global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = scale(static_cast<float>(i)) + tag;
    atomicAdd(&counter, 1);
  }
}

template <typename T> __global__ void twice(T *p) { p[threadIdx.x] *= 2; }

void fill_b(float *out, int n) {
  fill<<<(n + 255) / 256, 256>>>(out, n);
  CHECK(cudaGetLastError());
}

void set_table_b() {
  const int values[4] = {0, 10, 20, 30};
  CHECK(cudaMemcpyToSymbol(table, values, sizeof values));
}

int counter_from_b() {
  int c = -1;
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  return c;
}

void twice_b(int *p) {
  twice<<<1, 32>>>(p);
  CHECK(cudaDeviceSynchronize());
}
