// Register counts of CUB's and Thrust's kernels: a program that instantiates
// 15 Thrust algorithms and 8 CUB device algorithms (92 kernels for sm_90), so
// that a code generation change can be checked against all of them. It is
// compiled, not run: bench/registers/run.sh compares compilers.
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/unique.h>
#include <thrust/partition.h>
#include <thrust/merge.h>
#include <thrust/set_operations.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <cstdint>
struct Pair { float a; int b; };
void run(size_t n) {
  thrust::device_vector<uint64_t> k64(n); thrust::device_vector<float> f(n);
  thrust::device_vector<int> i32(n), v(n), o(n);
  thrust::device_vector<double> d(n);
  thrust::sort(k64.begin(), k64.end());
  thrust::sort(f.begin(), f.end(), thrust::greater<float>());
  thrust::sort_by_key(i32.begin(), i32.end(), v.begin());
  thrust::stable_sort_by_key(d.begin(), d.end(), i32.begin());
  thrust::sort(i32.begin(), i32.end(), [] __device__ (int a, int b) { return (a % 7) < (b % 7); });
  thrust::reduce_by_key(i32.begin(), i32.end(), v.begin(), o.begin(), v.begin());
  thrust::inclusive_scan_by_key(i32.begin(), i32.end(), v.begin(), o.begin());
  thrust::unique(i32.begin(), i32.end());
  thrust::partition(i32.begin(), i32.end(), [] __device__ (int x) { return x & 1; });
  thrust::merge(i32.begin(), i32.end(), v.begin(), v.end(), o.begin());
  thrust::set_intersection(i32.begin(), i32.begin() + n/2, v.begin(), v.begin() + n/2, o.begin());
  thrust::lower_bound(i32.begin(), i32.end(), v.begin(), v.end(), o.begin());
  thrust::copy_if(i32.begin(), i32.end(), o.begin(), [] __device__ (int x) { return x > 3; });
  thrust::exclusive_scan(d.begin(), d.end(), d.begin());
  double s = thrust::reduce(d.begin(), d.end()); (void)s;
  // CUB directly
  void *tmp = nullptr; size_t bytes = 0;
  int *pi = thrust::raw_pointer_cast(i32.data()), *po = thrust::raw_pointer_cast(o.data());
  float *pf = thrust::raw_pointer_cast(f.data());
  cub::DeviceHistogram::HistogramEven(tmp, bytes, pf, po, 257, 0.f, 1.f, (int)n);
  cub::DeviceSegmentedRadixSort::SortKeys(tmp, bytes, pi, po, (int)n, 16, pi, pi + 1);
  cub::DeviceSegmentedSort::SortKeys(tmp, bytes, pi, po, (int)n, 16, pi, pi + 1);
  cub::DeviceRadixSort::SortPairs(tmp, bytes, pf, pf, pi, po, (int)n);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, (uint16_t*)pi, (uint16_t*)po, (int)n);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, (uint8_t*)pi, (uint8_t*)po, (int)n, 2, 7);
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, pi, po, po, po, (int)n);
  cub::DeviceSelect::Unique(tmp, bytes, pi, po, po, (int)n);
}
int main() { run(1 << 10); }
