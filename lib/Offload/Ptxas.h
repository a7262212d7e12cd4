// PTX to cubin through the CUDA toolkit's ptxas.
#pragma once

#include <string>
#include <vector>

namespace mycc::offload {

struct PtxasJob {
  std::string ptxas;    // path of the toolkit's ptxas
  std::string ptxFile;
  std::string gpuName;  // "sm_90a"
  std::string cubinFile;
  bool lineInfo = false;
  // -G: ptxas's debug build, as nvcc 13.0 asks for it (measured with
  // --dryrun): -g --dont-merge-basicblocks --return-at-end, no -O3.
  bool deviceDebug = false;
  std::vector<std::string> extraOptions; // -Xptxas
};

// The command line, for -v, --dryrun and execution alike.
std::vector<std::string> ptxasCommand(const PtxasJob &job);

// Runs ptxas; its messages go to stderr. Returns false with `error` set when
// ptxas cannot be run or fails.
bool runPtxas(const PtxasJob &job, std::string &error);

} // namespace mycc::offload
