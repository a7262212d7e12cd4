#include <cstdio>
#ifdef __CUDA_ARCH__
#include "device_only.h"
#else
#include "host_only.h"
#endif

__global__ void scale(int *out) {
#ifdef __CUDA_ARCH__
  out[threadIdx.x] = DEVICE_VALUE * threadIdx.x;
#endif
}

int util();

int main() {
#ifndef __CUDA_ARCH__
  std::printf("host %d util %d\n", HOST_VALUE, util());
#endif
  int *out = nullptr;
  if (cudaMalloc(&out, 32 * sizeof(int)) != cudaSuccess) return 0;
  scale<<<1, 32>>>(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
