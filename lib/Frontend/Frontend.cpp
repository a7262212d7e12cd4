#include "Frontend.h"

#include "Targets.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

namespace mycc::frontend {
namespace {

// "sm_90a" -> 90a. The driver only passes names it has validated.
std::optional<GpuArch> archOf(const std::string &gpuArch) {
  std::optional<Target> target = parseTarget(gpuArch);
  if (!target) return std::nullopt;
  return target->arch;
}

// The macros nvcc 13 defines for a suffixed virtual arch on top of
// __CUDA_ARCH__ (measured: the device-side preprocessing of `nvcc --dryrun`):
//   compute_XYa: __CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__,
//                both XY0, and __CUDA_ARCH_FEAT_SMXY_ALL;
//   compute_XYf: __CUDA_ARCH_FAMILY_SPECIFIC__=XY0.
// Clang defines __CUDA_ARCH_FEAT_SMXY_ALL (as 1, like nvcc's -D) for the `a`
// GPUs itself, so it is not repeated here.
std::vector<std::string> suffixMacros(const GpuArch &arch) {
  std::string value = std::to_string(archMacroValue(arch));
  switch (arch.suffix) {
  case ArchSuffix::ArchSpecific:
    return {"-D__CUDA_ARCH_SPECIFIC__=" + value,
            "-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + value};
  case ArchSuffix::FamilySpecific:
    return {"-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + value};
  case ArchSuffix::None:
    break;
  }
  return {};
}

// Clang's driver asks for the PTX ISA of the newest CUDA it knows (+ptx88:
// CUDA 12.9), which is older than some CUDA 13 targets need (sm_88 and sm_110
// need PTX ISA 9.0, and LLVM stops with a fatal error below it); a family
// target compiled for its plain GPU needs the family's version too (8.8 for
// sm_100f, where sm_100 alone would take 8.6). The version is raised to the
// target's minimum, never lowered.
void requirePtxVersion(std::vector<std::string> &cc1, unsigned minimum) {
  std::string wanted = "+ptx" + std::to_string(minimum);
  for (size_t i = 0; i + 1 < cc1.size(); ++i) {
    llvm::StringRef feature(cc1[i + 1]);
    if (cc1[i] != "-target-feature" || !feature.consume_front("+ptx")) continue;
    unsigned version = 0;
    if (feature.getAsInteger(10, version) || version < minimum)
      cc1[i + 1] = wanted;
    return;
  }
  cc1.insert(cc1.end(), {"-target-feature", wanted});
}

// nvcc's own pragmas, which its front end consumes: they control nvcc's
// diagnostics (by nvcc's numbers and names, which mean nothing to Clang) or
// its execution-space checks. Clang would warn "unknown pragma ignored"
// (-Wunknown-pragmas, in -Wall), which breaks -Werror builds that nvcc
// accepts. Each name gets a handler that accepts the pragma and ignores it,
// registered through Clang's pragma registry, which adds them to every
// preprocessor this process creates (host and device side alike): only these
// pragmas are silenced, where -Wno-unknown-pragmas would hide every misspelled
// pragma as well. The legacy spellings without nv_ are included: CUDA 13's
// nvcc no longer acts on them and hands them to the host compiler, which
// ignores them (with a warning under -Wall). Being consumed, they do not
// appear in mycc's preprocessed output (-E, -cuda), as nvcc's own front end
// drops them from the host unit it writes.
#define MYCC_NVCC_PRAGMAS(X)                                                   \
  X(nv_diag_suppress) X(nv_diag_remark) X(nv_diag_warning) X(nv_diag_error)    \
  X(nv_diag_default) X(nv_diag_once) X(nv_diagnostic) X(diag_suppress)        \
  X(diag_remark) X(diag_warning) X(diag_error) X(diag_default) X(diag_once)    \
  X(hd_warning_disable)
#define MYCC_NVCC_PRAGMA_HANDLER(name)                                         \
  struct NvccPragma_##name : clang::EmptyPragmaHandler {                       \
    NvccPragma_##name() : EmptyPragmaHandler(#name) {}                         \
  };                                                                           \
  clang::PragmaHandlerRegistry::Add<NvccPragma_##name> nvccPragma_##name(      \
      #name, "nvcc's #pragma " #name ", accepted and ignored");
MYCC_NVCC_PRAGMAS(MYCC_NVCC_PRAGMA_HANDLER)
#undef MYCC_NVCC_PRAGMA_HANDLER
#undef MYCC_NVCC_PRAGMAS

// nv_exec_check_disable is consumed too, and where it stood is recorded for
// the device side's execution-space checks (execCheckPragmas).
struct ExecCheckRecord {
  const clang::SourceManager *sm = nullptr;
  std::vector<clang::SourceLocation> locations;
};
thread_local ExecCheckRecord execCheckRecord;

struct NvExecCheckDisable : clang::EmptyPragmaHandler {
  NvExecCheckDisable() : EmptyPragmaHandler("nv_exec_check_disable") {}
  void HandlePragma(clang::Preprocessor &pp, clang::PragmaIntroducer introducer,
                    clang::Token &) override {
    clang::SourceManager &sm = pp.getSourceManager();
    if (execCheckRecord.sm != &sm) execCheckRecord = {&sm, {}};
    execCheckRecord.locations.push_back(sm.getExpansionLoc(introducer.Loc));
  }
};
clang::PragmaHandlerRegistry::Add<NvExecCheckDisable> nvExecCheckDisable(
    "nv_exec_check_disable",
    "nvcc's #pragma nv_exec_check_disable, recorded for the execution-space checks");

} // namespace

std::vector<clang::SourceLocation> execCheckPragmas(const clang::SourceManager &sm) {
  return execCheckRecord.sm == &sm ? execCheckRecord.locations
                                   : std::vector<clang::SourceLocation>{};
}

void resetExecCheckPragmas() { execCheckRecord = {}; }

namespace {

// Includes mycc's prelude right after Clang's CUDA runtime wrapper, ahead of
// the user's -include files (nvcc's front end includes cuda_runtime.h first).
void addPrelude(const SourceOptions &o, std::vector<std::string> &cc1) {
  if (o.prelude.empty()) return;
  auto at = cc1.begin();
  for (auto it = cc1.begin(); it + 1 < cc1.end(); ++it)
    if (*it == "-include" && *(it + 1) == "__clang_cuda_runtime_wrapper.h") {
      at = it + 2;
      break;
    }
  cc1.insert(at, {"-include", o.prelude});
}

// mycc names itself as nvcc does (__NVCC__, __CUDACC_VER_MAJOR__, ...), under
// its own names: it does not define __NVCC__, which would send CCCL down paths
// written for nvcc's front end (docs/nvcc-compatibility.md, "__NVCC__ and the
// code paths it selects"), except in CMake's compiler identification source
// (docs/build-systems.md). nvcc's version macros carry the toolkit's nvcc
// version, as nvcc defines them: the CUDA headers test them only for NVRTC,
// and CCCL only under __NVCC__ or NVRTC. The macros go ahead of every -D/-U
// of the cc1 job, so the user's -D/-U win.
void addIdentityMacros(const SourceOptions &o, std::vector<std::string> &cc1) {
  auto at = std::find_if(cc1.begin(), cc1.end(), [](const std::string &arg) {
    llvm::StringRef a(arg);
    return a.starts_with("-D") || a.starts_with("-U");
  });
  std::vector<std::string> macros = identityMacros(o);
  if (o.defineNvcc) macros.push_back("-D__NVCC__");
  // As nvcc's, on every side of a .cu with -rdc=true: the CUDA headers then
  // declare the device runtime's API instead of defining failing stubs.
  if (o.rdc)
    macros.push_back(o.extensibleWholeProgram ? "-D__CUDACC_EWP__" : "-D__CUDACC_RDC__");
  cc1.insert(at, macros.begin(), macros.end());
}

// Options both sides share: what the user passed, plus nvcc's conventions.
void addCommonDriverArgs(const SourceOptions &o, std::vector<std::string> &a) {
  a.push_back("--cuda-path=" + o.cudaPath);
  // nvcc.profile adds the toolkit's CCCL (Thrust, CUB, libcu++) directory.
  a.push_back("-isystem");
  a.push_back(o.cudaPath + "/include/cccl");
  // Clang 22 knows CUDA up to 12.9; CUDA 13's headers work with it.
  a.push_back("-Wno-unknown-cuda-version");
  // Clang warns past the 8 MB it assumes a thread has; mycc's job threads
  // have 256 MB (Scheduler.cpp), as deep as nvcc's front end goes.
  a.push_back("-Wno-stack-exhausted");
  for (const auto &d : o.includeDirs) a.push_back("-I" + d);
  for (const auto &d : o.systemIncludeDirs) {
    a.push_back("-isystem");
    a.push_back(d);
  }
  for (const auto &m : o.macros) a.push_back(m);
  for (const auto &f : o.preIncludes) {
    a.push_back("-include");
    a.push_back(f);
  }
  if (!o.std.empty()) a.push_back("-std=" + o.std);
  // GNU's `typeof` under -std=c++NN too, as nvcc's front end takes it; the
  // lowering writes it as __typeof__ for the host compiler.
  a.push_back("-fgnu-keywords");
  if (o.noWarnings) a.push_back("-w");
  if (o.warnReorder) a.push_back("-Wreorder");
  if (o.warningsAsErrors) a.push_back("-Werror");
  a.insert(a.end(), o.clangFlags.begin(), o.clangFlags.end());
  if (o.errorLimit) a.push_back("-ferror-limit=" + std::to_string(o.errorLimit));
  // Both sides: Clang's Sema accepts a kernel launch in device code (dynamic
  // parallelism) only under it.
  if (o.rdc) a.push_back("-fgpu-rdc");
}

// The unit's -cuid, on the cc1 jobs that name its symbols: device code
// generation (the externalized names of internal kernels and variables) and
// the host parse the lowering reads them from. Given to cc1 directly: Clang's
// driver passes -cuid on only to jobs it builds from a .cu.
void addUnitId(const SourceOptions &o, std::vector<std::string> &cc1) {
  if (!o.cuid.empty()) cc1.push_back("-cuid=" + o.cuid);
}

// Runs Clang's driver on `driverArgs` and returns the arguments of its first
// cc1 job.
bool cc1FromDriver(const std::vector<std::string> &driverArgs,
                   std::vector<std::string> &cc1, std::string &error) {
  std::string diagText;
  llvm::raw_string_ostream diagStream(diagText);
  clang::DiagnosticOptions diagOpts;
  auto *printer = new clang::TextDiagnosticPrinter(diagStream, diagOpts);
  clang::DiagnosticsEngine diags(
      llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diagOpts, printer);
  clang::driver::Driver driver(MYCC_CLANG_EXECUTABLE,
                               llvm::sys::getDefaultTargetTriple(), diags);
  driver.setCheckInputsExist(false);

  std::vector<const char *> argv{MYCC_CLANG_EXECUTABLE};
  for (const auto &s : driverArgs) argv.push_back(s.c_str());
  std::unique_ptr<clang::driver::Compilation> compilation(
      driver.BuildCompilation(argv));
  if (!compilation || diags.hasErrorOccurred()) {
    diagStream.flush();
    error = llvm::StringRef(diagText).trim().str();
    if (error.empty()) error = "clang's driver rejected the options";
    // Drop clang's "clang: error: " prefix: mycc adds its own.
    llvm::StringRef e(error);
    if (e.consume_front("clang: error: ")) error = e.str();
    return false;
  }
  for (const auto &job : compilation->getJobs()) {
    const auto &args = job.getArguments();
    if (!args.empty() && llvm::StringRef(args[0]) == "-cc1") {
      cc1.assign(args.begin() + 1, args.end());
      return true;
    }
  }
  error = "clang's driver produced no compile job";
  return false;
}

// The device side's part of nvcc's floating-point options. -use_fast_math
// maps the single-precision functions nvcc's documentation lists to their
// intrinsics (sinf to __sinf, ...): Clang's -fgpu-approx-transcendentals
// does so for sinf, cosf, sincosf, logf and log2f; the others call
// libdevice's fast variant through a macro on its name, which Clang's
// headers declare and call (__clang_cuda_libdevice_declares.h,
// __clang_cuda_math.h). Division and square root are lib/Offload's
// (DeviceMath.h).
void addDeviceMath(const DeviceMath &m, std::vector<std::string> &a) {
  if (m.ftz) a.push_back("-fgpu-flush-denormals-to-zero");
  if (!m.fmad) a.push_back("-ffp-contract=off");
  if (!m.fastMath) return;
  a.push_back("-fgpu-approx-transcendentals");
  for (const char *name : {"tanf", "log10f", "expf", "exp10f", "powf", "tanhf"})
    a.push_back(std::string("-D__nv_") + name + "=__nv_fast_" + name);
}

void addHostArgs(const SourceOptions &o, std::vector<std::string> &a) {
  a.push_back("--cuda-host-only");
  // Clang derives the host side's __CUDA_ARCH_LIST__ from these, sorted and
  // deduplicated as nvcc does.
  for (const auto &arch : o.gpuArchs)
    a.push_back("--cuda-gpu-arch=" + clangGpuName(arch));
  a.push_back("-O" + std::to_string(o.hostOptLevel));
  if (o.hostDebug) a.push_back("-g");
  for (const auto &f : o.hostCompilerFlags) a.push_back(f);
}

} // namespace

// __CUDA_ARCH_LIST__ as nvcc 13 defines it: the __CUDA_ARCH__ value of every
// virtual arch of the build, ascending, each once, suffixes dropped
// ("-gencode arch=compute_80,code=sm_80 -arch=sm_90a" gives 800,900).
std::vector<std::string> identityMacros(const SourceOptions &o) {
  std::vector<std::string> macros{
      "-D__MYCC__=1",
      "-D__MYCC_VER_MAJOR__=" + std::to_string(MYCC_VERSION_MAJOR),
      "-D__MYCC_VER_MINOR__=" + std::to_string(MYCC_VERSION_MINOR),
      "-D__MYCC_VER_PATCH__=" + std::to_string(MYCC_VERSION_PATCH)};
  if (o.cudaVerMajor) {
    macros.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(o.cudaVerMajor));
    macros.push_back("-D__CUDACC_VER_MINOR__=" + std::to_string(o.cudaVerMinor));
    macros.push_back("-D__CUDACC_VER_BUILD__=" + std::to_string(o.cudaVerBuild));
    macros.push_back("-D__CUDA_API_VER_MAJOR__=" + std::to_string(o.cudaVerMajor));
    macros.push_back("-D__CUDA_API_VER_MINOR__=" + std::to_string(o.cudaVerMinor));
  }
  // nvcc's atomic builtins with order and scope (mycc/prelude.h has them).
  macros.push_back("-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1");
  return macros;
}

std::string archListValue(const std::vector<std::string> &gpuArchs) {
  std::vector<unsigned> values;
  for (const auto &name : gpuArchs)
    if (std::optional<GpuArch> arch = archOf(name))
      values.push_back(archMacroValue(*arch));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string list;
  for (unsigned value : values)
    list += (list.empty() ? "" : ",") + std::to_string(value);
  return list;
}

// The dependency rule, as cc1 options (what clang's driver makes of -MD -MF
// -MT, -MMD, -MP): after the action option (-E, or -Eonly for the rule alone,
// which then has no output file).
static void addDependencyOutput(const DependencyOutput &deps,
                         std::vector<std::string> &cc1) {
  std::vector<std::string> flags{"-dependency-file", deps.file, "-MT", deps.target};
  if (deps.systemHeaders) flags.push_back("-sys-header-deps");
  if (deps.phonyTargets) flags.push_back("-MP");
  auto action = std::find(cc1.begin(), cc1.end(), "-E");
  if (action == cc1.end()) { // a compile: the rule comes beside its output
    cc1.insert(cc1.end(), flags.begin(), flags.end());
    return;
  }
  if (deps.rulesOnly) {
    *action = "-Eonly";
    for (auto it = cc1.begin(); it + 1 < cc1.end(); ++it)
      if (*it == "-o") {
        cc1.erase(it, it + 2);
        break;
      }
    action = std::find(cc1.begin(), cc1.end(), "-Eonly");
  }
  cc1.insert(action + 1, flags.begin(), flags.end());
}

bool Invocations::hostPreprocess(const SourceOptions &o,
                                 const std::string &input,
                                 std::vector<std::string> &cc1,
                                 std::string &error,
                                 const DependencyOutput *deps) {
  std::vector<std::string> a{"-x", "cuda", "-E"};
  addCommonDriverArgs(o, a);
  addHostArgs(o, a);
  a.push_back(input);
  if (!cc1FromDriver(a, cc1, error)) return false;
  addPrelude(o, cc1);
  addIdentityMacros(o, cc1);
  if (deps) addDependencyOutput(*deps, cc1);
  return true;
}

bool Invocations::hostCompile(const SourceOptions &o, const std::string &input,
                              std::vector<std::string> &cc1,
                              std::string &error) {
  // The unit is already preprocessed: no includes, macros or -include.
  std::vector<std::string> a{"-x", "cuda-cpp-output", "-c",
                             "--cuda-path=" + o.cudaPath,
                             "-Wno-unknown-cuda-version", "-Wno-stack-exhausted"};
  if (!o.std.empty()) a.push_back("-std=" + o.std);
  // GNU's `typeof` under -std=c++NN too, as nvcc's front end takes it; the
  // lowering writes it as __typeof__ for the host compiler.
  a.push_back("-fgnu-keywords");
  if (o.noWarnings) a.push_back("-w");
  if (o.warningsAsErrors) a.push_back("-Werror");
  a.insert(a.end(), o.clangFlags.begin(), o.clangFlags.end());
  if (o.errorLimit) a.push_back("-ferror-limit=" + std::to_string(o.errorLimit));
  if (o.rdc) a.push_back("-fgpu-rdc"); // device-side launches parse
  addHostArgs(o, a);
  a.push_back(input);
  if (!cc1FromDriver(a, cc1, error)) return false;
  addUnitId(o, cc1);
  return true;
}

bool Invocations::linkStub(const SourceOptions &o, const std::string &input,
                           std::vector<std::string> &cc1, std::string &error) {
  // Position-independent: the object may go into a shared library.
  std::vector<std::string> a{"-x", "c++", "-c", "-w", "-fPIC", "-I",
                             o.cudaPath + "/include"};
  for (const auto &f : o.hostCompilerFlags) a.push_back(f);
  a.push_back(input);
  return cc1FromDriver(a, cc1, error);
}

bool Invocations::device(const SourceOptions &o, const std::string &input,
                         const std::string &gpuArch,
                         std::vector<std::string> &cc1, std::string &error,
                         const DependencyOutput *deps) {
  return deviceSide(o, input, gpuArch, deps && deps->rulesOnly ? "-E" : "-S",
                    cc1, error, deps);
}

bool Invocations::devicePreprocess(const SourceOptions &o,
                                   const std::string &input,
                                   const std::string &gpuArch,
                                   std::vector<std::string> &cc1,
                                   std::string &error) {
  return deviceSide(o, input, gpuArch, "-E", cc1, error, nullptr);
}

bool Invocations::devicePreprocessed(const SourceOptions &o,
                                     const std::string &input,
                                     const std::string &preprocessed,
                                     const std::string &gpuArch,
                                     std::vector<std::string> &cc1,
                                     std::string &error) {
  // Clang's driver compiles preprocessed CUDA for the host only, so the
  // invocation is the source's, made to read the text and stripped of what
  // only the preprocessor reads.
  if (!deviceSide(o, input, gpuArch, "-S", cc1, error, nullptr)) return false;
  static const char *const kValued[] = {
      "-include", "-internal-isystem", "-internal-externc-isystem", "-isystem",
      "-idirafter", "-iquote", "-I", "-D", "-U", "-dependency-file", "-MT",
      "-MQ", "-isysroot", "-imacros", "-iprefix", "-iwithprefix"};
  static const char *const kJoined[] = {"-D", "-U", "-I"};
  std::vector<std::string> out;
  bool replaced = false;
  for (size_t i = 0; i < cc1.size(); ++i) {
    llvm::StringRef arg = cc1[i];
    if (std::find(std::begin(kValued), std::end(kValued), arg) !=
        std::end(kValued)) {
      ++i;
      continue;
    }
    if (std::any_of(std::begin(kJoined), std::end(kJoined),
                    [&](const char *p) { return arg.starts_with(p); }) ||
        arg == "-sys-header-deps")
      continue;
    if (arg == "-x" && i + 2 < cc1.size() && cc1[i + 1] == "cuda" &&
        cc1[i + 2] == input && !replaced) {
      out.insert(out.end(), {"-x", "cuda-cpp-output", preprocessed});
      replaced = true;
      i += 2;
      continue;
    }
    out.push_back(cc1[i]);
  }
  if (!replaced) {
    error = "no input '" + input + "' in the device invocation";
    return false;
  }
  cc1 = std::move(out);
  return true;
}

bool Invocations::deviceSide(const SourceOptions &o, const std::string &input,
                             const std::string &gpuArch, const char *action,
                             std::vector<std::string> &cc1, std::string &error,
                             const DependencyOutput *deps) {
  std::optional<GpuArch> arch = archOf(gpuArch);
  if (!arch) {
    error = "unknown GPU architecture '" + gpuArch + "'";
    return false;
  }
  std::string clangGpu = clangGpuName(gpuArch);
  std::vector<std::string> a{"-x", "cuda", action, "--cuda-device-only",
                             "--cuda-gpu-arch=" + clangGpu};
  addCommonDriverArgs(o, a);
  // nvcc's front end does not warn of an integer cast to a pointer in device
  // code (compute-sanitizer's samples cast a shared address so); the host
  // side keeps its host compiler's warning (g++'s -Wint-to-pointer-cast).
  a.push_back("-Wno-int-to-void-pointer-cast");
  // Nor of how an expression or a statement is written: parentheses that
  // would make precedence plain (Clang's -Wparentheses, -Wdangling-else and
  // -Wlogical-not-parentheses among them) or an empty body. This parse
  // reads the host code too, which the host compiler judges (nvcc's
  // lowered unit gives it no such warning either).
  a.push_back("-Wno-parentheses");
  a.push_back("-Wno-empty-body");
  // Device code is optimised by default, as with nvcc; mycc runs the LLVM
  // pipeline itself, so the front end only needs to produce optimisable IR.
  // -G (nvcc's cicc gets -g -O0) asks for full debug information and no
  // optimisation, as Clang's --cuda-noopt-device-debug does.
  if (o.deviceDebug) {
    a.insert(a.end(), {"-O0", "-g"});
  } else {
    a.push_back("-O3");
    if (o.deviceLineInfo) a.push_back("-gline-tables-only");
  }
  // Clang's way to the locations remarks need: without -g, a requested
  // remark makes its code generator track locations only (no .loc lines).
  if (o.deviceLocationTracking) a.push_back("-Rpass-missed=inline");
  addDeviceMath(o.math, a);
  a.push_back(input);
  if (!cc1FromDriver(a, cc1, error)) return false;
  // The bitcode Clang's driver links (the toolkit's libdevice) replaced.
  if (!o.libdevice.empty())
    for (size_t i = 0; i + 1 < cc1.size(); ++i)
      if (cc1[i] == "-mlink-builtin-bitcode") cc1[i + 1] = o.libdevice;
  addPrelude(o, cc1);
  addIdentityMacros(o, cc1);
  addUnitId(o, cc1);

  // Clang's driver lists only the one arch in __CUDA_ARCH_LIST__; nvcc lists
  // them all. nvcc's macros for `a` and `f` targets follow it, before the
  // user's -D/-U as with nvcc.
  std::vector<std::string> extra = suffixMacros(*arch);
  std::string list = "-D__CUDA_ARCH_LIST__=" + archListValue(o.gpuArchs);
  auto at = std::find_if(cc1.begin(), cc1.end(), [](const std::string &arg) {
    return llvm::StringRef(arg).starts_with("-D__CUDA_ARCH_LIST__=");
  });
  if (at == cc1.end()) { // not expected: then ahead of every -D
    extra.insert(extra.begin(), list);
    at = cc1.begin();
  } else {
    *at++ = list;
  }
  cc1.insert(at, extra.begin(), extra.end());

  requirePtxVersion(cc1, minPtxVersion(*arch));
  // 32-bit pointers to shared, constant and local memory, as nvcc's PTX has
  // them: the data layout of the IR Clang produces. Given to cc1, not to
  // Clang's driver, which would also set the NVPTX backend's process-wide
  // option; lib/Offload sets that (offload::applyBackendOptions) and checks the
  // two agree.
  cc1.push_back("-fcuda-short-ptr");
  if (o.hostCompilerPipeline) cc1.push_back("-fgpu-defer-diag");
  if (!o.hostCompilerIncludeDir.empty())
    cc1.insert(cc1.end(), {"-idirafter", o.hostCompilerIncludeDir});
  if (deps) addDependencyOutput(*deps, cc1);
  return true;
}

std::string clangGpuName(const std::string &gpuArch) {
  std::optional<GpuArch> arch = archOf(gpuArch);
  if (!arch || arch->suffix != ArchSuffix::FamilySpecific) return gpuArch;
  return "sm_" + std::to_string(arch->sm);
}


namespace {

// Clang's diagnostics that name Clang's options, in nvcc's words for mycc's
// users (nvcc 13's text, with the option that fixes it).
class NvccWording : public clang::DiagnosticConsumer {
public:
  explicit NvccWording(std::unique_ptr<clang::DiagnosticConsumer> inner)
      : inner(std::move(inner)) {}
  void BeginSourceFile(const clang::LangOptions &lang,
                       const clang::Preprocessor *pp) override {
    inner->BeginSourceFile(lang, pp);
  }
  void EndSourceFile() override { inner->EndSourceFile(); }
  void finish() override { inner->finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    if (clangOnly.drop(level, info)) return;
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (info.getID() == clang::diag::err_cuda_device_kernel_launch_require_rdc) {
      clang::DiagnosticStorage none;
      clang::Diagnostic reworded(
          info.getDiags(), info.getLocation(), info.getID(), none,
          "kernel launch from __device__ or __global__ functions requires "
          "separate compilation mode (-rdc=true)");
      inner->HandleDiagnostic(level, reworded);
      return;
    }
    inner->HandleDiagnostic(level, info);
  }

private:
  std::unique_ptr<clang::DiagnosticConsumer> inner;
  ClangOnlyWarnings clangOnly;
};

} // namespace

bool ClangOnlyWarnings::drop(clang::DiagnosticsEngine::Level level,
                             const clang::Diagnostic &info) {
  if (level == clang::DiagnosticsEngine::Note) return dropped;
  dropped = false;
  unsigned id = info.getID();
  // Only as a warning: one -Werror made an error stays.
  if (level != clang::DiagnosticsEngine::Warning ||
      (id != clang::diag::warn_deprecated &&
       id != clang::diag::warn_deprecated_message) ||
      info.getNumArgs() < 1 ||
      info.getArgKind(0) != clang::DiagnosticsEngine::ak_nameddecl)
    return false;
  const auto *decl = reinterpret_cast<const clang::NamedDecl *>(info.getRawArg(0));
  dropped = llvm::isa<clang::TypedefNameDecl>(decl) &&
            !decl->hasAttr<clang::DeprecatedAttr>();
  return dropped;
}

std::unique_ptr<clang::CompilerInstance>
createCompilerInstance(const std::vector<std::string> &cc1,
                       const std::vector<InMemoryFile> &inMemoryInputs,
                       std::string &error, llvm::raw_ostream *diagnostics) {
  auto instance = std::make_unique<clang::CompilerInstance>();
  instance->createDiagnostics();
  std::vector<const char *> argv;
  for (const auto &s : cc1) argv.push_back(s.c_str());
  if (!clang::CompilerInvocation::CreateFromArgs(
          instance->getInvocation(), argv, instance->getDiagnostics(),
          MYCC_CLANG_EXECUTABLE)) {
    error = "invalid compiler invocation";
    return nullptr;
  }
  // One line per diagnostic, and no "N errors generated" trailer.
  instance->getDiagnosticOpts().ShowCarets = false;
  instance->createDiagnostics(
      new NvccWording(std::make_unique<clang::TextDiagnosticPrinter>(
          diagnostics ? *diagnostics : llvm::errs(),
          instance->getDiagnosticOpts())));
  for (const auto &f : inMemoryInputs)
    instance->getPreprocessorOpts().addRemappedFile(
        f.name,
        llvm::MemoryBuffer::getMemBufferCopy(f.text, f.name).release());
  return instance;
}

namespace {
bool isTypeTraitKeyword(clang::tok::TokenKind kind) {
  switch (kind) {
#define TOK(X)
#define TYPE_TRAIT(N, I, K) case clang::tok::kw_##I:
#define TRANSFORM_TYPE_TRAIT_DEF(K, Trait) case clang::tok::kw___##Trait:
#include "clang/Basic/TokenKinds.def"
    return true;
  default:
    return false;
  }
}
} // namespace

void watchLibraryTraitNames(clang::Preprocessor &preprocessor) {
  preprocessor.setTokenWatcher(
      [afterStruct = false](const clang::Token &token) mutable {
        if (afterStruct && isTypeTraitKeyword(token.getKind()))
          if (clang::IdentifierInfo *name = token.getIdentifierInfo())
            name->revertTokenIDToIdentifier();
        afterStruct = token.is(clang::tok::kw_struct);
      });
}

std::string formatCommand(const std::string &tool,
                          const std::vector<std::string> &args) {
  std::string out = tool;
  for (const auto &a : args) {
    out += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t\"'\\$`*?[]{}()<>|&;") ==
                                   std::string::npos;
    if (plain) {
      out += a;
    } else {
      out += '"';
      for (char c : a) {
        if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
        out += c;
      }
      out += '"';
    }
  }
  return out;
}

} // namespace mycc::frontend
