// PART-OF: rdc_same_names.cu
#include "gpu_test.h"

extern __shared__ float smem[];
static __constant__ float coef[4] = {10, 20, 30, 40};
__device__ int shared_counter = 0;
__device__ float shift(float x) { return x + 0.5f; }

__global__ void scale_b(float *out) {
  smem[threadIdx.x] = coef[threadIdx.x % 4] * threadIdx.x * 2;
  __syncthreads();
  out[threadIdx.x] = shift(smem[blockDim.x - 1 - threadIdx.x]);
  atomicAdd(&shared_counter, 1);
}

void run_b(float *out, int n) {
  scale_b<<<1, n, n * sizeof(float)>>>(out);
  CHECK(cudaGetLastError());
}
