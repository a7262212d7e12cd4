#include "DeviceSema.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTMutationListener.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <set>

namespace mycc::offload {
namespace {

using namespace clang;

// Sees every variable before CodeGen creates it: namespace-scope and member
// variables when their declaration reaches the consumers (eagerly emitted
// ones are emitted then), instantiated static members when they are
// instantiated, and every other variable when Sema marks it used (CodeGen
// creates a variable for a use, and deferred ones only after a use).
class PlacementConsumer : public ASTConsumer, public ASTMutationListener {
public:
  explicit PlacementConsumer(DeviceSema &owner) : owner(owner) {}

  void Initialize(ASTContext &context) override { ctx = &context; }
  ASTMutationListener *GetASTMutationListener() override { return this; }

  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl *d : group) walk(d);
    return true;
  }
  void HandleCXXStaticMemberVarInstantiation(VarDecl *vd) override {
    place(vd);
  }
  void DeclarationMarkedUsed(const Decl *d) override {
    if (const auto *vd = dyn_cast<VarDecl>(d)) place(const_cast<VarDecl *>(vd));
  }

  void HandleTranslationUnit(ASTContext &context) override {
    std::unique_ptr<MangleContext> mangler(context.createMangleContext());
    for (const VarDecl *vd : hostConstants) {
      std::string name;
      if (mangler->shouldMangleDeclName(vd)) {
        llvm::raw_string_ostream os(name);
        mangler->mangleName(GlobalDecl(vd), os);
      } else {
        name = vd->getName().str();
      }
      owner.hostConstants.push_back(std::move(name));
    }
  }

private:
  // Declarations, not function bodies: variables in bodies are reached
  // through their uses.
  void walk(Decl *d) {
    if (auto *vd = dyn_cast<VarDecl>(d)) {
      place(vd);
      return;
    }
    if (!isa<NamespaceDecl, LinkageSpecDecl, ExportDecl, RecordDecl>(d)) return;
    auto *dc = cast<DeclContext>(d);
    if (dc->isDependentContext()) return;
    for (Decl *inner : dc->decls()) walk(inner);
  }

  static bool hasExplicit(const VarDecl *vd, attr::Kind kind) {
    for (const VarDecl *r : vd->redecls())
      for (const Attr *a : r->attrs())
        if (a->getKind() == kind && !a->isImplicit()) return true;
    return false;
  }
  template <class A> static bool hasAny(const VarDecl *vd) {
    for (const VarDecl *r : vd->redecls())
      if (r->hasAttr<A>()) return true;
    return false;
  }

  void place(VarDecl *vd) {
    if (!vd->hasGlobalStorage() || vd->getDeclContext()->isDependentContext())
      return;
    if (hasAny<CUDAConstantAttr>(vd)) {
      if (hasExplicit(vd, attr::CUDAConstant)) return; // written __constant__
      // Clang's promotion (SemaCUDA::MaybeAddConstantAttr).
      bool device = hasExplicit(vd, attr::CUDADevice);
      for (VarDecl *r : vd->redecls()) {
        r->dropAttr<CUDAConstantAttr>();
        if (!r->hasAttr<CUDADeviceAttr>())
          r->addAttr(CUDADeviceAttr::CreateImplicit(*ctx));
      }
      if (!device) hostConstants.insert(vd->getCanonicalDecl());
      return;
    }
    // CodeGen places a const static local without a memory-space attribute
    // in the constant bank (CodeGenModule::GetGlobalVarAddressSpace). In a
    // __device__ or __global__ function it becomes a __device__ variable. (In
    // a __host__ __device__ function, Clang would then keep it for the host
    // side's uses as well; those stay as they are.)
    const auto *fn =
        dyn_cast_or_null<FunctionDecl>(vd->getParentFunctionOrMethod());
    bool deviceOnly = fn && (fn->hasAttr<CUDAGlobalAttr>() ||
                             (fn->hasAttr<CUDADeviceAttr>() &&
                              !fn->hasAttr<CUDAHostAttr>()));
    if (deviceOnly && vd->isStaticLocal() && vd->getType().isConstQualified() &&
        !hasAny<CUDADeviceAttr>(vd) && !hasAny<CUDASharedAttr>(vd)) {
      for (VarDecl *r : vd->redecls())
        r->addAttr(CUDADeviceAttr::CreateImplicit(*ctx));
    }
  }

  DeviceSema &owner;
  ASTContext *ctx = nullptr;
  std::set<const VarDecl *> hostConstants;
};

} // namespace

std::unique_ptr<ASTConsumer> DeviceSema::createConsumer() {
  return std::make_unique<PlacementConsumer>(*this);
}

void DeviceSema::finishModule(llvm::Module &module) const {
  std::set<llvm::GlobalVariable *> candidates;
  for (const std::string &name : hostConstants)
    if (llvm::GlobalVariable *gv = module.getNamedGlobal(name))
      if (!gv->isDeclaration()) candidates.insert(gv);
  if (candidates.empty()) return;
  // Kept for host code by Clang (llvm.compiler.used); mycc registers no such
  // variable with the runtime, so only device uses count.
  llvm::removeFromUsedLists(module, [&](llvm::Constant *c) {
    auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(c->stripPointerCasts());
    return gv && candidates.count(gv);
  });
  for (llvm::GlobalVariable *gv : candidates) {
    gv->removeDeadConstantUsers();
    if (gv->use_empty()) gv->eraseFromParent();
  }
}

} // namespace mycc::offload
