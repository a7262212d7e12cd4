// The shape of mycc's additions to Clang's device front end
// (DeviceCodegen's DeviceFrontEndPasses): an AST consumer that runs ahead of
// Clang's CodeGen, so that it sees (and may edit) each declaration before
// code is generated from it, and an edit of the module CodeGen produced,
// before LLVM's optimisation pipeline. DeviceSema, ClangHeaderFixes and
// KernelAttributes are the passes.
#pragma once

#include <memory>
#include <string>

namespace clang {
class ASTConsumer;
class GlobalDecl;
class MangleContext;
}
namespace llvm {
class Module;
}

namespace mycc::offload {

class FrontEndPass {
public:
  virtual ~FrontEndPass() = default;
  // The consumer records into the pass, which must outlive it.
  virtual std::unique_ptr<clang::ASTConsumer> createConsumer() = 0;
  virtual void finishModule(llvm::Module &module) const = 0;
};

// The symbol CodeGen gives `decl` on the device side: its mangled name, or
// its plain name where C++ does not mangle it (extern "C", C globals). The
// passes find their functions and variables in the module by it.
std::string symbolOf(clang::MangleContext &mangler, const clang::GlobalDecl &decl);

} // namespace mycc::offload
