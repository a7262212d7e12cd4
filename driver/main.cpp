// mycc: an nvcc-compatible CUDA compiler driver. The driver is a library
// (Driver.h); this only hands it the command line.
#include "Driver.h"
#include "InternalTools.h"
#include "SignalCleanup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  mycc::support::recordIgnoredSignals();
  llvm::InitLLVM initLLVM(argc, argv);
  int rc;
  if (argc > 1 && std::string(argv[1]) == "-cc1") {
    rc = mycc::driver::runInternalCommand({argv, argv + argc});
  } else if (mycc::driver::isNvccStepName(argv[0])) {
    // mycc under one of nvcc's step names (libexec/mycc/cicc, ...): a step
    // of a --keep plan, run by itself (InternalTools.h).
    rc = mycc::driver::runInternalCommand(
        mycc::driver::internalFormOf({argv, argv + argc}));
  } else {
    // mycc's own path (symbolic links resolved: bin/nvcc -> mycc finds the
    // same installation), which in-process jobs' command lines name.
    std::string self =
        llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
    rc = mycc::driver::runDriver({argv + 1, argv + argc}, self);
  }
  // After an internal error (exit 70) a recovered crash may have left
  // LLVM's global state broken (a timer on the crashed thread's stack):
  // the run has cleaned up and reported; leave without static destructors.
  if (rc == mycc::driver::kInternalErrorExit) {
    llvm::errs().flush();
    std::_Exit(rc);
  }
  return rc;
}
