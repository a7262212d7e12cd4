// Memory spaces of const variables on the device side, as nvcc chooses them.
//
// nvcc puts a variable in the constant bank (`.const`, 64 KiB per module) only
// when it is written __constant__. Clang's device compile also promotes
// (SemaCUDA::MaybeAddConstantAttr, an implicit CUDAConstantAttr) every
// namespace-scope or static-member variable that is const or constexpr and
// constant-initialised, `__device__ const` ones included, and CodeGen places
// a function-scope `static const` variable there as well. A large table then
// fails in ptxas ("File uses too much global constant data"), and small ones
// take the bank that nvcc leaves to the program's __constant__ data.
//
// DeviceSema's consumer runs ahead of Clang's CodeGen consumer and, before
// CodeGen creates the variable:
//  - `__device__` variables lose the implicit __constant__: global memory, as
//    with nvcc;
//  - variables without a memory-space attribute lose it too and become
//    implicit __device__ variables in global memory. nvcc does not let device
//    code use them at all ("identifier is undefined in device code"), Clang
//    does; the extension stays, in global memory;
//  - function-scope `static const` variables without a memory-space attribute
//    become implicit __device__ variables (global memory, as with nvcc).
// Written __constant__ variables stay in the constant bank. __managed__
// variables (the prelude's annotation) are marked for the NVPTX back end's
// `.attribute(.managed)`.
//
// After code generation, finishModule() removes the variables of the second
// kind that device code does not use: Clang emits those with external
// linkage (a host-side `extern const` table or a static data member), and
// those that host code uses; nvcc keeps them out of the device image. The
// same for `__device__` ones of internal linkage declared in system headers,
// which mycc never registers for host access (CCCL's `__device__ constexpr`
// tag objects, thrust::seq and the like). It also places the variables Clang
// keeps for host code in an order that does not change from run to run, and
// aligns `extern __shared__` arrays (16 bytes at least) and local variables
// as nvcc does.
#pragma once

#include "FrontEndPass.h"

#include <memory>
#include <string>
#include <vector>


namespace mycc::offload {

class DeviceSema : public FrontEndPass {
public:
  // The consumer to run ahead of CodeGen (it must see each declaration
  // first). It records into this object, which must outlive it.
  std::unique_ptr<clang::ASTConsumer> createConsumer() override;

  // Removes the constants only host code uses and orders those kept for it
  // (see above).
  void finishModule(llvm::Module &module) const override;

  // The variables that lost an implicit __constant__ and are kept only for
  // device code's uses (see above), in the order they were first seen
  // (filled at the end of the translation unit).
  // Mangled names of `extern __managed__` declarations without a definition
  // in the unit (filled at the end of the translation unit).
  std::vector<std::string> managedDeclarations;

  struct Constant {
    std::string symbol;
    bool internal = false; // internal linkage in C++ (a namespace-scope const)
  };
  std::vector<Constant> deviceUseOnly;
};

} // namespace mycc::offload
