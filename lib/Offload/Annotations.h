// Clang's `annotate` attribute as a carrier from mycc's prelude to its device
// code generation: the prelude spells nvcc's qualifiers that Clang does not
// know (__maxnreg__, __managed__) as `__attribute__((annotate("mycc.X")))`,
// which Clang keeps in the AST and lists in the module's
// llvm.global.annotations. The entries must not reach the PTX (their strings
// would become globals there).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace llvm {
class GlobalValue;
class Module;
} // namespace llvm

namespace mycc::offload {

inline constexpr llvm::StringRef kMaxNRegAnnotation = "mycc.maxnreg";
inline constexpr llvm::StringRef kManagedAnnotation = "mycc.managed";

// The globals annotated with `annotation`, in module order; their entries
// are removed from llvm.global.annotations (the list goes when empty).
std::vector<llvm::GlobalValue *> takeAnnotated(llvm::Module &module,
                                               llvm::StringRef annotation);

} // namespace mycc::offload
