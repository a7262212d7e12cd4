// GPU target names (sm_XY, compute_XY, with the `a` and `f` suffixes) and the
// toolkit's list of known architectures. No LLVM and no CUDA dependency: the
// driver, the runtime and the tools share it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mycc {

enum class ArchSuffix { None, ArchSpecific /* a */, FamilySpecific /* f */ };

// A GPU architecture number with its suffix: 90 + ArchSpecific is "90a".
struct GpuArch {
  unsigned sm = 0; // 75, 80, 86, 90, 100, 120, ...
  ArchSuffix suffix = ArchSuffix::None;

  unsigned major() const { return sm / 10; }
  unsigned minor() const { return sm % 10; }
  std::string str() const; // "90a"
  friend bool operator==(const GpuArch &a, const GpuArch &b) {
    return a.sm == b.sm && a.suffix == b.suffix;
  }
  friend bool operator<(const GpuArch &a, const GpuArch &b) {
    return a.sm != b.sm ? a.sm < b.sm : a.suffix < b.suffix;
  }
};

// A virtual target (compute_XY: PTX) or a real one (sm_XY: cubin).
struct Target {
  bool isVirtual = false;
  GpuArch arch;

  std::string str() const; // "compute_90a" or "sm_80"
  friend bool operator==(const Target &a, const Target &b) {
    return a.isVirtual == b.isVirtual && a.arch == b.arch;
  }
  friend bool operator<(const Target &a, const Target &b) {
    return a.arch == b.arch ? a.isVirtual < b.isVirtual : a.arch < b.arch;
  }
};

// Parses "sm_80", "compute_90a", "sm_100f". Returns nullopt for anything else.
std::optional<Target> parseTarget(std::string_view text);

// The architectures CUDA 13's nvcc lists (--list-gpu-arch / --list-gpu-code),
// in ascending order, suffixed forms included.
const std::vector<GpuArch> &knownArchs();
bool isKnownArch(const GpuArch &arch);

// The default target of nvcc 13 when none is given.
constexpr unsigned kDefaultSm = 75;

} // namespace mycc
