// A shared library with relocatable device code (-shared -rdc=true): its
// device link is inside the library; a kernel here calls a device function
// and reads a variable shlib_b.cu defines. shlib_run() is what programs
// linked against the library call.
#include <cstdio>
#include <cuda_runtime.h>

extern __device__ int shlib_offset;
extern __device__ int shlib_twice(int x);

__global__ void shlib_kernel(int *out) {
  out[threadIdx.x] = shlib_twice(threadIdx.x) + shlib_offset;
}

extern "C" int shlib_run() {
  int *d = nullptr;
  if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess) return -1;
  shlib_kernel<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("shlib: %s\n", cudaGetErrorString(e));
    return -1;
  }
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += h[i] != 2 * i + 5;
  return bad;
}
