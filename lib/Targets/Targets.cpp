#include "Targets.h"

#include <algorithm>

namespace mycc {

std::string GpuArch::str() const {
  std::string text = std::to_string(sm);
  if (suffix == ArchSuffix::ArchSpecific)
    text += 'a';
  else if (suffix == ArchSuffix::FamilySpecific)
    text += 'f';
  return text;
}

std::string Target::str() const {
  return (isVirtual ? "compute_" : "sm_") + arch.str();
}

std::optional<Target> parseTarget(std::string_view text) {
  Target target;
  constexpr std::string_view realPrefix = "sm_", virtualPrefix = "compute_";
  if (text.substr(0, realPrefix.size()) == realPrefix) {
    text.remove_prefix(realPrefix.size());
  } else if (text.substr(0, virtualPrefix.size()) == virtualPrefix) {
    text.remove_prefix(virtualPrefix.size());
    target.isVirtual = true;
  } else {
    return std::nullopt;
  }

  if (!text.empty() && (text.back() == 'a' || text.back() == 'f')) {
    target.arch.suffix = text.back() == 'a' ? ArchSuffix::ArchSpecific
                                            : ArchSuffix::FamilySpecific;
    text.remove_suffix(1);
  }
  // Two or three digits, no leading zero: "80", "100". Longer numbers are
  // rejected rather than risking overflow on garbage input.
  if (text.size() < 2 || text.size() > 3 || text.front() == '0')
    return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    target.arch.sm = target.arch.sm * 10 + unsigned(c - '0');
  }
  return target;
}

const std::vector<GpuArch> &knownArchs() {
  // From the CUDA 13.0 toolkit (nvcc V13.0.88): `nvcc --list-gpu-arch` and
  // `--list-gpu-code` print the plain forms; the suffixed forms are the ones
  // the `--gpu-architecture` help of nvcc/ptxas 13.0 lists as allowed values.
  // Kept in ascending order (operator<) for isKnownArch's binary search.
  constexpr auto None = ArchSuffix::None, A = ArchSuffix::ArchSpecific,
                 F = ArchSuffix::FamilySpecific;
  static const std::vector<GpuArch> archs = {
      {75, None},  {80, None},  {86, None},  {87, None},  {88, None},
      {89, None},  {90, None},  {90, A},     {100, None}, {100, A},
      {100, F},    {103, None}, {103, A},    {103, F},    {110, None},
      {110, A},    {110, F},    {120, None}, {120, A},    {120, F},
      {121, None}, {121, A},    {121, F},
  };
  return archs;
}

bool isKnownArch(const GpuArch &arch) {
  const auto &archs = knownArchs();
  return std::binary_search(archs.begin(), archs.end(), arch);
}

} // namespace mycc
