// The mycc driver as a library: main() parses nothing itself and calls
// these. runDriver takes nvcc's command line through planning (Planner.h)
// to the scheduler (Scheduler.h), or prints the plan (--dryrun);
// runInternalCommand is `mycc -cc1 <tool> ...` (InternalTools.h).
#pragma once

#include "Graph.h"
#include "Toolkit.h"

#include <string>
#include <vector>

namespace mycc::driver {

// `args` are argv[1..]; `self` is mycc's executable. Returns the exit code.
int runDriver(const std::vector<std::string> &args, const std::string &self);

// The exit status of an internal error (a crash or an LLVM fatal error in
// an in-process job): EX_SOFTWARE, which a build can tell from an error in
// the source.
constexpr int kInternalErrorExit = 70;

// `argv` is the whole command line (argv[1] == "-cc1").
int runInternalCommand(const std::vector<std::string> &argv);

// A job's command as --dryrun and -v print it: a shell command line. The
// link command carries the LIBRARIES value verbatim (quotes included), as
// build systems look for it (CMake takes the last line containing it as the
// link command).
std::string commandText(const Job &job, const Toolkit &toolkit);

} // namespace mycc::driver
