// __host__ __device__ code that names host functions, as nvcc 13 takes it:
// a warning (#20011-D), none after `#pragma nv_exec_check_disable`, and
// nothing is checked in host functions for the device. Thrust's device-side
// dispatch names its host-only CUB path inside `if (false)` so
// (THRUST_CDP_DISPATCH); the host path has a device branch (CUB's
// NV_IF_ELSE_TARGET) that calls a __device__ function from a host function.
#include <cstdio>
int host_only(int x) { return x + 1; }
template <class T> __global__ void helper_kernel(T *p) { *p = 1; }
template <class T> __device__ T device_only(T x) { return x; }
template <class T> int host_dispatch(T *p) {
#ifdef __CUDA_ARCH__
  return device_only(1);
#else
  helper_kernel<<<1, 1>>>(p);
  return 0;
#endif
}
template <class T> __host__ __device__ T dispatch(T *p, T x) {
  if (false) {
    x = host_dispatch(p);
  }
  return x * 2;
}
#pragma nv_exec_check_disable
template <class T> __host__ __device__ T quiet(T x) {
  if (false) {
    x = host_only(x);
  }
  return x + 3;
}
template <class T> __host__ __device__ T live(T x) { return host_only(x); }
__global__ void kernel(int *p) {
  p[0] = dispatch(p, p[0]);
  p[1] = quiet(p[1]);
#ifdef LIVE
  p[2] = live(p[2]);
#endif
}
int main() {
  std::printf("linked\n");
  return 0;
}
