// Clang invocations for CUDA: which cc1 arguments mycc runs for the host and
// the device side of a .cu file. Clang's own driver library computes them, so
// toolkit discovery, the CUDA wrapper headers, libdevice and the predefined
// macros are exactly clang's; mycc adds nvcc's conventions on top (the
// toolkit's cccl include directory, the options users pass to nvcc).
#pragma once

#include "clang/Basic/Diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}
namespace clang {
class CompilerInstance;
class Preprocessor;
class SourceLocation;
class SourceManager;
}

namespace mycc::frontend {

// What the user asked for that shapes how a .cu file is parsed.
// nvcc's device floating-point options (-ftz, -prec-div, -prec-sqrt, -fmad,
// -use_fast_math), resolved. The front end takes ftz, fmad and the fast
// transcendentals; lib/Offload (DeviceMath.h) the division and square root.
struct DeviceMath {
  bool ftz = false;      // flush single-precision denormals to zero
  bool precDiv = true;   // IEEE single-precision division and reciprocal
  bool precSqrt = true;  // IEEE single-precision square root
  bool fmad = true;      // contract multiply and add into fma
  bool fastMath = false; // -use_fast_math: approximate transcendentals, and
                         // division where precDiv is false
};

struct SourceOptions {
  std::string cudaPath;
  // libdevice.10.bc from elsewhere than the toolkit (-ldir); empty: Clang's.
  std::string libdevice;
  std::vector<std::string> includeDirs, systemIncludeDirs, preIncludes;
  std::vector<std::string> macros;  // "-DNAME=V" / "-UNAME", in order
  std::string std;                  // "c++17", empty for the default
  std::vector<std::string> gpuArchs; // every virtual arch of the build, "sm_80"
                                     // form ("sm_90a", "sm_100f" with a
                                     // suffix), for __CUDA_ARCH_LIST__
  unsigned hostOptLevel = 0;
  bool hostDebug = false;   // -g
  bool deviceLineInfo = false; // -lineinfo
  bool deviceDebug = false;    // -G: full device debug information, -O0
  DeviceMath math;
  bool noWarnings = false;
  bool warnReorder = false; // -Wreorder: Clang's -Wreorder
  bool warningsAsErrors = false;
  // Clang's diagnostic flags for nvcc's front-end options (-diag-suppress,
  // -ftemplate-depth, ...), for every Clang side.
  std::vector<std::string> clangFlags;
  std::vector<std::string> hostCompilerFlags; // -Xcompiler, for the host side
  bool allowUnsupportedCompiler = false; // -allow-unsupported-compiler
  // The host half goes through the host compiler: the device side then
  // defers the diagnostics of code it does not emit (-fgpu-defer-diag), as
  // host functions' errors are the host side's to report; Clang's CUDA
  // headers do not declare the host library the way the host compiler's
  // headers do (unqualified isfinite on a float, clock() without <ctime>).
  bool hostCompilerPipeline = false;
  // The host compiler's own header directory (GCC's, with omp.h), searched
  // last on the device side: nvcc's device preprocessing is the host
  // compiler's, and finds it. Empty: none.
  std::string hostCompilerIncludeDir;
  // mycc's prelude header (include/mycc/prelude.h), included first into the
  // .cu on the host (preprocessing) and the device side; empty for none.
  std::string prelude;
  unsigned errorLimit = 0; // -Xcudafe --error_limit=N: -ferror-limit=N; 0: default
  // nvcc's __CUDACC_VER_MAJOR__/MINOR__/BUILD__: the toolkit's nvcc version
  // (13, 0, 88); not defined when major is 0 (version unknown).
  unsigned cudaVerMajor = 0, cudaVerMinor = 0, cudaVerBuild = 0;
  // Define __NVCC__ (only for CMake's compiler identification source: see
  // docs/build-systems.md).
  bool defineNvcc = false;
  // -rdc=true: the device side compiles with -fgpu-rdc. `cuid` names the
  // unit (Clang's -cuid) on both sides: Clang appends its hash to the device
  // symbols of internal kernels and variables, so that two units' `static`
  // kernels stay apart after the device link, and the host side must name
  // them the same way (ASTContext::getCUIDHash).
  bool rdc = false;
  // -ewp (with rdc): __CUDACC_EWP__ instead of __CUDACC_RDC__, as nvcc's.
  bool extensibleWholeProgram = false;
  // -opt-info inline: the device side tracks source locations (no debug
  // information in the PTX) so that the inliner's remarks can name calls.
  bool deviceLocationTracking = false;
  std::string cuid;
};

// A make rule with the dependencies of one side's preprocessing (-M, -MD,
// ...), written by Clang's preprocessor (its DependencyOutputOptions).
struct DependencyOutput {
  std::string file;        // where the rule goes
  std::string target;      // the rule's target, as given (not quoted)
  bool systemHeaders = true; // false: leave out headers from system directories
  bool phonyTargets = false; // an empty rule for each dependency (-MP)
  bool rulesOnly = false;  // preprocess for the rule alone (no output text)
};

// cc1 arguments (without "-cc1") for each job mycc runs in-process. Each
// returns false and sets `error` when Clang's driver rejects the options.
struct Invocations {
  // Host side, preprocessing the .cu into one translation unit.
  // With `deps`, the preprocessor also writes the dependency rule.
  static bool hostPreprocess(const SourceOptions &, const std::string &input,
                             std::vector<std::string> &cc1, std::string &error,
                             const DependencyOutput *deps = nullptr);
  // Host side, parsing/compiling an already preprocessed unit (`input` is
  // the name it is known by; its text is supplied in memory).
  static bool hostCompile(const SourceOptions &, const std::string &input,
                          std::vector<std::string> &cc1, std::string &error);
  // The device link's registration object: the toolkit's link.stub as
  // plain C++, with the toolkit's include directory and the -Xcompiler
  // options (`input`: the unit's name; its text is supplied in memory).
  static bool linkStub(const SourceOptions &, const std::string &input,
                       std::vector<std::string> &cc1, std::string &error);
  // Device side for one virtual arch ("sm_80", "sm_90a", "sm_100f"): the .cu
  // to LLVM IR. A family target, which clang does not know, is compiled for
  // the plain GPU of its family (clangGpuName) with nvcc's macros for the
  // family; the PTX then has to name the family (DeviceCodegenOptions).
  // With `deps`, the device side's preprocessor also writes its dependency
  // rule (headers only device code includes); with deps->rulesOnly the
  // invocation only preprocesses, for the rule.
  static bool device(const SourceOptions &, const std::string &input,
                     const std::string &gpuArch, std::vector<std::string> &cc1,
                     std::string &error, const DependencyOutput *deps = nullptr);
  // The same device side, preprocessed only (-E: the text, for mycc -E).
  static bool devicePreprocess(const SourceOptions &, const std::string &input,
                               const std::string &gpuArch,
                               std::vector<std::string> &cc1,
                               std::string &error);
  // The device side compiled from that text (`preprocessed`, which
  // devicePreprocess wrote for `input`): nvcc's cicc step, taken apart
  // from the preprocessing when the plan keeps its files (--keep). No
  // preprocessor options: the text has every macro and header already.
  static bool devicePreprocessed(const SourceOptions &,
                                 const std::string &input,
                                 const std::string &preprocessed,
                                 const std::string &gpuArch,
                                 std::vector<std::string> &cc1,
                                 std::string &error);

private:
  // Both of the above: `action` is the Clang driver's (-S, -E).
  static bool deviceSide(const SourceOptions &, const std::string &input,
                         const std::string &gpuArch, const char *action,
                         std::vector<std::string> &cc1, std::string &error,
                         const DependencyOutput *deps);
};

// The GPU name clang compiles a virtual arch ("sm_100f") for: the name itself,
// except for family targets ("sm_100f", "sm_120f"), which Clang 22 rejects
// ("unsupported CUDA gpu architecture"): those become the plain GPU of the
// family ("sm_100"), whose instructions every member of the family has.
std::string clangGpuName(const std::string &gpuArch);

// A compiler instance for cc1 arguments. Diagnostics are one line each
// (file:line:col: error: message) and go to `diagnostics`, stderr by default.
// `inMemoryInputs` maps file names used in the arguments to buffers that
// replace them.
struct InMemoryFile {
  std::string name;
  std::string text;
};
std::unique_ptr<clang::CompilerInstance>
createCompilerInstance(const std::vector<std::string> &cc1,
                       const std::vector<InMemoryFile> &inMemoryInputs,
                       std::string &error,
                       llvm::raw_ostream *diagnostics = nullptr);

// For a preprocessor that runs without a parser (the host side's separate
// preprocessing): what Clang's parser does on `struct __make_signed` (a
// type-trait keyword that libstdc++ names a struct template), turning the
// keyword back into an identifier for the rest of the unit, so that
// `__has_builtin(__make_signed)` after it answers as in a one-pass compile.
// Without this, CCCL saw the builtin in the preprocessed text and the parse
// of that text (where libstdc++'s struct turned it off) rejected its use
// ("unknown type name '__make_signed'").
void watchLibraryTraitNames(clang::Preprocessor &preprocessor);

// The macros that name mycc and the toolkit's nvcc on every side, as -D
// options: __MYCC__ and its version, __CUDACC_VER_*__ and __CUDA_API_VER_*__
// (the toolkit's version, as nvcc defines them), and nvcc's
// __CUDACC_DEVICE_ATOMIC_BUILTINS__. Not __CUDACC__ or __NVCC__, which each
// side defines its own way.
std::vector<std::string> identityMacros(const SourceOptions &o);

// __CUDA_ARCH_LIST__'s value as nvcc 13 defines it: the __CUDA_ARCH__ value
// of every virtual arch (`gpuArchs`, "sm_80" form) ascending, each once.
std::string archListValue(const std::vector<std::string> &gpuArchs);

// Where the preprocessor of this thread consumed nvcc's
// `#pragma nv_exec_check_disable` (or _Pragma) since the last reset, as
// expansion locations of `sm`'s files: the pragma exempts the function
// declared next from the execution-space checks (ExecChecks, lib/Offload).
// A parse is one thread's, so the record is the thread's; a consumer resets
// it before its parse starts.
std::vector<clang::SourceLocation> execCheckPragmas(const clang::SourceManager &sm);
void resetExecCheckPragmas();

// Clang warnings that nvcc's front end does not give, dropped with their
// notes wherever mycc hands Clang's diagnostics on: a deprecated type used
// through an alias that is not itself deprecated. Clang looks through the
// alias at every use; nvcc and g++ warn only where the alias names the type
// (Clang too). CUB declares `CubVector<long, 4>::Type` (CUDA 13's deprecated
// long4) where it suppresses the warning; each device-side use warned.
class ClangOnlyWarnings {
public:
  // Whether `info` (at `level`) is one, or a note of one just dropped.
  bool drop(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info);

private:
  bool dropped = false;
};

// Prints a cc1 command line, for -v and --dryrun.
std::string formatCommand(const std::string &tool,
                          const std::vector<std::string> &args);

} // namespace mycc::frontend
