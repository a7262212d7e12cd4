// Volatile accesses to local variables of device code.
//
// A local variable lives in the thread's own local memory; when its address
// never leaves the function, no other thread, kernel or device can read or
// write it, and NVVM (nvcc's optimiser) keeps it in registers even when it
// is `volatile`: each access stays a register move, none goes to local
// memory. LLVM keeps every volatile access as a load or store of the stack
// slot, so such a variable stays in local memory. It matters beyond
// hand-written `volatile` locals: libcu++ reads the pointer inside a
// cuda::atomic_ref through a volatile access in its wait loop, and mycc's
// build of `ref.wait(old)` kept the reference in local memory and reloaded it
// on every poll where nvcc's keeps it in a register.
//
// The pass clears `volatile` on the loads and stores of an alloca all of
// whose uses are loads from it, stores to it (of other values than its own
// address) and lifetime markers. Accesses through a pointer derived from the
// alloca (a field, an element, a cast) keep it, as does any alloca whose
// address is passed on, stored, compared or converted.
#include "VolatileLocals.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/SROA.h"

using namespace llvm;

namespace mycc::offload {

namespace {

bool onlyAccessed(const AllocaInst &alloca) {
  for (const Use &use : alloca.uses()) {
    const User *user = use.getUser();
    if (const auto *load = dyn_cast<LoadInst>(user)) {
      if (load->getPointerOperand() != &alloca) return false;
    } else if (const auto *store = dyn_cast<StoreInst>(user)) {
      if (store->getPointerOperand() != &alloca || store->getValueOperand() == &alloca)
        return false;
    } else if (!isa<LifetimeIntrinsic>(user)) {
      return false;
    }
  }
  return true;
}

} // namespace

bool promotableVolatileLocals(Function &function) {
  bool changed = false;
  for (Instruction &inst : function.getEntryBlock()) {
    auto *alloca = dyn_cast<AllocaInst>(&inst);
    if (!alloca || !onlyAccessed(*alloca)) continue;
    for (User *user : alloca->users()) {
      if (auto *load = dyn_cast<LoadInst>(user); load && load->isVolatile()) {
        load->setVolatile(false);
        changed = true;
      } else if (auto *store = dyn_cast<StoreInst>(user); store && store->isVolatile()) {
        store->setVolatile(false);
        changed = true;
      }
    }
  }
  return changed;
}

PreservedAnalyses VolatileLocalsPass::run(Function &function,
                                          FunctionAnalysisManager &) {
  if (!promotableVolatileLocals(function)) return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

void registerVolatileLocalsPass(PassBuilder &builder) {
  // Late in the function simplification pipeline: after inlining has put
  // the callees' locals (libcu++'s atomic_ref) into the caller, before the
  // loop and scalar passes that follow; SROA then promotes them.
  builder.registerScalarOptimizerLateEPCallback(
      [](FunctionPassManager &pipeline, OptimizationLevel level) {
        if (level == OptimizationLevel::O0) return;
        pipeline.addPass(VolatileLocalsPass());
        pipeline.addPass(SROAPass(SROAOptions::ModifyCFG));
      });
}

} // namespace mycc::offload
