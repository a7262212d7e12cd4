// The nvcc command line, parsed into a typed model. Parsing knows nvcc's
// spellings (single-dash long options, `=` and space forms, comma splitting
// of -Xcompiler/-Xptxas/-Xlinker and of list-valued options); everything after
// this point works on the model only.
#pragma once

#include "Targets.h"

#include <optional>
#include <string>
#include <vector>

namespace mycc::driver {

// What the invocation stops at (nvcc's "phase" options).
enum class Phase {
  Link,       // default: executable
  Compile,    // -c: host object
  Preprocess, // -E: preprocessed source on stdout or -o
  Ptx,        // -ptx: one .ptx per virtual arch
  Cubin,      // -cubin: one .cubin per real arch
  Fatbin,     // -fatbin: the fat binary
  Cuda,       // -cuda: the rewritten host unit (x.cu.cpp.ii)
  DeviceLink, // -dlink: relocatable device code of objects -> host object
  Lib,        // -lib: the inputs' objects (and the objects given) -> a static
              // library, through ar as nvcc's
  // -r: the inputs' objects (and the objects given) -> one relocatable
  // object (ld -r), their relocatable device code linked by nvlink -r.
  RelocatableLink,
  Dependencies, // -M/-MM: only the make rule of each input's dependencies
};

enum class CudartKind { Static, Shared, None };

// One -gencode pair after expansion: the virtual arch compiled by the front
// end, and what is embedded from it (cubins for real archs, and/or the PTX).
struct TargetPair {
  Target virtualArch;          // compute_XY
  std::vector<Target> codes;   // sm_XY (cubin) and/or compute_XY (PTX)
};

struct Options {
  std::vector<std::string> inputs; // in command-line order
  std::string output;              // -o, empty if not given
  Phase phase = Phase::Link;
  std::optional<std::string> language; // -x cu / c++ / c

  // Targets, after expanding -arch/-code/-gencode and defaults. Each virtual
  // arch appears once; codes are deduplicated.
  std::vector<TargetPair> targets;
  // -arch=native: the installed GPUs are still to be added (addNativeTargets);
  // until then `targets` holds only what -gencode asked for.
  bool nativeArch = false;
  // Whether -arch/-code/-gencode gave any target (else `targets` holds the
  // default). A device link without targets takes those the objects carry.
  bool targetsGiven = false;
  // -rdc=true / -dc: device code stays relocatable (nvcc's relocatable fat
  // binary in the object) and is joined by a device link (nvlink).
  bool rdc = false;
  // -dlto: relocatable device code stays LLVM bitcode, joined and optimised
  // as one program by the device link (mycc's own format).
  bool deviceLto = false;
  // -ewp: extensible whole program. Objects and device link as with -rdc
  // (rdc is set), but each unit's device code is a whole program (its
  // __device__ functions internal) that may call into libcudadevrt: nvcc's
  // cicc --partial-link, ptxas -ewp, __CUDACC_EWP__ instead of __CUDACC_RDC__.
  bool extensibleWholeProgram = false;

  // Preprocessor and language.
  std::vector<std::string> includeDirs;   // -I
  std::vector<std::string> systemIncludeDirs; // -isystem
  std::vector<std::string> preIncludes;   // -include
  std::vector<std::string> macros;        // -D NAME[=VALUE] and -U NAME, in
                                          // order, as "-DNAME=V" / "-UNAME"
  std::string std;                        // -std=c++17 → "c++17"

  // Optimisation and debug.
  unsigned hostOptLevel = 0;  // -O (host; nvcc's default is -O0 for host)
  bool optLevelGiven = false;
  bool debug = false;         // -g
  bool lineInfo = false;      // -lineinfo
  bool deviceDebug = false;   // -G: device debug information, no device
                              // optimisation

  // Device floating point, resolved (-use_fast_math sets the four it implies
  // unless they are given).
  bool fastMath = false;  // -use_fast_math
  bool ftz = false;       // -ftz
  bool precDiv = true;    // -prec-div
  bool precSqrt = true;   // -prec-sqrt
  bool fmad = true;       // -fmad
  unsigned maxRegCount = 0; // -maxrregcount; 0: not given
  // -jtd: switch case density (percent) from which a jump table is built;
  // 101 (nvcc's default): never.
  unsigned jumpTableDensity = 101;
  std::vector<std::string> entries; // -e: the kernels ptxas compiles
  bool inlineRemarks = false;       // -opt-info inline
  bool resourceUsage = false; // -res-usage
  bool restrictKernelPointers = false; // -restrict
  bool sourceInPtx = false; // -src-in-ptx (with -lineinfo or -G)
  std::string fastCompile;  // -Ofc {0|min|mid|max}; empty: not given
  bool keepDeviceFunctions = false; // -keep-device-functions (-astoolspatch too)
  bool toolsPatch = false;  // -astoolspatch: ptxas -astoolspatch
  std::string sanitize;     // -sanitize <tool>: ptxas -sanitize=<tool>; empty: none
  // -static-global-template-stub (nvcc 13's default true): in whole-program
  // mode the host stubs of __global__ templates have internal linkage, so
  // each unit launches its own module's kernel.
  bool staticTemplateStubs = true;
  // -device-entity-has-hidden-visibility (nvcc 13's default true): kernels'
  // host stubs and device variables' shadows with external linkage and no
  // visibility of their own are hidden (not exported from a shared library).
  bool hiddenDeviceEntities = true;
  bool deviceSyntaxOnly = false;    // -fdevice-syntax-only
  // -frandom-seed: the units' ids come from it and the source, not from the
  // output path (Planner::unitId).
  std::optional<std::string> randomSeed;

  // Link.
  std::vector<std::string> libDirs; // -L
  std::vector<std::string> libs;    // -l
  CudartKind cudart = CudartKind::Static;
  bool shared = false;              // -shared: link a shared library
  // -hls / --host-linker-script: gen-lcs writes nvlink's host linker script
  // (and nothing else); use-lcs links with it (-Wl,-T). -aug-hls: the
  // script that augments the host linker's default one instead.
  enum class LinkerScript { None, Use, Generate };
  LinkerScript hostLinkerScript = LinkerScript::None;
  bool augmentLinkerScript = false;

  // Pass-through, already split on commas. Unknown options given with
  // -forward-unknown-to-host-compiler (-linker) are among xcompiler
  // (xlinker), in command-line order.
  std::vector<std::string> xcompiler, xptxas, xlinker, xnvlink, xarchive;
  std::string archiver; // -arbin / --archiver-binary; empty: the host
                        // compiler's ar
  bool cudadevrt = true; // -cudadevrt static (default) / none
  // Fat binary compression, as nvcc 13's fatbinary does it: -compress-mode,
  // -no-compress, and fatbinary's own options given with -Xfatbin
  // (-compress-all, -compress=true|false, -compress-mode, -g). Which images
  // get compressed is the planner's (docs/options.md, "Fat binary
  // compression").
  enum class CompressMode { Default, Size, Speed, Balance, None };
  CompressMode compressMode = CompressMode::Default; // None: no compression
  bool compressAll = false; // -Xfatbin -compress-all: cubins too
  bool fatbinDebug = false; // -Xfatbin -g: images marked debug
  // -Xcudafe, split on commas as the others: nvcc's front-end options. The
  // few with a Clang meaning set noWarnings and errorLimit; the rest are
  // accepted and ignored (nvcc's diagnostic numbers name no Clang warning).
  std::vector<std::string> xcudafe;
  unsigned errorLimit = 0; // -Xcudafe --error_limit=N; 0: Clang's default
  // Clang's diagnostic flags for nvcc's front-end options (-diag-suppress,
  // -Wno-deprecated-declarations, -ftemplate-depth, ...), both Clang sides.
  std::vector<std::string> clangFlags;

  // Dependency files. -M/-MM are Phase::Dependencies; -MD/-MMD write the
  // rule next to the compile (depsWithCompile). -MM/-MMD leave out headers
  // found in system directories (depsSystemHeaders false).
  bool depsWithCompile = false;
  bool depsSystemHeaders = true;
  std::string depsFile;   // -MF, empty if not given
  std::string depsTarget; // -MT, empty if not given
  bool depsPhonyTargets = false; // -MP

  // Driver behaviour.
  bool keep = false;
  std::string keepDir;
  // -objtemp: with -c/-dc/-dw, intermediate files in the object's directory
  // instead of the system's temporary directory.
  bool objectDirAsTemp = false;
  // -odir: where the outputs mycc names itself go (not -o's).
  std::string outputDir;
  bool cleanTargets = false; // -clean: delete what would be made, run nothing
  bool noDeviceLink = false; // -nodlink: link rdc objects without device link
  bool relocatablePtx = false; // -reloc-ptx: units' PTX in the device link's fat binary
  bool dryrun = false;
  bool verbose = false;
  bool run = false;                  // -run: run the program afterwards
  std::vector<std::string> runArgs;  // -run-args, words of the shell command
  // -t/--threads: jobs run at once, for every input and target; 0 (and the
  // default) one per CPU. Under make -j the jobserver's tokens bound it too.
  std::optional<unsigned> threads;
  std::string timeFile; // -time: CSV of each job's time; "-" is stdout
  // -fdevice-time-trace: a Chrome trace of the jobs (and of LLVM's phases in
  // mycc's own) in <name>.json; "-": the output's name + .json. Empty: none.
  std::string timeTraceFile;
  // -split-compile / -split-compile-extended: threads for the code
  // generation of one device module and for each ptxas; 0: one per CPU.
  // Unset: ptxas runs one thread, and a large module's code generation is
  // split into a fixed number of parts emitted on the job slots idle then.
  std::optional<unsigned> splitCompile;
  bool jobserver = false; // -jobserver (mycc uses make's jobserver anyway)
  std::string cudaPath; // --cuda-path, else CUDA_PATH, else the build default
  // -ldir with -noprof: libdevice.10.bc's directory; empty: the toolkit's.
  std::string libdeviceDir;
  std::string targetDir; // -target-dir: the toolkit's targets/ subfolder
  std::string ccbin;    // -ccbin
  bool allowUnsupportedCompiler = false; // -allow-unsupported-compiler
  bool hostInProcess = false;            // --host-in-process

  // Language flags.
  bool extendedLambda = false;
  bool relaxedConstexpr = false;
  bool noWarnings = false;   // -w
  bool warnReorder = false;  // -Wreorder
  bool warnDefaultStreamLaunch = false; // -Wdefault-stream-launch
  bool warnMissingLaunchBounds = false; // -Wmissing-launch-bounds
  bool warningsAsErrors = false; // -Werror (all-warnings)
  // Every -Werror kind given (all-warnings, reorder, ...), deduplicated, in
  // command-line order; plain -Werror counts as all-warnings.
  std::vector<std::string> werrorKinds;

  // Informational requests: when set, nothing is compiled.
  bool showVersion = false;
  bool showHelp = false;
  bool listGpuArch = false;
  bool listGpuCode = false;
};

struct ParseResult {
  Options options;
  std::string error; // one line, empty on success
  // Non-fatal diagnostics (e.g. a single-valued option given twice with
  // different values: the last one wins, as in nvcc). One line each, without
  // a prefix; the caller prints them.
  std::vector<std::string> warnings;
  explicit operator bool() const { return error.empty(); }
};

// nvcc's NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS: their words (split as
// in an options file) before and after the command line's.
std::vector<std::string> withEnvironmentFlags(const std::vector<std::string> &args,
                                              const std::string &prepend,
                                              const std::string &append);

// Parses argv[1..]. Never exits and never prints.
ParseResult parseCommandLine(const std::vector<std::string> &args);

// Completes -arch=native with the installed GPUs (what the toolkit's
// __nvcc_device_query reported): one sm_XY cubin compiled from compute_XY for
// each, as nvcc 13 does, ahead of the -gencode targets. GPUs the toolkit
// cannot build for are skipped with a warning; with no GPU left, nvcc 13's
// warning and, when -gencode gave no target, its default architecture.
// Returns an error (one line, no prefix) on failure.
std::string addNativeTargets(Options &options, const std::vector<GpuArch> &gpus,
                             std::vector<std::string> &warnings,
                             const std::string &noGpuReason = "");

// nvcc-style help text.
std::string helpText();

} // namespace mycc::driver
