// Running a helper program for its output (nvcc --version, the device query,
// the host compiler's include directory): stdin empty, stdout and stderr
// captured through temporary files, which are removed.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mycc::support {

struct ProgramOutput {
  int status = -1;       // the exit status; negative: it could not run
  std::string out, err;  // what it wrote
  std::string execError; // why it could not run or was killed, if so
};

// Runs `program` with `args` (args[0] is its argv[0]), waiting at most
// `seconds`.
ProgramOutput runCapturing(llvm::StringRef program,
                           llvm::ArrayRef<llvm::StringRef> args,
                           unsigned seconds);

} // namespace mycc::support
