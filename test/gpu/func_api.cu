// Function-level runtime API: cudaFuncSetAttribute (96 KiB of dynamic shared
// memory), cudaFuncGetAttributes, occupancy queries, cudaLaunchKernel with an
// argument array, cudaLaunchKernelEx, and a cooperative launch with
// cooperative_groups grid.sync().
// With CUDA 13, <cooperative_groups.h> includes <cuda/std/...> from the
// toolkit's include/cccl directory, which the compiler must search (nvcc does).
#include <cstdio>
#include <vector>
#include <cooperative_groups.h>
#include "gpu_test.h"

namespace cg = cooperative_groups;

// Uses `words` ints of dynamic shared memory: every thread fills a strided
// part, then thread 0 sums all of it.
__global__ void big_smem(unsigned long long* out, int words) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) buf[i] = i ^ blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long s = 0;
    for (int i = 0; i < words; ++i) s += static_cast<unsigned>(buf[i]);
    out[blockIdx.x] = s;
  }
}

// Static shared memory, so that cudaFuncGetAttributes has something to report.
__global__ void static_smem(float* out) {
  __shared__ float tile[1024];
  tile[threadIdx.x] = threadIdx.x * 0.5f;
  __syncthreads();
  out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(128) bounded(int* out) { out[threadIdx.x] = 1; }

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Two phases separated by a grid-wide barrier: each thread writes its slot,
// then (after grid.sync) reads a slot written by a thread of another block.
__global__ void coop(int* data, int* result, int* sync_count) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long n = grid.size();
  const unsigned long long r = grid.thread_rank();
  data[r] = static_cast<int>(r) * 3 + 1;
  grid.sync();
  const unsigned long long partner = (r + blockDim.x * 7 + 13) % n;
  result[r] = data[partner];
  if (r == 0) atomicAdd(sync_count, grid.is_valid() ? 1 : 100);
  grid.sync();
  if (r == 0) {
    // Thread 0 sums everything after the second barrier.
    long long s = 0;
    for (unsigned long long i = 0; i < n; ++i) s += result[i];
    result[n] = static_cast<int>(s % 1000003);
  }
}

static void test_big_dynamic_smem(int dev) {
  int optin = 0;
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  const int bytes = 96 * 1024;
  if (optin < bytes) {
    std::printf("note: device allows only %d bytes of shared memory per block; using that\n", optin);
  }
  const int use = optin < bytes ? optin : bytes;
  CHECK(cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, use));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, big_smem));
  EXPECT(attr.maxDynamicSharedSizeBytes == use, "maxDynamicSharedSizeBytes = %d want %d",
         attr.maxDynamicSharedSizeBytes, use);

  const int blocks = 4, words = use / 4;
  unsigned long long* d;
  CHECK(cudaMalloc(&d, blocks * sizeof(unsigned long long)));
  big_smem<<<blocks, 256, use>>>(d, words);
  CHECK(cudaGetLastError());
  unsigned long long h[blocks];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    unsigned long long want = 0;
    for (int i = 0; i < words; ++i) want += static_cast<unsigned>(i ^ b);
    EXPECT(h[b] == want, "big_smem block %d: %llu want %llu", b, h[b], want);
  }
  CHECK(cudaFree(d));
}

static void test_func_attributes() {
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, static_smem));
  EXPECT(a.sharedSizeBytes >= 1024 * sizeof(float), "static_smem sharedSizeBytes = %zu",
         a.sharedSizeBytes);
  EXPECT(a.maxThreadsPerBlock >= 1024, "static_smem maxThreadsPerBlock = %d", a.maxThreadsPerBlock);
  EXPECT(a.numRegs > 0 && a.numRegs <= 255, "static_smem numRegs = %d", a.numRegs);
  EXPECT(a.binaryVersion >= 30 && a.ptxVersion >= 30, "binaryVersion %d ptxVersion %d",
         a.binaryVersion, a.ptxVersion);

  CHECK(cudaFuncGetAttributes(&a, bounded));
  EXPECT(a.maxThreadsPerBlock <= 128 && a.maxThreadsPerBlock > 0,
         "__launch_bounds__(128) kernel reports maxThreadsPerBlock = %d", a.maxThreadsPerBlock);

  CHECK(cudaFuncSetCacheConfig(static_smem, cudaFuncCachePreferShared));
  float* d;
  CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
  static_smem<<<1, 1024>>>(d);
  CHECK(cudaGetLastError());
  std::vector<float> h(1024);
  CHECK(cudaMemcpy(h.data(), d, 1024 * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 1024; ++i)
    EXPECT(h[i] == (1023 - i) * 0.5f, "static_smem[%d] = %f", i, h[i]);
  CHECK(cudaFree(d));
}

static void test_occupancy() {
  int nb = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, axpy, 256, 0));
  EXPECT(nb >= 1 && nb <= 64, "axpy active blocks per SM = %d", nb);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, static_smem, 1024, 0));
  EXPECT(nb >= 1 && nb <= 2, "static_smem (1024 threads) active blocks per SM = %d", nb);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, bounded, 128, 0,
                                                               cudaOccupancyDefault));
  EXPECT(nb >= 1, "bounded active blocks per SM = %d", nb);

  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, axpy, 0, 0));
  EXPECT(block > 0 && block <= 1024 && block % 32 == 0, "potential block size = %d", block);
  EXPECT(min_grid > 0, "min grid size = %d", min_grid);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded, 0, 0));
  EXPECT(block > 0 && block <= 128, "bounded potential block size = %d", block);
}

static void test_launch_kernel_api() {
  const int n = 5000;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = 1.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  // cudaLaunchKernel with an explicit argument array: y = 2x + 1.
  float a = 2.0f;
  const float* px = dx;
  float* py = dy;
  int nn = n;
  void* args[] = {&a, &px, &py, &nn};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(axpy), dim3((n + 127) / 128), dim3(128),
                         args, 0, nullptr));
  CHECK(cudaGetLastError());

  // cudaLaunchKernelEx (C++ template form) with a config: y = -1 * x + y = x + 1.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cfg.attrs = nullptr;
  cfg.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&cfg, axpy, -1.0f, px, py, n));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamDestroy(s));

  CHECK(cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(hy[i] == i + 1.0f, "axpy via launch APIs [%d] = %f", i, hy[i]);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
}

static void test_cooperative(int dev) {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, dev));
  if (!supported) {
    std::printf("note: device does not support cooperative launch; skipping that part\n");
    return;
  }
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int block = 128;
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coop, block, 0));
  EXPECT(per_sm >= 1, "coop active blocks per SM = %d", per_sm);
  if (per_sm < 1) return;
  int blocks = sms * (per_sm < 2 ? per_sm : 2);
  const int n = blocks * block;

  int *data, *result, *count;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  CHECK(cudaMalloc(&result, (n + 1) * sizeof(int)));
  CHECK(cudaMalloc(&count, sizeof(int)));
  CHECK(cudaMemset(data, 0, n * sizeof(int)));
  CHECK(cudaMemset(result, 0, (n + 1) * sizeof(int)));
  CHECK(cudaMemset(count, 0, sizeof(int)));
  void* args[] = {&data, &result, &count};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(coop), dim3(blocks), dim3(block),
                                    args, 0, nullptr));
  CHECK(cudaGetLastError());
  std::vector<int> hr(n + 1);
  int hc = 0;
  CHECK(cudaMemcpy(hr.data(), result, (n + 1) * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hc, count, sizeof(int), cudaMemcpyDeviceToHost));
  long long s = 0;
  for (int r = 0; r < n; ++r) {
    long long partner = (static_cast<long long>(r) + block * 7 + 13) % n;
    int want = static_cast<int>(partner) * 3 + 1;
    EXPECT(hr[r] == want, "coop result[%d] = %d want %d", r, hr[r], want);
    s += want;
  }
  EXPECT(hr[n] == static_cast<int>(s % 1000003), "coop sum = %d want %lld", hr[n], s % 1000003);
  EXPECT(hc == 1, "grid.is_valid() count = %d", hc);
  CHECK(cudaFree(data));
  CHECK(cudaFree(result));
  CHECK(cudaFree(count));
}

int main() {
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  test_big_dynamic_smem(dev);
  test_func_attributes();
  test_occupancy();
  test_launch_kernel_api();
  test_cooperative(dev);
  CHECK(cudaDeviceSynchronize());
  return finish_test("func_api");
}
