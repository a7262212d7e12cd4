// Host lowering: rewrites the preprocessed host translation unit of a .cu file
// into plain host C++ that any CUDA host compile can build without device
// support:
//  - each __global__ function becomes a host stub with the same signature that
//    launches the kernel through the mycc runtime (templates stay templates);
//  - each k<<<g, b, smem, stream>>>(args) becomes a push of the launch
//    configuration followed by an ordinary call of the stub, so overload
//    resolution and template deduction stay the compiler's job;
//  - each __device__/__constant__ variable becomes a host shadow;
//  - a registration table is appended. Kernels are named in it by their
//    mangled symbol, so specialisations on lambda or local types need no
//    printable name.
#pragma once

#include <string>

namespace clang {
class CompilerInstance;
}

namespace mycc::lowering {

struct LoweredUnit {
  std::string text;      // the rewritten unit
  unsigned kernels = 0;  // registered kernel instantiations
  unsigned variables = 0; // registered device variables
};

// Parses the preprocessed unit that `instance` is set up for (a host-side
// CUDA invocation) and rewrites it. `sourceName` is the original .cu, used in
// runtime messages. Diagnostics go through the instance; returns false when
// the unit has errors.
bool lowerHostUnit(clang::CompilerInstance &instance,
                   const std::string &sourceName, LoweredUnit &out);

// The name of the symbol the rewritten unit expects the host object to define:
// the fat binary wrapper (__fatBinC_Wrapper_t).
constexpr const char *kFatbinWrapperSymbol = "__mycc_fatbin_wrapper";

} // namespace mycc::lowering
