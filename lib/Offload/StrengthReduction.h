// A bound on NVPTX's straight-line strength reduction. See
// StrengthReduction.cpp.
#pragma once

#include "llvm/IR/OptBisect.h"

namespace llvm {
class BasicBlock;
class Module;
} // namespace llvm

namespace mycc::offload {

// The candidates of LLVM's straight-line strength reduction (SLSR) in one
// block: its integer adds and multiplications and its GEPs.
unsigned strengthReductionCandidates(const llvm::BasicBlock &block);

// A block with this many candidates or more makes SLSR's search for bases
// quadratic in seconds (StrengthReduction.cpp).
constexpr unsigned kStrengthReductionBlockLimit = 1000;

// While alive, the code generator of `module` (its LLVMContext's legacy
// passes) skips SLSR in a function with a block of
// kStrengthReductionBlockLimit candidates or more, as the function is when
// SLSR would run; every other pass and function runs as before. Restores
// the context's previous gate when destroyed.
class StrengthReductionBound final : public llvm::OptPassGate {
public:
  explicit StrengthReductionBound(llvm::Module &module);
  ~StrengthReductionBound() override;
  StrengthReductionBound(const StrengthReductionBound &) = delete;
  StrengthReductionBound &operator=(const StrengthReductionBound &) = delete;

  bool isEnabled() const override { return true; }
  // `pass` as the legacy pass manager names it, `unit` as
  // "function (NAME)".
  bool shouldRunPass(llvm::StringRef pass,
                     llvm::StringRef unit) const override;

private:
  llvm::Module &module_;
  llvm::OptPassGate &previous_;
};

} // namespace mycc::offload
