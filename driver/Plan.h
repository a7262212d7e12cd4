// The plan: the typed list of steps one mycc invocation performs. --dryrun
// prints it, -v prints each step as it runs, --keep keeps its intermediate
// files, and the executor runs it; all read this one structure.
#pragma once

#include "Options.h"

#include <string>
#include <vector>

namespace mycc::driver {

enum class StepKind {
  PreprocessHost, // .cu → one preprocessed host unit          (in-process)
  LowerHost,      // host unit → rewritten unit (.cu.cpp.ii)    (in-process)
  CompileDevice,  // .cu → PTX (-rdc: bitcode) for a virtual arch (in-process)
  Assemble,       // PTX → cubin for one real arch              (ptxas)
  Bundle,         // cubins + PTX → fat binary                  (in-process)
  CompileHost,    // rewritten unit + fat binary → host object  (in-process)
  CompileSource,  // a .c/.cpp input → object                   (host compiler)
  DeviceLink,     // relocatable device code → PTX, one virtual arch (in-process)
  DeviceLinkHost, // linked fat binary → host object registering it (in-process)
  Link,           // objects → executable                       (host compiler)
  Depfile,        // dependency rule → -MF / .d file / stdout     (in-process)
};

const char *stepName(StepKind kind);

struct Step {
  StepKind kind;
  std::vector<std::string> inputs;
  std::string output;
  Target target;         // CompileDevice: compute_XY; Assemble: sm_XY
  std::vector<Target> bundled; // Bundle: the images, in container order
  std::vector<std::string> command; // external tools: the full command line
  unsigned unit = 0;     // which .cu input the step belongs to (kNoUnit:
                         // none, for the steps of other inputs)
  // Part of the device link (DeviceLink, DeviceLinkHost and their Assemble
  // and Bundle steps), which runs after every unit; `unit` is unused then.
  bool deviceLink = false;
  // -rdc=true: the unit's id (Clang's -cuid, and the suffix of its device
  // link symbols) on its in-process steps.
  std::string unitId;
  // PreprocessHost and CompileSource with -M/-MD: the temporary file the
  // dependency rule goes to, for `depsTarget`; a Depfile step then puts it
  // in place. PreprocessHost with an empty `output` writes only the rule.
  std::string depfile;
  std::string depsTarget;
};

constexpr unsigned kNoUnit = ~0u;

struct Toolkit {
  std::string cudaPath;
  std::string ptxas;
  // The host compiler that compiles .c/.cpp inputs and links: -ccbin as
  // given, else g++ found on PATH (an absolute path: build systems take the
  // link command's first word as their link driver).
  std::string hostCompiler;
  // The toolkit-shaped prefix: the directory above mycc's bin/, whose lib64/
  // holds mycc's runtime (libmycc_rt.a) and links to the toolkit's libraries
  // (docs/build-systems.md).
  std::string prefix;
  std::string prelude;        // include/mycc/prelude.h, injected into each .cu
  // The toolkit's nvcc version (nvcc's __CUDACC_VER_*__); major 0: unknown.
  unsigned versionMajor = 0, versionMinor = 0, versionBuild = 0;
};

// nvcc's LIBRARIES value, as `-v` prints it and as the link command contains
// it verbatim: "-L<prefix>/lib64/stubs" "-L<prefix>/lib64".
std::string librariesValue(const Toolkit &toolkit);

struct Plan {
  std::vector<std::string> cuInputs; // one per unit
  std::vector<Step> steps;
  std::vector<std::string> temporaries; // removed unless --keep
  std::string tempDir;
};

// Builds the plan. `tempDir` is where intermediate files go (the keep
// directory with --keep). Returns false with a one-line `error` for inputs or
// option combinations that cannot be planned.
// Whether mycc compiles or links `path` (a .cu/.c/.cpp source, an object or a
// library, or any source under -x), rather than not knowing what it is.
bool isBuildInput(const Options &o, const std::string &path);

bool buildPlan(const Options &options, const Toolkit &toolkit,
               const std::string &tempDir, Plan &plan, std::string &error);

} // namespace mycc::driver
