// Loop unrolling where nvcc unrolls and LLVM 22 does not. See Unrolling.cpp.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Loop;
class LoopInfo;
class PassBuilder;
class ScalarEvolution;
class TargetTransformInfo;
} // namespace llvm

namespace mycc::offload {

// The largest body LLVM unrolls partially, as mycc sets it
// (applyBackendOptions, DeviceCodegen.cpp); the runtime unrolling below
// keeps to it too.
constexpr unsigned kPartialUnrollThreshold = 150;

// Whether PTX inline assembly is made only of instructions that act on
// their own thread (arithmetic, conversions, moves, loads, stores, atomics):
// nothing a warp or block executes together (bar, shfl, vote, mma, ...), no
// branch or label. Unknown instructions count as collective.
bool isThreadLocalPtx(llvm::StringRef assembly);

// Drops `convergent` from the inline assembly calls of an innermost loop
// when they are its only convergent operations and all thread-local, so
// that LLVM may unroll it with a remainder loop. Returns whether anything
// changed.
bool dropThreadLocalAsmConvergence(llvm::Loop &loop);

// The unroll count given to a loop, not nested, whose trip count is known
// only at run time and which LLVM would not unroll because computing that
// count takes a division (`for (i = tid; i < n; i += stride)` with `stride`
// a parameter); 0 for a loop that is left alone.
unsigned runtimeUnrollCount(const llvm::Loop &loop, llvm::ScalarEvolution &scalars,
                            const llvm::TargetTransformInfo &costs);

// Both of the above on every loop: the convergence dropped, and each loop
// with a count gets it as unroll metadata (llvm.loop.unroll.count, as
// `#pragma unroll 4` would). Returns whether anything changed.
bool prepareUnrolling(llvm::LoopInfo &loops, llvm::ScalarEvolution &scalars,
                      const llvm::TargetTransformInfo &costs);

class UnrollingPass : public llvm::PassInfoMixin<UnrollingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

// Runs UnrollingPass before the loop vectoriser (and so before LLVM's
// runtime unrolling, which follows it) in every optimising pipeline.
void registerUnrollingPass(llvm::PassBuilder &builder);

} // namespace mycc::offload
