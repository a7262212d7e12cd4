// Kernel parameters passed by value (`byval` aggregates), lowered the way nvcc
// lowers them. See KernelParams.cpp.
#pragma once

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace mycc::offload {

// For every aggregate a kernel takes by value:
//  - if the kernel (and the device functions it passes the parameter's address
//    to) never writes it and never lets its address escape, it stays in the
//    parameter space and is read in place (ld.param, or a generic pointer from
//    cvta.param where a pointer is needed); the parameter is marked
//    `nvvm.grid_constant` where LLVM's own analysis would otherwise copy it;
//  - otherwise the kernel gets its own copy in local memory, as C++ semantics
//    require, copied with the widest accesses the parameter's alignment
//    allows (LLVM's backend would copy it one byte at a time).
class KernelParamsPass : public llvm::PassInfoMixin<KernelParamsPass> {
public:
  KernelParamsPass(const llvm::TargetMachine &machine, bool optimize)
      : machine(machine), optimize(optimize) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  static bool isRequired() { return true; }

private:
  const llvm::TargetMachine &machine;
  bool optimize;
};

// Runs KernelParamsPass at the end of the optimisation pipeline `builder`
// builds (after inlining and attribute inference, before code generation).
void registerKernelParamsPass(llvm::PassBuilder &builder,
                              const llvm::TargetMachine &machine);

} // namespace mycc::offload
