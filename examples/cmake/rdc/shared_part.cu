// A shared library with relocatable device code: its kernel calls a
// __device__ function of the static library rdc_lib, and the library is
// device-linked into itself (CUDA_RESOLVE_DEVICE_SYMBOLS).
#include "../../common/check.h"

extern __device__ int rdc_square(int x);

__global__ void cubes(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = rdc_square(i) * i;
}

// Returns the number of wrong results, or -1 when the launch failed.
extern "C" int rdc_shared_cubes(int n) {
  int *out = nullptr;
  if (cudaMalloc(&out, n * sizeof(int)) != cudaSuccess) return -1;
  cubes<<<(n + 127) / 128, 128>>>(out, n);
  int *host = new int[n];
  bool ok = cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess;
  int wrong = 0;
  for (int i = 0; ok && i < n; ++i) wrong += host[i] != i * i * i;
  delete[] host;
  cudaFree(out);
  return ok ? wrong : -1;
}
