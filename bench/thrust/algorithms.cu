// The Thrust and CUB calls of bench/thrust, built once by each compiler into
// a shared library (run.sh). The harness (harness.cpp) loads every build into
// one process and alternates between them call by call, so that all builds
// see the same data, the same allocator state and the same GPU clocks.
// Each function makes one library call on device memory the harness owns
// and returns its cudaError_t (0 on success).
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>

#define BENCH_API extern "C" __attribute__((visibility("default")))

namespace {
thrust::device_ptr<std::uint32_t> at(std::uint32_t *p) { return thrust::device_pointer_cast(p); }
int lastError() { return static_cast<int>(cudaGetLastError()); }
} // namespace

// thrust::sort in place, Thrust allocating its temporary storage (a
// cudaMalloc/cudaFree pair per call), as most code calls it. CUB's onesweep
// radix sort with 64-bit offsets underneath.
BENCH_API int bench_thrust_sort(std::uint32_t *keys, std::size_t n) {
  thrust::sort(at(keys), at(keys) + n);
  return lastError();
}

// The temporary storage cub::DeviceRadixSort::SortKeys needs for n keys with
// 32- or 64-bit offsets (the larger), for the two calls below.
BENCH_API std::size_t bench_cub_sort_temp_bytes(std::size_t n) {
  std::size_t b32 = 0, b64 = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, b32, static_cast<const std::uint32_t *>(nullptr),
                                 static_cast<std::uint32_t *>(nullptr), static_cast<int>(n));
  cub::DeviceRadixSort::SortKeys(nullptr, b64, static_cast<const std::uint32_t *>(nullptr),
                                 static_cast<std::uint32_t *>(nullptr), static_cast<std::int64_t>(n));
  return b32 > b64 ? b32 : b64;
}

// The same kernels as thrust::sort (64-bit offsets), storage given: the
// sort's GPU time without Thrust's allocation.
BENCH_API int bench_cub_sort64(void *temp, std::size_t bytes, const std::uint32_t *in,
                               std::uint32_t *out, std::size_t n) {
  return static_cast<int>(
      cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, static_cast<std::int64_t>(n)));
}

// 32-bit offsets, as code passing an int count gets.
BENCH_API int bench_cub_sort32(void *temp, std::size_t bytes, const std::uint32_t *in,
                               std::uint32_t *out, std::size_t n) {
  return static_cast<int>(cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, static_cast<int>(n)));
}

BENCH_API int bench_thrust_inclusive_scan(const std::uint32_t *in, std::uint32_t *out,
                                          std::size_t n) {
  thrust::inclusive_scan(at(const_cast<std::uint32_t *>(in)), at(const_cast<std::uint32_t *>(in)) + n,
                         at(out));
  return lastError();
}

BENCH_API int bench_thrust_reduce(const std::uint32_t *in, std::size_t n, std::uint64_t *sum) {
  auto first = at(const_cast<std::uint32_t *>(in));
  *sum = thrust::reduce(first, first + n, std::uint64_t(0), thrust::plus<std::uint64_t>());
  return lastError();
}

// An extended __device__ lambda, as the issue's Thrust program uses.
BENCH_API int bench_thrust_transform(const std::uint32_t *in, std::uint32_t *out, std::size_t n,
                                     std::uint32_t salt) {
  auto first = at(const_cast<std::uint32_t *>(in));
  thrust::transform(first, first + n, at(out), [salt] __device__(std::uint32_t k) -> std::uint32_t {
    std::uint32_t h = k * 2654435761u + salt;
    return h ^ (h >> 13);
  });
  return lastError();
}
