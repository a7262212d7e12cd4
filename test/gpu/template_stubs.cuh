// template_stubs.cu's kernels and driver, included by both of its units.
#pragma once

static __constant__ int unit_value;

namespace stubs {
template <class T> __global__ void read(T *out);
template <class T> __global__ void read(T *out) { *out = (T)unit_value; }
template <> __global__ void read<float>(float *out) { *out = unit_value + 0.5f; }
} // namespace stubs

template <int N> __global__ void times(int *out) { *out = unit_value * N; }

inline int expected(int value, int kernel) {
  return kernel == 0 ? value : kernel == 1 ? 10 * value : kernel == 2 ? 3 * value : value;
}

// Sets this unit's constant to `value`, runs the kernels, writes their
// results; returns the number of failed CUDA calls.
static int run_template_stubs(int value, int *results) {
  int *d = nullptr;
  float *f = nullptr;
  int bad = 0;
  bad += cudaMalloc(&d, 4 * sizeof(int)) != cudaSuccess;
  bad += cudaMalloc(&f, sizeof(float)) != cudaSuccess;
  bad += cudaMemcpyToSymbol(unit_value, &value, sizeof value) != cudaSuccess;
  stubs::read<int><<<1, 1>>>(d);
  times<10><<<1, 1>>>(d + 1);
  stubs::read<float><<<1, 1>>>(f);
  int *arg = d + 3;
  void *args[] = {&arg};
  bad += cudaLaunchKernel((const void *)&stubs::read<int>, dim3(1), dim3(1), args, 0, 0) != cudaSuccess;
  bad += cudaDeviceSynchronize() != cudaSuccess;
  float fv = -1;
  bad += cudaMemcpy(results, d, 4 * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess;
  bad += cudaMemcpy(&fv, f, sizeof fv, cudaMemcpyDeviceToHost) != cudaSuccess;
  results[2] = fv == value + 0.5f ? 3 * value : -1;
  cudaFree(d);
  cudaFree(f);
  return bad;
}
