// The shape of mycc's additions to Clang's device front end
// (DeviceCodegen's DeviceFrontEndPasses): an AST consumer that runs ahead of
// Clang's CodeGen, so that it sees (and may edit) each declaration before
// code is generated from it, and an edit of the module CodeGen produced,
// before LLVM's optimisation pipeline. DeviceSema, ClangHeaderFixes and
// KernelAttributes are the passes.
#pragma once

#include <memory>

namespace clang {
class ASTConsumer;
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

} // namespace mycc::offload
