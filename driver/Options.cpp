// nvcc's command line → Options.
//
// Options files (--options-file, -optf) are expanded in place first. Then two
// steps:
//  1. normalise: every argument is matched against nvcc's spellings (the
//     single-dash short form such as `-arch`, `-Xcompiler`, `-I`, and the
//     double-dash long form such as `--gpu-architecture`), with its value taken
//     from `=value`, from the argument itself (`-I/usr/x`, `-DX=1`, `-O3`) or
//     from the next argument. The result is a canonical command line,
//     `--<canon>=<value>` per value (list values already split on commas),
//     followed by `--` and the inputs.
//  2. CLI11 parses that canonical line into raw vectors, validating the
//     values of enumerated options; the semantic pass then builds the typed
//     model (last value wins for single-valued options, targets expanded and
//     deduplicated, phases checked).
#include "Options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace mycc::driver {
namespace {

//===----------------------------------------------------------------------===//
// The spellings
//===----------------------------------------------------------------------===//

enum class Kind {
  Flag,          // no value
  Value,         // value from `=`, attached (see Spec::attached) or next arg
  OptionalValue, // -Werror: `=value`, or the next arg if it is a valid value
};

// CommasSpacesEscapes: as CommasAndSpaces, and `\,` is a comma inside an item
// (nvcc 13 splits -Xcompiler so, measured: -Xcompiler=-Wl\,-rpath\,/r gives
// the host compiler -Wl,-rpath,/r; -Xlinker, -I and the others keep the
// backslash and split there). Meson escapes commas that way.
enum class Split { None, Commas, CommasAndSpaces, CommasSpacesEscapes };

enum class Group {
  Phase,
  Files,
  Build,
  Language,
  Passthrough,
  Targets,
  Driver,
  Info,
  Hidden, // accepted alias, not listed in the help
};

struct Spec {
  const char *shortName; // nvcc's single-dash spelling, "" if none
  const char *longName;  // the double-dash spelling, "" if none
  const char *canon;     // option of the internal CLI11 app (no dashes)
  Kind kind;
  Group group;
  const char *metavar; // for the help: "<file>"
  const char *help;
  bool attached = false; // one-letter option whose value may follow directly
  Split split = Split::None;
  // Flags: the value they give `canon` (the phase options share one option).
  // Values: a prefix put before each value (-D / -U share "macro").
  const char *fixed = "";
};

// clang-format off
const Spec kSpecs[] = {
  // Phases.
  {"-cuda", "--cuda", "phase", Kind::Flag, Group::Phase, "",
   "Stop after writing the rewritten host C++ unit (.cu.cpp.ii).", false, Split::None, "cuda"},
  {"-cubin", "--cubin", "phase", Kind::Flag, Group::Phase, "",
   "Stop after writing one cubin per real GPU architecture.", false, Split::None, "cubin"},
  {"-fatbin", "--fatbin", "phase", Kind::Flag, Group::Phase, "",
   "Stop after writing the fat binary of all device images.", false, Split::None, "fatbin"},
  {"-ptx", "--ptx", "phase", Kind::Flag, Group::Phase, "",
   "Stop after writing one PTX file per virtual GPU architecture.", false, Split::None, "ptx"},
  {"-E", "--preprocess", "phase", Kind::Flag, Group::Phase, "",
   "Preprocess only; the result goes to stdout, or to -o.", false, Split::None, "preprocess"},
  {"-c", "--compile", "phase", Kind::Flag, Group::Phase, "",
   "Compile each input to an object file; do not link.", false, Split::None, "compile"},
  {"-dc", "--device-c", "phase", Kind::Flag, Group::Phase, "",
   "Compile each input to an object with relocatable device code (-c -rdc=true).", false, Split::None, "device-c"},
  {"-lib", "--lib", "phase", Kind::Flag, Group::Phase, "",
   "Compile the inputs and put their objects, with the objects given, into a static library "
   "(a.a unless -o), with ar as nvcc does.", false, Split::None, "lib"},
  {"-r", "--relocatable-link", "phase", Kind::Flag, Group::Phase, "",
   "Relocatable link (ld -r) of the inputs' objects and the objects given into one object "
   "(a.out unless -o), their relocatable device code linked by nvlink -r, as nvcc's; a later "
   "link device-links it.", false, Split::None, "relocatable-link"},
  {"-dlink", "--device-link", "phase", Kind::Flag, Group::Phase, "",
   "Link the relocatable device code of the objects and libraries given into one host object.", false, Split::None, "device-link"},
  {"-dw", "--device-w", "phase", Kind::Flag, Group::Phase, "",
   "Compile each input to an object with whole-program device code (-c -rdc=false).", false,
   Split::None, "device-w"},
  {"-link", "--link", "phase", Kind::Flag, Group::Phase, "",
   "Compile and link all inputs (the default).", false, Split::None, "link"},

  // Dependency files (nvcc lists them with the phases). The four generating
  // options share one canonical option; see dependencyOptions.
  {"-M", "--generate-dependencies", "dependencies", Kind::Flag, Group::Phase, "",
   "Write a make rule with the dependencies of each input (to -o, -MF or stdout); "
   "do not compile.", false, Split::None, "M"},
  {"-MM", "--generate-nonsystem-dependencies", "dependencies", Kind::Flag, Group::Phase, "",
   "Same as -M, but skip headers found in system directories.", false, Split::None, "MM"},
  {"-MD", "--generate-dependencies-with-compile", "dependencies", Kind::Flag, Group::Phase, "",
   "Write the dependency rule to a file (-MF, else -o or the input with suffix .d) "
   "and compile.", false, Split::None, "MD"},
  {"-MMD", "--generate-nonsystem-dependencies-with-compile", "dependencies", Kind::Flag,
   Group::Phase, "", "Same as -MD, but skip headers found in system directories.", false,
   Split::None, "MMD"},
  {"-MF", "--dependency-output", "dependency-output", Kind::Value, Group::Phase, "<file>",
   "Output file for the dependency rule of -M, -MM, -MD or -MMD."},
  {"-MP", "--generate-dependency-targets", "dependency-targets", Kind::Flag, Group::Phase, "",
   "Add an empty target for each dependency."},
  {"-MT", "--dependency-target-name", "dependency-target-name", Kind::Value, Group::Phase,
   "<target>", "Target name of the dependency rule (default: the output file, or x.o)."},

  // Files and paths.
  {"-o", "--output-file", "output-file", Kind::Value, Group::Files, "<file>",
   "Name and location of the output file."},
  {"-include", "--pre-include", "pre-include", Kind::Value, Group::Files, "<file>,...",
   "Header files to include before each input.", false, Split::Commas},
  {"-l", "--library", "library", Kind::Value, Group::Files, "<library>,...",
   "Libraries to link (without the lib prefix and the extension).", true, Split::Commas},
  {"-D", "--define-macro", "macro", Kind::Value, Group::Files, "<def>,...",
   "Macros to define: NAME or NAME=VALUE.", true, Split::Commas, "-D"},
  {"-U", "--undefine-macro", "macro", Kind::Value, Group::Files, "<def>,...",
   "Macros to undefine.", true, Split::Commas, "-U"},
  {"-I", "--include-path", "include-path", Kind::Value, Group::Files, "<path>,...",
   "Include search paths.", true, Split::Commas},
  {"-isystem", "--system-include", "system-include", Kind::Value, Group::Files, "<path>,...",
   "System include search paths.", false, Split::Commas},
  {"-L", "--library-path", "library-path", Kind::Value, Group::Files, "<path>,...",
   "Library search paths.", true, Split::Commas},
  {"-ccbin", "--compiler-bindir", "compiler-bindir", Kind::Value, Group::Files, "<path>",
   "Host compiler, or the directory that holds it."},
  {"", "--host-in-process", "host-in-process", Kind::Flag, Group::Files, "",
   "Compile the host half of .cu files with mycc's own Clang, in process, instead of "
   "the host compiler (faster; the host objects are Clang's)."},
  {"-cudart", "--cudart", "cudart", Kind::Value, Group::Files, "{none|shared|static}",
   "CUDA runtime library to link (default: static)."},
  {"-cudadevrt", "--cudadevrt", "cudadevrt", Kind::Value, Group::Files, "{none|static}",
   "The device runtime library (libcudadevrt.a) in the device link (default: static)."},
  {"-shared", "--shared", "shared", Kind::Flag, Group::Files, "",
   "Link a shared library instead of an executable."},
  {"-optf", "--options-file", "options-file", Kind::Value, Group::Files, "<file>,...",
   "Read more options from these files (words separated by white space, \"...\" quotes, \\ escapes)."},
  {"", "--cuda-path", "cuda-path", Kind::Value, Group::Files, "<path>",
   "CUDA toolkit to use (default: $CUDA_PATH, else the toolkit found at build time)."},

  // Optimisation and debug.
  {"-O", "--optimize", "optimize", Kind::Value, Group::Build, "<level>",
   "Optimization level for host code (default: 0).", true},
  {"-g", "--debug", "debug", Kind::Flag, Group::Build, "",
   "Generate debug information for host code."},
  {"-lineinfo", "--generate-line-info", "line-info", Kind::Flag, Group::Build, "",
   "Generate line-number information for device code."},
  {"-G", "--device-debug", "device-debug", Kind::Flag, Group::Build, "",
   "Generate debug information for device code, and do not optimize it."},

  // Language.
  {"-x", "--x", "x", Kind::Value, Group::Language, "{c|c++|cu}",
   "Language of the inputs, instead of choosing by file suffix."},
  {"", "--x-language", "x", Kind::Value, Group::Hidden, "{c|c++|cu}", ""},
  {"-std", "--std", "std", Kind::Value, Group::Language, "{c++03|c++11|c++14|c++17|c++20}",
   "C++ dialect, for device and host code."},
  {"-expt-relaxed-constexpr", "--expt-relaxed-constexpr", "relaxed-constexpr", Kind::Flag,
   Group::Language, "", "Let host code call __device__ constexpr functions, and vice versa."},
  {"-extended-lambda", "--extended-lambda", "extended-lambda", Kind::Flag, Group::Language, "",
   "Allow __host__ and __device__ annotations on lambdas."},
  {"-expt-extended-lambda", "--expt-extended-lambda", "extended-lambda", Kind::Flag,
   Group::Language, "", "Same as --extended-lambda."},
  {"-w", "--disable-warnings", "disable-warnings", Kind::Flag, Group::Language, "",
   "Suppress all warnings."},
  {"-Werror", "--Werror", "werror", Kind::OptionalValue, Group::Language, "<kind>,...",
   "Turn warnings of these kinds into errors (alone: all-warnings).", false, Split::Commas},
  {"-Wreorder", "--Wreorder", "Wreorder", Kind::Flag, Group::Language, "",
   "Warn where member initializers are written out of declaration order."},
  {"-Wdefault-stream-launch", "--Wdefault-stream-launch", "Wdefault-stream-launch",
   Kind::Flag, Group::Language, "",
   "Warn where a kernel launch gives no stream (nvcc's warning #20198)."},
  {"-Wmissing-launch-bounds", "--Wmissing-launch-bounds", "Wmissing-launch-bounds",
   Kind::Flag, Group::Language, "",
   "Warn where a __global__ function has no __launch_bounds__ (nvcc's warning #20238)."},
  {"-Wno-deprecated-declarations", "--Wno-deprecated-declarations",
   "no-deprecated-declarations", Kind::Flag, Group::Language, "",
   "Do not warn about uses of deprecated entities (device side and host compiler)."},
  {"-diag-suppress", "--diag-suppress", "diag-suppress", Kind::Value, Group::Language,
   "<number>,...", "Suppress nvcc's front-end diagnostics of these numbers or names (the "
   "Clang warnings they correspond to; docs/options.md lists them).", false, Split::Commas},
  {"-diag-error", "--diag-error", "diag-error", Kind::Value, Group::Language, "<number>,...",
   "Make nvcc's front-end diagnostics of these numbers errors.", false, Split::Commas},
  {"-diag-warn", "--diag-warn", "diag-warn", Kind::Value, Group::Language, "<number>,...",
   "Make nvcc's front-end diagnostics of these numbers warnings.", false, Split::Commas},
  {"-ftemplate-depth", "--ftemplate-depth", "template-depth", Kind::Value, Group::Language,
   "<N>", "Most nested template instantiations (Clang's -ftemplate-depth)."},
  {"-ftemplate-backtrace-limit", "--ftemplate-backtrace-limit", "template-backtrace-limit",
   Kind::Value, Group::Language, "<N>",
   "Most template instantiation notes per diagnostic; 0: all."},
  {"-pg", "--profile", "profile", Kind::Flag, Group::Language, "",
   "Instrument the host code and program for gprof (-pg to the host compiler and link)."},
  {"-noeh", "--no-exceptions", "no-exceptions", Kind::Flag, Group::Language, "",
   "No exception handling in host code (-fno-exceptions to the host compiler)."},
  {"-nohdinitlist", "--no-host-device-initializer-list", "no-effect", Kind::Flag,
   Group::Language, "",
   "Accepted; mycc (Clang) lets device code call std::initializer_list's members either way."},
  {"-nohdmoveforward", "--no-host-device-move-forward", "no-effect", Kind::Flag,
   Group::Language, "",
   "Accepted; mycc (Clang) lets device code call std::move and std::forward either way."},
  {"-err-no", "--display-error-number", "no-effect", Kind::Flag, Group::Language, "",
   "Accepted; mycc's diagnostics carry no EDG numbers (warnings name their -W flag)."},
  {"-no-err-no", "--no-display-error-number", "no-effect", Kind::Flag, Group::Language, "",
   "Accepted; mycc's diagnostics carry no EDG numbers."},
  {"-brief-diag", "--brief-diagnostics", "brief-diagnostics", Kind::Value, Group::Language,
   "{true|false}", "true: diagnostics without the source line and caret."},
  {"-Wext-lambda-captures-this", "--Wext-lambda-captures-this", "no-effect", Kind::Flag,
   Group::Language, "", "Accepted; mycc does not warn when an extended lambda captures this."},
  {"-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", "no-deprecated-gpu-targets",
   Kind::Flag, Group::Language, "",
   "Accepted; mycc does not warn about the architectures the toolkit supports."},

  // Options for the tools underneath.
  {"-Xcompiler", "--compiler-options", "compiler-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for the host compiler (compile and link); \\, is a comma "
   "inside an option.", false, Split::CommasSpacesEscapes},
  {"-Xptxas", "--ptxas-options", "ptxas-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for ptxas.", false, Split::CommasAndSpaces},
  {"-Xlinker", "--linker-options", "linker-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for the host linker.", false, Split::CommasAndSpaces},
  {"-Xarchive", "--archive-options", "archive-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for the archiver (-lib).", false, Split::CommasAndSpaces},
  {"-arbin", "--archiver-binary", "archiver-binary", Kind::Value, Group::Passthrough,
   "<path>", "The archiver -lib runs (default: the host compiler's ar)."},
  {"-Xnvlink", "--nvlink-options", "nvlink-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for nvlink, the device linker.", false, Split::CommasAndSpaces},
  {"-Xfatbin", "--fatbin-options", "fatbin-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for nvcc's fatbinary: -compress-all, -compress=true|false, "
   "-compress-mode=<mode> and -g take effect (mycc writes fat binaries itself).", false,
   Split::CommasAndSpaces},
  {"-compress-mode", "--compress-mode", "compress-mode", Kind::Value, Group::Files,
   "{default|size|speed|balance|none}",
   "Fat binary compression: PTX zstd-compressed by default; size: cubins too, harder; "
   "speed: LZ4; none: nothing compressed."},
  {"-no-compress", "--no-compress", "no-compress", Kind::Flag, Group::Files, "",
   "Do not compress device code in the fat binary."},
  {"-Xcudafe", "--cudafe-options", "cudafe-options", Kind::Value, Group::Passthrough,
   "<options>,...", "Options for nvcc's front end: -w (--no_warnings) and --error_limit=N "
   "take effect, all others (--diag_suppress=..., ...) are accepted and ignored.", false,
   Split::CommasAndSpaces},
  {"-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
   "forward-unknown-to-host-compiler", Kind::Flag, Group::Passthrough, "",
   "Pass options mycc does not know to the host compiler (compile and link) instead of "
   "rejecting them."},
  {"-forward-unknown-opts", "--forward-unknown-opts", "forward-unknown-opts", Kind::Flag,
   Group::Passthrough, "",
   "-forward-unknown-to-host-compiler and -forward-unknown-to-host-linker together."},
  {"-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker",
   "forward-unknown-to-host-linker", Kind::Flag, Group::Passthrough, "",
   "Pass options mycc does not know to the host linker (-Xlinker) instead of rejecting them."},

  // GPU targets.
  {"-arch", "--gpu-architecture", "gpu-architecture", Kind::Value, Group::Targets, "<arch>",
   "Virtual architecture (compute_XY); alone, sm_XY means -arch=compute_XY -code=sm_XY,compute_XY; "
   "native, all and all-major stand for the installed GPUs, every GPU, every major GPU."},
  {"-code", "--gpu-code", "gpu-code", Kind::Value, Group::Targets, "<code>,...",
   "Cubins (sm_XY) and PTX (compute_XY) to embed, compiled for -arch.", false, Split::Commas},
  {"-rdc", "--relocatable-device-code", "relocatable-device-code", Kind::Value, Group::Targets, "{true|false}",
   "Keep device code relocatable: device functions and variables may be defined in another unit; a device link "
   "(NVIDIA's nvlink) joins them. Objects are nvcc's: either compiler links the other's."},
  {"-lto", "--lto", "dlink-time-opt", Kind::Flag, Group::Hidden, "", ""},
  {"-ewp", "--extensible-whole-program", "extensible-whole-program", Kind::Flag, Group::Targets, "",
   "Whole-program device code that a device link can still extend (libcudadevrt: dynamic "
   "parallelism): relocatable objects as with -rdc=true, __device__ functions internal, "
   "ptxas -ewp and __CUDACC_EWP__, as nvcc's."},
  {"-dlto", "--dlink-time-opt", "dlink-time-opt", Kind::Flag, Group::Targets, "",
   "With -rdc=true: keep the device code as LLVM bitcode and optimise the whole device program at the "
   "device link (mycc's objects only)."},
  {"-gencode", "--generate-code", "generate-code", Kind::Value, Group::Targets,
   "arch=<arch>,code=<code>", "A virtual architecture and the images to embed from it; repeatable."},
  {"-Ofc", "--Ofast-compile", "fast-compile", Kind::Value, Group::Targets, "{0|min|mid|max}",
   "Device compile time before run time: ptxas's --Ofast-compile=<level>; mid and max "
   "also optimise the device code less (LLVM -O2, -O1)."},
  {"-fdevice-syntax-only", "--fdevice-syntax-only", "device-syntax-only", Kind::Flag,
   Group::Targets, "",
   "The device sides are checked, not compiled: their PTX is an empty module, as nvcc's "
   "(the program builds; its kernels have no code)."},
  {"-static-global-template-stub", "--static-global-template-stub",
   "static-global-template-stub", Kind::Value, Group::Targets, "{true|false}",
   "Whole-program mode: the host stubs of __global__ templates are static, so each unit "
   "launches its own module's kernel (default true, as nvcc's); false: weak stubs, the "
   "linker keeps one."},
  {"-device-entity-has-hidden-visibility", "--device-entity-has-hidden-visibility",
   "device-entity-has-hidden-visibility", Kind::Value, Group::Targets, "{true|false}",
   "Kernels' host stubs (and with -rdc=true device variables' shadows) without a "
   "visibility of their own are hidden (default true, as nvcc's); false: default "
   "visibility."},
  {"-astoolspatch", "--compile-as-tools-patch", "compile-as-tools-patch", Kind::Flag,
   Group::Targets, "",
   "Patch code for CUDA tools (with -ptx, -cubin or -fatbin): -keep-device-functions and "
   "ptxas -astoolspatch, as nvcc's."},
  {"-sanitize", "--sanitize", "sanitize", Kind::Value, Group::Targets, "<tool>",
   "Instrumentation for a compute-sanitizer tool, which ptxas inserts: ptxas "
   "-sanitize=<tool> for each unit's cubins, as nvcc's (this toolkit's ptxas takes memcheck)."},
  {"-keep-device-functions", "--keep-device-functions", "keep-device-functions", Kind::Flag,
   Group::Targets, "",
   "Whole-program device code keeps the __device__ functions with external linkage that "
   "no kernel calls (by default they are dropped, as nvcc drops them)."},
  {"-src-in-ptx", "--source-in-ptx", "source-in-ptx", Kind::Flag, Group::Targets, "",
   "With -lineinfo or -G: each source line as a comment before its PTX "
   "(//<file>:<line> <text>, as nvcc writes them); without, no effect."},
  {"-dopt", "--dopt", "dopt", Kind::Value, Group::Targets, "{on}",
   "Optimise device code; with -G, the debug information is then line numbers only "
   "(as -lineinfo)."},
  {"-device-stack-protector", "--device-stack-protector", "device-stack-protector",
   Kind::Value, Group::Targets, "{false}",
   "Stack canaries in device code: false (the default) only; true is rejected (LLVM's "
   "NVPTX backend has no stack protector)."},
  {"-use_fast_math", "--use_fast_math", "use-fast-math", Kind::Flag, Group::Targets, "",
   "Fast device math: -ftz=true -prec-div=false -prec-sqrt=false -fmad=true (each unless given), "
   "and sinf, cosf, tanf, sincosf, logf, log2f, log10f, expf, exp10f, powf and tanhf as their "
   "approximate intrinsics (__sinf, ...)."},
  {"-ftz", "--ftz", "ftz", Kind::Value, Group::Targets, "{true|false}",
   "Flush single-precision denormals to zero (default: false)."},
  {"-prec-div", "--prec-div", "prec-div", Kind::Value, Group::Targets, "{true|false}",
   "IEEE round-to-nearest single-precision division and reciprocal (default: true); "
   "false: div.full and rcp.approx, or div.approx with -use_fast_math."},
  {"-prec-sqrt", "--prec-sqrt", "prec-sqrt", Kind::Value, Group::Targets, "{true|false}",
   "IEEE round-to-nearest single-precision square root (default: true)."},
  {"-fmad", "--fmad", "fmad", Kind::Value, Group::Targets, "{true|false}",
   "Contract floating-point multiplies and adds into fma (default: true)."},
  {"-opt-info", "--optimization-info", "optimization-info", Kind::Value, Group::Targets,
   "inline",
   "Optimisation remarks of the device code: inline, which calls were inlined and which not "
   "(LLVM's inliner's remarks, with the call's file:line:col), as nvcc's.", false, Split::Commas},
  {"-jtd", "--jump-table-density", "jump-table-density", Kind::Value, Group::Targets, "<0..101>",
   "Case density (percent) from which a switch becomes a jump table (PTX brx.idx); 101, the "
   "default as nvcc's, never (nor into a table of values in global memory)."},
  {"-e", "--entries", "entries", Kind::Value, Group::Targets, "<entry>,...",
   "The kernels (mangled names) ptxas generates code for; the PTX keeps every kernel (ptxas -e, "
   "as nvcc's).", false, Split::Commas},
  {"-maxrregcount", "--maxrregcount", "maxrregcount", Kind::Value, Group::Targets, "<N>",
   "Most registers a kernel may use (ptxas -maxrregcount; __launch_bounds__ and "
   "__maxnreg__ decide for their kernels)."},
  {"-res-usage", "--resource-usage", "resource-usage", Kind::Flag, Group::Targets, "",
   "Print the registers and memory each kernel uses (ptxas -v)."},
  {"-restrict", "--restrict", "restrict", Kind::Flag, Group::Targets, "",
   "Take every pointer parameter of a kernel as __restrict__."},
  {"-gen-opt-lto", "--gen-opt-lto", "gen-opt-lto", Kind::Flag, Group::Targets, "",
   "Accepted: with -dlto, mycc's LLVM bitcode is always optimised (LLVM's pre-link pipeline) "
   "before the device link."},
  {"-extra-device-vectorization", "--extra-device-vectorization",
   "extra-device-vectorization", Kind::Flag, Group::Targets, "",
   "Accepted; LLVM's -O3 pipeline already runs its loop and SLP vectorizers on device code."},
  {"-default-stream", "--default-stream", "default-stream", Kind::Value, Group::Targets,
   "{legacy|null|per-thread}", "Stream of launches and copies that name none "
   "(per-thread: CUDA_API_PER_THREAD_DEFAULT_STREAM=1, as nvcc defines it)."},
  {"-m64", "--m64", "machine", Kind::Flag, Group::Targets, "",
   "64-bit host code (the only kind nvcc 13 and mycc make).", false, Split::None, "64"},
  {"-m", "--machine", "machine", Kind::Value, Group::Targets, "{64}",
   "Host bitness: 64 (the only value nvcc 13 takes)."},

  // Driver behaviour.
  {"-dryrun", "--dryrun", "dryrun", Kind::Flag, Group::Driver, "",
   "List the compilation steps without running them."},
  {"-v", "--verbose", "verbose", Kind::Flag, Group::Driver, "",
   "List the compilation steps as they are run."},
  {"-keep", "--keep", "keep", Kind::Flag, Group::Driver, "",
   "Keep the intermediate files."},
  {"-save-temps", "--save-temps", "keep", Kind::Flag, Group::Driver, "",
   "Same as --keep."},
  {"-frandom-seed", "--frandom-seed", "random-seed", Kind::Value, Group::Driver, "<seed>",
   "Name the units' symbols from this seed and the source instead of the output path: "
   "the same source and options give identical objects under any output name."},
  {"-keep-dir", "--keep-dir", "keep-dir", Kind::Value, Group::Driver, "<directory>",
   "Directory for the intermediate files."},
  {"-run", "--run", "run", Kind::Flag, Group::Driver, "",
   "Link an executable and run it; a single input that is not a source or object file "
   "is run as it is (through the shell, as nvcc does)."},
  {"-run-args", "--run-args", "run-args", Kind::Value, Group::Driver, "<arguments>,...",
   "Arguments for the program -run runs.", false, Split::Commas},
  {"-t", "--threads", "threads", Kind::Value, Group::Driver, "<number>",
   "Jobs run at once, for all inputs and targets (0: one per CPU, the default; "
   "under make -j, jobs beyond the first also take the jobserver's tokens).", true},
  {"-split-compile", "--split-compile", "split-compile", Kind::Value, Group::Driver, "<number>",
   "Threads for device code generation of each virtual architecture and device link "
   "(0: one per CPU)."},
  {"-split-compile-extended", "--split-compile-extended", "split-compile", Kind::Value,
   Group::Driver, "<number>", "Same as -split-compile (mycc splits code generation only)."},
  {"-fdevice-time-trace", "--fdevice-time-trace", "fdevice-time-trace", Kind::Value,
   Group::Driver, "<file>",
   "A Chrome trace (chrome://tracing, Perfetto) of the compile: each job, and inside mycc's own "
   "jobs the front end's and LLVM's phases, written to <file>.json ('-': the output's name "
   "and .json), as nvcc names it."},
  {"-time", "--time", "time", Kind::Value, Group::Driver, "<file>",
   "Append a CSV table with the time of each job to <file> (nvcc's columns; '-': stdout)."},
  {"-allow-unsupported-compiler", "--allow-unsupported-compiler",
   "allow-unsupported-compiler", Kind::Flag, Group::Driver, "",
   "Let the CUDA headers accept a host compiler version they do not know (defines "
   "__NV_NO_HOST_COMPILER_CHECK for the host compiler, as nvcc does)."},
  {"-odir", "--output-directory", "output-directory", Kind::Value, Group::Driver, "<directory>",
   "The directory of outputs mycc names itself (x.o, a.out, x.ptx, a.a, the dependency "
   "rule's target and x.d); -o is taken as given. The directory is not created."},
  {"-clean", "--clean-targets", "clean-targets", Kind::Flag, Group::Driver, "",
   "Run nothing; delete the files the command would create (not the intermediate ones)."},
  {"-objtemp", "--objdir-as-tempdir", "objdir-as-tempdir", Kind::Flag, Group::Driver, "",
   "With -c, -dc or -dw: intermediate files in the object's directory instead of the "
   "temporary directory (with -keep they stay there)."},
  {"-hls", "--host-linker-script", "host-linker-script", Kind::Value, Group::Driver,
   "{use-lcs|gen-lcs}",
   "nvlink's host linker script (placing the fat binaries' sections): use-lcs links with it, "
   "gen-lcs (no inputs) writes it to -o or stdout."},
  {"-aug-hls", "--augment-host-linker-script", "augment-host-linker-script", Kind::Flag,
   Group::Driver, "",
   "With -hls: the script augments the host linker's default script instead of replacing it."},
  {"-reloc-ptx", "--relocatable-ptx", "relocatable-ptx", Kind::Flag, Group::Driver, "",
   "A device link's fat binary also carries each unit's relocatable PTX (named by its module "
   "id), as nvcc's."},
  {"-nodlink", "--no-device-link", "no-device-link", Kind::Flag, Group::Driver, "",
   "Link relocatable device code without the device link (give the -dlink object yourself)."},
  {"-noprof", "--dont-use-profile", "dont-use-profile", Kind::Flag, Group::Driver, "",
   "mycc reads no nvcc.profile; with it, -ldir names libdevice's directory."},
  {"-ldir", "--libdevice-directory", "libdevice-directory", Kind::Value, Group::Driver,
   "<directory>", "With -noprof: the directory of libdevice.10.bc (else the toolkit's "
   "nvvm/libdevice), as nvcc's."},
  {"-target-dir", "--target-directory", "target-directory", Kind::Value, Group::Driver,
   "<string>", "The toolkit's targets/ subfolder of the include and library paths: "
   "x86_64-linux, the only one mycc compiles for."},
  {"-use-local-env", "--use-local-env", "no-effect", Kind::Flag, Group::Driver, "",
   "Accepted; for MSVC's environment (Windows), no effect on Linux."},
  {"-force-cl-env-setup", "--force-cl-env-setup", "no-effect", Kind::Flag, Group::Driver, "",
   "Accepted; for MSVC's environment (Windows), no effect on Linux."},
  {"", "--no-align-double", "no-effect", Kind::Flag, Group::Driver, "",
   "Accepted; for 32-bit hosts, no effect on x86-64."},
  {"-idp", "--input-drive-prefix", "no-effect-value", Kind::Value, Group::Driver, "<prefix>",
   "Accepted; for Windows drive prefixes, no effect on Linux."},
  {"-ddp", "--dependency-drive-prefix", "no-effect-value", Kind::Value, Group::Driver,
   "<prefix>", "Accepted; for Windows drive prefixes, no effect on Linux."},
  {"-dp", "--drive-prefix", "no-effect-value", Kind::Value, Group::Driver, "<prefix>",
   "Accepted; for Windows drive prefixes, no effect on Linux."},
  {"-qpp-config", "--qpp-config", "no-effect-value", Kind::Value, Group::Driver, "<config>",
   "Accepted; for QNX's q++, no effect with other host compilers."},
  {"-jobserver", "--jobserver", "jobserver", Kind::Flag, Group::Driver, "",
   "Take the GNU make jobserver's tokens for parallel jobs (mycc does whenever make "
   "offers them)."},

  // Information.
  {"-arch-ls", "--list-gpu-arch", "list-gpu-arch", Kind::Flag, Group::Info, "",
   "List the supported virtual architectures (compute_XY) and exit."},
  {"-code-ls", "--list-gpu-code", "list-gpu-code", Kind::Flag, Group::Info, "",
   "List the supported real architectures (sm_XY) and exit."},
  {"-h", "--help", "help", Kind::Flag, Group::Info, "",
   "Print this help and exit."},
  {"-V", "--version", "version", Kind::Flag, Group::Info, "",
   "Print version information and exit."},
};

// nvcc 13.0 options that mycc does not implement (short and long spellings),
// so that they get an honest "not supported" instead of a misleading
// suggestion (-G is not -g, -lib is not -l ib).
const char *const kUnsupportedNvcc[][2] = {
  {"-optix-ir", "--optix-ir"}, {"-ltoir", "--ltoir"},
};
// clang-format on

const char *const kWerrorKinds[] = {
    "all-warnings",           "cross-execution-space-call",
    "default-stream-launch",  "deprecated-declarations",
    "ext-lambda-captures-this", "missing-launch-bounds",
    "reorder",
};

const char *const kStdValues[] = {"c++03", "c++11", "c++14", "c++17", "c++20"};
const char *const kLanguages[] = {"c", "c++", "cu"};
const char *const kCudartValues[] = {"none", "shared", "static"};
const char *const kCompressModes[] = {"default", "size", "speed", "balance", "none"};

// The spelling a message names an option by: nvcc's short form if it has one.
std::string displayName(const Spec &spec) {
  return *spec.shortName ? spec.shortName : spec.longName;
}

// Every spelling of every option, for findSpec: a command line (or an
// options file) may hold thousands of words.
const std::unordered_map<std::string_view, const Spec *> &spellingTable() {
  static const auto table = [] {
    std::unordered_map<std::string_view, const Spec *> spellings;
    for (const Spec &spec : kSpecs)
      for (std::string_view spelling : {spec.shortName, spec.longName})
        if (!spelling.empty())
          spellings.emplace(spelling, &spec); // the first spec keeps a name
    return spellings;
  }();
  return table;
}

const Spec *findSpec(std::string_view name) {
  auto found = spellingTable().find(name);
  return found == spellingTable().end() ? nullptr : found->second;
}

const Spec &specByCanon(std::string_view canon) {
  for (const Spec &spec : kSpecs)
    if (canon == spec.canon)
      return spec;
  return kSpecs[0]; // not reached: every canon has a spec
}

// An nvcc option mycc does not implement: "-G (--device-debug)".
std::optional<std::string> findUnsupported(std::string_view name) {
  for (const auto &pair : kUnsupportedNvcc) {
    if (name == pair[0] || name == pair[1]) {
      std::string text = *pair[0] ? pair[0] : pair[1];
      if (*pair[0])
        text += std::string(" (") + pair[1] + ")";
      return text;
    }
  }
  return std::nullopt;
}

// Levenshtein distance, or `bound` once it cannot be less (a row's least
// value never decreases).
std::size_t editDistance(std::string_view a, std::string_view b, std::size_t bound) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    std::size_t least = row[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      least = std::min(least, row[j]);
      diag = up;
    }
    if (least >= bound)
      return bound;
  }
  return std::min(row[b.size()], bound);
}

std::string unknownOptionError(std::string_view name) {
  std::string message = "unknown option '" + std::string(name) + "'";
  std::string suggestion;
  // The other number of dashes (--arch, -gpu-architecture, --c) first.
  std::string dashVariant = name.compare(0, 2, "--") == 0
                                ? std::string(name.substr(1))
                                : "-" + std::string(name);
  if (const Spec *spec = findSpec(dashVariant); spec && spec->group != Group::Hidden)
    suggestion = dashVariant;
  // Else a spelling close enough to be a typo: one edit per four characters,
  // and none for one- or two-letter names (-q is not a typo of -E).
  std::size_t core = name.size() - std::min(name.find_first_not_of('-'), name.size());
  std::size_t limit = core < 3 ? 0 : std::max<std::size_t>(1, name.size() / 4);
  std::size_t best = suggestion.empty() ? limit + 1 : 0;
  for (const Spec &spec : kSpecs) {
    if (spec.group == Group::Hidden)
      continue;
    for (const char *spelling : {spec.shortName, spec.longName}) {
      std::size_t length = std::strlen(spelling);
      // The distance is at least the difference in length: a long word
      // (a path, a mistyped value) needs no table of it.
      if (!length || std::max(length, name.size()) - std::min(length, name.size()) >= best)
        continue;
      std::size_t distance = editDistance(name, spelling, best);
      if (distance < best) {
        best = distance;
        suggestion = spelling;
      }
    }
  }
  if (!suggestion.empty())
    message += "; did you mean '" + suggestion + "'?";
  return message;
}

std::string trimmed(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
    --end;
  return std::string(text.substr(begin, end - begin));
}

// Splits a list value on commas (and whitespace for -X options, as nvcc
// hands them to a shell); drops empty items.
std::vector<std::string> splitList(std::string_view value, Split split) {
  std::vector<std::string> items;
  std::string current;
  auto flush = [&] {
    if (!current.empty())
      items.push_back(current);
    current.clear();
  };
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (split == Split::CommasSpacesEscapes && c == '\\' &&
        i + 1 < value.size() && value[i + 1] == ',') {
      current += ',';
      ++i;
    } else if (c == ',' ||
               (split != Split::Commas && split != Split::None &&
                std::isspace(static_cast<unsigned char>(c)))) {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return items;
}

bool isWerrorKind(std::string_view kind) {
  for (const char *known : kWerrorKinds)
    if (kind == known)
      return true;
  return false;
}

template <std::size_t N>
std::string joinValues(const char *const (&values)[N]) {
  std::string text;
  for (const char *value : values) {
    if (!text.empty())
      text += ", ";
    text += value;
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Step 1: nvcc spellings → canonical command line
//===----------------------------------------------------------------------===//

struct Normalised {
  std::vector<std::string> options; // --canon[=value]
  std::vector<std::string> inputs;
};

void emit(Normalised &out, const Spec &spec, const std::optional<std::string> &value) {
  std::string option = std::string("--") + spec.canon;
  if (spec.kind == Kind::Flag) {
    if (*spec.fixed)
      option += std::string("=") + spec.fixed;
    out.options.push_back(option);
    return;
  }
  if (spec.split == Split::None) {
    out.options.push_back(option + "=" + spec.fixed + *value);
    return;
  }
  for (const std::string &item : splitList(*value, spec.split))
    out.options.push_back(option + "=" + spec.fixed + item);
}

//===----------------------------------------------------------------------===//
// Step 0: options files
//===----------------------------------------------------------------------===//
//
// --options-file/-optf <file>,...: each file's words take the option's place
// on the command line. nvcc 13.0's rules, measured with --dryrun:
//  - words are separated by white space (spaces, tabs, newlines); there are
//    no comments ('#' starts a word like any other character);
//  - double quotes group white space into a word; a backslash makes the
//    next character literal; single quotes are ordinary characters;
//  - each word is then unquoted a second time: quotes that survived the
//    first pass (escaped ones included) are removed and backslashes escape
//    again. So -DC=\"q\" and -DK="\"z\"" define C=q and K=z, -DP=a\\\\b
//    defines P=a\b, -DR=x"\\"y defines R=x"y and -DF="a b"c defines F=a bc;
//  - an options file may name further options files.

// The first pass: split into words; backslashes are consumed, quotes kept.
std::vector<std::string> optionsFileWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false, inQuotes = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      inWord = true;
    } else if (c == '"') {
      word += c;
      inQuotes = !inQuotes;
      inWord = true;
    } else if (!inQuotes && std::isspace(static_cast<unsigned char>(c))) {
      if (inWord)
        words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(word);
  // The second pass: quotes removed, backslashes escape.
  for (std::string &w : words) {
    std::string unquoted;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] == '\\' && i + 1 < w.size())
        unquoted += w[++i];
      else if (w[i] != '"')
        unquoted += w[i];
    }
    w = unquoted;
  }
  return words;
}

std::string expandOptionsFiles(const std::vector<std::string> &args,
                               std::vector<std::string> &out, int depth) {
  if (depth > 32)
    return "options files nested more than 32 deep (does one include itself?)";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    std::size_t eq = arg.find('=');
    const Spec *spec = arg.size() > 1 && arg[0] == '-' ? findSpec(arg.substr(0, eq)) : nullptr;
    if (!spec || std::string_view(spec->canon) != "options-file") {
      out.push_back(arg);
      continue;
    }
    std::string value;
    if (eq != std::string::npos)
      value = arg.substr(eq + 1);
    else if (i + 1 < args.size())
      value = args[++i];
    else
      return "option '" + arg + "' expects a value (" + spec->metavar + ")";
    std::vector<std::string> files = splitList(value, Split::Commas);
    if (files.empty())
      return "option '" + arg.substr(0, eq) + "' expects a value (" + spec->metavar + ")";
    for (const std::string &file : files) {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream text;
      if (in)
        text << in.rdbuf();
      if (!in || in.bad())
        return "cannot read options file '" + file + "'";
      std::string error =
          expandOptionsFiles(optionsFileWords(text.str()), out, depth + 1);
      if (!error.empty())
        return error;
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Step 1: nvcc spellings → canonical command line (continued)
//===----------------------------------------------------------------------===//

// Whether a flag with this canonical name appears anywhere in `args`.
bool hasFlag(const std::vector<std::string> &args, std::string_view canon) {
  return std::any_of(args.begin(), args.end(), [&](const std::string &arg) {
    const Spec *spec = findSpec(arg);
    return spec && canon == spec->canon;
  });
}

// Returns an error message, empty on success.
std::string normalise(const std::vector<std::string> &args, Normalised &out) {
  // -forward-unknown-to-host-compiler/-linker apply to every unknown option,
  // before or after them (as with nvcc). An unknown option goes as one word,
  // to the host compiler (every host compile and the link, as -Xcompiler) and/
  // or to the host linker (as -Xlinker); a separate word after it that does
  // not start with '-' stays an input, as nvcc reads it (measured with nvcc
  // 13.0 --dryrun: "-fopenmp -Wall" reach gcc and the g++ link line).
  const bool forwardBoth = hasFlag(args, "forward-unknown-opts");
  const bool forwardToCompiler =
      forwardBoth || hasFlag(args, "forward-unknown-to-host-compiler");
  const bool forwardToLinker =
      forwardBoth || hasFlag(args, "forward-unknown-to-host-linker");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') { // inputs, "-" (stdin) included
      out.inputs.push_back(arg);
      continue;
    }

    std::size_t eq = arg.find('=');
    std::string name = arg.substr(0, eq);
    std::optional<std::string> value;
    const Spec *spec = findSpec(name);
    if (spec) {
      if (eq != std::string::npos)
        value = arg.substr(eq + 1);
    } else {
      if (auto unsupported = findUnsupported(name))
        return "nvcc option " + *unsupported + " is not supported by mycc";
      // One-letter options with the value attached: -I/usr/x, -DX=1, -O3.
      for (const Spec &candidate : kSpecs) {
        std::string_view shortName = candidate.shortName;
        if (candidate.attached && arg.compare(0, shortName.size(), shortName) == 0) {
          spec = &candidate;
          value = arg.substr(shortName.size());
          break;
        }
      }
      if (!spec && (forwardToCompiler || forwardToLinker)) {
        if (forwardToCompiler)
          out.options.push_back("--compiler-options=" + arg);
        if (forwardToLinker)
          out.options.push_back("--linker-options=" + arg);
        continue;
      }
      if (!spec)
        return unknownOptionError(name);
    }

    switch (spec->kind) {
    case Kind::Flag:
      if (value)
        return "option '" + name + "' does not take a value";
      break;
    case Kind::Value:
      if (!value) {
        if (i + 1 >= args.size())
          return "option '" + name + "' expects a value (" + spec->metavar + ")";
        value = args[++i];
      }
      // An empty value cannot be meant (and CLI11 would read `--x=` as a
      // request for the next argument); list options just drop empty items.
      if (value->empty() && spec->split == Split::None)
        return "option '" + name + "' expects a value (" + spec->metavar + ")";
      break;
    case Kind::OptionalValue:
      // -Werror: nvcc requires a kind; plain -Werror means all-warnings here,
      // so the next argument is its value only if it is a list of kinds.
      if (!value) {
        if (i + 1 < args.size()) {
          std::vector<std::string> kinds = splitList(args[i + 1], spec->split);
          if (!kinds.empty() &&
              std::all_of(kinds.begin(), kinds.end(),
                          [](const std::string &k) { return isWerrorKind(k); }))
            value = args[++i];
        }
        if (!value)
          value = "all-warnings";
      } else if (splitList(*value, spec->split).empty()) {
        return "option '" + name + "' expects a value (" + spec->metavar + ")";
      }
      break;
    }
    emit(out, *spec, value);
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Step 2: CLI11 over the canonical line
//===----------------------------------------------------------------------===//

struct Raw {
  std::vector<std::string> phase, output, preInclude, library, macro, includePath,
      systemInclude, libraryPath, ccbin, cudart, cudaPath, optimize, language, std,
      xcompiler, xptxas, xlinker, xnvlink, xarchive, xfatbin, compressMode, archiver, xcudafe, cudadevrt, arch, code, gencode, keepDir, werror, rdc,
      threads, time, splitCompile, ftz, precDiv, precSqrt, fmad, maxrregcount,
      jumpTableDensity, entries, deviceTimeTrace, optimizationInfo, hostLinkerScript,
      libdeviceDirectory, targetDirectory,
      diagSuppress, diagError, diagWarn, templateDepth, templateBacktraceLimit,
      defaultStream, machine, randomSeed, sanitize, inputs;
  std::vector<std::string> dependencies, dependencyOutput, dependencyTarget;
  int dependencyTargets = 0;
  int debug = 0, lineInfo = 0, relaxedConstexpr = 0, extendedLambda = 0,
      noWarnings = 0, warnReorder = 0, dryrun = 0, verbose = 0, keep = 0, listGpuArch = 0,
      listGpuCode = 0, help = 0, version = 0;
  // Build-system interface (docs/build-systems.md).
  int shared = 0, deviceDebug = 0, noDeprecatedGpuTargets = 0,
      forwardToCompiler = 0, forwardToLinker = 0, run = 0, jobserver = 0,
      allowUnsupportedCompiler = 0, hostInProcess = 0;
  int noCompress = 0, forwardUnknownOpts = 0, clean = 0, noDeviceLink = 0, noEffect = 0,
      profile = 0, noExceptions = 0, sourceInPtx = 0, keepDeviceFunctions = 0,
      deviceSyntaxOnly = 0, toolsPatch = 0;
  std::vector<std::string> outputDirectory, noEffectValues, briefDiagnostics, dopt,
      deviceStackProtector, fastCompile, staticTemplateStub, hiddenDeviceEntities;
  int dlto = 0, ewp = 0, objdirAsTemp = 0, augmentLinkerScript = 0, dontUseProfile = 0,
      relocatablePtx = 0, genOptLto = 0, warnDefaultStream = 0, warnLaunchBounds = 0;
  int useFastMath = 0, resourceUsage = 0, restrict = 0, extraVectorization = 0,
      noDeprecatedDeclarations = 0;
  std::vector<std::string> runArgs;
};

// A CLI11 validator whose message names the option as the user spells it.
CLI::Validator oneOf(const std::string &option, std::vector<std::string> allowed) {
  return CLI::Validator(
      [option, allowed](std::string &value) -> std::string {
        if (std::find(allowed.begin(), allowed.end(), value) != allowed.end())
          return {};
        std::string list;
        for (const std::string &a : allowed)
          list += (list.empty() ? "" : ", ") + a;
        return "invalid value '" + value + "' for option '" + option +
               "'; expected one of: " + list;
      },
      "");
}

template <std::size_t N>
std::vector<std::string> toVector(const char *const (&values)[N]) {
  return std::vector<std::string>(std::begin(values), std::end(values));
}

// A non-negative number of at most six digits (-O, -t, -split-compile).
bool isCount(const std::string &value) {
  return !value.empty() && value.size() <= 6 &&
         std::all_of(value.begin(), value.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

CLI::Validator optLevel() {
  return CLI::Validator(
      [](std::string &value) -> std::string {
        if (isCount(value)) return {};
        return "invalid optimization level '" + value +
               "' for option '-O'; expected a non-negative number";
      },
      "");
}

CLI::Validator count(const std::string &option) {
  return CLI::Validator(
      [option](std::string &value) -> std::string {
        if (isCount(value)) return {};
        return "invalid value '" + value + "' for option '" + option +
               "'; expected a non-negative number";
      },
      "");
}

// nvcc's options as one CLI11 parser writing into `raw`. CLI11 checks each
// option it is given against all before it, so building this is quadratic
// in nvcc's ~200 options (most of a parse's time); runCli11 builds it once
// per thread and clears it between command lines.
struct Cli11Parser {
  Raw raw;
  CLI::App app{"mycc"};
  Cli11Parser();
};

Cli11Parser::Cli11Parser() {
  app.set_help_flag();
  app.allow_extras(false);

  auto list = [&](const std::string &canon, std::vector<std::string> &into) {
    return app.add_option("--" + canon, into)
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  list("phase", raw.phase);
  list("output-file", raw.output);
  list("pre-include", raw.preInclude);
  list("library", raw.library);
  list("macro", raw.macro);
  list("include-path", raw.includePath);
  list("system-include", raw.systemInclude);
  list("library-path", raw.libraryPath);
  list("compiler-bindir", raw.ccbin);
  list("cudart", raw.cudart)->check(oneOf("-cudart", toVector(kCudartValues)));
  list("cuda-path", raw.cudaPath);
  list("optimize", raw.optimize)->check(optLevel());
  list("x", raw.language)->check(oneOf("-x", toVector(kLanguages)));
  list("std", raw.std)->check(oneOf("-std", toVector(kStdValues)));
  list("compiler-options", raw.xcompiler);
  list("ptxas-options", raw.xptxas);
  list("linker-options", raw.xlinker);
  list("cudafe-options", raw.xcudafe);
  list("nvlink-options", raw.xnvlink);
  list("archive-options", raw.xarchive);
  list("fatbin-options", raw.xfatbin);
  list("compress-mode", raw.compressMode)
      ->check(oneOf("-compress-mode", toVector(kCompressModes)));
  app.add_flag("--no-compress", raw.noCompress);
  app.add_flag("--forward-unknown-opts", raw.forwardUnknownOpts);
  app.add_flag("--clean-targets", raw.clean);
  app.add_flag("--no-device-link", raw.noDeviceLink);
  app.add_flag("--extensible-whole-program", raw.ewp);
  app.add_flag("--objdir-as-tempdir", raw.objdirAsTemp);
  app.add_flag("--dont-use-profile", raw.dontUseProfile);
  app.add_flag("--relocatable-ptx", raw.relocatablePtx);
  list("libdevice-directory", raw.libdeviceDirectory);
  list("target-directory", raw.targetDirectory);
  app.add_flag("--augment-host-linker-script", raw.augmentLinkerScript);
  list("host-linker-script", raw.hostLinkerScript)
      ->check(oneOf("-hls", {"use-lcs", "gen-lcs"}));
  app.add_flag("--no-effect", raw.noEffect);
  app.add_flag("--profile", raw.profile);
  app.add_flag("--no-exceptions", raw.noExceptions);
  app.add_flag("--source-in-ptx", raw.sourceInPtx);
  app.add_flag("--keep-device-functions", raw.keepDeviceFunctions);
  app.add_flag("--compile-as-tools-patch", raw.toolsPatch);
  list("sanitize", raw.sanitize);
  app.add_flag("--device-syntax-only", raw.deviceSyntaxOnly);
  list("output-directory", raw.outputDirectory);
  list("no-effect-value", raw.noEffectValues);
  list("brief-diagnostics", raw.briefDiagnostics)
      ->check(oneOf("-brief-diag", {"true", "false"}));
  list("dopt", raw.dopt)->check(oneOf("-dopt", {"on"}));
  list("static-global-template-stub", raw.staticTemplateStub)
      ->check(oneOf("-static-global-template-stub", {"true", "false"}));
  list("device-entity-has-hidden-visibility", raw.hiddenDeviceEntities)
      ->check(oneOf("-device-entity-has-hidden-visibility", {"true", "false"}));
  list("fast-compile", raw.fastCompile)->check(oneOf("-Ofc", {"0", "min", "mid", "max"}));
  list("device-stack-protector", raw.deviceStackProtector)
      ->check(oneOf("-device-stack-protector", {"true", "false"}));
  list("archiver-binary", raw.archiver);
  list("cudadevrt", raw.cudadevrt)->check(oneOf("-cudadevrt", {"none", "static"}));
  app.add_flag("--dlink-time-opt", raw.dlto);
  list("gpu-architecture", raw.arch);
  list("gpu-code", raw.code);
  list("generate-code", raw.gencode);
  list("relocatable-device-code", raw.rdc)
      ->check(oneOf("-rdc", {"true", "false"}));
  list("keep-dir", raw.keepDir);
  list("threads", raw.threads)->check(count("-t"));
  list("time", raw.time);
  list("fdevice-time-trace", raw.deviceTimeTrace);
  list("split-compile", raw.splitCompile)->check(count("-split-compile"));
  for (auto [canon, into] : {std::pair{"ftz", &raw.ftz}, {"prec-div", &raw.precDiv},
                             {"prec-sqrt", &raw.precSqrt}, {"fmad", &raw.fmad}})
    list(canon, *into)->check(oneOf(displayName(specByCanon(canon)), {"true", "false"}));
  app.add_flag("--use-fast-math", raw.useFastMath);
  list("maxrregcount", raw.maxrregcount)->check(count("-maxrregcount"));
  list("jump-table-density", raw.jumpTableDensity)
      ->check(CLI::Validator(
          [](std::string &value) -> std::string {
            if (isCount(value) && value.size() <= 3 && std::stoul(value) <= 101) return {};
            return "argument for -jtd (--jump-table-density) must be between 0 and 101";
          },
          ""));
  list("entries", raw.entries);
  list("optimization-info", raw.optimizationInfo)
      ->check(oneOf("-opt-info", {"inline"}));
  app.add_flag("--resource-usage", raw.resourceUsage);
  app.add_flag("--restrict", raw.restrict);
  app.add_flag("--extra-device-vectorization", raw.extraVectorization);
  app.add_flag("--gen-opt-lto", raw.genOptLto);
  app.add_flag("--no-deprecated-declarations", raw.noDeprecatedDeclarations);
  list("diag-suppress", raw.diagSuppress);
  list("diag-error", raw.diagError);
  list("diag-warn", raw.diagWarn);
  list("template-depth", raw.templateDepth)->check(count("-ftemplate-depth"));
  list("template-backtrace-limit", raw.templateBacktraceLimit)
      ->check(count("-ftemplate-backtrace-limit"));
  list("default-stream", raw.defaultStream)
      ->check(oneOf("-default-stream", {"legacy", "null", "per-thread"}));
  list("machine", raw.machine)->check(oneOf("-m", {"64"}));
  list("random-seed", raw.randomSeed);
  app.add_flag("--jobserver", raw.jobserver);
  app.add_flag("--allow-unsupported-compiler", raw.allowUnsupportedCompiler);
  app.add_flag("--host-in-process", raw.hostInProcess);
  list("werror", raw.werror)->check(oneOf("-Werror", toVector(kWerrorKinds)));
  list("dependencies", raw.dependencies);
  list("dependency-output", raw.dependencyOutput);
  list("dependency-target-name", raw.dependencyTarget);
  app.add_flag("--dependency-targets", raw.dependencyTargets);

  app.add_flag("--debug", raw.debug);
  app.add_flag("--line-info", raw.lineInfo);
  app.add_flag("--relaxed-constexpr", raw.relaxedConstexpr);
  app.add_flag("--extended-lambda", raw.extendedLambda);
  app.add_flag("--disable-warnings", raw.noWarnings);
  app.add_flag("--Wreorder", raw.warnReorder);
  app.add_flag("--Wdefault-stream-launch", raw.warnDefaultStream);
  app.add_flag("--Wmissing-launch-bounds", raw.warnLaunchBounds);
  app.add_flag("--dryrun", raw.dryrun);
  app.add_flag("--verbose", raw.verbose);
  app.add_flag("--keep", raw.keep);
  app.add_flag("--list-gpu-arch", raw.listGpuArch);
  app.add_flag("--list-gpu-code", raw.listGpuCode);
  app.add_flag("--help", raw.help);
  app.add_flag("--version", raw.version);
  app.add_flag("--shared", raw.shared);
  app.add_flag("--run", raw.run);
  list("run-args", raw.runArgs);
  app.add_flag("--device-debug", raw.deviceDebug);
  app.add_flag("--no-deprecated-gpu-targets", raw.noDeprecatedGpuTargets);
  app.add_flag("--forward-unknown-to-host-compiler", raw.forwardToCompiler);
  app.add_flag("--forward-unknown-to-host-linker", raw.forwardToLinker);

  app.add_option("inputs", raw.inputs);
}

std::string runCli11(const Normalised &normalised, Raw &raw) {
  thread_local Cli11Parser parser;
  // CLI11 writes only what the line holds: the rest keeps Raw's defaults.
  parser.raw = Raw{};
  parser.app.clear();
  // CLI11 wants the arguments reversed; "--" keeps inputs positional.
  std::vector<std::string> line = normalised.options;
  line.push_back("--");
  line.insert(line.end(), normalised.inputs.begin(), normalised.inputs.end());
  std::reverse(line.begin(), line.end());
  try {
    parser.app.parse(std::move(line));
  } catch (const CLI::ValidationError &e) {
    // "--canon: message": the message already names the option.
    std::string what = e.what();
    std::size_t colon = what.find(": ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
  } catch (const CLI::ParseError &e) {
    return std::string("invalid command line: ") + e.what();
  }
  raw = std::move(parser.raw);
  return {};
}

//===----------------------------------------------------------------------===//
// Step 3: semantics
//===----------------------------------------------------------------------===//

// Last value of a single-valued option; a warning if earlier ones differ.
std::optional<std::string> lastValue(const std::vector<std::string> &values,
                                     const char *canon,
                                     std::vector<std::string> &warnings) {
  if (values.empty())
    return std::nullopt;
  for (const std::string &value : values) {
    if (value != values.back()) {
      warnings.push_back("incompatible redefinition for option '" +
                         displayName(specByCanon(canon)) +
                         "', the last value ('" + values.back() + "') is used");
      break;
    }
  }
  return values.back();
}

// nvcc's front-end (EDG) diagnostic numbers that real build files suppress,
// and the Clang warnings that report the same thing. Numbers of diagnostics
// Clang does not give (20012: __host__ __device__ on an explicitly
// defaulted function; 20208: long double as double; ...) need no flag: the
// diagnostic never appears.
struct DiagnosticNumber {
  const char *number, *name; // name: EDG's, which nvcc also takes; "" if none
  const char *clangGroups[2];
};
const DiagnosticNumber kDiagnosticNumbers[] = {
    {"177", "declared_but_not_referenced", {"unused-variable", "unused-function"}},
    {"550", "set_but_not_used", {"unused-but-set-variable", nullptr}},
    {"186", "", {"tautological-unsigned-zero-compare", nullptr}}, // unsigned >= 0
    {"1215", "deprecated_entity", {"deprecated-declarations", nullptr}},
    {"1444", "deprecated_entity_with_custom_message", {"deprecated-declarations", nullptr}},
    {"2361", "", {"c++11-narrowing", nullptr}}, // invalid narrowing conversion
};

// The Clang flags for nvcc's diagnostics `numbers` (numbers or EDG names),
// each flag `prefix` + the Clang group ("-Wno-" to suppress).
void addDiagnosticGroups(const std::vector<std::string> &numbers,
                         const char *prefix, Options &o) {
  for (const std::string &n : numbers)
    for (const DiagnosticNumber &d : kDiagnosticNumbers)
      if (n == d.number || (*d.name && n == d.name))
        for (const char *group : d.clangGroups)
          if (group) o.clangFlags.push_back(prefix + std::string(group));
}

// -Xcudafe: options for nvcc's front end (cudafe++, an EDG front end), whose
// place Clang takes in mycc. Those with a Clang counterpart take effect: -w and
// --no_warnings (no warnings, as -w), --error_limit=N or --error_limit N (Clang's
// -ferror-limit=N), --diag_suppress/--diag_error/--diag_warning=<numbers> (as
// -diag-suppress/-diag-error/-diag-warn: the Clang warnings of the numbers
// kDiagnosticNumbers knows). Every other option is accepted and ignored
// (--diag_remark, --display_error_number, ...).
std::string cudafeOptions(const std::vector<std::string> &items, Options &o) {
  o.xcudafe = items;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string &item = items[i];
    if (item == "-w" || item == "--no_warnings") {
      o.noWarnings = true;
      continue;
    }
    // nvcc's diagnostic controls, as -diag-suppress/-diag-error/-diag-warn.
    bool matched = false;
    for (auto [control, prefix] :
         {std::pair{"--diag_suppress", "-Wno-"}, {"--diag_error", "-Werror="},
          {"--diag_warning", "-W"}}) {
      std::string value;
      std::string_view text(item);
      if (text.rfind(std::string(control) + "=", 0) == 0)
        value = item.substr(std::string(control).size() + 1);
      else if (item == control && i + 1 < items.size())
        value = items[++i];
      else
        continue;
      std::vector<std::string> numbers;
      std::stringstream list(value);
      for (std::string n; std::getline(list, n, ',');) numbers.push_back(n);
      addDiagnosticGroups(numbers, prefix, o);
      matched = true;
    }
    if (matched) continue;
    std::string limit;
    if (item.rfind("--error_limit=", 0) == 0)
      limit = item.substr(std::string("--error_limit=").size());
    else if (item == "--error_limit" && i + 1 < items.size())
      limit = items[++i];
    else
      continue;
    // As for nvcc's front end, the limit is a positive number.
    bool digits = !limit.empty() && limit.size() <= 9 &&
                  std::all_of(limit.begin(), limit.end(),
                              [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoul(limit) == 0)
      return "invalid error limit '" + limit +
             "' in option '-Xcudafe'; expected a positive number";
    o.errorLimit = static_cast<unsigned>(std::stoul(limit));
  }
  return {};
}

std::string validArchList() {
  std::string list;
  for (const GpuArch &arch : knownArchs())
    list += (list.empty() ? "" : ", ") + arch.str();
  return list;
}

// nvcc's architecture keywords, which stand for a set of targets.
bool isArchKeyword(const std::string &text) {
  return text == "native" || text == "all" || text == "all-major";
}

// Parses one target name given to `option`.
std::optional<Target> parseTargetValue(const std::string &text,
                                       const std::string &option,
                                       std::string &error) {
  if (isArchKeyword(text)) {
    // nvcc 13: "Unsupported gpu architecture 'all'" in -gencode, "Value
    // 'all' is not defined for option 'gpu-code'" in -code.
    error = "'" + text + "' is not allowed in " + option + ": like nvcc, mycc " +
            "accepts native, all and all-major only as the value of -arch";
    return std::nullopt;
  }
  if (text.compare(0, 4, "lto_") == 0) {
    error = "LTO target '" + text + "' in " + option +
            " must be a code (code=lto_XY), not an architecture";
    return std::nullopt;
  }
  std::optional<Target> target = parseTarget(text);
  if (!target || !isKnownArch(target->arch)) {
    error = "unsupported gpu architecture '" + text + "' in " + option +
            "; valid values are sm_XY and compute_XY with XY one of " +
            validArchList();
    return std::nullopt;
  }
  return target;
}

// Checks that `code` can be generated from the PTX of `arch`, and returns it
// as nvcc embeds it (nvcc turns a plain sm_XY compiled from a family PTX
// compute_ABf into sm_XYf). Mirrors nvcc 13.0:
//  - PTX: only the arch itself;
//  - from compute_XY: any sm_ZW with ZW >= XY (sm_ZWa included), but
//    sm_ZWf only in the family of XY (compute_100 -> sm_103f, not sm_110f);
//  - from compute_XYa: sm_ZWa with ZW >= XY;
//  - from compute_XYf: sm_ZW (any suffix) with ZW >= XY in the same major.
std::optional<Target> checkCode(const Target &arch, Target code, std::string &error) {
  const char *why = nullptr;
  if (code.isVirtual) {
    if (!(code == arch))
      why = "PTX can only be embedded for the virtual architecture itself";
  } else if (code.arch.sm < arch.arch.sm) {
    why = "the real architecture is older than the virtual one";
  } else if (arch.arch.suffix == ArchSuffix::ArchSpecific &&
             code.arch.suffix != ArchSuffix::ArchSpecific) {
    why = "an arch-specific ('a') virtual architecture only yields 'a' cubins";
  } else if (arch.arch.suffix == ArchSuffix::FamilySpecific &&
             code.arch.major() != arch.arch.major()) {
    why = "a family-specific ('f') virtual architecture only yields cubins "
          "of its own family";
  } else if (code.arch.suffix == ArchSuffix::FamilySpecific &&
             code.arch.major() != arch.arch.major()) {
    why = "a family-specific ('f') cubin is only built from a virtual "
          "architecture of its own family";
  }
  if (why) {
    error = "incompatible code generation requested: arch='" + arch.str() +
            "', code='" + code.str() + "' (" + why + ")";
    return std::nullopt;
  }
  if (!code.isVirtual && arch.arch.suffix == ArchSuffix::FamilySpecific &&
      code.arch.suffix == ArchSuffix::None) {
    GpuArch family{code.arch.sm, ArchSuffix::FamilySpecific};
    if (isKnownArch(family))
      code.arch = family;
  }
  return code;
}

void addPair(std::vector<TargetPair> &targets, const Target &arch,
             const std::vector<Target> &codes) {
  auto it = std::find_if(targets.begin(), targets.end(), [&](const TargetPair &p) {
    return p.virtualArch == arch;
  });
  if (it == targets.end()) {
    targets.push_back(TargetPair{arch, {}});
    it = targets.end() - 1;
  }
  for (const Target &code : codes)
    if (std::find(it->codes.begin(), it->codes.end(), code) == it->codes.end())
      it->codes.push_back(code);
}

// One -gencode value: arch=compute_XY,code=sm_XY or code=[a,b] or
// code="a,b" (the quotes reach us literally when the shell passed \").
// A code of -code or -gencode: lto_XY (nvcc's LTO IR for sm_XY, which
// CMake's INTERPROCEDURAL_OPTIMIZATION sends) is mycc's -dlto bitcode, from
// which the device link makes the sm_XY cubin: `lto` is set and sm_XY
// returned.
std::optional<Target> parseCodeValue(const std::string &text,
                                     const std::string &option,
                                     std::string &error, bool &lto) {
  if (text.compare(0, 4, "lto_") != 0)
    return parseTargetValue(text, option, error);
  std::optional<Target> code = parseTargetValue("sm_" + text.substr(4), option, error);
  if (!code) {
    error = "unsupported gpu architecture '" + text + "' in " + option;
    return std::nullopt;
  }
  lto = true;
  return code;
}

std::string parseGencode(const std::string &spec, std::vector<TargetPair> &targets,
                         bool &lto) {
  std::string option = "-gencode " + spec;
  // Split on commas outside [...] and "...".
  std::vector<std::string> items;
  std::string current;
  bool inQuotes = false;
  int depth = 0;
  for (char c : spec) {
    if (c == '"')
      inQuotes = !inQuotes;
    else if (c == '[')
      ++depth;
    else if (c == ']' && --depth < 0)
      return "stray ']' in '" + option + "'";
    if (c == ',' && !inQuotes && depth == 0) {
      items.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  items.push_back(current);
  // An unclosed list would take the rest for its codes (nvcc: "Stray '['").
  if (depth > 0) return "stray '[' in '" + option + "' (no closing ']')";
  if (inQuotes) return "stray '\"' in '" + option + "' (no closing quote)";

  std::optional<std::string> archText, codeText;
  for (std::string item : items) {
    item = trimmed(item);
    if (item.empty())
      continue;
    std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      return "'" + item + "' in '" + option +
             "' is not in 'keyword=value' format (expected arch=compute_XY,code=sm_XY)";
    std::string key = trimmed(item.substr(0, eq));
    std::string value = item.substr(eq + 1);
    std::optional<std::string> *slot = key == "arch" ? &archText
                                       : key == "code" ? &codeText
                                                       : nullptr;
    if (!slot)
      return "unknown keyword '" + key + "' in '" + option +
             "' (expected arch= and code=)";
    if (*slot)
      return "keyword '" + key + "' given twice in '" + option + "'";
    *slot = value;
  }
  if (!archText)
    return "missing arch= in '" + option + "'";
  if (!codeText)
    return "missing code= in '" + option + "'";

  auto strip = [](std::string text) {
    text.erase(std::remove_if(text.begin(), text.end(),
                              [](char c) { return c == '"' || c == '[' || c == ']'; }),
               text.end());
    return trimmed(text);
  };
  std::string error;
  std::optional<Target> arch = parseTargetValue(strip(*archText), "-gencode", error);
  if (!arch)
    return error;
  if (!arch->isVirtual)
    return "the arch of '" + option + "' must be a virtual architecture (compute_XY), not '" +
           arch->str() + "'";
  std::vector<Target> codes;
  for (const std::string &text : splitList(strip(*codeText), Split::Commas)) {
    std::optional<Target> code = parseCodeValue(trimmed(text), "-gencode", error, lto);
    if (!code)
      return error;
    std::optional<Target> checked = checkCode(*arch, *code, error);
    if (!checked)
      return error;
    codes.push_back(*checked);
  }
  if (codes.empty())
    return "missing code= in '" + option + "'";
  addPair(targets, *arch, codes);
  return {};
}

std::string buildTargets(const Raw &raw, Options &options,
                         std::vector<std::string> &warnings) {
  std::vector<TargetPair> targets;
  std::string error;
  bool lto = false; // an lto_XY code
  std::optional<std::string> archText =
      lastValue(raw.arch, "gpu-architecture", warnings);

  if (!raw.code.empty() && !archText)
    return "-code requires -arch (the virtual architecture the codes are compiled from)";

  if (archText && isArchKeyword(*archText)) {
    // nvcc 13: "Cannot use '-arch=all' with '--gpu-code (-code)'".
    if (!raw.code.empty())
      return "-arch=" + *archText + " cannot be combined with -code (nvcc does "
             "not allow it either); use -gencode to add targets";
    if (*archText == "native") {
      // The installed GPUs are known only once the toolkit is: see
      // addNativeTargets.
      options.nativeArch = true;
    } else {
      ArchKeyword keyword =
          *archText == "all" ? ArchKeyword::All : ArchKeyword::AllMajor;
      for (const GpuArch &arch : keywordCubinArchs(keyword))
        addPair(targets, Target{true, arch}, {Target{false, arch}});
      Target ptx{true, keywordPtxArch()};
      addPair(targets, ptx, {ptx});
    }
  } else if (archText) {
    std::optional<Target> arch = parseTargetValue(*archText, "-arch", error);
    if (!arch)
      return error;
    if (!raw.code.empty()) {
      // nvcc 13 rejects a real -arch next to -code; mycc reads -arch=sm_XY
      // there as the virtual architecture compute_XY (clang does the same),
      // so "-arch=sm_80 -code=sm_80" builds the sm_80 cubin from compute_80.
      arch->isVirtual = true;
      std::vector<Target> codes;
      for (const std::string &text : raw.code) {
        std::optional<Target> code = parseCodeValue(text, "-code", error, lto);
        if (!code)
          return error;
        std::optional<Target> checked = checkCode(*arch, *code, error);
        if (!checked)
          return error;
        codes.push_back(*checked);
      }
      addPair(targets, *arch, codes);
    } else {
      // Shorthand: -arch=sm_XY is compute_XY PTX + sm_XY cubin; -arch=compute_XY
      // is the PTX alone. With an `a`/`f` suffix nvcc also embeds the PTX of
      // the plain virtual architecture.
      Target virt{true, arch->arch};
      if (arch->arch.suffix != ArchSuffix::None) {
        Target plain{true, GpuArch{arch->arch.sm, ArchSuffix::None}};
        addPair(targets, plain, {plain});
      }
      if (arch->isVirtual)
        addPair(targets, virt, {virt});
      else
        addPair(targets, virt, {*arch, virt});
    }
  }

  for (const std::string &spec : raw.gencode) {
    std::string gencodeError = parseGencode(spec, targets, lto);
    if (!gencodeError.empty())
      return gencodeError;
  }

  if (lto) {
    if (!options.rdc)
      return "cannot use '-arch=lto_<arch>' unless '-rdc=true' is specified or "
             "implied (nvcc's rule)";
    options.deviceLto = true;
  }
  options.targetsGiven = !targets.empty() || options.nativeArch;
  if (targets.empty() && !options.nativeArch) {
    Target virt{true, GpuArch{kDefaultSm, ArchSuffix::None}};
    Target real{false, GpuArch{kDefaultSm, ArchSuffix::None}};
    addPair(targets, virt, {real, virt});
  }
  options.targets = std::move(targets);
  return {};
}

// -M, -MM, -MD, -MMD, -MF, -MT, -MP, as nvcc 13.0 reads them (measured):
//  - -M/-MM write only the dependencies (a phase of its own); next to another
//    phase option they win (phaseOptions). -M or -MM next to -MD/-MMD:
//    -M/-MM decide.
//  - -MM next to -M, or -MMD next to -MD, in any order: the non-system form.
//  - -MD/-MMD with -E: an error ("'-MD'/'-MMD' is not supported when '-E' is
//    also specified").
//  - -MF without one of the four: an error; -MT and -MP without: ignored.
//  - -MF and -MT given twice: the last one, with a warning.
std::string dependencyOptions(const Raw &raw, Options &o,
                              std::vector<std::string> &warnings) {
  auto given = [&](const char *form) {
    return std::find(raw.dependencies.begin(), raw.dependencies.end(), form) !=
           raw.dependencies.end();
  };
  if (given("M") || given("MM")) {
    o.phase = Phase::Dependencies;
    o.depsSystemHeaders = !given("MM");
  } else if (given("MD") || given("MMD")) {
    if (o.phase == Phase::Preprocess)
      return "-MD and -MMD cannot be combined with -E";
    o.depsWithCompile = true;
    o.depsSystemHeaders = !given("MMD");
  }
  bool deps = o.phase == Phase::Dependencies || o.depsWithCompile;
  if (auto v = lastValue(raw.dependencyOutput, "dependency-output", warnings)) {
    if (!deps)
      return "option '-MF' requires one of -M, -MM, -MD or -MMD";
    o.depsFile = *v;
  }
  if (auto v = lastValue(raw.dependencyTarget, "dependency-target-name", warnings))
    o.depsTarget = *v;
  o.depsPhonyTargets = raw.dependencyTargets > 0;
  return {};
}

// The phase. Of several phase options the one that stops earliest wins, in
// any order, as with nvcc 13.0 (measured with --dryrun): -M/-MM (see
// dependencyOptions), then -E, -ptx, -cubin, -fatbin, -cuda, -c (-dc),
// -dlink, -lib. Compiler caches rely on it: sccache preprocesses with the
// build's `-c` still on the line and `-E` or `-M` added.
std::string phaseOptions(const Raw &raw, Options &o) {
  static const std::pair<const char *, Phase> kEarliestFirst[] = {
      {"preprocess", Phase::Preprocess}, {"ptx", Phase::Ptx},
      {"cubin", Phase::Cubin},           {"fatbin", Phase::Fatbin},
      {"cuda", Phase::Cuda},             {"compile", Phase::Compile},
      {"device-link", Phase::DeviceLink}, {"lib", Phase::Lib},
      {"relocatable-link", Phase::RelocatableLink}, {"link", Phase::Link}};
  // -dc is -c with relocatable device code, -dw -c without.
  bool deviceC = false, deviceW = false;
  std::size_t earliest = std::size(kEarliestFirst);
  for (std::string phase : raw.phase) {
    if (phase == "device-c" || phase == "device-w") {
      (phase == "device-c" ? deviceC : deviceW) = true;
      phase = "compile";
    }
    for (std::size_t rank = 0; rank < std::size(kEarliestFirst); ++rank)
      if (phase == kEarliestFirst[rank].first) earliest = std::min(earliest, rank);
  }
  if (earliest < std::size(kEarliestFirst)) o.phase = kEarliestFirst[earliest].second;
  if (deviceW) o.rdc = false;
  if (deviceC) o.rdc = true;
  return {};
}

// Driver behaviour, informational requests and warnings.
Options::CompressMode compressModeOf(const std::string &name) {
  using M = Options::CompressMode;
  return name == "size"    ? M::Size
         : name == "speed"   ? M::Speed
         : name == "balance" ? M::Balance
         : name == "none"    ? M::None
                             : M::Default;
}

// -compress-mode, -no-compress and -Xfatbin, combined as on nvcc's fatbinary
// command line (measured with nvcc 13.0 --dryrun): the -Xfatbin options
// first, then nvcc's -compress=false (for -no-compress) and
// --compress-mode; the last value of each wins, and compression off wins
// over any mode.
std::string fatbinOptions(const Raw &raw, Options &o,
                          std::vector<std::string> &warnings) {
  bool compress = true;
  std::optional<std::string> mode;
  const std::vector<std::string> &x = raw.xfatbin;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::string &item = x[i];
    std::size_t eq = item.find('=');
    bool hasValue = eq != std::string::npos;
    std::string name = item.substr(0, eq);
    std::string bare = name.substr(std::min(name.find_first_not_of('-'), name.size()));
    auto takeValue = [&]() -> std::optional<std::string> {
      if (hasValue) return item.substr(eq + 1);
      if (i + 1 < x.size()) return x[++i];
      return std::nullopt;
    };
    if (bare == "compress-all" && !hasValue) {
      o.compressAll = true;
    } else if ((bare == "g" || bare == "debug") && !hasValue) {
      o.fatbinDebug = true;
    } else if (bare == "64" && !hasValue) {
      // the only width mycc builds for
    } else if (bare == "compress") {
      std::optional<std::string> v = takeValue();
      if (!v || (*v != "true" && *v != "false"))
        return "-Xfatbin " + name + " expects true or false";
      compress = *v == "true";
    } else if (bare == "compress-mode") {
      std::optional<std::string> v = takeValue();
      if (!v || std::find(std::begin(kCompressModes), std::end(kCompressModes),
                          *v) == std::end(kCompressModes))
        return "-Xfatbin " + name +
               " expects one of default, size, speed, balance, none";
      mode = *v;
    } else {
      return "fatbinary option '" + item +
             "' (given with -Xfatbin) is not supported by mycc; it supports "
             "-compress-all, -compress=true|false, -compress-mode=<mode>, -g";
    }
  }
  if (auto v = lastValue(raw.compressMode, "compress-mode", warnings)) mode = *v;
  if (raw.noCompress > 0) compress = false;
  o.compressMode = !compress ? Options::CompressMode::None
                   : mode    ? compressModeOf(*mode)
                             : Options::CompressMode::Default;
  return {};
}

std::string driverOptions(const Raw &raw, Options &o,
                          std::vector<std::string> &warnings) {
  o.keep = raw.keep > 0;
  if (auto v = lastValue(raw.keepDir, "keep-dir", warnings))
    o.keepDir = *v;
  o.dryrun = raw.dryrun > 0;
  o.verbose = raw.verbose > 0;
  if (auto v = lastValue(raw.threads, "threads", warnings))
    o.threads = static_cast<unsigned>(std::stoul(*v));
  if (auto v = lastValue(raw.time, "time", warnings)) o.timeFile = *v;
  if (auto v = lastValue(raw.deviceTimeTrace, "fdevice-time-trace", warnings))
    o.timeTraceFile = *v;
  if (auto v = lastValue(raw.splitCompile, "split-compile", warnings))
    o.splitCompile = static_cast<unsigned>(std::stoul(*v));
  o.jobserver = raw.jobserver > 0;
  o.allowUnsupportedCompiler = raw.allowUnsupportedCompiler > 0;
  o.hostInProcess = raw.hostInProcess > 0;
  if (auto v = lastValue(raw.cudaPath, "cuda-path", warnings))
    o.cudaPath = *v;
  if (auto v = lastValue(raw.ccbin, "compiler-bindir", warnings))
    o.ccbin = *v;

  o.extendedLambda = raw.extendedLambda > 0;
  o.relaxedConstexpr = raw.relaxedConstexpr > 0;
  o.noWarnings = raw.noWarnings > 0;
  o.warnReorder = raw.warnReorder > 0;
  o.warnDefaultStreamLaunch = raw.warnDefaultStream > 0;
  o.warnMissingLaunchBounds = raw.warnLaunchBounds > 0;
  if (std::string error = cudafeOptions(raw.xcudafe, o); !error.empty())
    return error;
  for (const std::string &kind : raw.werror)
    if (std::find(o.werrorKinds.begin(), o.werrorKinds.end(), kind) == o.werrorKinds.end())
      o.werrorKinds.push_back(kind);
  o.warningsAsErrors = std::find(o.werrorKinds.begin(), o.werrorKinds.end(),
                                 "all-warnings") != o.werrorKinds.end();

  o.showVersion = raw.version > 0;
  o.showHelp = raw.help > 0;
  o.listGpuArch = raw.listGpuArch > 0;
  o.listGpuCode = raw.listGpuCode > 0;
  return {};
}

// -use_fast_math stands for -ftz=true -prec-div=false -prec-sqrt=false
// -fmad=true; each of the four given explicitly wins, before or after it
// (nvcc 13, measured with --dryrun: "-prec-div=true -use_fast_math" gives
// cicc -prec_div=1 -fast-math).
void deviceMathOptions(const Raw &raw, Options &o,
                       std::vector<std::string> &warnings) {
  o.fastMath = raw.useFastMath > 0;
  auto given = [&](const std::vector<std::string> &values, const char *canon,
                   bool otherwise) {
    std::optional<std::string> v = lastValue(values, canon, warnings);
    return v ? *v == "true" : otherwise;
  };
  o.ftz = given(raw.ftz, "ftz", o.fastMath);
  o.precDiv = given(raw.precDiv, "prec-div", !o.fastMath);
  o.precSqrt = given(raw.precSqrt, "prec-sqrt", !o.fastMath);
  o.fmad = given(raw.fmad, "fmad", true);
}

// -diag-suppress/-diag-error/-diag-warn, -Wno-deprecated-declarations and
// the template limits: Clang's own flags, for both of its sides.
void frontEndDiagnostics(const Raw &raw, Options &o,
                         std::vector<std::string> &warnings) {
  addDiagnosticGroups(raw.diagWarn, "-W", o);
  addDiagnosticGroups(raw.diagError, "-Werror=", o);
  addDiagnosticGroups(raw.diagSuppress, "-Wno-", o);
  if (raw.noDeprecatedDeclarations) {
    o.clangFlags.push_back("-Wno-deprecated-declarations");
    // nvcc gives it to the host compiler too.
    o.xcompiler.push_back("-Wno-deprecated-declarations");
  }
  if (auto v = lastValue(raw.templateDepth, "template-depth", warnings))
    o.clangFlags.push_back("-ftemplate-depth=" + *v);
  if (auto v = lastValue(raw.templateBacktraceLimit, "template-backtrace-limit",
                         warnings))
    o.clangFlags.push_back("-ftemplate-backtrace-limit=" + *v);
}

std::string buildOptions(const Raw &raw, Options &o, std::vector<std::string> &warnings) {
  if (auto v = lastValue(raw.rdc, "relocatable-device-code", warnings))
    o.rdc = *v == "true";
  if (std::string error = phaseOptions(raw, o); !error.empty()) return error;
  if (std::string error = dependencyOptions(raw, o, warnings); !error.empty())
    return error;

  o.inputs = raw.inputs;
  if (auto v = lastValue(raw.output, "output-file", warnings)) {
    if (v->empty())
      return "option '-o' expects a file name";
    o.output = *v;
  }
  o.language = lastValue(raw.language, "x", warnings);

  o.includeDirs = raw.includePath;
  o.systemIncludeDirs = raw.systemInclude;
  o.preIncludes = raw.preInclude;
  o.macros = raw.macro;
  if (auto v = lastValue(raw.std, "std", warnings))
    o.std = *v;

  if (auto v = lastValue(raw.optimize, "optimize", warnings)) {
    o.hostOptLevel = static_cast<unsigned>(std::stoul(*v));
    o.optLevelGiven = true;
  }
  o.debug = raw.debug > 0;
  o.lineInfo = raw.lineInfo > 0;
  o.deviceDebug = raw.deviceDebug > 0;
  o.shared = raw.shared > 0;
  o.run = raw.run > 0;
  o.runArgs = raw.runArgs;
  if (o.run && o.phase != Phase::Link)
    return "-run links and runs a program; it cannot be combined with -c, -E, "
           "-ptx, -cubin, -fatbin or -cuda";

  o.libDirs = raw.libraryPath;
  o.libs = raw.library;
  if (auto v = lastValue(raw.cudart, "cudart", warnings))
    o.cudart = *v == "none" ? CudartKind::None
               : *v == "shared" ? CudartKind::Shared
                                : CudartKind::Static;

  deviceMathOptions(raw, o, warnings);
  if (auto v = lastValue(raw.maxrregcount, "maxrregcount", warnings))
    o.maxRegCount = static_cast<unsigned>(std::stoul(*v));
  if (auto v = lastValue(raw.jumpTableDensity, "jump-table-density", warnings))
    o.jumpTableDensity = static_cast<unsigned>(std::stoul(*v));
  o.entries = raw.entries;
  o.inlineRemarks = !raw.optimizationInfo.empty();
  o.resourceUsage = raw.resourceUsage > 0;

  o.restrictKernelPointers = raw.restrict > 0;
  if (auto v = lastValue(raw.defaultStream, "default-stream", warnings);
      v && *v == "per-thread")
    o.macros.insert(o.macros.begin(), "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
  lastValue(raw.machine, "machine", warnings);
  o.randomSeed = lastValue(raw.randomSeed, "random-seed", warnings);

  o.xcompiler = raw.xcompiler;
  // -pg and -noeh are the host compiler's -pg and -fno-exceptions (compile
  // and link), as nvcc passes them.
  if (raw.profile > 0) o.xcompiler.push_back("-pg");
  if (raw.noExceptions > 0) o.xcompiler.push_back("-fno-exceptions");
  frontEndDiagnostics(raw, o, warnings);
  if (auto v = lastValue(raw.briefDiagnostics, "brief-diagnostics", warnings);
      v && *v == "true")
    o.clangFlags.push_back("-fno-caret-diagnostics");
  if (auto v = lastValue(raw.staticTemplateStub, "static-global-template-stub",
                         warnings))
    o.staticTemplateStubs = *v == "true";
  if (auto v = lastValue(raw.hiddenDeviceEntities,
                         "device-entity-has-hidden-visibility", warnings))
    o.hiddenDeviceEntities = *v == "true";
  // Options whose =false is mycc's behaviour and whose =true is refused, not
  // pretended: LLVM's NVPTX has no stack protector.
  struct FalseOnly {
    const std::vector<std::string> *values;
    const char *name, *why;
  };
  for (const FalseOnly &option :
       {FalseOnly{&raw.deviceStackProtector, "device-stack-protector",
                  ": LLVM's NVPTX backend has no stack protector"}})
    if (auto v = lastValue(*option.values, option.name, warnings); v && *v == "true")
      return std::string("-") + option.name + "=true is not supported by mycc" +
             option.why;
  // As nvcc 13 says it (ptxas then warns too, and ignores -lineinfo).
  if (o.deviceDebug && o.lineInfo && raw.dopt.empty())
    warnings.push_back(
        "'--device-debug (-G)' overrides '--generate-line-info (-lineinfo)'");
  // -dopt on: optimised device code; with -G only line numbers remain.
  if (!raw.dopt.empty() && o.deviceDebug) {
    o.deviceDebug = false;
    o.lineInfo = true;
  }
  if (auto v = lastValue(raw.outputDirectory, "output-directory", warnings))
    o.outputDir = *v;
  o.cleanTargets = raw.clean > 0;
  o.sourceInPtx = raw.sourceInPtx > 0;
  o.keepDeviceFunctions = raw.keepDeviceFunctions > 0 || raw.toolsPatch > 0;
  o.toolsPatch = raw.toolsPatch > 0;
  if (auto v = lastValue(raw.sanitize, "sanitize", warnings)) o.sanitize = *v;
  o.deviceSyntaxOnly = raw.deviceSyntaxOnly > 0;
  if (auto v = lastValue(raw.fastCompile, "fast-compile", warnings)) o.fastCompile = *v;
  o.noDeviceLink = raw.noDeviceLink > 0;
  o.objectDirAsTemp = raw.objdirAsTemp > 0;
  o.relocatablePtx = raw.relocatablePtx > 0;
  // nvcc reads -ldir only without its profile (whose NVVMIR_LIBRARY_DIR
  // names the toolkit's libdevice otherwise).
  if (auto v = lastValue(raw.libdeviceDirectory, "libdevice-directory", warnings))
    if (raw.dontUseProfile > 0) o.libdeviceDir = *v;
  if (auto v = lastValue(raw.targetDirectory, "target-directory", warnings))
    o.targetDir = *v;
  if (auto v = lastValue(raw.hostLinkerScript, "host-linker-script", warnings))
    o.hostLinkerScript = *v == "gen-lcs" ? Options::LinkerScript::Generate
                                         : Options::LinkerScript::Use;
  o.augmentLinkerScript = raw.augmentLinkerScript > 0;
  o.xptxas = raw.xptxas;
  o.xlinker = raw.xlinker;
  o.xnvlink = raw.xnvlink;
  o.xarchive = raw.xarchive;
  if (std::string error = fatbinOptions(raw, o, warnings); !error.empty())
    return error;
  if (auto v = lastValue(raw.archiver, "archiver-binary", warnings))
    o.archiver = *v;
  if (auto v = lastValue(raw.cudadevrt, "cudadevrt", warnings))
    o.cudadevrt = *v == "static";
  o.deviceLto = raw.dlto > 0;
  if (o.deviceLto) o.rdc = true; // as nvcc's -dlto, even after -rdc=false
  // -ewp: nvcc's relocatable objects and device link, whole-program code;
  // nvcc refuses it with the other kinds of relocatable code.
  if (o.phase == Phase::RelocatableLink) {
    // As nvcc's -r: the inputs compile to relocatable device code, which
    // nvlink -r links; mycc's -dlto bitcode is not nvlink's to link.
    if (raw.dlto > 0)
      return "-r with -dlto is not supported by mycc: its -dlto device code is "
             "LLVM bitcode, which nvlink -r cannot link";
    o.rdc = true;
  }
  if (raw.ewp > 0) {
    const char *other =
        raw.dlto > 0 ? "-dlto"
        : o.phase == Phase::RelocatableLink ? "-r"
        : std::count(raw.phase.begin(), raw.phase.end(), "device-c") ? "-dc"
        : o.rdc ? "-rdc=true"
                : nullptr;
    if (other) return std::string(other) + " is not compatible with -ewp";
    o.extensibleWholeProgram = o.rdc = true;
  }
  if (std::string error = driverOptions(raw, o, warnings); !error.empty())
    return error;
  // -astoolspatch, as nvcc 13 refuses it (measured).
  if (o.toolsPatch) {
    if (o.phase != Phase::Ptx && o.phase != Phase::Cubin && o.phase != Phase::Fatbin)
      return "-astoolspatch (--compile-as-tools-patch) requires -ptx, -cubin or -fatbin";
    if (o.rdc)
      return std::string("-astoolspatch (--compile-as-tools-patch) is not compatible with ") +
             (o.extensibleWholeProgram ? "-ewp" : "-rdc=true");
  }
  return buildTargets(raw, o, warnings);
}

const char *groupTitle(Group group) {
  switch (group) {
  case Group::Phase: return "Options for specifying the compilation phase";
  case Group::Files: return "File and path specifications";
  case Group::Build: return "Optimization and debug information";
  case Group::Language: return "Language and warnings";
  case Group::Passthrough: return "Options for passing options to the tools underneath";
  case Group::Targets: return "Options for steering GPU code generation";
  case Group::Driver: return "Driver behaviour";
  case Group::Info: return "Information";
  case Group::Hidden: return "";
  }
  return "";
}

} // namespace

std::vector<std::string> withEnvironmentFlags(const std::vector<std::string> &args,
                                              const std::string &prepend,
                                              const std::string &append) {
  std::vector<std::string> all = optionsFileWords(prepend);
  all.insert(all.end(), args.begin(), args.end());
  std::vector<std::string> after = optionsFileWords(append);
  all.insert(all.end(), after.begin(), after.end());
  return all;
}

ParseResult parseCommandLine(const std::vector<std::string> &args) {
  ParseResult result;
  std::vector<std::string> expanded;
  result.error = expandOptionsFiles(args, expanded, 0);
  if (!result.error.empty())
    return result;
  Normalised normalised;
  result.error = normalise(expanded, normalised);
  if (!result.error.empty())
    return result;
  Raw raw;
  result.error = runCli11(normalised, raw);
  if (!result.error.empty())
    return result;
  result.error = buildOptions(raw, result.options, result.warnings);
  return result;
}

std::string addNativeTargets(Options &options, const std::vector<GpuArch> &gpus,
                             std::vector<std::string> &warnings,
                             const std::string &noGpuReason) {
  std::vector<TargetPair> targets;
  std::string unsupported;
  for (const GpuArch &gpu : gpus) {
    GpuArch plain{gpu.sm, ArchSuffix::None};
    if (!isKnownArch(plain)) {
      warnings.push_back("-arch=native: the toolkit cannot build code for the "
                         "installed GPU sm_" + plain.str() + "; it is skipped");
      unsupported += (unsupported.empty() ? "sm_" : ", sm_") + plain.str();
      continue;
    }
    addPair(targets, Target{true, plain}, {Target{false, plain}});
  }
  // No usable GPU (none, no driver, or none the toolkit supports): nvcc 13
  // warns and builds for its default architecture, as without -arch.
  if (targets.empty()) {
    warnings.push_back(
        "Cannot find valid GPU for '-arch=native', default arch is used" +
        (!unsupported.empty() ? " (found " + unsupported + ")"
         : noGpuReason.empty() ? std::string()
                               : " (" + noGpuReason + ")"));
    if (options.targets.empty()) {
      Target virt{true, GpuArch{kDefaultSm, ArchSuffix::None}};
      addPair(targets, virt, {Target{false, virt.arch}, virt});
    }
  }
  for (const TargetPair &pair : options.targets)
    addPair(targets, pair.virtualArch, pair.codes);
  options.targets = std::move(targets);
  options.nativeArch = false;
  return {};
}

std::string helpText() {
  std::ostringstream out;
  out << "Usage  : mycc [options] <inputfile>...\n";
  const Group order[] = {Group::Phase,   Group::Files,       Group::Build,
                         Group::Language, Group::Passthrough, Group::Targets,
                         Group::Driver,  Group::Info};
  for (Group group : order) {
    std::string title = groupTitle(group);
    out << "\n" << title << "\n" << std::string(title.size(), '=') << "\n";
    for (const Spec &spec : kSpecs) {
      if (spec.group != group)
        continue;
      std::string left = spec.longName;
      if (*spec.metavar)
        left += std::string(" ") + spec.metavar;
      std::string alias = *spec.shortName ? std::string("(") + spec.shortName + ")" : "";
      // Columns as wide as the widest entry of each, as in nvcc's help.
      constexpr std::size_t kLeftWidth = 48, kAliasWidth = 27;
      out << left << std::string(kLeftWidth - std::min(left.size(), kLeftWidth - 1), ' ')
          << alias << std::string(kAliasWidth - std::min(alias.size(), kAliasWidth - 1), ' ')
          << spec.help << "\n";
    }
  }
  return out.str();
}

} // namespace mycc::driver
