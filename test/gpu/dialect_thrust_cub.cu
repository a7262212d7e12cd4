// Thrust and CUB as real code uses them: thrust::sort, thrust::inclusive_scan,
// thrust::reduce and thrust::transform with extended __device__ lambdas, and
// cub::DeviceRadixSort / cub::DeviceScan called directly, on 16M 32-bit keys.
// Every result is checked against the host. CCCL picks its code paths by
// compiler (nvcc, or Clang's CUDA mode under mycc); both must give the same
// results.
//
// Each phase runs once to warm up, then `iters` times (argv[1], default 7);
// its GPU time is measured with cudaEvents around the call alone and the
// median is printed on one line:
//   TIMES sort_ms=.. scan_ms=.. reduce_ms=.. transform_ms=.. cub_sort_ms=.. cub_scan_ms=..
// FLAGS: --extended-lambda -std=c++17
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu_test.h"

namespace {

constexpr std::size_t kKeys = std::size_t(1) << 24; // 16M

std::uint32_t mix(std::uint64_t x) {
  // splitmix64: deterministic keys, the same with every compiler.
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return std::uint32_t(x ^ (x >> 31));
}

// The transform's function, spelled once for the host check and once inside
// the device lambda (the lambda must not call a host function).
inline std::uint32_t host_hash(std::uint32_t k, std::uint32_t salt) {
  std::uint32_t h = k * 2654435761u + salt;
  return h ^ (h >> 13);
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  void begin() { CHECK(cudaEventRecord(start)); }
  float end() {
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class T>
std::vector<T> to_host(const thrust::device_vector<T>& d) {
  std::vector<T> h(d.size());
  CHECK(cudaMemcpy(h.data(), thrust::raw_pointer_cast(d.data()), d.size() * sizeof(T),
                   cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
void expect_equal(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  EXPECT(got.size() == want.size(), "%s: %zu elements, want %zu", what, got.size(), want.size());
  std::size_t n = std::min(got.size(), want.size()), bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      if (bad++ < 3)
        EXPECT(got[i] == want[i], "%s: element %zu is %llu, want %llu", what, i,
               (unsigned long long)got[i], (unsigned long long)want[i]);
    }
  }
  EXPECT(bad == 0, "%s: %zu of %zu elements differ", what, bad, n);
}

} // namespace

int main(int argc, char** argv) {
  int iters = argc > 1 ? std::atoi(argv[1]) : 7;
  if (iters < 1) iters = 1;

  std::vector<std::uint32_t> h_keys(kKeys);
  for (std::size_t i = 0; i < kKeys; ++i) h_keys[i] = mix(i);
  const std::uint32_t salt = 0x5bd1e995u;

  // Host references.
  std::vector<std::uint32_t> want_sorted(h_keys);
  std::sort(want_sorted.begin(), want_sorted.end());
  std::vector<std::uint32_t> want_scan(kKeys);
  std::uint32_t run = 0;
  for (std::size_t i = 0; i < kKeys; ++i) want_scan[i] = run += h_keys[i];
  std::uint64_t want_sum = 0;
  for (std::uint32_t k : h_keys) want_sum += k;
  std::vector<std::uint32_t> want_hash(kKeys);
  for (std::size_t i = 0; i < kKeys; ++i) want_hash[i] = host_hash(h_keys[i], salt);
  std::size_t want_odd = std::count_if(h_keys.begin(), h_keys.end(),
                                       [](std::uint32_t k) { return k & 1; });

  thrust::device_vector<std::uint32_t> keys(h_keys.begin(), h_keys.end());
  thrust::device_vector<std::uint32_t> work(kKeys), out(kKeys);
  std::uint32_t* d_keys = thrust::raw_pointer_cast(keys.data());
  std::uint32_t* d_work = thrust::raw_pointer_cast(work.data());
  std::uint32_t* d_out = thrust::raw_pointer_cast(out.data());

  Timer t;
  std::vector<float> sort_ms, scan_ms, reduce_ms, transform_ms, cub_sort_ms, cub_scan_ms;
  std::uint64_t sum = 0;

  // CUB needs its temporary storage up front; one buffer serves both calls.
  std::size_t sort_bytes = 0, scan_bytes = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, d_work, d_out, int(kKeys)));
  CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, d_keys, d_out, int(kKeys)));
  thrust::device_vector<unsigned char> temp(std::max(sort_bytes, scan_bytes));
  void* d_temp = thrust::raw_pointer_cast(temp.data());

  for (int it = 0; it <= iters; ++it) { // iteration 0 is the warm-up
    bool timed = it > 0;

    // thrust::sort (CUB's onesweep radix sort underneath), in place.
    CHECK(cudaMemcpy(d_work, d_keys, kKeys * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice));
    t.begin();
    thrust::sort(work.begin(), work.end());
    float ms = t.end();
    if (timed) sort_ms.push_back(ms);

    t.begin();
    thrust::inclusive_scan(keys.begin(), keys.end(), out.begin());
    ms = t.end();
    if (timed) scan_ms.push_back(ms);

    t.begin();
    sum = thrust::reduce(keys.begin(), keys.end(), std::uint64_t(0), thrust::plus<std::uint64_t>());
    ms = t.end();
    if (timed) reduce_ms.push_back(ms);
  }
  expect_equal("thrust::sort", to_host(work), want_sorted);
  expect_equal("thrust::inclusive_scan", to_host(out), want_scan);
  EXPECT(sum == want_sum, "thrust::reduce: %llu, want %llu", (unsigned long long)sum,
         (unsigned long long)want_sum);

  // thrust::transform with an extended __device__ lambda. nvcc needs the
  // return type spelled (`-> T`) when host code asks for it, as Thrust does.
  for (int it = 0; it <= iters; ++it) {
    t.begin();
    thrust::transform(keys.begin(), keys.end(), out.begin(),
                      [salt] __device__(std::uint32_t k) -> std::uint32_t {
                        std::uint32_t h = k * 2654435761u + salt;
                        return h ^ (h >> 13);
                      });
    float ms = t.end();
    if (it > 0) transform_ms.push_back(ms);
  }
  expect_equal("thrust::transform (device lambda)", to_host(out), want_hash);

  // A __device__ lambda without a trailing return type, through
  // cuda::proclaim_return_type, and a __host__ __device__ predicate.
  thrust::transform(keys.begin(), keys.end(), out.begin(),
                    cuda::proclaim_return_type<std::uint32_t>(
                        [] __device__(std::uint32_t k) { return k >> 1; }));
  std::vector<std::uint32_t> got_half = to_host(out);
  std::size_t bad_half = 0;
  for (std::size_t i = 0; i < kKeys; ++i) bad_half += got_half[i] != (h_keys[i] >> 1);
  EXPECT(bad_half == 0, "proclaim_return_type transform: %zu elements differ", bad_half);
  std::size_t odd = thrust::count_if(keys.begin(), keys.end(),
                                     [] __host__ __device__(std::uint32_t k) { return (k & 1) != 0; });
  EXPECT(odd == want_odd, "thrust::count_if (host-device lambda): %zu, want %zu", odd, want_odd);

  // CUB directly.
  for (int it = 0; it <= iters; ++it) {
    std::size_t bytes = sort_bytes;
    t.begin();
    CHECK(cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys, d_work, int(kKeys)));
    float ms = t.end();
    if (it > 0) cub_sort_ms.push_back(ms);

    bytes = scan_bytes;
    t.begin();
    CHECK(cub::DeviceScan::InclusiveSum(d_temp, bytes, d_keys, d_out, int(kKeys)));
    ms = t.end();
    if (it > 0) cub_scan_ms.push_back(ms);
  }
  CHECK(cudaDeviceSynchronize());
  expect_equal("cub::DeviceRadixSort::SortKeys", to_host(work), want_sorted);
  expect_equal("cub::DeviceScan::InclusiveSum", to_host(out), want_scan);

  std::printf("TIMES sort_ms=%.4f scan_ms=%.4f reduce_ms=%.4f transform_ms=%.4f "
              "cub_sort_ms=%.4f cub_scan_ms=%.4f\n",
              median(sort_ms), median(scan_ms), median(reduce_ms), median(transform_ms),
              median(cub_sort_ms), median(cub_scan_ms));
  return finish_test("dialect_thrust_cub");
}
