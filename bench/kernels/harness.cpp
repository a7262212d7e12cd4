// Loads the builds of kernels.cu that run.sh made (one shared library per
// compiler) into one process and times every case of every build, the
// builds alternating in a rotating order: per round, cudaEvents around
// `--launches` back-to-back launches after the case's warm-up. Each build's
// output is checked after its warm-up and after its last timed round.
// Prints per case each build's median time per launch and, for the builds
// after the first, the median of its per-round ratios to the first build
// (its time over the first's: below 1 is faster) with a 95% bootstrap
// interval; then the geometric mean of those medians.
//
//   harness [--rounds R] [--launches L] [--only NAME] LABEL=PATH.so...
//   (the first LABEL is the reference)
#include "../common/builds.h"
#include "../common/stats.h"
#include "cases.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using bench::die;

void check(int err, const std::string &what) {
  if (err != cudaSuccess)
    die(what + ": " + cudaGetErrorString(static_cast<cudaError_t>(err)));
}

struct Build {
  std::string label;
  const BenchCase *cases = nullptr;
  int count = 0;
};

Build load(const std::string &spec) {
  bench::Library lib = bench::openBuild(spec);
  const BenchCase *(*cases)(int *);
  bench::lookup(lib, "bench_kernel_cases", cases);
  Build b;
  b.label = lib.label;
  b.cases = cases(&b.count);
  return b;
}

} // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int rounds = 15, launches = 10;
  std::string only;
  std::vector<Build> builds;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (a == "--launches" && i + 1 < argc) launches = std::atoi(argv[++i]);
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else builds.push_back(load(a));
  }
  if (builds.empty() || rounds < 1 || launches < 1)
    die("usage: harness [--rounds R] [--launches L] [--only NAME] LABEL=PATH.so...");
  for (const Build &b : builds)
    if (b.count != builds[0].count) die(b.label + "'s build has other cases than " + builds[0].label + "'s");

  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("device: %s; %d rounds of %d launches; builds in rotating order:", prop.name, rounds,
              launches);
  for (const Build &b : builds) std::printf(" %s", b.label.c_str());
  std::printf("\n%-24s %-6s %12s %12s %8s  %s\n", "case", "build", "median_us", "best_us", "ratio",
              "95% interval");

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  bool failed = false;
  const std::size_t nb = builds.size();
  std::vector<std::string> labels;
  for (const Build &b : builds) labels.push_back(b.label);
  std::vector<double> logRatioSum(nb, 0.0);
  int measured = 0;
  char why[256];
  for (int c = 0; c < builds[0].count; ++c) {
    const char *name = builds[0].cases[c].name;
    if (!only.empty() && only != name) continue;
    for (const Build &b : builds) {
      const BenchCase &bc = b.cases[c];
      if (std::string(bc.name) != name) die(b.label + "'s case " + std::to_string(c) + " is not " + name);
      check(bc.setup(), std::string(name) + " setup (" + b.label + ")");
      check(bc.launch(), std::string(name) + " (" + b.label + ")");
      check(cudaDeviceSynchronize(), std::string(name) + " (" + b.label + ")");
      if (bc.verify(why, sizeof why)) {
        std::printf("FAIL %s built by %s: %s\n", name, b.label.c_str(), why);
        failed = true;
      }
    }
    std::vector<std::vector<double>> us(nb, std::vector<double>(rounds));
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < nb; ++k) {
        std::size_t i = bench::turn(r, k, nb);
        const BenchCase &bc = builds[i].cases[c];
        check(cudaDeviceSynchronize(), name);
        check(cudaEventRecord(start), "cudaEventRecord");
        for (int l = 0; l < launches; ++l) check(bc.launch(), name);
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), std::string(name) + " (" + builds[i].label + ")");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        us[i][r] = ms * 1000.0 / launches;
      }
    }
    for (const Build &b : builds) {
      const BenchCase &bc = b.cases[c];
      if (bc.verify(why, sizeof why)) {
        std::printf("FAIL %s built by %s (after the timed rounds): %s\n", name, b.label.c_str(), why);
        failed = true;
      }
      bc.teardown();
    }
    std::vector<double> ratios = bench::printRows(name, 24, 12, labels, us);
    for (std::size_t i = 1; i < nb; ++i) logRatioSum[i] += std::log(ratios[i]);
    ++measured;
  }
  for (std::size_t i = 1; i < nb && measured; ++i)
    std::printf("geomean %s/%s time ratio over %d cases: %.3f (speed %.3fx)\n", builds[i].label.c_str(),
                builds[0].label.c_str(), measured, std::exp(logRatioSum[i] / measured),
                std::exp(-logRatioSum[i] / measured));
  std::printf(failed ? "FAIL\n" : "PASS\n");
  return failed ? 1 : 0;
}
