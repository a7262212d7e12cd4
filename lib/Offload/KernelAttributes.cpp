#include "KernelAttributes.h"

#include "Annotations.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace mycc::offload {
namespace {

using namespace clang;

// A constant attribute argument; 0 when absent (Clang checked the values).
unsigned valueOf(const Expr *e, const ASTContext &ctx) {
  if (!e || e->isValueDependent()) return 0;
  if (std::optional<llvm::APSInt> v = e->getIntegerConstantExpr(ctx))
    return static_cast<unsigned>(v->getZExtValue());
  return 0;
}

// Declarations only, template instantiations included: kernels are never
// declared inside function bodies.
class KernelVisitor : public RecursiveASTVisitor<KernelVisitor> {
public:
  KernelVisitor(ASTContext &ctx, KernelAttributes &owner)
      : ctx(ctx), mangler(ctx.createMangleContext()), owner(owner) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseStmt(Stmt *) { return true; }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (!fd->hasAttr<CUDAGlobalAttr>() || fd->isDependentContext() ||
        !fd->doesThisDeclarationHaveABody())
      return true;
    KernelAttributes::Kernel kernel;
    const AnnotateAttr *maxNReg = nullptr;
    for (const auto *a : fd->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == kMaxNRegAnnotation && a->args_size() == 1)
        maxNReg = a;
    if (maxNReg) {
      kernel.maxNReg = valueOf(*maxNReg->args_begin(), ctx);
      if (fd->hasAttr<CUDALaunchBoundsAttr>()) {
        DiagnosticsEngine &diags = ctx.getDiagnostics();
        diags.Report(ctx.getSourceManager().getExpansionLoc(maxNReg->getLocation()),
                     diags.getCustomDiagID(
                         DiagnosticsEngine::Error,
                         "the __launch_bounds__ and __maxnreg__ qualifiers "
                         "cannot be applied to the same kernel"));
      }
    }
    if (const auto *dims = fd->getAttr<CUDAClusterDimsAttr>()) {
      kernel.cluster[0] = valueOf(dims->getX(), ctx);
      kernel.cluster[1] = dims->getY() ? valueOf(dims->getY(), ctx) : 1;
      kernel.cluster[2] = dims->getZ() ? valueOf(dims->getZ(), ctx) : 1;
    }
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      const ParmVarDecl *param = fd->getParamDecl(i);
      QualType type = param->getType();
      if (param->hasAttr<CUDAGridConstantAttr>() || !type.isConstQualified() ||
          type->isReferenceType())
        continue;
      if (const CXXRecordDecl *record = type->getAsCXXRecordDecl())
        if (record->hasMutableFields()) continue;
      kernel.constParams.push_back(i);
    }
    if (!kernel.maxNReg && !kernel.cluster[0] &&
        kernel.constParams.empty())
      return true;
    kernel.symbol = symbolOf(*mangler, GlobalDecl(fd));
    owner.kernels.push_back(std::move(kernel));
    return true;
  }

private:
  ASTContext &ctx;
  std::unique_ptr<MangleContext> mangler;
  KernelAttributes &owner;
};

class KernelAttributesConsumer : public ASTConsumer {
public:
  explicit KernelAttributesConsumer(KernelAttributes &owner) : owner(owner) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    KernelVisitor(ctx, owner).TraverseDecl(ctx.getTranslationUnitDecl());
  }

private:
  KernelAttributes &owner;
};

} // namespace

std::unique_ptr<ASTConsumer> KernelAttributes::createConsumer() {
  return std::make_unique<KernelAttributesConsumer>(*this);
}

void KernelAttributes::finishModule(llvm::Module &module) const {
  for (const Kernel &kernel : kernels) {
    llvm::Function *f = module.getFunction(kernel.symbol);
    if (!f) continue;
    if (kernel.cluster[0])
      f->addFnAttr("nvvm.cluster_dim",
                   std::to_string(kernel.cluster[0]) + "," +
                       std::to_string(kernel.cluster[1]) + "," +
                       std::to_string(kernel.cluster[2]));
    if (kernel.maxNReg)
      f->addFnAttr("nvvm.maxnreg", std::to_string(kernel.maxNReg));
    // For KernelParamsPass, which decides once the IR is optimised.
    for (unsigned i : kernel.constParams)
      if (i < f->arg_size() && f->getArg(i)->hasByValAttr())
        f->addParamAttr(i, llvm::Attribute::get(f->getContext(),
                                                "mycc.const_param"));
  }
  takeAnnotated(module, kMaxNRegAnnotation); // read from the AST already
}

} // namespace mycc::offload
