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

unsigned minPtxVersion(const GpuArch &arch) {
  // PTX ISA "Target ISA notes"; checked against ptxas 13.0 (the oldest
  // `.version` it accepts for each `.target`) and LLVM 22 (the version it
  // emits with no PTX feature). ptxas 13.0 takes sm_88 from 7.4 on; the PTX
  // ISA and LLVM say 9.0, which both accept.
  const bool family = arch.suffix == ArchSuffix::FamilySpecific;
  switch (arch.sm) {
  case 75: return 63;
  case 80: return 70;
  case 86: return 71;
  case 87: return 74;
  case 88: return 90;
  case 89: return 78;
  case 90: return arch.suffix == ArchSuffix::ArchSpecific ? 80 : 78;
  case 100: return family ? 88 : 86;
  case 103: return 88;
  case 110: return 90;
  case 120: return family ? 88 : 87;
  case 121: return 88;
  default: return 90;
  }
}

std::vector<GpuArch> keywordCubinArchs(ArchKeyword keyword) {
  std::vector<GpuArch> archs;
  for (const GpuArch &arch : knownArchs()) {
    if (arch.suffix != ArchSuffix::None)
      continue;
    if (keyword == ArchKeyword::All || archs.empty() || arch.minor() == 0)
      archs.push_back(arch);
  }
  return archs;
}

GpuArch keywordPtxArch() {
  // The first plain architecture of the highest major version.
  GpuArch ptx;
  for (const GpuArch &arch : knownArchs())
    if (arch.suffix == ArchSuffix::None && arch.major() > ptx.major())
      ptx = arch;
  return ptx;
}

std::optional<std::vector<GpuArch>> parseDeviceQuery(std::string_view text) {
  // Tolerate a trailing newline, in case a later toolkit prints one.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  std::vector<GpuArch> archs;
  while (!text.empty()) {
    std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    std::optional<Target> target = parseTarget("sm_" + std::string(item));
    if (!target || target->arch.suffix != ArchSuffix::None)
      return std::nullopt;
    if (std::find(archs.begin(), archs.end(), target->arch) == archs.end())
      archs.push_back(target->arch);
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
    if (text.empty())
      return std::nullopt;
  }
  return archs;
}

} // namespace mycc
