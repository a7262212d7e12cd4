// Thread-private volatile locals kept in registers, as nvcc keeps them. See
// VolatileLocals.cpp.
#pragma once

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class PassBuilder;
} // namespace llvm

namespace mycc::offload {

// Clears `volatile` on the loads and stores of a local variable whose
// address never escapes (every use of its alloca is a load from it, a store
// to it, or a lifetime marker), so that SROA can keep it in registers.
// Returns whether anything changed.
bool promotableVolatileLocals(llvm::Function &function);

class VolatileLocalsPass : public llvm::PassInfoMixin<VolatileLocalsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

// Runs the pass late in each function's simplification, followed by SROA.
void registerVolatileLocalsPass(llvm::PassBuilder &builder);

} // namespace mycc::offload
