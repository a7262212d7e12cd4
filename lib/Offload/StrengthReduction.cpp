// NVPTX's code generator runs LLVM's straight-line strength reduction
// (SLSR) on every function: it rewrites B + i*S from a dominating
// B + i'*S (or one with another base or stride), which pays in code
// unrolled into straight lines. LLVM 22's SLSR looks, for each candidate,
// at every dominating candidate that shares two of its three parts, and
// subtracts their SCEVs until it finds a constant difference; earlier
// versions looked at the last 50 candidates only, "to avoid running in
// quadratic time". A fully unrolled block of thousands of candidates is
// quadratic again: in ggml's fattn.cu (sm_90), the seven flash-attention
// kernels whose largest blocks hold 1,178-2,148 candidates took 3.3 s of
// the pass's 3.5 s, where no kernel of ggml's mmq (up to 839 per block),
// Thrust or CUTLASS took more than 0.12 s. Without SLSR there, ptxas's
// code has the same registers and instruction count within 3 of about
// 4,090, and ggml's flash-attention kernels ran as fast or faster on an
// H100 (docs/performance.md).
//
// The pass has no option of its own; the legacy pass manager asks the
// context's OptPassGate before each function pass (FunctionPass::
// skipFunction), and this gate answers. An SLSR that bounds its search
// again would make it unnecessary.
#include "StrengthReduction.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace mycc::offload {

unsigned strengthReductionCandidates(const llvm::BasicBlock &block) {
  unsigned count = 0;
  for (const llvm::Instruction &i : block)
    if (i.getOpcode() == llvm::Instruction::Add ||
        i.getOpcode() == llvm::Instruction::Mul ||
        i.getOpcode() == llvm::Instruction::GetElementPtr)
      ++count;
  return count;
}

StrengthReductionBound::StrengthReductionBound(llvm::Module &module)
    : module_(module), previous_(module.getContext().getOptPassGate()) {
  module.getContext().setOptPassGate(*this);
}

StrengthReductionBound::~StrengthReductionBound() {
  module_.getContext().setOptPassGate(previous_);
}

bool StrengthReductionBound::shouldRunPass(llvm::StringRef pass,
                                           llvm::StringRef unit) const {
  if (previous_.isEnabled() && !previous_.shouldRunPass(pass, unit))
    return false;
  // LLVM 22 names legacy passes by their argument ("slsr").
  if (pass != "slsr" && pass != "Straight line strength reduction") return true;
  llvm::StringRef name = unit;
  if (!name.consume_front("function (") || !name.consume_back(")"))
    return true;
  const llvm::Function *function = module_.getFunction(name);
  if (!function) return true;
  for (const llvm::BasicBlock &block : *function)
    if (strengthReductionCandidates(block) >= kStrengthReductionBlockLimit)
      return false;
  return true;
}

} // namespace mycc::offload
