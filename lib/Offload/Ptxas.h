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
  std::vector<std::string> extraOptions; // -Xptxas
};

// The command line, for -v, --dryrun and execution alike.
std::vector<std::string> ptxasCommand(const PtxasJob &job);

// Runs ptxas; its messages go to stderr. Returns false with `error` set when
// ptxas cannot be run or fails.
bool runPtxas(const PtxasJob &job, std::string &error);

} // namespace mycc::offload
