#include "Ptxas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

namespace mycc::offload {

namespace {

// The options ptxas and the JIT share, in nvcc's order.
std::vector<std::string> sharedOptions(const PtxasOptions &o) {
  std::vector<std::string> words = o.extraOptions;
  if (o.compileOnly) words.push_back("--compile-only");
  if (!o.fmad) words.insert(words.end(), {"--fmad", "false"});
  if (o.maxRegCount)
    words.push_back("-maxrregcount=" + std::to_string(o.maxRegCount));
  if (o.deviceDebug)
    words.insert(words.end(), {"-g", "--dont-merge-basicblocks", "--return-at-end"});
  if (o.lineInfo)
    words.push_back("--generate-line-info");
  return words;
}

} // namespace

std::vector<std::string> ptxasCommand(const PtxasJob &job) {
  std::vector<std::string> cmd{job.ptxas};
  if (job.options.toolsPatch) cmd.push_back("-astoolspatch");
  if (!job.options.entries.empty()) {
    std::string list;
    for (const std::string &entry : job.options.entries)
      list += (list.empty() ? "" : ",") + entry;
    cmd.push_back("-e=" + list);
  }
  if (job.options.splitCompile != 1)
    cmd.push_back("-split-compile=" + std::to_string(job.options.splitCompile));
  cmd.insert(cmd.end(), {"-arch=" + job.gpuName, "-m64"});
  if (job.options.resourceUsage) cmd.push_back("-v");
  if (!job.options.sanitize.empty())
    cmd.push_back("-sanitize=" + job.options.sanitize);
  if (!job.options.fastCompile.empty())
    cmd.push_back("--Ofast-compile=" + job.options.fastCompile);
  std::vector<std::string> shared = sharedOptions(job.options);
  cmd.insert(cmd.end(), shared.begin(), shared.end());
  if (job.options.extensibleWholeProgram) cmd.push_back("-ewp");
  cmd.push_back(job.ptxFile);
  cmd.push_back("-o");
  cmd.push_back(job.cubinFile);
  return cmd;
}

// nvcc 13 (measured with --dryrun): each -Xptxas option followed by a space,
// the others each preceded by one, and a space at the end:
// "-O1  --fmad false -maxrregcount=40 --generate-line-info ".
std::string jitOptions(const PtxasOptions &o) {
  std::string text;
  for (const std::string &x : o.extraOptions) text += x + " ";
  PtxasOptions own = o; // the -Xptxas options are written above
  own.extraOptions.clear();
  for (const std::string &word : sharedOptions(own)) text += " " + word;
  return text.empty() ? text : text + " ";
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
