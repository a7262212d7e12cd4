// mycc: an nvcc-compatible CUDA compiler driver. The driver is a library
// (Driver.h); this only hands it the command line.
#include "Driver.h"
#include "SignalCleanup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  mycc::support::recordIgnoredSignals();
  llvm::InitLLVM initLLVM(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "-cc1")
    return mycc::driver::runInternalCommand({argv, argv + argc});
  // mycc's own path (symbolic links resolved: bin/nvcc -> mycc finds the
  // same installation), which in-process jobs' command lines name.
  std::string self =
      llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  return mycc::driver::runDriver({argv + 1, argv + argc}, self);
}
