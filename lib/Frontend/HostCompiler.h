// The host compiler's command lines for the host half of a .cu file, as
// nvcc runs them (docs/design.md, "The host half"): the host compiler
// preprocesses the unit with the toolkit's headers and nvcc's host-side
// macros, mycc lowers the text (lib/Lowering), and the host compiler
// compiles what the lowering wrote. Only command lines: nothing runs here.
#pragma once

#include "Frontend.h"

#include <string>
#include <vector>

namespace mycc::frontend {

struct HostCompilerCommands {
  std::string compiler;   // g++, or what -ccbin / NVCC_CCBIN named
  std::string hostHeader; // include/mycc/host.h

  // `compiler -E` of `input` to `output` ("-": standard output; empty: the
  // dependency rule alone, `deps` then required).
  std::vector<std::string> preprocess(const SourceOptions &, const std::string &input,
                                      const std::string &output,
                                      const DependencyOutput *deps) const;
  // `compiler -c` of the lowered unit (already preprocessed) to `output`.
  // With `preprocessAgain` the host compiler preprocesses it once more, as
  // nvcc's does its .cudafe1.cpp: the unit then includes the fat binary's
  // text (the plan with --keep, docs/build-systems.md, "sccache"), and the
  // line carries __CUDA_ARCH_LIST__ as nvcc's does.
  std::vector<std::string> compile(const SourceOptions &, const std::string &lowered,
                                   const std::string &output,
                                   bool preprocessAgain = false) const;
  // A C or C++ input as nvcc gives it to the host compiler (measured with
  // --dryrun): `-c` to `output`, or `-E` when `output` is "-" or
  // `preprocessOnly`; nvcc's macros for such files (__NVCC__ and the version
  // macros, no __CUDACC__) and the toolkit's headers; the dependency rule
  // with `deps` (deps->rulesOnly: the rule alone, `output` then empty).
  std::vector<std::string> compileSource(const SourceOptions &, const std::string &input,
                                         bool isC, const std::string &output,
                                         bool preprocessOnly,
                                         const DependencyOutput *deps) const;

private:
  std::vector<std::string> hostLine(const SourceOptions &, const char *action,
                                    const char *language, bool cuda,
                                    const std::string &input,
                                    const std::string &output,
                                    const DependencyOutput *deps) const;
};

// cc1 arguments for Clang's parse of the host compiler's preprocessed text
// (the lowering): CUDA host mode, diagnostics of device code deferred (Clang
// reports them only for code it would emit for the host, which is none), no
// warnings (the host compiler gives its own on the code it compiles), and
// none of the -Xcompiler flags, which are the host compiler's.
bool hostLoweringInvocation(const SourceOptions &, const std::string &input,
                            std::vector<std::string> &cc1, std::string &error);

} // namespace mycc::frontend
