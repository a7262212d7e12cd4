#include "FrontEndPass.h"

#include "clang/AST/Decl.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "llvm/Support/raw_ostream.h"

namespace mycc::offload {

std::string symbolOf(clang::MangleContext &mangler,
                     const clang::GlobalDecl &decl) {
  const auto *named = llvm::cast<clang::NamedDecl>(decl.getDecl());
  if (!mangler.shouldMangleDeclName(named)) return named->getName().str();
  std::string symbol;
  llvm::raw_string_ostream os(symbol);
  mangler.mangleName(decl, os);
  return symbol;
}

} // namespace mycc::offload
