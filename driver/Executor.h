// Runs a plan: in-process steps through Clang and LLVM, external ones
// (ptxas, the host compiler) as processes; the device side of each .cu runs
// in parallel with its host side, one thread per virtual arch.
#pragma once

#include "Plan.h"

#include "llvm/Support/raw_ostream.h"

namespace mycc::driver {

// The command line (or in-process invocation) of a step, for --dryrun and -v.
std::string describeStep(const Step &step, const Options &options,
                         const Toolkit &toolkit);

// Returns the process exit code: 0, or 1 after printing one diagnostic.
int executePlan(const Plan &plan, const Options &options,
                const Toolkit &toolkit);

} // namespace mycc::driver
