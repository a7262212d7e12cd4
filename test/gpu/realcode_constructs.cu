// Constructs real CUDA projects use that mycc rejected or crashed on, run
// end to end: `#if __CUDACC__ == 1`, GNU typeof under -std=c++17, the cache
// hint loads and stores (__ldlu, __ldca, __stcs, __stcg, __stwb), nvcc's
// atomic builtins with order and scope (__nv_atomic_*), inline PTX naming
// special registers with one `%` (%globaltimer, %laneid), the generic
// cooperative_groups::thread_group passed by value to a device function, and
// host code calling isfinite/isnan/isinf/signbit unqualified and clock();
// a static kernel template at global scope (CuTe's tutorials: g++ names its
// specialisations without Clang's 'L') and a kernel template specialisation
// that only an inline function the host compiler never emits refers to
// (CUB's EmptyKernel<void>): both must link.
// FLAGS: -std=c++17
#include "gpu_test.h"

#include <cmath>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if __CUDACC__ == 1
constexpr bool kCudaccIsOne = true;
#else
constexpr bool kCudaccIsOne = false;
#endif

constexpr int kBlocks = 64;
constexpr int kThreads = 256;

struct Results {
  int cudacc_one;
  int hint_sum;                 // sum of the values read with cache hints
  unsigned long long added;     // __nv_atomic_fetch_add total
  unsigned long long max_seen;  // __nv_atomic_fetch_max
  int cas_counter;              // compare-exchange loop
  int exchanged;                // exchange chain
  int loaded;                   // acquire load of a release store
  int lane_mismatches;          // %laneid against threadIdx.x % 32
  int timer_backwards;          // %globaltimer read twice
  int timer_zero;
  int rank_mismatches;          // thread_group by value
};

__device__ __noinline__ int rank_in(cg::thread_group g, int base) {
  g.sync();
  if (g.size() != 32) return -1000;
  return base + static_cast<int>(g.thread_rank());
}

__global__ void constructs(const int *in, int *out, Results *r) {
  typeof(threadIdx.x) t = threadIdx.x;
  __typeof__(t) global = blockIdx.x * blockDim.x + t;
  if (global == 0) r->cudacc_one = kCudaccIsOne;

  // Cache hints: every thread reads two values and writes three.
  int v = __ldlu(in + global) + __ldca(in + global);
  __stcs(out + 3 * global, v);
  __stcg(out + 3 * global + 1, v + 1);
  __stwb(out + 3 * global + 2, v + 2);
  atomicAdd(&r->hint_sum, __ldcs(in + global));

  // nvcc's atomic builtins.
  __nv_atomic_fetch_add(&r->added, 2ull, __NV_ATOMIC_RELAXED,
                        __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_max(&r->max_seen, (unsigned long long)global,
                        __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
  int expected = __nv_atomic_load_n(&r->cas_counter, __NV_ATOMIC_ACQUIRE,
                                    __NV_THREAD_SCOPE_DEVICE);
  while (!__nv_atomic_compare_exchange_n(&r->cas_counter, &expected,
                                         expected + 1, false,
                                         __NV_ATOMIC_ACQ_REL,
                                         __NV_ATOMIC_RELAXED,
                                         __NV_THREAD_SCOPE_DEVICE)) {
  }
  __nv_atomic_exchange_n(&r->exchanged, 7, __NV_ATOMIC_SEQ_CST,
                         __NV_THREAD_SCOPE_SYSTEM);
  if (global == 0) {
    __nv_atomic_store_n(&r->loaded, 41, __NV_ATOMIC_RELEASE,
                        __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
    int seen;
    __nv_atomic_load(&r->loaded, &seen, __NV_ATOMIC_ACQUIRE,
                     __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_store_n(&r->loaded, seen + 1, __NV_ATOMIC_RELAXED);
  }

  // Special registers with one %.
  unsigned lane;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));
  if (lane != t % 32) atomicAdd(&r->lane_mismatches, 1);
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t0));
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t1));
  if (t1 < t0) atomicAdd(&r->timer_backwards, 1);
  if (t0 == 0) atomicAdd(&r->timer_zero, 1);

  // The generic thread_group by value.
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  if (rank_in(tile, 5) != 5 + static_cast<int>(t % 32))
    atomicAdd(&r->rank_mismatches, 1);
}

template <class T>
__global__ static void scale_static(T *p, T factor) {
  p[blockIdx.x * blockDim.x + threadIdx.x] *= factor;
}

template <class T> void scale(T *p, int n, T factor) {
  scale_static<<<n / 32, 32>>>(p, factor);
}

template <class T> __global__ void empty_kernel() {}

// Referred to by nothing: g++ never emits it, and with it the only
// reference to empty_kernel<void>.
inline void *unused_reference() {
  return reinterpret_cast<void *>(&empty_kernel<void>);
}

int main() {
  constexpr int n = kBlocks * kThreads;
  int *in, *out;
  Results *r;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, 3 * n * sizeof(int)));
  CHECK(cudaMallocManaged(&r, sizeof(Results)));
  long long expected_sum = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 7;
    expected_sum += i % 7;
  }
  *r = Results{};
  constructs<<<kBlocks, kThreads>>>(in, out, r);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  EXPECT(r->cudacc_one == 1, "__CUDACC__ == 1 on the device side");
  EXPECT(kCudaccIsOne, "__CUDACC__ == 1 on the host side");
  EXPECT(r->hint_sum == expected_sum, "%d != %lld", r->hint_sum, expected_sum);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int v = 2 * (i % 7);
    bad += out[3 * i] != v || out[3 * i + 1] != v + 1 || out[3 * i + 2] != v + 2;
  }
  EXPECT(bad == 0, "%d threads stored wrong values", bad);
  EXPECT(r->added == 2ull * n, "%llu", r->added);
  EXPECT(r->max_seen == (unsigned long long)(n - 1), "%llu", r->max_seen);
  EXPECT(r->cas_counter == n, "%d", r->cas_counter);
  EXPECT(r->exchanged == 7, "%d", r->exchanged);
  EXPECT(r->loaded == 42, "%d", r->loaded);
  EXPECT(r->lane_mismatches == 0, "%d", r->lane_mismatches);
  EXPECT(r->timer_backwards == 0, "%d", r->timer_backwards);
  EXPECT(r->timer_zero == 0, "%d", r->timer_zero);
  EXPECT(r->rank_mismatches == 0, "%d", r->rank_mismatches);

  float *scaled;
  CHECK(cudaMallocManaged(&scaled, 64 * sizeof(float)));
  for (int i = 0; i < 64; ++i) scaled[i] = float(i);
  scale(scaled, 64, 2.0f);
  CHECK(cudaDeviceSynchronize());
  bad = 0;
  for (int i = 0; i < 64; ++i) bad += scaled[i] != 2.0f * i;
  EXPECT(bad == 0, "static template kernel: %d wrong", bad);
  CHECK(cudaFree(scaled));

  // Host code: the C library's classification calls on a float, and clock()
  // with only the CUDA runtime and <cstdio> included.
  float f = 1.5f, inf = INFINITY, nan = NAN;
  EXPECT(isfinite(f) && !isfinite(inf), "isfinite");
  EXPECT(isnan(nan) && !isnan(f), "isnan");
  EXPECT(isinf(inf) && !isinf(f), "isinf");
  EXPECT(signbit(-f) && !signbit(f), "signbit");
  clock_t c = clock();
  EXPECT(c != (clock_t)-1 && CLOCKS_PER_SEC > 0, "clock");

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(r));
  return finish_test("realcode_constructs");
}
