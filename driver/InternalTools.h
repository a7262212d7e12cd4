// The in-process jobs' command-line form: `mycc -cc1 <tool> [options]
// [inputs] [-- <clang cc1 arguments>]`, as `clang -cc1` is Clang's. The
// planner builds these command lines; the scheduler runs them inside the
// driver's process (no process is started), and the same line typed into a
// shell runs the same code through main(). --dryrun prints them.
//
// Tools: preprocess-host, lower-host, compile-device, bundle, host-ir,
// compile-host, embed-device-code, scan-device-code, device-link,
// device-link-host, publish (a dependency rule put in place).
#pragma once

#include "Toolkit.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace mycc::driver {

// Builds one in-process command line. Options with a value are written as
// two words (`-arch compute_90`: CMake reads "-arch compute_NN" from -v).
class InternalCommand {
public:
  InternalCommand(const Toolkit &toolkit, const char *tool);
  InternalCommand &value(const char *option, const std::string &value);
  InternalCommand &flag(const char *option);
  InternalCommand &input(const std::string &path);
  InternalCommand &cc1(const std::vector<std::string> &args);
  std::vector<std::string> argv;
};

// nvcc's step names for three tools (docs/build-systems.md, "sccache"):
// with --keep the plan spells compile-device, lower-host and bundle as
// <prefix>/libexec/mycc/cicc, cudafe++ and fatbinary (links to mycc), with
// their files where nvcc's steps have theirs, so that tools which take
// nvcc's --dryrun apart (sccache) run and cache them as nvcc's:
//   cicc <options> -- <cc1> <input .cpp1.ii> -o <ptx>
//   cudafe++ <options> -- <cc1> --gen_c_file_name <lowered>
//            --module_id_file_name <id file> <input .cpp4.ii>
//   fatbinary <bundle's options>
// `input` is the job's input (the word moved last), `moduleIdFile` the
// lowering's module id file.
std::vector<std::string> spellAsNvccStep(const Toolkit &toolkit,
                                         const std::vector<std::string> &argv,
                                         const std::string &input,
                                         const std::string &moduleIdFile = {});
// The `mycc -cc1 <tool>` form of such a step (`argv[0]` named cicc,
// cudafe++ or fatbinary), in whatever order of options a cache gives it;
// other command lines unchanged.
std::vector<std::string> internalFormOf(const std::vector<std::string> &argv);
bool isNvccStepName(const std::string &program);

// Whether `argv` (a job's command) is an in-process tool of `self`.
bool isInternalCommand(const std::vector<std::string> &argv,
                       const std::string &self);

// Process-wide settings an in-process tool needs (LLVM's backend options),
// applied once before any job runs, since jobs run in threads.
void prepareInternalTool(const std::vector<std::string> &argv);

// Runs `argv` (the whole command, `mycc -cc1 <tool> ...`). Source
// diagnostics go to `diagnostics`; on failure `error` says why in one line,
// or is empty when the diagnostics already do.
bool runInternalTool(const std::vector<std::string> &argv,
                     llvm::raw_ostream &diagnostics, std::string &error);

} // namespace mycc::driver
