// Function-scope __shared__ variables of class types with constructors or
// destructors that are not empty. nvcc accepts them all, runs none of these
// constructors and destructors, and warns (#20054) where construction or
// destruction would run code (marked "nvcc warns"; in a template once per
// instantiation). Clang rejects all but the array of barriers.
#include <cuda/barrier>

#define SMEM __shared__
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

struct Constexpr { int n = 2; };                          // constexpr constructor
struct WithDtor { int n = 2; __device__ ~WithDtor() {} }; // destructor only
struct Counted { int v; __device__ Counted() : v(1) {} }; // run-time constructor

__device__ int helper() {
  __shared__ Counted in_helper; // nvcc warns
  return in_helper.v;
}

__global__ void kernel(int *out) {
  __shared__ block_barrier bar; // nvcc warns
  SMEM Constexpr a;
  static __shared__
      WithDtor d __attribute__((aligned(16)));
  __shared__ block_barrier pair[2]; // nvcc warns
  __shared__ Counted x, y[3]; // nvcc warns, twice
#pragma nv_diagnostic push
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ Counted quiet;
#pragma nv_diagnostic pop
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  bar.arrive_and_wait();
  out[0] = a.n + d.n + x.v + y[2].v + quiet.v + helper();
  out[1] = int(&pair[1] - &pair[0]);
}

template <int N> __global__ void templ(int *out) {
  __shared__ Counted t; // nvcc warns
  out[0] = t.v + N;
}
void launch(int *p) {
  templ<1><<<1, 1>>>(p);
  templ<2><<<1, 1>>>(p);
}

#ifdef AS_ERROR
#pragma nv_diag_error static_var_with_dynamic_init
__global__ void strict(int *out) {
  __shared__ Counted s;
  out[0] = s.v;
}
#endif
