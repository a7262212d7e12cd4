// Loads the builds of algorithms.cu that run.sh made (one shared library per
// compiler) into one process and times each call of each build with
// cudaEvents, the builds alternating call by call in a rotating order. Every
// result is checked against the host. Per phase it prints each build's
// median and best time and, for every build after the first, the median of
// its per-round time ratios to the first build with a 95% bootstrap interval.
//
//   harness [--rounds R] [--keys N] LABEL=PATH.so...   (first LABEL: the reference)
#include "../common/builds.h"
#include "../common/stats.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using bench::die;

void check(cudaError_t err, const char *what) {
  if (err != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorString(err));
}

struct Build {
  std::string label;
  int (*thrustSort)(std::uint32_t *, std::size_t);
  std::size_t (*cubSortTempBytes)(std::size_t);
  int (*cubSort64)(void *, std::size_t, const std::uint32_t *, std::uint32_t *, std::size_t);
  int (*cubSort32)(void *, std::size_t, const std::uint32_t *, std::uint32_t *, std::size_t);
  int (*inclusiveScan)(const std::uint32_t *, std::uint32_t *, std::size_t);
  int (*reduce)(const std::uint32_t *, std::size_t, std::uint64_t *);
  int (*transform)(const std::uint32_t *, std::uint32_t *, std::size_t, std::uint32_t);
};

Build load(const std::string &spec) {
  bench::Library lib = bench::openBuild(spec);
  Build b;
  b.label = lib.label;
  bench::lookup(lib, "bench_thrust_sort", b.thrustSort);
  bench::lookup(lib, "bench_cub_sort_temp_bytes", b.cubSortTempBytes);
  bench::lookup(lib, "bench_cub_sort64", b.cubSort64);
  bench::lookup(lib, "bench_cub_sort32", b.cubSort32);
  bench::lookup(lib, "bench_thrust_inclusive_scan", b.inclusiveScan);
  bench::lookup(lib, "bench_thrust_reduce", b.reduce);
  bench::lookup(lib, "bench_thrust_transform", b.transform);
  return b;
}

std::uint32_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return std::uint32_t(x ^ (x >> 31));
}

struct Device {
  std::size_t n;
  std::uint32_t *keys, *work, *out;
  void *temp;
  std::size_t tempBytes;
  std::uint64_t *sum; // host
};

// One phase: `prepare` runs before each timed call (untimed), `call` is the
// library call of one build, `verify` checks that build's result.
struct Phase {
  const char *name;
  std::function<void(const Device &)> prepare;
  std::function<int(const Build &, const Device &)> call;
  std::function<std::string(const Device &)> verify; // empty string: correct
};

} // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int rounds = 30;
  std::size_t n = std::size_t(1) << 24;
  std::vector<Build> builds;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (a == "--keys" && i + 1 < argc) n = std::strtoull(argv[++i], nullptr, 0);
    else builds.push_back(load(a));
  }
  if (builds.empty() || rounds < 1 || n < 2)
    die("usage: harness [--rounds R] [--keys N] LABEL=PATH.so...");

  std::vector<std::uint32_t> hKeys(n), hSorted, hScan(n), hHash(n), hOut(n);
  for (std::size_t i = 0; i < n; ++i) hKeys[i] = splitmix(i);
  hSorted = hKeys;
  std::sort(hSorted.begin(), hSorted.end());
  std::uint64_t hSum = 0;
  std::uint32_t running = 0;
  const std::uint32_t salt = 0x5bd1e995u;
  for (std::size_t i = 0; i < n; ++i) {
    hSum += hKeys[i];
    running += hKeys[i];
    hScan[i] = running;
    std::uint32_t h = hKeys[i] * 2654435761u + salt;
    hHash[i] = h ^ (h >> 13);
  }

  Device d{n, nullptr, nullptr, nullptr, nullptr, 0, nullptr};
  std::uint64_t sum = 0;
  d.sum = &sum;
  const std::size_t bytes = n * sizeof(std::uint32_t);
  check(cudaMalloc(&d.keys, bytes), "cudaMalloc");
  check(cudaMalloc(&d.work, bytes), "cudaMalloc");
  check(cudaMalloc(&d.out, bytes), "cudaMalloc");
  for (const Build &b : builds) d.tempBytes = std::max(d.tempBytes, b.cubSortTempBytes(n));
  check(cudaMalloc(&d.temp, d.tempBytes), "cudaMalloc");
  check(cudaMemcpy(d.keys, hKeys.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");

  auto compare = [&](const std::uint32_t *dev, const std::vector<std::uint32_t> &want) {
    check(cudaMemcpy(hOut.data(), dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    auto bad = std::mismatch(hOut.begin(), hOut.end(), want.begin());
    if (bad.first == hOut.end()) return std::string();
    return "element " + std::to_string(bad.first - hOut.begin()) + " is " +
           std::to_string(*bad.first) + ", want " + std::to_string(*bad.second);
  };
  auto copyKeysToWork = [](const Device &dv) {
    check(cudaMemcpy(dv.work, dv.keys, dv.n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice), "cudaMemcpy");
  };
  auto nothing = [](const Device &) {};
  std::vector<Phase> phases = {
      {"thrust::sort", copyKeysToWork,
       [](const Build &b, const Device &dv) { return b.thrustSort(dv.work, dv.n); },
       [&](const Device &dv) { return compare(dv.work, hSorted); }},
      {"cub::DeviceRadixSort::SortKeys (64-bit count)", nothing,
       [](const Build &b, const Device &dv) {
         return b.cubSort64(dv.temp, dv.tempBytes, dv.keys, dv.out, dv.n);
       },
       [&](const Device &dv) { return compare(dv.out, hSorted); }},
      {"cub::DeviceRadixSort::SortKeys (32-bit count)", nothing,
       [](const Build &b, const Device &dv) {
         return b.cubSort32(dv.temp, dv.tempBytes, dv.keys, dv.out, dv.n);
       },
       [&](const Device &dv) { return compare(dv.out, hSorted); }},
      {"thrust::inclusive_scan", nothing,
       [](const Build &b, const Device &dv) { return b.inclusiveScan(dv.keys, dv.out, dv.n); },
       [&](const Device &dv) { return compare(dv.out, hScan); }},
      {"thrust::reduce", nothing,
       [](const Build &b, const Device &dv) { return b.reduce(dv.keys, dv.n, dv.sum); },
       [&](const Device &dv) {
         return *dv.sum == hSum ? std::string()
                                : "sum " + std::to_string(*dv.sum) + ", want " + std::to_string(hSum);
       }},
      {"thrust::transform (__device__ lambda)", nothing,
       [&](const Build &b, const Device &dv) { return b.transform(dv.keys, dv.out, dv.n, salt); },
       [&](const Device &dv) { return compare(dv.out, hHash); }},
  };

  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("device: %s; %zu keys; %d rounds; builds in rotating order:", prop.name, n, rounds);
  for (const Build &b : builds) std::printf(" %s", b.label.c_str());
  std::printf("\n%-46s %-6s %10s %10s %8s  %s\n", "phase", "build", "median_us", "best_us", "ratio",
              "95% interval");

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  bool failed = false;
  const std::size_t nb = builds.size();
  std::vector<std::string> labels;
  for (const Build &b : builds) labels.push_back(b.label);
  for (const Phase &p : phases) {
    // Warm-up call of each build, checked.
    for (const Build &b : builds) {
      p.prepare(d);
      check(static_cast<cudaError_t>(p.call(b, d)), p.name);
      check(cudaDeviceSynchronize(), p.name);
      std::string why = p.verify(d);
      if (!why.empty()) {
        std::printf("FAIL %s built by %s: %s\n", p.name, b.label.c_str(), why.c_str());
        failed = true;
      }
    }
    std::vector<std::vector<double>> us(nb, std::vector<double>(rounds));
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < nb; ++k) {
        std::size_t i = bench::turn(r, k, nb);
        p.prepare(d);
        check(cudaDeviceSynchronize(), p.name);
        check(cudaEventRecord(start), "cudaEventRecord");
        check(static_cast<cudaError_t>(p.call(builds[i], d)), p.name);
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        us[i][r] = ms * 1000.0;
      }
    }
    bench::printRows(p.name, 46, 10, labels, us);
    // The last timed call of the last build must also be right.
    std::string why = p.verify(d);
    if (!why.empty()) {
      std::printf("FAIL %s (last timed call): %s\n", p.name, why.c_str());
      failed = true;
    }
  }
  std::printf(failed ? "FAIL\n" : "PASS\n");
  return failed ? 1 : 0;
}
