#include "Ptxas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

namespace mycc::offload {

std::vector<std::string> ptxasCommand(const PtxasJob &job) {
  std::vector<std::string> cmd{job.ptxas, "-arch=" + job.gpuName, "-m64"};
  if (job.deviceDebug)
    cmd.insert(cmd.end(), {"-g", "--dont-merge-basicblocks", "--return-at-end"});
  else
    cmd.push_back("-O3");
  if (job.lineInfo) cmd.push_back("--generate-line-info");
  cmd.insert(cmd.end(), job.extraOptions.begin(), job.extraOptions.end());
  cmd.push_back(job.ptxFile);
  cmd.push_back("-o");
  cmd.push_back(job.cubinFile);
  return cmd;
}

bool runPtxas(const PtxasJob &job, std::string &error) {
  std::vector<std::string> cmd = ptxasCommand(job);
  std::vector<llvm::StringRef> args(cmd.begin(), cmd.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(job.ptxas, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc == 0) return true;
  error = rc < 0 ? "cannot run ptxas (" + job.ptxas + "): " + message
                 : "ptxas failed for " + job.gpuName;
  return false;
}

} // namespace mycc::offload
