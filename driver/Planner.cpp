#include "Planner.h"

#include "AtomicFile.h"
#include "Frontend.h"
#include "HostCompiler.h"
#include "HostLowering.h"
#include "InternalTools.h"
#include "Ptxas.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <map>
#include <optional>

namespace mycc::driver {
namespace {

enum class InputKind { Cuda, Cxx, C, Object, Unknown };

InputKind classify(const Options &o, llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".o" || ext == ".a" || ext == ".so" ||
      llvm::sys::path::filename(path).contains(".so."))
    return InputKind::Object;
  // -x names the language of every source input, whatever its name.
  if (o.language) {
    if (*o.language == "cu") return InputKind::Cuda;
    if (*o.language == "c") return InputKind::C;
    return InputKind::Cxx;
  }
  if (ext == ".cu") return InputKind::Cuda;
  if (ext == ".c") return InputKind::C;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C")
    return InputKind::Cxx;
  return InputKind::Unknown;
}

std::string joinPath(const std::string &dir, const std::string &name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

} // namespace

std::string outputFile(const Options &o, const std::string &name) {
  if (!o.output.empty()) return o.output;
  return name == "-" || o.outputDir.empty() ? name : joinPath(o.outputDir, name);
}

namespace {

std::string joined(const std::vector<std::string> &words) {
  std::string out;
  for (const std::string &w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The GPU name Clang and the PTX use for a virtual arch: compute_90a → sm_90a.
std::string gpuName(const Target &virtualArch) {
  return "sm_" + virtualArch.arch.str();
}

frontend::DeviceMath deviceMath(const Options &o) {
  return {o.ftz, o.precDiv, o.precSqrt, o.fmad, o.fastMath};
}

// The code generation options of compile-device and device-link, as
// codegenOptions (InternalTools.cpp) reads them.
void addCodegenFlags(const Options &o, bool split, InternalCommand &cmd) {
  // -Ofc mid/max trade device optimisation for compile time: LLVM's -O2/-O1
  // (nvcc gives cicc --Ofast-compile, which has no LLVM counterpart).
  if (o.deviceDebug) cmd.flag("-O0");
  else if (o.fastCompile == "max") cmd.flag("-O1");
  else if (o.fastCompile == "mid") cmd.flag("-O2");
  if (split && o.splitCompile)
    cmd.value("-split", std::to_string(*o.splitCompile));
  if (o.ftz) cmd.flag("-ftz");
  if (!o.precDiv) cmd.flag("-no-prec-div");
  if (!o.precSqrt) cmd.flag("-no-prec-sqrt");
  if (!o.fmad) cmd.flag("-no-fmad");
  if (o.fastMath) cmd.flag("-fast-math");
  if (o.restrictKernelPointers) cmd.flag("-restrict");
  // As nvcc: only with line information to take the lines from.
  if (o.sourceInPtx && (o.lineInfo || o.deviceDebug)) cmd.flag("-source-in-ptx");
  if (o.keepDeviceFunctions) cmd.flag("-keep-device-functions");
  if (o.extensibleWholeProgram) cmd.flag("-ewp");
  if (o.inlineRemarks) cmd.flag("-inline-remarks");
  if (o.jumpTableDensity <= 100)
    cmd.value("-jump-table-density", std::to_string(o.jumpTableDensity));
  if (o.deviceSyntaxOnly) cmd.flag("-syntax-only");
}

offload::PtxasOptions ptxasOptions(const Options &o) {
  offload::PtxasOptions p{o.lineInfo, o.deviceDebug, o.fmad, o.maxRegCount,
                          o.resourceUsage};
  p.fastCompile = o.fastCompile;
  p.compileOnly = o.rdc && !o.deviceLto && !o.extensibleWholeProgram;
  p.extensibleWholeProgram = o.extensibleWholeProgram;
  p.entries = o.entries;
  p.extraOptions = o.xptxas;
  p.splitCompile = o.splitCompile.value_or(1);
  p.toolsPatch = o.toolsPatch;
  p.sanitize = o.sanitize;
  return p;
}

frontend::SourceOptions sourceOptions(const Options &o, const Toolkit &t) {
  frontend::SourceOptions s;
  s.cudaPath = t.cudaPath;
  s.libdevice = t.libdevice;
  s.includeDirs = o.includeDirs;
  s.systemIncludeDirs = o.systemIncludeDirs;
  s.preIncludes = o.preIncludes;
  s.macros = o.macros;
  s.std = o.std;
  for (const auto &pair : o.targets)
    s.gpuArchs.push_back(gpuName(pair.virtualArch));
  s.hostOptLevel = o.hostOptLevel;
  s.hostDebug = o.debug;
  s.deviceLineInfo = o.lineInfo;
  s.deviceDebug = o.deviceDebug;
  s.math = deviceMath(o);
  s.noWarnings = o.noWarnings;
  s.warnReorder = o.warnReorder;
  s.warningsAsErrors = o.warningsAsErrors;
  s.clangFlags = o.clangFlags;
  s.hostCompilerFlags = o.xcompiler;
  s.allowUnsupportedCompiler = o.allowUnsupportedCompiler;
  s.hostCompilerPipeline = t.hostCompilerPipeline;
  s.hostCompilerIncludeDir = t.hostCompilerIncludeDir;
  s.prelude = t.prelude;
  s.errorLimit = o.errorLimit;
  s.rdc = o.rdc;
  s.extensibleWholeProgram = o.extensibleWholeProgram;
  s.deviceLocationTracking = o.inlineRemarks;
  s.cudaVerMajor = t.version.major;
  s.cudaVerMinor = t.version.minor;
  s.cudaVerBuild = t.version.build;
  return s;
}

// The host side of a unit as planHostSide planned it: the lowered unit,
// its IR, and the Clang invocation of the lowered unit.
struct HostSide {
  std::string lowered, ir;
  std::vector<std::string> cc1;
};

// One .cu input and the names its jobs use.
struct Unit {
  std::string input, base, tempBase, id; // id: -rdc=true only
  std::string depsTarget, depsFile;      // -M/-MD only
};

class Planner : public std::enable_shared_from_this<Planner> {
public:
  Planner(const Options &o, const Toolkit &t, const std::string &tempDir,
          const InputProbe &probe, Graph &graph)
      : o(o), t(t), tempDir(tempDir), probe(probe), graph(graph) {}

  bool plan(std::string &error);

private:
  bool check(std::string &error);
  bool checkDeviceOutputs(std::string &error);
  bool planInput(const std::string &input, std::string &error);
  void nameDependencies(Unit &unit);
  bool planSource(const Unit &unit, InputKind kind, std::string &error);
  void planPublish(const Unit &unit, const std::vector<std::string> &rules);
  bool planCuda(const Unit &unit, std::string &error);
  bool planCudaSides(const Unit &unit, std::string &error);
  bool planDeviceRules(const Unit &unit, std::vector<std::string> &rules,
                       std::string &error);
  bool planHostSide(const Unit &unit, HostSide &host, std::string &error);
  bool planHostCompilerSide(const Unit &unit, std::string &error);
  void planLowerHost(const Unit &unit, const std::string &preprocessed,
                     const std::string &lowered,
                     const std::vector<std::string> &cc1,
                     const std::vector<std::string> &deviceCode,
                     bool forHostCompiler, bool deviceCodeLater);
  bool hostLto() const;
  std::string unitObject(const Unit &unit);
  // Whether the inputs are compiled to objects: -c, or the phases that then
  // link or archive them (-lib, -r, the link).
  bool makesObjects() const {
    return o.phase == Phase::Compile || o.phase == Phase::Link ||
           o.phase == Phase::Lib || o.phase == Phase::RelocatableLink;
  }
  void addUnitObject(const std::string &object);
  frontend::HostCompilerCommands hostCompiler() const {
    return {t.hostCompiler, t.hostHeader};
  }
  bool planPreprocess(const Unit &unit, const std::string &output,
                      std::string &error);
  bool planDeviceSide(const Unit &unit, std::vector<std::string> &deviceCode,
                      std::string &error);
  void planPtxas(const TargetPair &pair, const std::string &ptx,
                 const std::string &source, const std::string &cubinBase,
                 std::vector<std::pair<Target, std::string>> &images,
                 bool linked = false);
  // `linked`: a device link's images (nvcc leaves their cubins
  // uncompressed); else one unit's.
  std::string planBundle(std::vector<std::pair<Target, std::string>> images,
                         const std::string &output, const std::string &source,
                         bool linked, const std::string &embeddedText = "",
                         const std::vector<std::string> &relocatablePtxFrom = {},
                         const std::string &fatbinText = "");
  void planHostObject(const Unit &unit, const HostSide &host,
                      const std::vector<std::string> &deviceCode);
  bool planLinking(std::string &error);
  bool afterScan(const std::string &manifest, std::string &error);
  bool finishLinking(bool deviceLink, bool bitcode,
                     const std::vector<TargetPair> &targets, std::string &error);
  bool planNvlink(const std::vector<TargetPair> &targets, std::string &error);
  bool planPreprocessSides(const Unit &unit, std::string &error);
  void planPreprocessDevice(const Unit &unit, const TargetPair &pair,
                            const std::vector<std::string> &cc1,
                            const std::string &output, bool text);
  bool planDeviceLink(const std::vector<TargetPair> &targets,
                      std::string &error);
  void planLink();
  std::string planLinkerScript(const std::string &output);
  void planArchive();

  std::string temp(const std::string &base, const std::string &suffix);
  std::string finalOr(const std::string &dflt) const {
    return outputFile(o, dflt);
  }
  // A name mycc gives a file (in -odir), whatever -o says.
  std::string named(const std::string &name) const {
    return o.outputDir.empty() ? name : joinPath(o.outputDir, name);
  }
  std::string unitId(const std::string &input, unsigned index) const;
  // How lower-host and compile-host are given a unit's device code.
  const char *deviceCodeOption() const {
    return bitcodeRdc ? "-rdc-image" : rdcObject ? "-relfatbin" : "-fatbin";
  }
  frontend::SourceOptions sourceFor(const Unit &unit) const;

  const Options &o;
  const Toolkit &t;
  const std::string &tempDir;
  const InputProbe &probe;
  Graph &graph;

  bool deps = false;     // -M, -MM, -MD or -MMD
  // The host side's dependency rule of the .cu unit being planned
  // (planPreprocess writes it; planCuda joins it with the device sides').
  std::string hostRule;
  bool rdcObject = false; // units carry relocatable device code
  bool bitcodeRdc = false; // ... as LLVM bitcode (-dlto), not nvcc's format
  // --keep (through the host compiler, not -dlto): the plan has nvcc's steps
  // and files, so that a compiler cache that takes nvcc's --dryrun apart
  // runs and caches them (docs/build-systems.md, "sccache"): each device
  // side preprocessed apart (.cpp1.ii) and compiled from the text by
  // `cicc`, the lowering as `cudafe++`, the bundle as `fatbinary` with the
  // fat binary's bytes as C text, which the lowered unit (.cudafe1.cpp)
  // includes and the host compiler preprocesses again. The files are the
  // kept ones; without --keep the plan leaves them out.
  bool nvccSteps = false;
  // The fat binary reaches the host object as the bundle's C text, which
  // the lowered unit includes: in nvcc's steps, and under the host
  // compiler's link-time optimisation (its objects carry IR, so the code,
  // top-level asm included, is generated at the link, long after the
  // temporary an .incbin names is gone, and no section of the object can
  // take the bytes afterwards). Not -dlto's bitcode.
  bool fatbinAsText = false;
  std::vector<TargetPair> targets; // of each unit's device side
  std::vector<std::string> cuInputs, linkInputs;
  // What a device link reads: the objects given and the -rdc=true units'
  // objects of this run (not those compiled from .c/.cpp inputs).
  std::vector<std::string> deviceLinkInputs;
  bool rdcUnits = false;
  std::vector<std::string> scannedArchives; // -l archives (-dlto's device link)
  std::map<std::string, unsigned> baseCount;
  std::string dlinkObject;
};

std::string Planner::temp(const std::string &base, const std::string &suffix) {
  // --keep without a directory: bare names, as nvcc's --dryrun prints them.
  std::string path =
      tempDir == "." ? base + suffix : joinPath(tempDir, base + suffix);
  graph.temporaries.push_back(path);
  return path;
}

frontend::SourceOptions Planner::sourceFor(const Unit &unit) const {
  frontend::SourceOptions s = sourceOptions(o, t);
  s.cuid = unit.id;
  // CMake identifies its CUDA compiler by compiling this file and reading
  // the result of `#if defined(__NVCC__)` (docs/build-systems.md).
  s.defineNvcc =
      llvm::sys::path::filename(unit.input) == "CMakeCUDACompilerId.cu";
  return s;
}

// Each unit's id: stable for the same source, output and options, distinct
// for two units of one program (even of one source).
std::string Planner::unitId(const std::string &input, unsigned index) const {
  llvm::SmallString<256> src(input), out(o.output);
  llvm::sys::fs::make_absolute(src);
  if (!o.output.empty()) llvm::sys::fs::make_absolute(out);
  // nvcc's -frandom-seed makes objects identical whatever their name: the
  // seed stands for the output path.
  std::string key = std::string(src) + '\0' +
                    (o.randomSeed ? "seed:" + *o.randomSeed : std::string(out)) +
                    '\0' + std::to_string(index);
  for (const auto &pair : o.targets) key += '\0' + pair.virtualArch.str();
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::arrayRefFromStringRef(key)),
                         /*LowerCase=*/true, 16);
}

bool Planner::plan(std::string &error) {
  // -hls=gen-lcs: the script alone, as nvcc writes it (to -o, else stdout).
  if (o.hostLinkerScript == Options::LinkerScript::Generate) {
    if (!o.inputs.empty()) {
      error = "input files are not allowed with -hls=gen-lcs";
      return false;
    }
    planLinkerScript(finalOr("-"));
    return true;
  }
  if (!check(error)) return false;
  for (const std::string &input : o.inputs)
    if (!planInput(input, error)) return false;
  return planLinking(error);
}

// Option combinations that cannot be planned, before any job is.
bool Planner::check(std::string &error) {
  if (o.inputs.empty()) {
    error = "no input files";
    return false;
  }
  // Dependency rules: one file per source input, so -MF (and -o, which
  // names the file or, with -MD, the object it is named after) cannot serve
  // several sources; object inputs have no rule.
  deps = o.phase == Phase::Dependencies || o.depsWithCompile;
  unsigned sources = std::count_if(
      o.inputs.begin(), o.inputs.end(),
      [&](const std::string &i) { return classify(o, i) != InputKind::Object; });
  const char *what = !o.depsFile.empty() ? "-MF"
                     : !o.output.empty() ? "-o"
                                         : nullptr;
  if (deps && sources > 1 && what) {
    error = std::string(what) + " cannot name the dependency file of " +
            std::to_string(sources) + " inputs with " +
            (o.phase == Phase::Dependencies ? "-M or -MM" : "-MD or -MMD");
    return false;
  }
  // Phases that write one file per input cannot take -o with several inputs.
  bool singleOutputPhase = o.phase != Phase::Link &&
                           o.phase != Phase::DeviceLink &&
                           o.phase != Phase::Lib &&
                           o.phase != Phase::RelocatableLink &&
                           o.phase != Phase::Dependencies;
  if (singleOutputPhase && !o.output.empty() && o.inputs.size() > 1) {
    error = "-o cannot name the output of " + std::to_string(o.inputs.size()) +
            " inputs with -c, -E, -ptx, -cubin, -fatbin or -cuda";
    return false;
  }
  rdcObject = o.rdc && makesObjects();
  bitcodeRdc = rdcObject && o.deviceLto;
  nvccSteps = o.keep && t.hostCompilerPipeline && !(o.rdc && o.deviceLto);
  fatbinAsText = t.hostCompilerPipeline && !(o.rdc && o.deviceLto) &&
                 (nvccSteps || hostLto());
  if (o.rdc && o.deviceLto &&
      (o.phase == Phase::Cubin || o.phase == Phase::Fatbin)) {
    error = std::string(o.phase == Phase::Cubin ? "-cubin" : "-fatbin") +
            " with -dlto is not supported by mycc: its relocatable device "
            "code stays LLVM bitcode until the device link";
    return false;
  }
  return checkDeviceOutputs(error);
}

// -ptx and -cubin write one file. -arch=sm_90a (sm_100f) also asks for
// compute_90 (compute_100) PTX; like nvcc, -ptx then keeps the arch that
// carries the real target.
bool Planner::checkDeviceOutputs(std::string &error) {
  targets = o.targets;
  auto hasCubin = [](const TargetPair &pair) {
    return std::any_of(pair.codes.begin(), pair.codes.end(),
                       [](const Target &c) { return !c.isVirtual; });
  };
  if (o.phase == Phase::Ptx && targets.size() > 1 &&
      std::count_if(targets.begin(), targets.end(), hasCubin) == 1)
    targets.erase(std::remove_if(targets.begin(), targets.end(),
                                 [&](const TargetPair &p) { return !hasCubin(p); }),
                  targets.end());
  if (o.phase == Phase::Ptx && targets.size() != 1) {
    error = "-ptx is not allowed when compiling for multiple GPU "
            "architectures (" + std::to_string(targets.size()) + " given)";
    return false;
  }
  size_t reals = 0;
  for (const auto &pair : o.targets)
    reals += std::count_if(pair.codes.begin(), pair.codes.end(),
                           [](const Target &c) { return !c.isVirtual; });
  if (o.phase == Phase::Cubin && reals != 1) {
    error = "-cubin is not allowed when compiling for multiple GPU code "
            "instances (" + std::to_string(reals) + " given)";
    return false;
  }
  return true;
}

bool Planner::planInput(const std::string &input, std::string &error) {
  InputKind kind = classify(o, input);
  if (kind == InputKind::Unknown) {
    error = input + ": unknown input file type (expected .cu, .c, .cpp, .o "
                    "or .a; use -x cu to compile another name as CUDA)";
    return false;
  }
  // nvcc hands a .c/.cpp input to the host compiler whether it exists or
  // not: the host compiler reports a missing file, or, asked through
  // -Xcompiler for its version, answers without reading it (ggml's CMake
  // learns the host compiler from `nvcc .c -Xcompiler --version`).
  bool hostSource = kind == InputKind::C || kind == InputKind::Cxx;
  if (!hostSource && !probe.exists(input)) {
    error = input + ": no such file";
    return false;
  }
  if (probe.isDirectory(input)) {
    error = input + ": is a directory";
    return false;
  }
  // One line before anything runs (the host compiler said it in three).
  if (probe.exists(input))
    if (std::string why = probe.unreadable(input); !why.empty()) {
      error = input + ": " + why;
      return false;
    }
  if (kind == InputKind::Object) {
    // As with nvcc, -M passes over objects.
    if (o.phase != Phase::Dependencies) {
      linkInputs.push_back(input);
      deviceLinkInputs.push_back(input);
    }
    return true;
  }
  if (o.phase == Phase::DeviceLink) {
    error = input + ": -dlink links objects and libraries; compile it with "
                    "-dc (or -rdc=true -c) first";
    return false;
  }
  Unit unit;
  unit.input = input;
  unit.base = llvm::sys::path::stem(input).str();
  // Intermediate names stay unique when two inputs share a base name.
  unit.tempBase = unit.base;
  if (unsigned n = baseCount[unit.base]++)
    unit.tempBase += "." + std::to_string(n);
  if (deps) nameDependencies(unit);
  if (kind != InputKind::Cuda) return planSource(unit, kind, error);
  if (o.rdc) unit.id = unitId(input, cuInputs.size());
  cuInputs.push_back(input);
  return planCuda(unit, error);
}

// The dependency rule's target and file, as nvcc 13 names them: the target
// is -MT, else the output file (-o; not with -M, where -o names the rule's
// file), else x.o; -M writes to -o, else -MF, else stdout; -MD to -MF, else
// to -o with its suffix replaced by .d, else to x.d.
void Planner::nameDependencies(Unit &unit) {
  bool onlyDeps = o.phase == Phase::Dependencies;
  unit.depsTarget = !o.depsTarget.empty()            ? o.depsTarget
                    : !onlyDeps && !o.output.empty() ? o.output
                                                     : named(unit.base + ".o");
  if (onlyDeps) {
    unit.depsFile = !o.output.empty()     ? o.output
                    : !o.depsFile.empty() ? o.depsFile
                                          : "-";
  } else if (!o.depsFile.empty()) {
    unit.depsFile = o.depsFile;
  } else if (!o.output.empty()) {
    llvm::SmallString<256> p(o.output);
    llvm::sys::path::replace_extension(p, ".d");
    unit.depsFile = std::string(p);
  } else {
    unit.depsFile = named(unit.base + ".d");
  }
}

// A .c/.cpp input: the host compiler compiles (-E: preprocesses) it as nvcc
// has it do, with nvcc's macros for such files, and writes its dependency
// rule (gcc's -M... options, which nvcc's are modelled on).
bool Planner::planSource(const Unit &unit, InputKind kind, std::string &error) {
  if (!makesObjects() && o.phase != Phase::Dependencies &&
      o.phase != Phase::Preprocess) {
    error = unit.input + ": -ptx, -cubin, -fatbin and -cuda apply to CUDA "
                         "sources only";
    return false;
  }
  Job job{JobKind::CompileSource};
  job.source = unit.input;
  job.inputs = {unit.input};
  std::optional<frontend::DependencyOutput> rule;
  if (deps) {
    rule.emplace();
    rule->file = temp(unit.tempBase, ".cpp1.d");
    rule->target = unit.depsTarget;
    rule->systemHeaders = o.depsSystemHeaders;
    rule->phonyTargets = o.depsPhonyTargets;
    rule->rulesOnly = o.phase == Phase::Dependencies;
    job.outputs.push_back(rule->file);
  }
  std::string output;
  if (o.phase == Phase::Preprocess) {
    output = finalOr("-");
    if (output != "-") job.outputs.insert(job.outputs.begin(), output);
  } else if (o.phase != Phase::Dependencies) {
    output = unitObject(unit);
    job.outputs.insert(job.outputs.begin(), output);
    linkInputs.push_back(output);
  }
  job.command = hostCompiler().compileSource(
      sourceFor(unit), unit.input, kind == InputKind::C, output,
      o.phase == Phase::Preprocess, rule ? &*rule : nullptr);
  graph.add(job);
  if (rule) planPublish(unit, {rule->file});
  return true;
}

// The job that puts a dependency rule written to a temporary in place,
// once the jobs writing it have succeeded; several rules (a .cu's device
// sides and host side) are merged into one, as nvcc's is.
void Planner::planPublish(const Unit &unit,
                          const std::vector<std::string> &rules) {
  Job job{JobKind::Depfile};
  job.source = unit.input;
  job.inputs = rules;
  job.outputs = {unit.depsFile};
  job.inProcess = true;
  InternalCommand cmd(t, "publish");
  for (const std::string &rule : rules) cmd.input(rule);
  if (rules.size() > 1 && o.depsPhonyTargets) cmd.flag("-MP");
  job.command = cmd.value("-o", unit.depsFile).argv;
  graph.add(job);
}

// The device sides' rules: nvcc's rule lists the headers every side
// includes (device-only ones too, under #ifdef __CUDA_ARCH__), each virtual
// arch's first, then the host side's. Each comes from a preprocessing for
// the rule alone (about 0.1 s, beside the compile jobs), not from the device
// compile: a failed compile must still leave the rule (Driver.cpp,
// publishRulesAfterFailure) and a failed preprocessing none. Phony targets
// are the merge's.
bool Planner::planDeviceRules(const Unit &unit, std::vector<std::string> &rules,
                              std::string &error) {
  for (const TargetPair &pair : targets) {
    frontend::DependencyOutput rule;
    rule.file = temp(unit.tempBase, "." + pair.virtualArch.str() + ".d");
    rule.target = unit.depsTarget;
    rule.systemHeaders = o.depsSystemHeaders;
    rule.rulesOnly = true;
    rules.push_back(rule.file);
    std::vector<std::string> cc1;
    if (!frontend::Invocations::device(sourceFor(unit), unit.input,
                                       gpuName(pair.virtualArch), cc1, error,
                                       &rule))
      return false;
    planPreprocessDevice(unit, pair, cc1, rule.file, /*text=*/false);
  }
  return true;
}

// A virtual arch's device-side preprocessing: `output` is the rule its cc1
// arguments write, or with `text` the preprocessed text (-o).
void Planner::planPreprocessDevice(const Unit &unit, const TargetPair &pair,
                                   const std::vector<std::string> &cc1,
                                   const std::string &output, bool text) {
  Job job{JobKind::PreprocessDevice};
  job.source = unit.input;
  job.inputs = {unit.input};
  job.outputs = {output};
  job.target = pair.virtualArch;
  InternalCommand cmd(t, "preprocess-device");
  if (text) cmd.value("-o", output);
  job.command = cmd.cc1(cc1).argv;
  job.inProcess = true;
  graph.add(job);
}

bool Planner::planCuda(const Unit &unit, std::string &error) {
  hostRule.clear();
  if (!planCudaSides(unit, error)) return false;
  if (!deps || o.phase == Phase::Preprocess) return true;
  std::vector<std::string> rules;
  if (!planDeviceRules(unit, rules, error)) return false;
  if (!hostRule.empty()) rules.push_back(hostRule);
  planPublish(unit, rules);
  return true;
}

// -E of a .cu: every side's preprocessed text, each virtual arch's device
// side first, then the host side (clang's order; nvcc prints only its first
// virtual arch's device side). Compiler caches hash it and take the headers
// from its line markers, so a header that only device code includes is
// among them (a change to it must not leave a stale object).
bool Planner::planPreprocessSides(const Unit &unit, std::string &error) {
  std::vector<std::string> texts;
  for (const TargetPair &pair : targets) {
    std::string text = temp(unit.tempBase, "." + pair.virtualArch.str() + ".ii");
    std::vector<std::string> cc1;
    if (!frontend::Invocations::devicePreprocess(
            sourceFor(unit), unit.input, gpuName(pair.virtualArch), cc1, error))
      return false;
    planPreprocessDevice(unit, pair, cc1, text, /*text=*/true);
    texts.push_back(text);
  }
  std::string host = temp(unit.tempBase, ".cpp4.ii");
  if (!planPreprocess(unit, host, error)) return false;
  texts.push_back(host);
  Job job{JobKind::Join};
  job.source = unit.input;
  job.inputs = texts;
  std::string output = finalOr("-");
  job.outputs = {output};
  InternalCommand cmd(t, "join");
  for (const std::string &text : texts) cmd.input(text);
  job.command = cmd.value("-o", output).argv;
  job.inProcess = true;
  graph.add(job);
  return true;
}

bool Planner::planCudaSides(const Unit &unit, std::string &error) {
  if (o.phase == Phase::Preprocess) return planPreprocessSides(unit, error);
  bool wantsHost = o.phase == Phase::Cuda || makesObjects();
  bool wantsDevice = o.phase != Phase::Cuda && o.phase != Phase::Dependencies;
  // The rule comes from the host side's preprocessing; without a host side
  // (-M, or -MD with -ptx, -cubin, -fatbin) it runs for the rule alone.
  if (deps && !wantsHost && !planPreprocess(unit, "", error)) return false;
  if (wantsHost && t.hostCompilerPipeline)
    return planHostCompilerSide(unit, error);
  HostSide host;
  if (wantsHost && !planHostSide(unit, host, error)) return false;
  if (!wantsDevice) return true;
  std::vector<std::string> deviceCode;
  if (!planDeviceSide(unit, deviceCode, error)) return false;
  if (!wantsHost) return true;
  planHostObject(unit, host, deviceCode);
  return true;
}

// The host preprocessing, to `output` ("-": stdout; empty: the dependency
// rule alone), and the job that puts its dependency rule in place.
bool Planner::planPreprocess(const Unit &unit, const std::string &output,
                             std::string &error) {
  bool rule = deps && o.phase != Phase::Preprocess;
  frontend::DependencyOutput depsOut;
  Job job{JobKind::PreprocessHost};
  job.source = unit.input;
  job.inputs = {unit.input};
  if (!output.empty()) job.outputs.push_back(output);
  if (rule) {
    depsOut.file = temp(unit.tempBase, ".cpp1.d");
    depsOut.target = unit.depsTarget;
    depsOut.systemHeaders = o.depsSystemHeaders;
    depsOut.phonyTargets = o.depsPhonyTargets;
    depsOut.rulesOnly = output.empty();
    job.outputs.push_back(depsOut.file);
  }
  if (t.hostCompilerPipeline) {
    job.command = hostCompiler().preprocess(sourceFor(unit), unit.input, output,
                                            rule ? &depsOut : nullptr);
    graph.add(job);
    if (rule) hostRule = depsOut.file;
    return true;
  }
  std::vector<std::string> cc1;
  if (!frontend::Invocations::hostPreprocess(sourceFor(unit), unit.input, cc1,
                                             error, rule ? &depsOut : nullptr))
    return false;
  InternalCommand cmd(t, "preprocess-host");
  if (!output.empty()) cmd.value("-o", output);
  job.command = cmd.cc1(cc1).argv;
  job.inProcess = true;
  graph.add(job);
  if (rule) hostRule = depsOut.file;
  return true;
}

bool Planner::planHostSide(const Unit &unit, HostSide &host,
                           std::string &error) {
  std::string preprocessed = temp(unit.tempBase, ".cpp4.ii");
  if (!planPreprocess(unit, preprocessed, error)) return false;
  std::string &lowered = host.lowered;
  lowered = o.phase == Phase::Cuda ? finalOr(unit.base + ".cu.cpp.ii")
                                   : temp(unit.tempBase, ".cu.cpp.ii");
  std::vector<std::string> cc1;
  if (!frontend::Invocations::hostCompile(sourceFor(unit), preprocessed, cc1,
                                          error))
    return false;
  // nvcc's relocatable fat binary is embedded by the lowered unit's asm,
  // which Clang assembles when compile-host runs, after the device side.
  std::vector<std::string> embedded;
  if (rdcObject && !bitcodeRdc)
    embedded.push_back(joinPath(tempDir, unit.tempBase + ".fatbin"));
  planLowerHost(unit, preprocessed, lowered, cc1, embedded, false, false);
  if (o.phase == Phase::Cuda) return true;
  // The host IR next, beside the device side (the host side is usually the
  // longer chain); the object once the device code is there.
  if (!frontend::Invocations::hostCompile(sourceFor(unit), lowered, host.cc1,
                                          error))
    return false;
  host.ir = temp(unit.tempBase, ".host.bc");
  Job front{JobKind::HostIR};
  front.source = unit.input;
  front.inputs = {lowered};
  front.outputs = {host.ir};
  front.command = InternalCommand(t, "host-ir")
                      .value("-unit", lowered)
                      .value("-o", host.ir)
                      .cc1(host.cc1)
                      .argv;
  front.inProcess = true;
  graph.add(front);
  return true;
}

// The host half through the host compiler (docs/design.md, "The host
// half"): it preprocesses, mycc lowers the text (Clang's parse, in-process),
// the host compiler compiles the lowered unit, and embed-device-code puts
// the device code into its object (or the assembler embeds it, below).
// The device side is planned first only because the lowered unit may name
// its files; lower-host does not read them and runs beside it.
bool Planner::planHostCompilerSide(const Unit &unit, std::string &error) {
  std::string preprocessed = temp(unit.tempBase, ".cpp4.ii");
  if (!planPreprocess(unit, preprocessed, error)) return false;
  std::vector<std::string> deviceCode;
  bool cuda = o.phase == Phase::Cuda;
  if (!cuda && !planDeviceSide(unit, deviceCode, error)) return false;
  std::string lowered = cuda        ? finalOr(unit.base + ".cu.cpp.ii")
                        : nvccSteps ? temp(unit.tempBase, ".cudafe1.cpp")
                                    : temp(unit.tempBase, ".cudafe1.ii");
  std::vector<std::string> cc1;
  if (!frontend::hostLoweringInvocation(sourceFor(unit), preprocessed, cc1,
                                        error))
    return false;
  // The host compiler's object takes the device code afterwards, so that
  // the host compiler runs beside the device side; not when the lowered
  // unit includes the bundle's text (fatbinAsText).
  bool later = !cuda && !fatbinAsText && !deviceCode.empty();
  planLowerHost(unit, preprocessed, lowered, cc1,
                later ? std::vector<std::string>{} : deviceCode, true, later);
  if (cuda) return true;

  std::string object = unitObject(unit);
  std::string hostObject = later ? temp(unit.tempBase, ".host.o") : object;
  Job compile{JobKind::CompileHost};
  compile.source = unit.input;
  compile.inputs = {lowered};
  if (!later)
    compile.inputs.insert(compile.inputs.end(), deviceCode.begin(),
                          deviceCode.end());
  compile.outputs = {hostObject};
  compile.command =
      hostCompiler().compile(sourceFor(unit), lowered, hostObject, fatbinAsText);
  graph.add(compile);
  if (later) {
    InternalCommand cmd(t, "embed-device-code");
    cmd.value("-object", hostObject);
    for (const std::string &code : deviceCode)
      cmd.value(deviceCodeOption(), code);
    Job embed{JobKind::EmbedDeviceCode};
    embed.source = unit.input;
    embed.inputs = {hostObject};
    embed.inputs.insert(embed.inputs.end(), deviceCode.begin(),
                        deviceCode.end());
    embed.outputs = {object};
    embed.command = cmd.value("-o", object).argv;
    embed.inProcess = true;
    graph.add(embed);
  }
  addUnitObject(object);
  return true;
}

// Whether the host compiler compiles for link-time optimisation (its last
// -flto* or -fno-lto among the -Xcompiler options).
bool Planner::hostLto() const {
  bool lto = false;
  for (const std::string &option : o.xcompiler) {
    llvm::StringRef word(option);
    if (word == "-fno-lto") lto = false;
    else if (word == "-flto" || word.starts_with("-flto=")) lto = true;
  }
  return lto;
}

// The lowering of a unit's preprocessed host side. For the host compiler
// (-host-compiler) it names the device code the lowered unit embeds, or
// leaves its section for embed-device-code to fill (`deviceCodeLater`); it
// does not read it, so the device code is not among the job's inputs.
void Planner::planLowerHost(const Unit &unit, const std::string &preprocessed,
                            const std::string &lowered,
                            const std::vector<std::string> &cc1,
                            const std::vector<std::string> &deviceCode,
                            bool forHostCompiler, bool deviceCodeLater) {
  InternalCommand cmd(t, "lower-host");
  cmd.value("-source", unit.input);
  if (forHostCompiler) cmd.flag("-host-compiler");
  if (deviceCodeLater) cmd.flag("-device-code-later");
  if (o.rdc) cmd.flag("-rdc").value("-unit-id", unit.id);
  if (o.rdc && o.deviceLto) cmd.flag("-dlto");
  // nvcc's -static-global-template-stub applies in whole-program mode.
  if (!o.rdc && o.staticTemplateStubs) cmd.flag("-static-template-stubs");
  if (o.hiddenDeviceEntities) cmd.flag("-hidden-device-entities");
  // nvcc's front-end warnings the lowering sees (-w silences them, -Werror
  // all-warnings or the kind makes them errors).
  auto asError = [&](const char *kind) {
    return std::find(o.werrorKinds.begin(), o.werrorKinds.end(), kind) !=
               o.werrorKinds.end() ||
           o.warningsAsErrors;
  };
  if (o.warnDefaultStreamLaunch && !o.noWarnings)
    cmd.flag(asError("default-stream-launch") ? "-Werror=default-stream-launch"
                                              : "-Wdefault-stream-launch");
  if (o.warnMissingLaunchBounds && !o.noWarnings)
    cmd.flag(asError("missing-launch-bounds") ? "-Werror=missing-launch-bounds"
                                              : "-Wmissing-launch-bounds");
  for (const std::string &code : deviceCode)
    cmd.value(fatbinAsText && forHostCompiler ? "-fatbin-text" : deviceCodeOption(),
              code);
  Job job{JobKind::LowerHost};
  job.source = unit.input;
  job.inputs = {preprocessed};
  job.outputs = {lowered};
  job.command = cmd.value("-o", lowered).cc1(cc1).argv;
  if (nvccSteps && forHostCompiler) {
    std::string moduleId = temp(unit.tempBase, ".module_id");
    job.outputs.push_back(moduleId);
    job.command = spellAsNvccStep(t, job.command, preprocessed, moduleId);
  }
  job.inProcess = true;
  graph.add(job);
}

// A unit's object: the output with -c, else a temporary the link reads.
std::string Planner::unitObject(const Unit &unit) {
  return o.phase == Phase::Compile ? finalOr(unit.base + ".o")
                                   : temp(unit.tempBase, ".o");
}

// The link takes the object; with relocatable device code the device link
// does too.
void Planner::addUnitObject(const std::string &object) {
  linkInputs.push_back(object);
  if (rdcObject) {
    rdcUnits = true;
    deviceLinkInputs.push_back(object);
  }
}

// One compile-device job per virtual arch, then ptxas for its real archs
// and the bundle; `deviceCode` is what the host object embeds (the fat
// binary, or -rdc=true's images).
bool Planner::planDeviceSide(const Unit &unit,
                             std::vector<std::string> &deviceCode,
                             std::string &error) {
  std::vector<std::pair<Target, std::string>> images;
  for (const TargetPair &pair : targets) {
    std::vector<std::string> cc1;
    // With nvccSteps (not -dlto's bitcode), the side preprocessed first.
    std::string text;
    if (nvccSteps) {
      text = temp(unit.tempBase, "." + pair.virtualArch.str() + ".cpp1.ii");
      if (!frontend::Invocations::devicePreprocess(
              sourceFor(unit), unit.input, gpuName(pair.virtualArch), cc1,
              error))
        return false;
      planPreprocessDevice(unit, pair, cc1, text, /*text=*/true);
      cc1.clear();
      if (!frontend::Invocations::devicePreprocessed(
              sourceFor(unit), unit.input, text, gpuName(pair.virtualArch),
              cc1, error))
        return false;
    } else if (!frontend::Invocations::device(sourceFor(unit), unit.input,
                                              gpuName(pair.virtualArch), cc1,
                                              error)) {
      return false;
    }
    InternalCommand cmd(t, "compile-device");
    cmd.value("-arch", pair.virtualArch.str())
        .value("-ptx-target", gpuName(pair.virtualArch));
    addCodegenFlags(o, !bitcodeRdc, cmd);
    std::string output =
        bitcodeRdc ? temp(unit.tempBase, "." + pair.virtualArch.str() + ".offload")
        : o.phase == Phase::Ptx
            ? finalOr(unit.base + ".ptx")
            : temp(unit.tempBase, "." + pair.virtualArch.str() + ".ptx");
    if (bitcodeRdc) {
      // The unit's device code stays LLVM bitcode; the device link
      // generates code. What it was compiled for goes with it.
      cmd.flag("-rdc").value("-source", unit.input).value("-unit-id", unit.id);
      for (const Target &code : pair.codes) cmd.value("-code", code.str());
    }
    Job job{JobKind::CompileDevice};
    job.source = unit.input;
    job.inputs = {text.empty() ? unit.input : text};
    job.outputs = {output};
    job.target = pair.virtualArch;
    job.command = cmd.value("-o", output).cc1(cc1).argv;
    if (!text.empty()) job.command = spellAsNvccStep(t, job.command, text);
    job.inProcess = true;
    job.borrowsThreads = !bitcodeRdc && !o.splitCompile;
    graph.add(job);
    if (bitcodeRdc) deviceCode.push_back(output);
    else if (o.phase != Phase::Ptx)
      planPtxas(pair, output, unit.input, unit.tempBase, images);
  }
  if (bitcodeRdc || o.phase == Phase::Ptx || o.phase == Phase::Cubin)
    return true;
  // With fatbinAsText the host object takes the bundle's text of the bytes.
  std::string text = fatbinAsText && o.phase != Phase::Fatbin
                         ? temp(unit.tempBase, ".fatbin.c")
                         : "";
  std::string fatbin = planBundle(
      images,
      o.phase == Phase::Fatbin ? finalOr(unit.base + ".fatbin")
                               : temp(unit.tempBase, ".fatbin"),
      unit.input, /*linked=*/false, "", {}, text);
  deviceCode.push_back(text.empty() ? fatbin : text);
  return true;
}

// ptxas for each real arch of `pair`; the images the fat binary then holds
// from it go to `images`. `linked`: a -dlto device link's PTX.
void Planner::planPtxas(const TargetPair &pair, const std::string &ptx,
                        const std::string &source,
                        const std::string &cubinBase,
                        std::vector<std::pair<Target, std::string>> &images,
                        bool linked) {
  for (const Target &code : pair.codes) {
    if (code.isVirtual) {
      images.push_back({code, ptx});
      continue;
    }
    std::string cubin = o.phase == Phase::Cubin
                            ? finalOr(llvm::sys::path::stem(source).str() + ".cubin")
                            : temp(cubinBase, "." + code.str() + ".cubin");
    Job job{JobKind::Ptxas};
    job.source = source;
    job.inputs = {ptx};
    job.outputs = {cubin};
    job.target = code;
    offload::PtxasOptions options = ptxasOptions(o);
    // nvcc instruments each unit's cubins, not a -dlto device link's.
    if (linked) options.sanitize.clear();
    job.command = offload::ptxasCommand(
        offload::PtxasJob{t.ptxas, ptx, code.str(), cubin, options});
    graph.add(job);
    images.push_back({code, cubin});
  }
}

// How nvcc 13's fatbinary compresses (measured, docs/options.md "Fat binary
// compression"): PTX always; cubins with -compress-mode=size, -Xfatbin
// -compress-all, -G (debug images) and in a relocatable object's fat
// binary, not in a device link's. zstd level 5 gives fatbinary's sizes for
// default and balance (the same in 13.0), 19 comes close to size's; speed
// is LZ4.
static void compressionOptions(const Options &o, bool relocatable, bool linked,
                               bool ptx, bool cubins, InternalCommand &cmd) {
  using M = Options::CompressMode;
  if (o.compressMode == M::None) return;
  std::string scheme = o.compressMode == M::Speed  ? "lz4"
                       : o.compressMode == M::Size ? "zstd-19"
                                                   : "zstd-5";
  if (ptx) cmd.value("-compress-ptx", scheme);
  if (cubins && (o.compressMode == M::Size || o.compressAll || o.deviceDebug ||
                 o.fatbinDebug || (relocatable && !linked)))
    cmd.value("-compress-elf", scheme);
}

// The bundle job, in nvcc's container order: cubins first, then PTX.
// With `embeddedText`, the bundle also writes the fat binary as the C text
// the toolkit's link.stub includes (a device link's).
std::string Planner::planBundle(std::vector<std::pair<Target, std::string>> images,
                                const std::string &output,
                                const std::string &source, bool linked,
                                const std::string &embeddedText,
                                const std::vector<std::string> &relocatablePtxFrom,
                                const std::string &fatbinText) {
  std::stable_partition(images.begin(), images.end(),
                        [](const auto &image) { return !image.first.isVirtual; });
  InternalCommand cmd(t, "bundle");
  Job job{JobKind::Bundle};
  job.source = source;
  bool ptx = false, cubins = false;
  for (const auto &[target, file] : images) {
    cmd.value("-image", target.str() + "," + file);
    job.inputs.push_back(file);
    (target.isVirtual ? ptx : cubins) = true;
  }
  // The PTX carries the ptxas options for the driver's JIT, as nvcc's does.
  std::string jit = offload::jitOptions(ptxasOptions(o));
  if (ptx && !jit.empty()) cmd.value("-ptx-options", jit);
  compressionOptions(o, rdcObject && !bitcodeRdc, linked, ptx, cubins, cmd);
  // -G's images are marked debug and named by their source, as nvcc's.
  if (o.deviceDebug || o.fatbinDebug) cmd.flag("-debug").value("-ident", source);
  for (const std::string &object : relocatablePtxFrom) {
    cmd.value("-reloc-ptx-from", object);
    job.inputs.push_back(object);
  }
  job.outputs = {output};
  if (!embeddedText.empty()) {
    cmd.value("-embedded-fatbin", embeddedText);
    // -r's: the text prelink.stub includes, as a unit's (planNvlink).
    if (o.phase == Phase::RelocatableLink) cmd.flag("-embedded-relocatable");
    job.outputs.push_back(embeddedText);
  }
  if (!fatbinText.empty()) {
    cmd.value("-fatbin-text", fatbinText);
    job.outputs.push_back(fatbinText);
  }
  job.command = cmd.value("-o", output).argv;
  if (!fatbinText.empty() && nvccSteps)
    job.command = spellAsNvccStep(t, job.command, "");
  job.inProcess = true;
  graph.add(job);
  return output;
}

// The object: the host IR with the device code embedded, generated with the
// invocation host-ir parsed the lowered unit with.
void Planner::planHostObject(const Unit &unit, const HostSide &host,
                             const std::vector<std::string> &deviceCode) {
  std::string object = unitObject(unit);
  InternalCommand cmd(t, "compile-host");
  cmd.value("-ir", host.ir);
  for (const std::string &code : deviceCode)
    cmd.value(deviceCodeOption(), code);
  Job job{JobKind::CompileHost};
  job.source = unit.input;
  job.inputs = {host.ir};
  job.inputs.insert(job.inputs.end(), deviceCode.begin(), deviceCode.end());
  job.outputs = {object};
  job.command = cmd.value("-o", object).cc1(host.cc1).argv;
  job.inProcess = true;
  graph.add(job);
  addUnitObject(object);
}

// nvcc device-links whenever it links, so objects or -l archives with
// relocatable device code need a device link even without -rdc on this
// command line, and without targets on the command line it builds what the
// inputs were compiled for. What existing objects and -l archives hold is
// a scan-device-code job's to find; the rest is planned after it has run
// (afterScan). Without such inputs, or when nothing they hold can change
// the plan, everything is planned now.
bool Planner::planLinking(std::string &error) {
  if (o.phase == Phase::Lib) {
    planArchive();
    return true;
  }
  if (o.phase != Phase::Link && o.phase != Phase::DeviceLink &&
      o.phase != Phase::RelocatableLink)
    return true;
  // -nodlink: the host link alone; the device link's object is the user's.
  if (o.phase == Phase::Link && o.noDeviceLink) {
    planLink();
    return true;
  }
  std::vector<std::string> existing;
  for (const std::string &input : deviceLinkInputs)
    if (!graph.producerOf(input)) existing.push_back(input);
  bool needed = o.phase == Phase::DeviceLink ||
                o.phase == Phase::RelocatableLink || rdcUnits;
  // Which kind of relocatable device code existing objects hold (nvcc's or
  // -dlto's bitcode) is for the scan to say; without them, -dlto says.
  if (o.libs.empty() && existing.empty())
    return finishLinking(needed, o.deviceLto, o.targets, error);
  std::string manifest = temp("a_dlink", ".scan");
  InternalCommand cmd(t, "scan-device-code");
  for (const std::string &dir : o.libDirs) cmd.value("-L", dir);
  for (const std::string &lib : o.libs) cmd.value("-l", lib);
  for (const std::string &input : existing) cmd.input(input);
  Job job{JobKind::ScanDeviceCode};
  job.source = joined(cuInputs.empty() ? existing : cuInputs);
  job.inputs = existing;
  job.outputs = {manifest};
  job.command = cmd.value("-o", manifest).argv;
  job.inProcess = true;
  unsigned scan = graph.add(job);
  std::shared_ptr<Planner> self = shared_from_this();
  graph.extendAfter(scan, [self, manifest](Graph &, std::string &error) {
    return self->afterScan(manifest, error);
  });
  return true;
}

// The scan's findings (InternalTools.cpp: "archive <path>" and
// "image <virtual arch> <code>,<code>..." lines): the -l archives join the
// device link's inputs; the images decide whether it is needed and, without
// targets on the command line, its targets (the union over the inputs).
bool Planner::afterScan(const std::string &manifest, std::string &error) {
  std::string text;
  if (!support::readFile(manifest, text, error)) return false;
  std::vector<TargetPair> targets, nvccTargets;
  auto add = [](std::vector<TargetPair> &into, const Target &virtualArch,
                std::optional<Target> code) {
    auto it = std::find_if(into.begin(), into.end(), [&](const TargetPair &p) {
      return p.virtualArch == virtualArch;
    });
    if (it == into.end()) it = into.insert(into.end(), {virtualArch, {}});
    if (code && std::find(it->codes.begin(), it->codes.end(), *code) ==
                    it->codes.end())
      it->codes.push_back(*code);
  };
  bool images = false, relfatbins = false;
  for (llvm::StringRef line : llvm::split(llvm::StringRef(text), '\n')) {
    auto [word, rest] = line.split(' ');
    if (word == "archive") scannedArchives.push_back(rest.str());
    if (word == "relfatbin") {
      // nvlink links for each cubin's SM; PTX alone is linked for its arch.
      relfatbins = true;
      for (llvm::StringRef code : llvm::split(rest, ','))
        if (std::optional<Target> c = parseTarget(code)) {
          Target virt = *c;
          virt.isVirtual = true;
          add(nvccTargets, virt, *c);
        }
      continue;
    }
    if (word != "image") continue;
    images = true;
    auto [arch, codes] = rest.split(' ');
    std::optional<Target> virtualArch = parseTarget(arch);
    if (!virtualArch) continue;
    add(targets, *virtualArch, std::nullopt);
    for (llvm::StringRef code : llvm::split(codes, ','))
      if (std::optional<Target> c = parseTarget(code))
        add(targets, *virtualArch, *c);
  }
  // Bitcode from the scanned inputs or this run's units, nvcc's format from
  // either; without any, -dlto decides.
  bool bitcodeCode = images || bitcodeRdc;
  bool nvccCode = relfatbins || (rdcUnits && !bitcodeRdc);
  if (bitcodeCode && nvccCode) {
    error = "cannot device-link relocatable device code compiled with -dlto "
            "(LLVM bitcode) together with nvcc's (compiled without -dlto): "
            "compile every unit of the link the same way";
    return false;
  }
  bool bitcode = bitcodeCode || (!nvccCode && o.deviceLto);
  bool needed = o.phase == Phase::DeviceLink ||
                o.phase == Phase::RelocatableLink || rdcUnits || images ||
                relfatbins;
  return finishLinking(needed, bitcode,
                       o.targetsGiven || rdcUnits ? o.targets
                       : bitcode                  ? targets
                                                  : nvccTargets,
                       error);
}

bool Planner::finishLinking(bool deviceLink, bool bitcode,
                            const std::vector<TargetPair> &targets,
                            std::string &error) {
  if (bitcode && o.phase == Phase::RelocatableLink) {
    error = "-r of objects compiled with -dlto is not supported by mycc: their "
            "device code is LLVM bitcode, which nvlink -r cannot link";
    return false;
  }
  if (deviceLink && bitcode && !planDeviceLink(targets, error)) return false;
  if (deviceLink && !bitcode && !planNvlink(targets, error)) return false;
  if (o.phase == Phase::Link || o.phase == Phase::RelocatableLink) planLink();
  return true;
}

bool Planner::planDeviceLink(const std::vector<TargetPair> &linkTargets,
                             std::string &error) {
  std::vector<std::string> bitcodeInputs = deviceLinkInputs;
  bitcodeInputs.insert(bitcodeInputs.end(), scannedArchives.begin(),
                       scannedArchives.end());
  std::string source = joined(cuInputs.empty() ? bitcodeInputs : cuInputs);
  std::vector<std::pair<Target, std::string>> images;
  for (const TargetPair &pair : linkTargets) {
    std::string ptx = temp("a_dlink", "." + pair.virtualArch.str() + ".ptx");
    InternalCommand cmd(t, "device-link");
    cmd.value("-arch", pair.virtualArch.str())
        .value("-ptx-target", gpuName(pair.virtualArch));
    addCodegenFlags(o, true, cmd);
    for (const std::string &input : bitcodeInputs) cmd.input(input);
    Job job{JobKind::DeviceLink};
    job.source = source;
    job.inputs = bitcodeInputs;
    job.outputs = {ptx};
    job.target = pair.virtualArch;
    job.command = cmd.value("-o", ptx).argv;
    job.inProcess = true;
    job.borrowsThreads = !o.splitCompile;
    graph.add(job);
    planPtxas(pair, ptx, source, "a_dlink", images, /*linked=*/true);
  }
  std::string fatbin =
      planBundle(images, temp("a_dlink", ".fatbin"), source, /*linked=*/true);
  dlinkObject = o.phase == Phase::DeviceLink ? finalOr("a_dlink.o")
                                             : temp("a_dlink", ".o");
  std::vector<std::string> cc1;
  frontend::SourceOptions s = sourceOptions(o, t);
  if (!frontend::Invocations::hostCompile(s, dlinkObject + ".cpp", cc1, error))
    return false;
  InternalCommand cmd(t, "device-link-host");
  cmd.value("-fatbin", fatbin);
  for (const std::string &input : bitcodeInputs) cmd.input(input);
  Job job{JobKind::DeviceLinkHost};
  job.source = source;
  job.inputs = bitcodeInputs;
  job.inputs.push_back(fatbin);
  job.outputs = {dlinkObject};
  job.command = cmd.value("-o", dlinkObject).cc1(cc1).argv;
  job.inProcess = true;
  graph.add(job);
  return true;
}

// The device link of nvcc's relocatable device code, as nvcc 13 runs it
// (measured with --dryrun): nvlink once per real arch (per virtual arch
// when only PTX is asked for: it then writes only the registration list),
// with the -Xnvlink options, the user's -L/-l, the toolkit's library
// directories and libcudadevrt; the linked cubins in a fat binary written as
// the C text the toolkit's link.stub includes; link.stub compiled with
// nvlink's list of units (--register-link-binaries), which defines each
// unit's __cudaRegisterLinkedBinary<module id>. nvcc has the host compiler
// compile link.stub; mycc compiles it in process (Clang), which made the
// device link of a small program faster than nvcc's (docs/performance.md).
//
// -r, as nvcc 13 runs it (measured): nvlink -r instead, without the list of
// units; the relocatable cubins in a fat binary written as the C text the
// toolkit's prelink.stub includes (a unit's: its data in __nv_relfatbin,
// its wrapper named by the module id), and prelink.stub compiled with the
// module id of the output. The result is one more unit of relocatable
// device code beside those it was linked from, which the program's device
// link (nvlink) then links. Without a real architecture nvcc's nvlink -r
// writes nothing; mycc then leaves the device code to that device link.
bool Planner::planNvlink(const std::vector<TargetPair> &linkTargets,
                         std::string &error) {
  bool relocatable = o.phase == Phase::RelocatableLink;
  const std::string &stub = relocatable ? t.prelinkStub : t.linkStub;
  if (stub.empty()) {
    error = "the CUDA toolkit at '" + t.cudaPath + "' has no bin/crt/" +
            (relocatable ? "prelink.stub, which -r" : "link.stub, which a device link") +
            " needs (set --cuda-path or CUDA_PATH to a complete toolkit)";
    return false;
  }
  std::string source = joined(cuInputs.empty() ? deviceLinkInputs : cuInputs);
  std::string reg = relocatable ? "" : temp("a_dlink", ".reg.c");
  // nvlink leaves an existing registration file as it is: one kept from an
  // earlier link (--keep) goes first, as nvcc removes it.
  if (o.keep && !relocatable) {
    Job rm{JobKind::Remove};
    rm.source = source;
    rm.outputs = {reg};
    rm.command = {"rm", "-f", reg};
    graph.add(rm);
  }
  std::vector<Target> codes;
  for (const TargetPair &pair : linkTargets)
    for (const Target &code : pair.codes)
      if (!code.isVirtual &&
          std::find(codes.begin(), codes.end(), code) == codes.end())
        codes.push_back(code);
  bool ptxOnly = codes.empty();
  if (ptxOnly && relocatable) return true;
  if (ptxOnly)
    for (const TargetPair &pair : linkTargets) codes.push_back(pair.virtualArch);
  std::vector<std::pair<Target, std::string>> images;
  bool first = true;
  for (const Target &code : codes) {
    Job job{JobKind::DeviceLink};
    job.source = source;
    job.inputs = deviceLinkInputs;
    job.target = code;
    std::vector<std::string> &cmd = job.command;
    cmd = {t.nvlink};
    cmd.insert(cmd.end(), o.xnvlink.begin(), o.xnvlink.end());
    cmd.push_back("-m64");
    if (o.shared) cmd.push_back("--shared");
    cmd.push_back("--arch=" + code.str());
    if (relocatable) cmd.push_back("-r");
    if (first && !relocatable) {
      cmd.push_back("--register-link-binaries=" + reg);
      if (o.keep) job.inputs.push_back(reg); // after the removal
      job.outputs.push_back(reg);
    }
    for (const auto &d : o.libDirs) cmd.push_back("-L" + d);
    for (const auto &l : o.libs) cmd.push_back("-l" + l);
    cmd.push_back("-L" + t.prefix + "/lib64/stubs");
    cmd.push_back("-L" + t.prefix + "/lib64");
    cmd.push_back("-cpu-arch=X86_64");
    cmd.insert(cmd.end(), deviceLinkInputs.begin(), deviceLinkInputs.end());
    if (o.cudadevrt) cmd.push_back("-lcudadevrt");
    if (!ptxOnly) {
      std::string cubin = temp("a_dlink", "." + code.str() + ".cubin");
      cmd.insert(cmd.end(), {"-o", cubin});
      job.outputs.push_back(cubin);
      images.push_back({code, cubin});
    }
    if (!job.outputs.empty()) graph.add(job);
    first = false;
  }
  std::string fatbinC = temp("a_dlink", ".fatbin.c");
  // -r's cubins are a relocatable object's: compressed, as nvcc's.
  std::string fatbin = planBundle(
      images, temp("a_dlink", ".fatbin"), source, /*linked=*/!relocatable, fatbinC,
      o.relocatablePtx && !relocatable ? deviceLinkInputs : std::vector<std::string>{});

  dlinkObject = o.phase == Phase::DeviceLink ? finalOr("a_dlink.o")
                                             : temp("a_dlink", ".o");
  std::vector<std::string> cc1;
  if (!frontend::Invocations::linkStub(sourceOptions(o, t),
                                       dlinkObject + ".cpp", cc1, error))
    return false;
  Job host{JobKind::DeviceLinkHost};
  host.source = source;
  host.inputs = {fatbinC, fatbin}; // the C text .incbin's the fat binary
  InternalCommand cmd(t, "device-link-host");
  cmd.value("-link-stub", stub).value("-fatbin-c", fatbinC);
  if (relocatable) {
    cmd.value("-module-id", lowering::kModuleIdPrefix + unitId(finalOr("a.out"), 0));
  } else {
    cmd.value("-register", reg);
    host.inputs.push_back(reg);
  }
  host.outputs = {dlinkObject};
  host.command = cmd.value("-o", dlinkObject).cc1(cc1).argv;
  host.inProcess = true;
  graph.add(host);
  return true;
}

// -lib, as nvcc 13 does it (measured with --dryrun): the archiver (the
// host compiler's ar; -arbin) with `cr`, the -Xarchive options, the library
// (-o, else a.a, as nvcc names it) and the objects: the inputs'
// objects and the objects given, in command-line order. The device code
// stays in the objects (relocatable with -rdc=true); a later link
// device-links it. Like ar, an existing library keeps its other members.
void Planner::planArchive() {
  Job job{JobKind::Archive};
  job.source = joined(cuInputs);
  job.inputs = linkInputs;
  std::string output = finalOr("a.a"); // nvcc's name, whatever the inputs
  job.outputs = {output};
  job.command = {o.archiver.empty() ? std::string("ar") : o.archiver, "cr"};
  job.command.insert(job.command.end(), o.xarchive.begin(), o.xarchive.end());
  job.command.push_back(output);
  job.command.insert(job.command.end(), linkInputs.begin(), linkInputs.end());
  graph.add(job);
}

// nvlink writes the host linker script of -hls, as nvcc has it do: the
// host linker's default script with the fat binaries' sections placed
// (lcs-abs), or only those sections (-aug-hls: lcs-aug). `--host-ccbin`
// names the compiler whose linker's default script it starts from.
std::string Planner::planLinkerScript(const std::string &output) {
  Job job{JobKind::LinkerScript};
  job.outputs = {output};
  job.command = {t.nvlink, "-m64",
                 std::string("--gen-host-linker-script=") +
                     (o.augmentLinkerScript ? "lcs-aug" : "lcs-abs")};
  if (output != "-") job.command.insert(job.command.end(), {"-o", output});
  job.command.insert(job.command.end(), {"--host-ccbin", t.hostCompiler});
  graph.add(job);
  return output;
}

// nvcc's host link, measured with nvcc 13.0 --dryrun: the host compiler with
// the -Xcompiler options, the objects (the device link's first), the
// -Xlinker options, the user's -L/-l, the toolkit's LIBRARIES
// ("-L.../stubs" "-L..."), the CUDA runtime (-lcudadevrt -lcudart_static
// -lrt -lpthread -ldl; -lcudadevrt -lcudart for -cudart shared; nothing for
// none), -o. mycc's LIBRARIES directories are the prefix's lib64/
// (docs/build-systems.md), which also holds mycc's runtime, linked as
// -lmycc_rt ahead of the CUDA runtime it calls; build systems that link by
// themselves (CMake) read this command to learn the libraries.
// -r's relocatable link, also as nvcc 13.0 runs it: the host compiler with
// the -Xcompiler options, -m64 -r -nostdlib, then in one group the objects
// (the device link's first), -Xlinker, -L/-l and the toolkit's directories.
void Planner::planLink() {
  if (!dlinkObject.empty()) linkInputs.insert(linkInputs.begin(), dlinkObject);
  Job job{JobKind::Link};
  job.source = joined(cuInputs);
  job.inputs = linkInputs;
  std::string output = finalOr("a.out");
  std::string script;
  if (o.hostLinkerScript == Options::LinkerScript::Use) {
    script = planLinkerScript(
        temp(llvm::sys::path::stem(output).str(), "_dlink.nvfatbin.lds"));
    job.inputs.push_back(script);
  }
  job.outputs = {output};
  std::vector<std::string> &cmd = job.command;
  cmd = {t.hostCompiler};
  cmd.insert(cmd.end(), o.xcompiler.begin(), o.xcompiler.end());
  bool relocatable = o.phase == Phase::RelocatableLink;
  if (relocatable)
    cmd.insert(cmd.end(), {"-m64", "-r", "-nostdlib", "-Wl,--start-group"});
  if (o.shared) cmd.push_back("-shared");
  if (o.debug) cmd.push_back("-g");
  cmd.insert(cmd.end(), linkInputs.begin(), linkInputs.end());
  for (const auto &x : o.xlinker) cmd.insert(cmd.end(), {"-Xlinker", x});
  for (const auto &d : o.libDirs) cmd.push_back("-L" + d);
  for (const auto &l : o.libs) cmd.push_back("-l" + l);
  // librariesValue(), unquoted.
  cmd.push_back("-L" + t.prefix + "/lib64/stubs");
  cmd.push_back("-L" + t.prefix + "/lib64");
  if (relocatable) {
    cmd.insert(cmd.end(), {"-Wl,--end-group", "-o", output});
    graph.add(job);
    return;
  }
  cmd.push_back("-lmycc_rt");
  if (o.cudadevrt && o.cudart != CudartKind::None)
    cmd.push_back("-lcudadevrt");
  if (o.cudart == CudartKind::Static)
    cmd.insert(cmd.end(), {"-lcudart_static", "-lrt", "-lpthread", "-ldl"});
  else if (o.cudart == CudartKind::Shared)
    cmd.push_back("-lcudart");
  if (!script.empty()) cmd.push_back("-Wl,-T," + script);
  cmd.insert(cmd.end(), {"-o", output});
  graph.add(job);
}

class FileSystemProbe : public InputProbe {
public:
  bool exists(const std::string &path) const override {
    return llvm::sys::fs::exists(path);
  }
  bool isDirectory(const std::string &path) const override {
    return llvm::sys::fs::is_directory(path);
  }
  std::string unreadable(const std::string &path) const override {
    // Non-blocking: a FIFO given as an input is not waited on here.
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      ::close(fd);
      return {};
    }
    std::string reason = std::strerror(errno);
    if (!reason.empty())
      reason[0] = char(std::tolower(static_cast<unsigned char>(reason[0])));
    return reason;
  }
};

} // namespace

std::unique_ptr<InputProbe> fileSystemProbe() {
  return std::make_unique<FileSystemProbe>();
}

bool isBuildInput(const Options &o, const std::string &path) {
  return classify(o, path) != InputKind::Unknown;
}

bool isCudaSource(const Options &o, const std::string &path) {
  return classify(o, path) == InputKind::Cuda;
}

bool planGraph(const Options &options, const Toolkit &toolkit,
               const std::string &tempDir, const InputProbe &probe,
               Graph &graph, std::string &error) {
  auto planner =
      std::make_shared<Planner>(options, toolkit, tempDir, probe, graph);
  return planner->plan(error);
}

} // namespace mycc::driver
