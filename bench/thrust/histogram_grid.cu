// CUB's radix-sort histogram kernel (the one thrust::sort runs, 64-bit
// offsets) launched directly at fixed grid sizes, so that builds by
// different compilers can be compared block for block. CUB itself sizes this
// grid by the kernel's occupancy (dispatch_radix_sort.cuh), which depends on
// the registers the build needs. Prints the registers, the occupancy and,
// per grid size, the median and best of 40 launches (cudaEvents) and whether
// the histogram counted every key. The kernel is a CUB internal
// (cub::detail), so this program follows the CCCL of the toolkit it is
// built with.
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/thrust/histogram_grid.cu -o grid.nvcc
//   mycc -O3 -arch=sm_90 -std=c++17 bench/thrust/histogram_grid.cu -o grid.mycc
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

using Offset = unsigned long long;
using Hub = cub::detail::radix::policy_hub<std::uint32_t, cub::NullType, Offset>;

int main() {
  const std::size_t n = std::size_t(1) << 24;
  std::vector<std::uint32_t> keys(n);
  std::uint64_t x = 1;
  for (auto &k : keys) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    k = std::uint32_t(x >> 32);
  }
  std::uint32_t *d_keys;
  Offset *d_bins;
  const std::size_t binBytes = 4 * 256 * sizeof(Offset); // 4 passes of 8 bits
  if (cudaMalloc(&d_keys, n * 4) != cudaSuccess || cudaMalloc(&d_bins, binBytes) != cudaSuccess) {
    std::printf("FAIL cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(d_keys, keys.data(), n * 4, cudaMemcpyHostToDevice);
  auto kernel = cub::detail::radix_sort::DeviceRadixSortHistogramKernel<
      Hub::MaxPolicy, cub::SortOrder::Ascending, std::uint32_t, Offset,
      cub::detail::identity_decomposer_t>;
  // The block size CUB launches it with on sm_90 and later (the host pass
  // sees only the oldest policy through MaxPolicy::ActivePolicy).
  const int threads = Hub::Policy900::HistogramPolicy::BLOCK_THREADS;
  int perSm = 0, sms = 0;
  cudaFuncAttributes attr;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaFuncGetAttributes(&attr, kernel);
  std::printf("registers %d, %d blocks per SM, CUB's grid %d\n", attr.numRegs, perSm, perSm * sms);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  bool ok = true;
  for (int perSmGrid : {1, 4, 8, 12, 16, 20, 24}) {
    const int grid = perSmGrid * sms;
    std::vector<float> us;
    for (int r = 0; r <= 40; ++r) {
      cudaMemsetAsync(d_bins, 0, binBytes);
      cudaEventRecord(start);
      kernel<<<grid, threads>>>(d_bins, d_keys, Offset(n), 0, 32, {});
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      if (r > 0) us.push_back(ms * 1000); // the first launch warms up
    }
    std::sort(us.begin(), us.end());
    std::vector<Offset> bins(4 * 256);
    cudaMemcpy(bins.data(), d_bins, binBytes, cudaMemcpyDeviceToHost);
    bool counted = true;
    for (int pass = 0; pass < 4; ++pass) {
      Offset total = 0;
      for (int b = 0; b < 256; ++b) total += bins[pass * 256 + b];
      counted = counted && total == n;
    }
    ok = ok && counted && cudaGetLastError() == cudaSuccess;
    std::printf("grid %5d (%2d per SM): median %.1f us, best %.1f us%s\n", grid, perSmGrid,
                us[us.size() / 2], us[0], counted ? "" : "  WRONG COUNTS");
  }
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
