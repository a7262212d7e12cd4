// Statistics the benchmark harnesses share: medians, and the median of
// per-round ratios with a 95% bootstrap interval.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

namespace bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct RatioEstimate {
  double median, low, high; // low..high: 95% bootstrap interval of the median
};

// `ratios`: one per round (a build's time over the reference build's in that
// round); resampled 2000 times with a fixed seed, so reruns print the same.
inline RatioEstimate ratioEstimate(const std::vector<double> &ratios) {
  std::mt19937 rng(12345);
  std::vector<double> boot(2000), sample(ratios.size());
  std::uniform_int_distribution<std::size_t> pick(0, ratios.size() - 1);
  for (double &m : boot) {
    for (double &s : sample) s = ratios[pick(rng)];
    m = median(sample);
  }
  std::sort(boot.begin(), boot.end());
  return {median(ratios), boot[50], boot[1949]};
}

// Round r's order of n builds: rotated by r, reversed every other round, so
// no build always follows the same one.
inline std::size_t turn(int round, std::size_t k, std::size_t n) {
  std::size_t i = (round + k) % n;
  return round % 2 ? n - 1 - i : i;
}

} // namespace bench
