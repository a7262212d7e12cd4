// Host warnings after code the lowering replaces (device bodies dropped,
// kernels' bodies become launch stubs): g++ must name the lines it names
// in the source. Each `host_N` casts an integer to a pointer on line N.
#include <cstdint>
#define TWICE(x) \
  ((x) +         \
   (x))
__device__ int dev(int x) {
  int y = x * 2;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    y += TWICE(
        i);
  return y;
}
void *host_16(uint32_t a) { return (void *)a; }
__global__ void kernel(int *out,
                       int n) {
  *out = dev(n);
}
void *host_21(uint32_t a) { return (void *)a; }
struct S {
  int v;
  __device__ S(int x)
      : v(x) {
    v += 1;
  }
  __device__ int get() const {
    return v;
  }
};
void *host_32(uint32_t a) { return (void *)a; }
template <typename T> __device__ T tdev(T x) {
  return x +
         1;
}
template <typename T> __global__ void tkernel(T *p) {
  *p = tdev(*p);
}
template __global__ void tkernel<int>(int *);
void *host_41(uint32_t a) { return (void *)a; }
