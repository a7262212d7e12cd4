#include "reduce.h"

#include <cuda_runtime.h>

namespace {

// One block per 256 elements; each block adds its shared-memory partial sum
// to the total.
__global__ void sum_kernel(const int *in, int n, unsigned long long *total) {
  __shared__ long long partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, static_cast<unsigned long long>(partial[0]));
}

} // namespace

int reduce_sum(const int *host, int n, long long *sum) {
  int *in = nullptr;
  unsigned long long *total = nullptr;
  cudaError_t err = cudaMalloc(&in, n * sizeof(int));
  if (err == cudaSuccess) err = cudaMalloc(&total, sizeof(*total));
  if (err == cudaSuccess)
    err = cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemset(total, 0, sizeof(*total));
  if (err == cudaSuccess) {
    sum_kernel<<<(n + 255) / 256, 256>>>(in, n, total);
    err = cudaGetLastError();
  }
  unsigned long long result = 0;
  if (err == cudaSuccess)
    err = cudaMemcpy(&result, total, sizeof(result), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(total);
  *sum = static_cast<long long>(result);
  return static_cast<int>(err);
}
