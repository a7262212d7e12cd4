// Memory accesses in the forms nvcc's PTX has, where LLVM 22's NVPTX back
// end leaves a weaker form. See MemoryAccesses.cpp.
#pragma once

#include "llvm/IR/PassManager.h"

namespace llvm {
class CallInst;
class Function;
class PassBuilder;
} // namespace llvm

namespace mycc::offload {

// A WMMA fragment load or store (llvm.nvvm.wmma.<shape>.{load,store}.*),
// whose first operand is the address.
bool isWmmaMemoryAccess(const llvm::CallInst &call);

// Replaces each llvm.memcpy/llvm.memmove of a constant size that is a
// multiple of 16 bytes, up to 128, between pointers both 16-byte aligned,
// by 16-byte vector loads and stores (all loads first, so overlap is
// harmless). Volatile copies are kept. Returns whether anything changed.
bool widenAlignedCopies(llvm::Function &function);

// Moves each WMMA load or store whose generic address is computed (through
// offsets, phis and selects) from a shared or global one to the intrinsic
// of that space, on the address cast back to it (wmma.load...shared instead
// of cvta.shared + wmma.load once InferAddressSpaces has folded the casts).
// Returns whether anything changed.
bool wmmaInSpecificSpaces(llvm::Function &function);

// Both of the above, then address space inference.
class MemoryAccessesPass : public llvm::PassInfoMixin<MemoryAccessesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

// Runs the pass at the end of every optimising pipeline (whole program,
// before and after the device link).
void registerMemoryAccessesPass(llvm::PassBuilder &builder);

} // namespace mycc::offload
