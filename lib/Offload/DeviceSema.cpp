#include "DeviceSema.h"

#include "Annotations.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTMutationListener.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <map>

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
    // `extern __managed__` declarations (relocatable device code): Clang
    // emits no annotation for a declaration, nvcc's PTX marks it managed
    // too, and nvlink rejects the mismatch with the defining unit.
    for (const VarDecl *vd : managed)
      if (!vd->getDefinition())
        owner.managedDeclarations.push_back(symbolOf(*mangler, GlobalDecl(vd)));
    for (const VarDecl *vd : deviceUseOnly) {
      DeviceSema::Constant constant;
      constant.symbol = symbolOf(*mangler, GlobalDecl(vd));
      constant.internal = !vd->isExternallyVisible();
      owner.deviceUseOnly.push_back(std::move(constant));
    }
  }

private:
  // Declarations, not function bodies: variables in bodies are reached
  // through their uses.
  void walk(Decl *d) {
    if (auto *vd = dyn_cast<VarDecl>(d)) {
      if (isManaged(vd)) managed.insert(vd->getCanonicalDecl());
      place(vd);
      return;
    }
    if (!isa<NamespaceDecl, LinkageSpecDecl, ExportDecl, RecordDecl>(d)) return;
    auto *dc = cast<DeclContext>(d);
    if (dc->isDependentContext()) return;
    for (Decl *inner : dc->decls()) walk(inner);
  }

  static bool isManaged(const VarDecl *vd) {
    for (const Attr *a : vd->attrs())
      if (const auto *note = dyn_cast<AnnotateAttr>(a))
        if (note->getAnnotation() == kManagedAnnotation) return true;
    return false;
  }

  llvm::SetVector<const VarDecl *> managed;

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
      // Kept for host code only where mycc registers it with the runtime:
      // not one written without a memory space (the host side never sees
      // it as a device variable), nor one of internal linkage in a system
      // header (lib/Lowering registers none from system headers, and no
      // other unit can name it), such as CCCL's `__device__ constexpr` tags.
      if (!device || (!vd->isExternallyVisible() &&
                      ctx->getSourceManager().isInSystemHeader(vd->getLocation())))
        deviceUseOnly.insert(vd->getCanonicalDecl());
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
  // In the order Sema first saw them, not by address: what finishModule does
  // must not depend on where the allocator put a declaration.
  llvm::SetVector<const VarDecl *> deviceUseOnly;
};

} // namespace

std::unique_ptr<ASTConsumer> DeviceSema::createConsumer() {
  return std::make_unique<PlacementConsumer>(*this);
}

namespace {

// Clang emits the device variables only host code uses last, in the order
// of a pointer-keyed set (ASTContext::CUDADeviceVarODRUsedByHost), which
// changes from run to run, and keeps them in llvm.compiler.used. Moving every
// variable of that list to the end of the module, by name, makes the PTX the
// same for the same source.
void placeHostUsedVariables(llvm::Module &module) {
  llvm::SmallVector<llvm::GlobalValue *, 16> used;
  llvm::collectUsedGlobalVariables(module, used, /*CompilerUsed=*/true);
  std::vector<llvm::GlobalVariable *> variables;
  for (llvm::GlobalValue *gv : used)
    if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv))
      variables.push_back(var);
  std::sort(variables.begin(), variables.end(),
            [](const llvm::GlobalVariable *a, const llvm::GlobalVariable *b) {
              return a->getName() < b->getName();
            });
  for (llvm::GlobalVariable *var : variables) {
    var->removeFromParent();
    module.insertGlobalVariable(var);
  }
}

// __managed__ variables (the prelude's annotation, Annotations.h): the NVPTX
// back end writes `.attribute(.managed)` for a global named in nvvm.annotations
// as "managed", as nvcc's PTX has it; the driver then allocates the variable
// in managed memory and cudart hands the host its address.
void markManagedVariables(llvm::Module &module,
                          const std::vector<std::string> &declarations) {
  std::vector<llvm::GlobalValue *> managed =
      takeAnnotated(module, kManagedAnnotation);
  for (const std::string &symbol : declarations)
    if (llvm::GlobalVariable *gv = module.getNamedGlobal(symbol))
      if (gv->isDeclaration()) managed.push_back(gv);
  if (managed.empty()) return;
  llvm::LLVMContext &ctx = module.getContext();
  llvm::NamedMDNode *annotations =
      module.getOrInsertNamedMetadata("nvvm.annotations");
  for (llvm::GlobalValue *gv : managed)
    annotations->addOperand(llvm::MDNode::get(
        ctx, {llvm::ValueAsMetadata::get(gv), llvm::MDString::get(ctx, "managed"),
              llvm::ConstantAsMetadata::get(
                  llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))}));
}

} // namespace

// nvcc declares every `extern __shared__` array (dynamic shared memory)
// with at least 16-byte alignment, whatever its element type; Clang gives
// the element type's (`float2 meta[]`: 8). The dynamic area starts after the
// kernel's static shared variables, rounded up to that alignment, so code
// that reads it as float4 or with 16-byte copies (ggml's flash attention)
// faulted with "misaligned address" where the static variables left it at 8
// modulo 16.
static void alignDynamicShared(llvm::Module &module) {
  constexpr unsigned kSharedAddressSpace = 3;
  for (llvm::GlobalVariable &gv : module.globals())
    if (gv.getAddressSpace() == kSharedAddressSpace && gv.isDeclaration() &&
        gv.getAlign().valueOrOne() < llvm::Align(16))
      gv.setAlignment(llvm::Align(16));
}

// nvcc aligns a local variable (an array, a struct) to the largest power of
// two, up to 16, that divides its size: `half2 zero[4]` (16 bytes) at 16,
// `char buf[24]` at 8, where Clang gives the element type's alignment (4,
// 1). Code copies such variables with wider accesses than their type's
// (ggml's flash attention reads `const half2 zero[4]` as two 8-byte words
// through ggml_cuda_memcpy_1): with nvcc's alignment they work where the
// variable stays in local memory; with Clang's they faulted ("misaligned
// address") once the copying function was not inlined.
static void alignLocalVariables(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  for (llvm::Function &f : module)
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&i))
        if (std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout))
          if (!size->isScalable() && size->getFixedValue() > 0) {
            uint64_t bytes = size->getFixedValue();
            llvm::Align wanted(std::min<uint64_t>(16, bytes & -bytes));
            if (alloca->getAlign() < wanted) alloca->setAlignment(wanted);
          }
}

void DeviceSema::finishModule(llvm::Module &module) const {
  alignDynamicShared(module);
  alignLocalVariables(module);
  markManagedVariables(module, managedDeclarations);
  placeHostUsedVariables(module);
  // Each variable, and whether its C++ linkage is internal.
  std::map<llvm::GlobalVariable *, bool> candidates;
  for (const Constant &constant : deviceUseOnly)
    if (llvm::GlobalVariable *gv = module.getNamedGlobal(constant.symbol))
      if (!gv->isDeclaration()) candidates[gv] = constant.internal;
  if (candidates.empty()) return;
  // Kept for host code by Clang (llvm.compiler.used); mycc registers none of
  // them with the runtime, so only device uses count.
  llvm::removeFromUsedLists(module, [&](llvm::Constant *c) {
    auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(c->stripPointerCasts());
    return gv && candidates.count(gv);
  });
  for (auto [gv, internal] : candidates) {
    gv->removeDeadConstantUsers();
    if (gv->use_empty()) {
      gv->eraseFromParent();
    } else if (internal) {
      // Clang made it external for host code: internal again, so that the
      // optimiser drops it once device code no longer needs it.
      gv->setLinkage(llvm::GlobalValue::InternalLinkage);
      gv->setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
  }
}

} // namespace mycc::offload
