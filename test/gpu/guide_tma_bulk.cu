// Bulk asynchronous copies through the Tensor Memory Accelerator (sm_90),
// as the guide's one-dimensional TMA example does them: thread 0 starts a
// bulk copy of a tile from global into shared memory with
// cuda::device::memcpy_async_tx and announces its bytes to a shared
// cuda::barrier (barrier_arrive_tx); every thread waits, transforms the tile
// in shared memory, and after a proxy fence thread 0 copies it back with a
// bulk shared-to-global copy (cuda::ptx::cp_async_bulk) and waits for it.
// A second kernel uses cuda::memcpy_async with aligned_size_t<16>, which
// libcu++ turns into the same bulk copy.
#include "gpu_test.h"

#include <cuda/barrier>
#include <cuda/ptx>
#include <utility>

constexpr int kTile = 1024; // ints per block: 4 KiB

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

__global__ void add_one_tma(int *data) {
  __shared__ alignas(128) int tile[kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier_t bar;
  int *gmem = data + blockIdx.x * kTile;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  barrier_t::arrival_token token;
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(tile, gmem, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] += 1;
  // The writes by the generic proxy become visible to the async proxy.
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             gmem, tile, sizeof(tile));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
  }
}

__global__ void sum_memcpy_async(const int *data, int *sums) {
  __shared__ alignas(16) int tile[kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier_t bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(tile, data + blockIdx.x * kTile,
                     cuda::aligned_size_t<16>(sizeof(tile)), bar);
  bar.arrive_and_wait();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int i = 0; i < kTile; ++i) s += tile[i];
    sums[blockIdx.x] = (int)s;
  }
}
#endif

int main() {
  int device = 0, major = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) {
    std::printf("note: bulk copies need sm_90; not run\n");
    return finish_test("guide_tma_bulk");
  }
#if !defined(__CUDA_ARCH_LIST__) || __CUDA_ARCH_LIST__ >= 900
  const int blocks = 64, n = blocks * kTile;
  int *d, *sums;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&sums, blocks * sizeof(int)));
  int *h = new int[n];
  for (int i = 0; i < n; ++i) h[i] = i % 1000;
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  add_one_tma<<<blocks, 128>>>(d);
  CHECK(cudaGetLastError());
  sum_memcpy_async<<<blocks, 128>>>(d, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int *back = new int[n], hs[blocks];
  CHECK(cudaMemcpy(back, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += back[i] != i % 1000 + 1;
  EXPECT(bad == 0, "%d elements not incremented through the bulk copies", bad);
  for (int b = 0; b < blocks; ++b) {
    long long want = 0;
    for (int i = 0; i < kTile; ++i) want += (b * kTile + i) % 1000 + 1;
    EXPECT(hs[b] == (int)want, "block %d sum %d, want %lld", b, hs[b], want);
  }
  delete[] h;
  delete[] back;
#else
  std::printf("note: not built for sm_90 or newer; not run\n");
#endif
  return finish_test("guide_tma_bulk");
}
