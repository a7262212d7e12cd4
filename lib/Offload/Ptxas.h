// PTX to cubin through the CUDA toolkit's ptxas.
#pragma once

#include <string>
#include <vector>

namespace mycc::offload {

// What ptxas is asked for besides the GPU, from nvcc's options.
struct PtxasOptions {
  bool lineInfo = false;
  // -G: ptxas's debug build, as nvcc 13.0 asks for it (measured with
  // --dryrun): -g --dont-merge-basicblocks --return-at-end. Otherwise no -O:
  // ptxas's default is -O3, and nvcc gives none (a second -O, from -Xptxas,
  // made ptxas warn of an incompatible redefinition).
  bool deviceDebug = false;
  bool fmad = true;          // -fmad=false: --fmad false
  unsigned maxRegCount = 0;  // -maxrregcount=N; 0: none
  bool resourceUsage = false; // -res-usage: -v
  // -rdc=true: a relocatable cubin (--compile-only), as nvcc's; the JIT of
  // such PTX is told the same.
  bool compileOnly = false;
  // -ewp: ptxas -ewp, a cubin nvlink can still link with libcudadevrt; not
  // among the JIT's options (as nvcc 13.0's fatbinary --cmdline).
  bool extensibleWholeProgram = false;
  std::vector<std::string> extraOptions; // -Xptxas
  // -e: the entries ptxas generates code for (its -e=a,b, first on its
  // line as nvcc gives it); not among the JIT's options. Empty: all.
  std::vector<std::string> entries;
  // -Ofc: ptxas's --Ofast-compile=<level>; not among the JIT's options (as
  // nvcc 13.0, measured). Empty: not given.
  std::string fastCompile;
  // -split-compile N: ptxas's -split-compile=N (threads; 0: one per CPU),
  // as nvcc 13.0 passes it (measured with --dryrun); 1: not given. Not among
  // the JIT's options.
  unsigned splitCompile = 1;
  // -astoolspatch: ptxas -astoolspatch (first on its line, as nvcc 13.0
  // gives it); not among the JIT's options.
  bool toolsPatch = false;
  // -sanitize <tool>: ptxas -sanitize=<tool>, the instrumentation ptxas
  // inserts for compute-sanitizer (after -v, as nvcc 13.0 gives it); not
  // among the JIT's options. Empty: none.
  std::string sanitize;
};

struct PtxasJob {
  std::string ptxas;    // path of the toolkit's ptxas
  std::string ptxFile;
  std::string gpuName;  // "sm_90a"
  std::string cubinFile;
  PtxasOptions options;
};

// The command line, for -v, --dryrun and execution alike; the options in
// nvcc 13's order.
std::vector<std::string> ptxasCommand(const PtxasJob &job);

// The ptxas options a fat binary's PTX carries for the driver's JIT
// compilation, as nvcc gives them to fatbinary (--cmdline): the -Xptxas
// options, --fmad false, -maxrregcount=N, the debug options; "" for none.
std::string jitOptions(const PtxasOptions &options);

// Runs ptxas; its messages go to stderr. Returns false with `error` set when
// ptxas cannot be run or fails.
bool runPtxas(const PtxasJob &job, std::string &error);

} // namespace mycc::offload
