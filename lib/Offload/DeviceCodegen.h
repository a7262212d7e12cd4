// Device code generation: one virtual arch of a .cu file to PTX, in-process.
// Clang's front end produces LLVM IR; mycc runs the LLVM optimisation
// pipeline itself and LLVM's NVPTX backend emits the PTX.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace mycc::offload {

struct DeviceCodegenOptions {
  unsigned optLevel = 3; // nvcc optimises device code by default
  // The GPU the PTX's `.target` must name when it is not the one clang
  // compiled for: "sm_100f" for a family target, which Clang cannot name
  // (frontend::clangGpuName). Empty: clang's GPU.
  std::string ptxTarget;
};

// `cc1` comes from frontend::Invocations::device. Source diagnostics go to
// `diagnostics` (stderr by default); on failure `error` is empty when they
// say it all, else it names the internal step that failed.
bool compileDeviceToPtx(const std::vector<std::string> &cc1,
                        const DeviceCodegenOptions &options, std::string &ptx,
                        std::string &error,
                        llvm::raw_ostream *diagnostics = nullptr);

} // namespace mycc::offload
