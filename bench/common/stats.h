// Statistics the benchmark harnesses share: medians, the median of per-round
// ratios with a 95% bootstrap interval, and the rows that report them.
#pragma once

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
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

// Prints one row per build for the case `name`: the median and best of its
// per-round times `us[build][round]` and, for every build after the first,
// the median of its per-round ratios to the first with the interval.
// Returns those ratio medians (1 for the first build).
inline std::vector<double> printRows(const char *name, int nameWidth, int timeWidth,
                                     const std::vector<std::string> &labels,
                                     const std::vector<std::vector<double>> &us) {
  std::vector<double> medians(labels.size(), 1.0);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    double best = *std::min_element(us[i].begin(), us[i].end());
    std::printf("%-*s %-6s %*.1f %*.1f", nameWidth, name, labels[i].c_str(), timeWidth, median(us[i]),
                timeWidth, best);
    if (i == 0) {
      std::printf("\n");
      continue;
    }
    std::vector<double> ratio(us[i].size());
    for (std::size_t r = 0; r < ratio.size(); ++r) ratio[r] = us[i][r] / us[0][r];
    RatioEstimate e = ratioEstimate(ratio);
    medians[i] = e.median;
    std::printf(" %8.3f  [%.3f, %.3f]\n", e.median, e.low, e.high);
  }
  return medians;
}

} // namespace bench
