// The version of the CUDA toolkit mycc compiles against, as nvcc reports it
// ("13.0.88"): mycc's --version banner ends with nvcc's release line, and
// every CUDA unit gets nvcc's __CUDACC_VER_MAJOR__/MINOR__/BUILD__ from it.
#pragma once

#include <optional>
#include <string>

namespace mycc::driver {

struct CudaVersion {
  unsigned major = 0, minor = 0, build = 0;
  std::string str() const; // "13.0.88"
};

// Reads the version of the toolkit at `cudaPath`, from the first of:
//  1. version.json, its "cuda_nvcc" entry (every toolkit installer writes it);
//  2. a pip-assembled toolkit's dist-info/nvidia_cuda_nvcc-X.Y.Z.dist-info;
//  3. the release line of `<cudaPath>/bin/nvcc --version` (skipped when that
//     nvcc is mycc itself);
//  4. CUDA_VERSION in include/cuda.h (major and minor only, build 0).
// `source` names where the version came from. nullopt if none says.
std::optional<CudaVersion> readToolkitVersion(const std::string &cudaPath,
                                              std::string *source = nullptr);

// "13.0.88" → {13, 0, 88}; also accepts "13.0" (build 0).
std::optional<CudaVersion> parseCudaVersion(const std::string &text);

} // namespace mycc::driver
