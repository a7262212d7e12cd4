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

// The value of __CUDA_ARCH__ (and of __CUDA_ARCH_SPECIFIC__ /
// __CUDA_ARCH_FAMILY_SPECIFIC__) for an architecture: 90a -> 900, 103f -> 1030.
inline unsigned archMacroValue(const GpuArch &arch) { return arch.sm * 10; }

// The oldest PTX ISA version whose `.target` may name `arch`, as 10 * major +
// minor (88 is PTX ISA 8.8). From the PTX ISA's target notes, as LLVM 22's
// NVPTX backend and ptxas 13.0 apply them: family targets need 8.8, sm_88 and
// sm_110 need 9.0. Unknown architectures get the newest version in the table.
unsigned minPtxVersion(const GpuArch &arch);

// nvcc's architecture keywords -arch=all and -arch=all-major (CUDA 13.0,
// measured with `nvcc --dryrun`): a cubin for each listed architecture, each
// compiled from its own virtual architecture, and one PTX, that of the
// highest major architecture (compute_120).
//  - all: every plain architecture of knownArchs();
//  - all-major: the earliest one (75) and every XY0 one (80, 90, 100, ...).
// No `a` or `f` target is part of either.
enum class ArchKeyword { All, AllMajor };
std::vector<GpuArch> keywordCubinArchs(ArchKeyword keyword);
GpuArch keywordPtxArch();

// The output of the toolkit's __nvcc_device_query: the compute capabilities
// of the installed GPUs, major * 10 + minor, separated by commas, in
// ascending order without duplicates ("90" or "80,90", no newline). Returns
// the plain architectures, or nullopt if the text is not such a list.
std::optional<std::vector<GpuArch>> parseDeviceQuery(std::string_view text);

} // namespace mycc
