// nvcc's execution-space checks on the device side, where Clang's differ.
//
// Clang checks a call (or reference) across execution spaces when the
// calling function is compiled: a wrong-side call from a __host__ __device__
// function is an error deferred until the caller is known to be emitted for
// the device (Sema's DeviceDeferredDiags). Its emitter then walks on from
// the caller, through host functions too, and emits each reached function's
// deferred errors. nvcc differs twice:
//  - `#pragma nv_exec_check_disable` before a __host__ __device__ function
//    (CCCL's _CCCL_EXEC_CHECK_DISABLE, before hundreds of its templates)
//    turns the check off for that function: Thrust's device-side dispatch
//    names the host-only CUB path inside `if (false)`, which nvcc accepts
//    and Clang rejected ("reference to __host__ function ... in __host__
//    __device__ function");
//  - host functions are never compiled for the device, so what they call is
//    never checked for it.
// Just before Clang's emitter runs (Sema asks its external source for the
// declarations to check), ExecChecks drops the wrong-side reference errors
// of the exempted functions and the deferred errors of every function that
// the device code reaches only through host functions. Which functions the
// device code reaches is walked here from the same roots as Clang's walk,
// over every reference in the bodies (calls, constructors, destructors,
// operator new and delete, default arguments, virtual functions of the
// classes constructed), without entering host functions.
//
// Clang would need an attribute (or a pragma) that exempts a function from
// the checks and an emitter that does not walk through host functions on
// the device side for this pass to go.
#pragma once

#include "FrontEndPass.h"

#include <string>
#include <vector>

namespace mycc::offload {

class ExecChecks : public FrontEndPass {
public:
  std::unique_ptr<clang::ASTConsumer> createConsumer() override;
  // Host functions that device code calls get a body that traps (see the
  // .cpp).
  void finishModule(llvm::Module &module) const override;

  // The device symbols of the host functions that device code names
  // (filled by the consumer at the end of the translation unit).
  std::vector<std::string> hostSymbols;
};

} // namespace mycc::offload
