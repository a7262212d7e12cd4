// Relocatable device code with the same names in two units: both have an
// `extern __shared__` array `smem` (the dynamic shared memory) and a
// `static __constant__ coef`, each unit's own: this unit's is filled with
// cudaMemcpyToSymbol, the other's has an initializer; an `extern __device__`
// function and variable cross units. (A cudaMemcpyToSymbol to a __constant__
// variable of the second unit of a device link fails with "invalid argument"
// on CUDA 13.0, with nvcc's build as with mycc's: not exercised here.)
// FLAGS: -rdc=true
// MULTI-FILE: rdc_same_names_b.cu
#include "gpu_test.h"

extern __shared__ float smem[];
static __constant__ float coef[4];
extern __device__ float shift(float x); // rdc_same_names_b.cu
extern __device__ int shared_counter;    // rdc_same_names_b.cu

__global__ void scale_a(float *out) {
  smem[threadIdx.x] = coef[threadIdx.x % 4] * threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = shift(smem[blockDim.x - 1 - threadIdx.x]);
  atomicAdd(&shared_counter, 1);
}

void set_coef_a(const float *values) {
  CHECK(cudaMemcpyToSymbol(coef, values, 4 * sizeof(float)));
}
void run_b(float *out, int n); // rdc_same_names_b.cu

int main() {
  const int n = 64;
  float *out_a, *out_b;
  CHECK(cudaMalloc(&out_a, n * sizeof(float)));
  CHECK(cudaMalloc(&out_b, n * sizeof(float)));
  const float ca[4] = {1, 2, 3, 4}, cb[4] = {10, 20, 30, 40}; // cb: b's
  set_coef_a(ca);
  scale_a<<<1, n, n * sizeof(float)>>>(out_a);
  CHECK(cudaGetLastError());
  run_b(out_b, n);
  CHECK(cudaDeviceSynchronize());
  float a[n], b[n];
  CHECK(cudaMemcpy(a, out_a, sizeof a, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b, out_b, sizeof b, cudaMemcpyDeviceToHost));
  int counter = 0;
  CHECK(cudaMemcpyFromSymbol(&counter, shared_counter, sizeof counter));
  for (int i = 0; i < n; ++i) {
    int j = n - 1 - i;
    float wantA = ca[j % 4] * j + 0.5f;      // shift() adds 0.5
    float wantB = cb[j % 4] * j * 2 + 0.5f;  // b doubles
    EXPECT(a[i] == wantA, "a[%d] = %g, want %g", i, a[i], wantA);
    EXPECT(b[i] == wantB, "b[%d] = %g, want %g", i, b[i], wantB);
  }
  EXPECT(counter == 2 * n, "shared_counter %d, want %d", counter, 2 * n);
  return finish_test("rdc_same_names");
}
