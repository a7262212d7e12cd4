// Kernel properties nvcc writes into the PTX entry and Clang 22 does not:
//  - __cluster_dims__(X, Y, Z): `.explicitcluster` and `.reqnctapercluster
//    X, Y, Z`, so that a plain <<<>>> launch runs in clusters of that shape.
//    Clang parses the attribute (and rejects it below sm_90) but its NVPTX
//    code generation drops it;
//  - __maxnreg__(N): `.maxnreg N`. Clang does not know the attribute; mycc's
//    prelude spells it as `annotate("mycc.maxnreg", N)` on the device side,
//    which Clang keeps and which is read back here. As with nvcc, a kernel
//    may not have both __maxnreg__ and __launch_bounds__.
// Both become the NVPTX backend's function attributes (nvvm.cluster_dim,
// nvvm.maxnreg), from which it writes those directives.
//
// It also marks each `const` kernel parameter passed by value (without
// mutable members) `mycc.const_param`, for KernelParamsPass: such a
// parameter that the kernel does not write stays in parameter space (a grid
// constant) wherever its address goes, instead of being copied to local
// memory. Writing
// to a const parameter is undefined, so only the identity of its address
// changes. Why: CUTLASS and CuTe write __grid_constant__ only for nvcc
// (CUTLASS_GRID_CONSTANT is empty under `__clang__`, which mycc's device
// side defines), and hand the address of a TMA descriptor in such a
// parameter to `cp.async.bulk.tensor`: from a local copy the copy faults
// ("an illegal memory access was encountered").
#pragma once

#include "FrontEndPass.h"

#include <memory>
#include <string>
#include <vector>


namespace mycc::offload {

class KernelAttributes : public FrontEndPass {
public:
  // The consumer that reads the attributes of every kernel of the unit,
  // template instantiations included, at the end of the unit. It records into
  // this object, which must outlive it.
  std::unique_ptr<clang::ASTConsumer> createConsumer() override;

  // Sets the recorded properties on the kernels of the front end's module
  // and drops the prelude's annotations from it.
  void finishModule(llvm::Module &module) const override;

  struct Kernel {
    std::string symbol;
    unsigned cluster[3] = {0, 0, 0}; // 0: no __cluster_dims__
    unsigned maxNReg = 0;            // 0: no __maxnreg__
    std::vector<unsigned> constParams; // see the file comment
  };
  std::vector<Kernel> kernels;
};

} // namespace mycc::offload
