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

// Aggregates passed by value to device functions (`byval` parameters of
// functions that are not kernels). LLVM 22's NVPTX back end, with the 32-bit
// local pointers mycc uses, aborts ("Copy one register into another with a
// different width") where it cannot read such a parameter in place: at -O0
// any read, otherwise one outside the entry block or an address passed on.
// Those parameters are passed as aggregate values (the same PTX parameter)
// where the signature may change (every caller in the module: not an
// external function before the device link), or else copied to local memory
// with loads in the entry block.
class DeviceFunctionParamsPass
    : public llvm::PassInfoMixin<DeviceFunctionParamsPass> {
public:
  DeviceFunctionParamsPass(bool optimize, bool signatures)
      : optimize(optimize), signatures(signatures) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  static bool isRequired() { return true; }

private:
  bool optimize;
  bool signatures; // external functions' signatures may change
};

// Runs KernelParamsPass and DeviceFunctionParamsPass at the end of the
// optimisation pipeline `builder` builds (after inlining and attribute
// inference, before code generation), and DeviceFunctionParamsPass again at
// the end of the link-time pipeline of relocatable device code.
void registerKernelParamsPass(llvm::PassBuilder &builder,
                              const llvm::TargetMachine &machine);

// nvcc's -restrict: every pointer parameter of every kernel is taken as
// __restrict__ (noalias), which lets read-only data go through the
// non-coherent cache (ld.global.nc) as nvcc's does.
void restrictKernelPointers(llvm::Module &module);

} // namespace mycc::offload
