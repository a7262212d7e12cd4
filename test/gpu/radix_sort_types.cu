// cub::DeviceRadixSort over the key types and bit ranges whose onesweep
// kernels extract digits differently: 8-, 16-, 32- and 64-bit unsigned keys,
// signed and floating-point keys (CUB flips their bits first), ascending and
// descending, full and partial bit ranges (a partial range makes the last
// digit narrower than the others), 32- and 64-bit item counts (CUB's 32- and
// 64-bit offset kernels). mycc's code generator recomputes those digits in
// another form to save registers (lib/Offload/LiveRanges.cpp); every case
// sorts key/index pairs and checks both against a stable sort on the host.
// FLAGS: -std=c++17
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "gpu_test.h"

namespace {

// The bits [begin, end) of an unsigned key, the part a partial sort orders.
template <typename K>
uint64_t keyBits(K key, int begin, int end) {
  uint64_t bits = static_cast<uint64_t>(key) >> begin;
  int width = end - begin;
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

template <typename K>
std::vector<K> randomKeys(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> keys(n);
  for (K &k : keys) {
    if constexpr (std::is_floating_point_v<K>) {
      // Finite, both signs, many equal keys (stability is checked).
      k = static_cast<K>(static_cast<int64_t>(rng() % 200001) - 100000) / 64;
    } else {
      uint64_t r = rng();
      std::memcpy(&k, &r, sizeof k);
    }
  }
  return keys;
}

// Sorts `keys` with their indices as values on the GPU and checks the result
// against std::stable_sort. Offsets: the integer type of the item count.
template <typename K, typename Offset>
void sortPairs(const char *what, size_t n, bool descending, int begin = 0,
               int end = int(sizeof(K) * 8)) {
  std::vector<K> keys = randomKeys<K>(n, uint32_t(n) ^ sizeof(K) ^ begin);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  bool partial = begin != 0 || end != int(sizeof(K) * 8);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (partial) {
      uint64_t x = keyBits(keys[a], begin, end), y = keyBits(keys[b], begin, end);
      return descending ? x > y : x < y;
    }
    return descending ? keys[a] > keys[b] : keys[a] < keys[b];
  });

  K *dKeysIn, *dKeysOut;
  uint32_t *dValsIn, *dValsOut;
  CHECK(cudaMalloc(&dKeysIn, n * sizeof(K)));
  CHECK(cudaMalloc(&dKeysOut, n * sizeof(K)));
  CHECK(cudaMalloc(&dValsIn, n * sizeof(uint32_t)));
  CHECK(cudaMalloc(&dValsOut, n * sizeof(uint32_t)));
  std::vector<uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  CHECK(cudaMemcpy(dKeysIn, keys.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dValsIn, index.data(), n * sizeof(uint32_t),
                   cudaMemcpyHostToDevice));
  Offset items = static_cast<Offset>(n);
  auto sort = [&](void *temp, size_t &bytes) {
    return descending
               ? cub::DeviceRadixSort::SortPairsDescending(
                     temp, bytes, dKeysIn, dKeysOut, dValsIn, dValsOut, items,
                     begin, end)
               : cub::DeviceRadixSort::SortPairs(temp, bytes, dKeysIn, dKeysOut,
                                                 dValsIn, dValsOut, items,
                                                 begin, end);
  };
  size_t bytes = 0;
  CHECK(sort(nullptr, bytes));
  void *temp;
  CHECK(cudaMalloc(&temp, bytes));
  CHECK(sort(temp, bytes));
  CHECK(cudaDeviceSynchronize());

  std::vector<K> gotKeys(n);
  std::vector<uint32_t> gotOrder(n);
  CHECK(cudaMemcpy(gotKeys.data(), dKeysOut, n * sizeof(K), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotOrder.data(), dValsOut, n * sizeof(uint32_t),
                   cudaMemcpyDeviceToHost));
  size_t bad = 0, first = n;
  for (size_t i = 0; i < n; ++i)
    if (gotOrder[i] != order[i] ||
        std::memcmp(&gotKeys[i], &keys[order[i]], sizeof(K)) != 0) {
      if (first == n) first = i;
      ++bad;
    }
  EXPECT(bad == 0, "%s: %zu of %zu items out of place, first at %zu (index %u, expected %u)",
         what, bad, n, first, first < n ? gotOrder[first] : 0,
         first < n ? order[first] : 0);
  CHECK(cudaFree(temp));
  CHECK(cudaFree(dKeysIn));
  CHECK(cudaFree(dKeysOut));
  CHECK(cudaFree(dValsIn));
  CHECK(cudaFree(dValsOut));
}

} // namespace

int main() {
  const size_t n = size_t(1) << 21;
  sortPairs<uint32_t, int>("uint32", n, false);
  sortPairs<uint32_t, int64_t>("uint32, 64-bit offsets", n, false);
  sortPairs<uint32_t, int64_t>("uint32 bits [3,29) descending", n, true, 3, 29);
  sortPairs<uint8_t, int>("uint8", n, false);
  sortPairs<uint16_t, int64_t>("uint16 bits [1,13)", n, false, 1, 13);
  sortPairs<uint64_t, int>("uint64", n, false);
  sortPairs<uint64_t, int64_t>("uint64 bits [5,61) descending", n, true, 5, 61);
  sortPairs<int32_t, int64_t>("int32", n, false);
  sortPairs<float, int>("float descending", n, true);
  sortPairs<double, int64_t>("double", n, false);
  return finish_test("radix_sort_types");
}
