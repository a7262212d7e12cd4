// Diagnostics and options of options-front-end.test.
#include <cuda_runtime.h>

[[deprecated]] __device__ int f() { return 1; }
[[deprecated("use g")]] __device__ int f2() { return 2; }

__global__ void use(int *o) {
  o[0] = f() + f2();
  unsigned u = o[1];
  if (u >= 0) o[2] = 1;
}

extern "C" __global__ void gather(float *o, const float *a, int n) {
  int i = threadIdx.x;
  o[i] = a[i] + a[i + n];
}

#ifdef NARROW
__global__ void narrow(int *o, double d) {
  int a[1] = {d};
  o[0] = a[0];
}
#endif

#ifdef DEEP
template <int N> struct Depth { static constexpr int value = Depth<N - 1>::value + 1; };
template <> struct Depth<0> { static constexpr int value = 0; };
__global__ void deep(int *o) { o[0] = Depth<60>::value; }
#endif

#ifdef PER_THREAD
#if CUDA_API_PER_THREAD_DEFAULT_STREAM != 1
#error "-default-stream per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM=1"
#endif
#elif defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "CUDA_API_PER_THREAD_DEFAULT_STREAM without -default-stream per-thread"
#endif
