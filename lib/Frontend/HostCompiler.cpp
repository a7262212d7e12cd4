#include "HostCompiler.h"

namespace mycc::frontend {

namespace {

// The user's -std, -O, -g, -w, -Werror all-warnings and -Xcompiler flags,
// for both of the host compiler's jobs (nvcc passes them to both).
void addHostFlags(const SourceOptions &o, std::vector<std::string> &cmd) {
  if (!o.std.empty()) cmd.push_back("-std=" + o.std);
  if (o.hostOptLevel) cmd.push_back("-O" + std::to_string(o.hostOptLevel));
  if (o.hostDebug) cmd.push_back("-g");
  if (o.noWarnings) cmd.push_back("-w");
  if (o.warningsAsErrors) cmd.push_back("-Werror"); // -Werror all-warnings
  cmd.insert(cmd.end(), o.hostCompilerFlags.begin(), o.hostCompilerFlags.end());
}

} // namespace

// The host compiler's line for an input, as nvcc writes it (measured with
// `nvcc --dryrun`): every arch of the build in __CUDA_ARCH_LIST__, __NVCC__
// (for a .cu also __CUDACC__, and cuda_runtime.h first, here through
// mycc/host.h), the version macros, no __CUDA_ARCH__, the toolkit's include
// directories, the user's options, and the dependency rule with `deps`.
std::vector<std::string>
HostCompilerCommands::hostLine(const SourceOptions &o, const char *action,
                               const char *language, bool cuda,
                               const std::string &input, const std::string &output,
                               const DependencyOutput *deps) const {
  std::vector<std::string> cmd{compiler, action, "-x", language};
  if (!o.gpuArchs.empty())
    cmd.push_back("-D__CUDA_ARCH_LIST__=" + archListValue(o.gpuArchs));
  if (cuda) cmd.push_back("-D__CUDACC__");
  cmd.push_back("-D__NVCC__");
  if (cuda && o.rdc)
    cmd.push_back(o.extensibleWholeProgram ? "-D__CUDACC_EWP__" : "-D__CUDACC_RDC__");
  std::vector<std::string> identity = identityMacros(o);
  cmd.insert(cmd.end(), identity.begin(), identity.end());
  // As nvcc's: its front end takes nvcc's diagnostic pragmas (mycc's
  // lowering keeps them from the host compiler).
  cmd.push_back("-D__NVCC_DIAG_PRAGMA_SUPPORT__=1");
  if (o.allowUnsupportedCompiler) cmd.push_back("-D__NV_NO_HOST_COMPILER_CHECK=1");
  for (const auto &d : o.includeDirs) cmd.push_back("-I" + d);
  for (const auto &d : o.systemIncludeDirs) cmd.insert(cmd.end(), {"-isystem", d});
  cmd.insert(cmd.end(), {"-isystem", o.cudaPath + "/include", "-isystem",
                         o.cudaPath + "/include/cccl"});
  for (const auto &m : o.macros) cmd.push_back(m);
  if (cuda) cmd.insert(cmd.end(), {"-include", hostHeader});
  for (const auto &f : o.preIncludes) cmd.insert(cmd.end(), {"-include", f});
  addHostFlags(o, cmd);
  cmd.push_back("-m64");
  if (deps) {
    cmd.push_back(deps->rulesOnly ? (deps->systemHeaders ? "-M" : "-MM")
                                  : (deps->systemHeaders ? "-MD" : "-MMD"));
    cmd.insert(cmd.end(), {"-MF", deps->file, "-MT", deps->target});
    if (deps->phonyTargets) cmd.push_back("-MP");
  }
  cmd.push_back(input);
  if (!output.empty() && output != "-") cmd.insert(cmd.end(), {"-o", output});
  return cmd;
}

std::vector<std::string>
HostCompilerCommands::preprocess(const SourceOptions &o, const std::string &input,
                                 const std::string &output,
                                 const DependencyOutput *deps) const {
  return hostLine(o, "-E", "c++", true, input, output, deps);
}

std::vector<std::string>
HostCompilerCommands::compile(const SourceOptions &o, const std::string &lowered,
                              const std::string &output,
                              bool preprocessAgain) const {
  std::vector<std::string> cmd{compiler, "-c", "-x",
                               preprocessAgain ? "c++" : "c++-cpp-output"};
  if (preprocessAgain && !o.gpuArchs.empty())
    cmd.push_back("-D__CUDA_ARCH_LIST__=" + archListValue(o.gpuArchs));
  addHostFlags(o, cmd);
  cmd.insert(cmd.end(), {"-m64", lowered, "-o", output});
  return cmd;
}

std::vector<std::string>
HostCompilerCommands::compileSource(const SourceOptions &o, const std::string &input,
                                    bool isC, const std::string &output,
                                    bool preprocessOnly,
                                    const DependencyOutput *deps) const {
  bool compile = !preprocessOnly && !output.empty() && output != "-";
  SourceOptions flags = o;
  if (isC) flags.std.clear(); // -std=c++17 is the .cu and .cpp files'
  return hostLine(flags, compile ? "-c" : "-E", isC ? "c" : "c++", false,
                  input, output, deps);
}

bool hostLoweringInvocation(const SourceOptions &o, const std::string &input,
                            std::vector<std::string> &cc1, std::string &error) {
  SourceOptions parse = o;
  parse.hostCompilerFlags.clear();
  parse.noWarnings = true;
  parse.warningsAsErrors = false;
  if (!Invocations::hostCompile(parse, input, cc1, error)) return false;
  cc1.push_back("-fgpu-defer-diag");
  return true;
}

} // namespace mycc::frontend
