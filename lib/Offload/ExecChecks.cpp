#include "ExecChecks.h"

#include "Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaCUDA.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TimeProfiler.h"

#include <set>
#include <utility>

using namespace clang;

namespace mycc::offload {
namespace {

// The functions that device code reaches, walked as Clang's emitter of
// deferred diagnostics walks (from its roots, over every use in a body),
// but never into a host function, which nvcc does not compile for the
// device. Where this walk sees fewer uses than Clang's, a function's
// deferred errors would be lost, so it takes more: every function named,
// constructed or destroyed in a body, and the virtual functions of each
// class constructed (its vtable).
class DeviceReach : public RecursiveASTVisitor<DeviceReach> {
public:
  explicit DeviceReach(Sema &sema) : sema(sema) {}

  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return true; }

  void root(Decl *decl) {
    if (auto *fd = dyn_cast<FunctionDecl>(decl)) use(fd);
    else if (auto *vd = dyn_cast<VarDecl>(decl)) useVariable(vd);
  }
  void walk() {
    while (!work.empty()) walkFunction(work.pop_back_val());
  }
  bool reached(const FunctionDecl *fd) const {
    return functions.count(fd->getCanonicalDecl());
  }
  // The host functions that reached functions name (not walked into).
  const llvm::SetVector<FunctionDecl *> &hostFunctions() const { return hosts; }

  bool VisitDeclRefExpr(DeclRefExpr *e) { return useDecl(e->getDecl()); }
  bool VisitMemberExpr(MemberExpr *e) { return useDecl(e->getMemberDecl()); }
  bool VisitCallExpr(CallExpr *e) {
    use(e->getDirectCallee());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *e) {
    use(e->getConstructor());
    useDestructor(e->getType());
    return true;
  }
  bool VisitCXXInheritedCtorInitExpr(CXXInheritedCtorInitExpr *e) {
    use(e->getConstructor());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *e) {
    use(e->getOperatorNew());
    use(e->getOperatorDelete());
    useDestructor(e->getAllocatedType());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *e) {
    use(e->getOperatorDelete());
    useDestructor(e->getDestroyedType());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *e) {
    use(const_cast<CXXDestructorDecl *>(e->getTemporary()->getDestructor()));
    return true;
  }
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *e) {
    TraverseStmt(e->getExpr());
    return true;
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *e) {
    TraverseStmt(e->getExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *vd) {
    useDestructor(vd->getType());
    return true;
  }

private:
  bool useDecl(ValueDecl *decl) {
    if (auto *fd = dyn_cast<FunctionDecl>(decl)) use(fd);
    else if (auto *vd = dyn_cast<VarDecl>(decl); vd && vd->hasGlobalStorage())
      useVariable(vd);
    return true;
  }

  void useVariable(VarDecl *vd) {
    if (!variables.insert(vd->getCanonicalDecl()).second) return;
    if (const Expr *init = vd->getAnyInitializer())
      TraverseStmt(const_cast<Expr *>(init));
    useDestructor(vd->getType());
  }

  void useDestructor(QualType type) {
    if (type.isNull() || type->isDependentType()) return;
    if (const CXXRecordDecl *rd =
            sema.Context.getBaseElementType(type)->getAsCXXRecordDecl())
      if (rd->hasDefinition())
        use(rd->getDestructor());
  }

  void use(FunctionDecl *fd) {
    if (!fd) return;
    if (sema.CUDA().IdentifyTarget(fd) == CUDAFunctionTarget::Host) {
      hosts.insert(fd);
      return;
    }
    if (functions.insert(fd->getCanonicalDecl()).second) work.push_back(fd);
  }

  void walkFunction(FunctionDecl *fd) {
    const FunctionDecl *definition = nullptr;
    if (fd->hasBody(definition))
      TraverseDecl(const_cast<FunctionDecl *>(definition));
    auto *method = dyn_cast<CXXMethodDecl>(fd);
    const CXXRecordDecl *rd = method ? method->getParent() : nullptr;
    if (!rd || !rd->hasDefinition()) return;
    // What a destructor calls without naming it: its members' and bases'.
    if (isa<CXXDestructorDecl>(fd)) {
      for (const FieldDecl *field : rd->fields()) useDestructor(field->getType());
      for (const CXXBaseSpecifier &base : rd->bases()) useDestructor(base.getType());
    }
    // A constructed class's vtable names its virtual functions.
    if (isa<CXXConstructorDecl>(fd)) useVirtuals(rd);
  }

  void useVirtuals(const CXXRecordDecl *rd) {
    if (!rd || !rd->hasDefinition() || !vtables.insert(rd).second) return;
    for (CXXMethodDecl *m : rd->methods())
      if (m->isVirtual()) use(m);
    for (const CXXBaseSpecifier &base : rd->bases())
      useVirtuals(base.getType()->getAsCXXRecordDecl());
  }

  Sema &sema;
  llvm::DenseSet<const FunctionDecl *> functions;
  llvm::DenseSet<const VarDecl *> variables;
  llvm::DenseSet<const CXXRecordDecl *> vtables;
  llvm::SetVector<FunctionDecl *> hosts;
  llvm::SmallVector<FunctionDecl *, 64> work;
};

// Where the declarations that nv_exec_check_disable exempts begin: after
// each pragma (a `#pragma` line, or a `_Pragma(...)` or macro invocation
// such as CCCL's _CCCL_EXEC_CHECK_DISABLE), the next non-blank text.
std::set<std::pair<FileID, unsigned>> exemptStarts(const SourceManager &sm) {
  std::set<std::pair<FileID, unsigned>> starts;
  for (SourceLocation loc : frontend::execCheckPragmas(sm)) {
    auto [file, offset] = sm.getDecomposedLoc(loc);
    bool invalid = false;
    llvm::StringRef text = sm.getBufferData(file, &invalid);
    if (invalid || offset >= text.size()) continue;
    std::size_t at = offset;
    if (text[at] == '#') {
      at = text.find('\n', at);
      if (at == llvm::StringRef::npos) continue;
    } else {
      while (at < text.size() && (llvm::isAlnum(text[at]) || text[at] == '_')) ++at;
      std::size_t open = text.find_first_not_of(" \t", at);
      if (open != llvm::StringRef::npos && text[open] == '(') {
        int depth = 0;
        for (at = open; at < text.size(); ++at) {
          if (text[at] == '(') ++depth;
          if (text[at] == ')' && --depth == 0) break;
        }
        ++at;
      }
    }
    at = text.find_first_not_of(" \t\r\n", at);
    if (at != llvm::StringRef::npos) starts.insert({file, unsigned(at)});
  }
  return starts;
}

// Whether the __host__ __device__ function `fd` (or the template it was
// instantiated from) follows an nv_exec_check_disable.
bool exempt(Sema &sema, const FunctionDecl *fd,
            const std::set<std::pair<FileID, unsigned>> &starts) {
  if (starts.empty() ||
      sema.CUDA().IdentifyTarget(fd) != CUDAFunctionTarget::HostDevice)
    return false;
  const FunctionDecl *pattern = fd->getTemplateInstantiationPattern();
  if (!pattern) pattern = fd;
  const Decl *outer = pattern;
  if (const FunctionTemplateDecl *ftd = pattern->getDescribedFunctionTemplate())
    outer = ftd;
  const SourceManager &sm = sema.getSourceManager();
  return starts.count(sm.getDecomposedLoc(sm.getExpansionLoc(outer->getBeginLoc())));
}

// Sema asks its external sources for more declarations to check just before
// its emitter of deferred diagnostics runs: the hook where they are edited.
class EditingSource : public ExternalSemaSource {
public:
  EditingSource(Sema &sema, ExecChecks &owner) : sema(sema), owner(owner) {}

  void ReadDeclsToCheckForDeferredDiags(
      llvm::SmallSetVector<Decl *, 4> &decls) override {
    auto &deferred = sema.DeviceDeferredDiags;
    if (!sema.getLangOpts().CUDAIsDevice || deferred.empty()) return;
    llvm::TimeTraceScope scope("ExecChecks");
    DeviceReach reach(sema);
    // `used` functions too: CodeGen emits them whatever Sema's status says
    // (SourceRecovery makes some so under -rdc).
    auto emitted = [&](const FunctionDecl *fd) {
      return sema.getEmissionStatus(fd, /*Final=*/true) ==
                 Sema::FunctionEmissionStatus::Emitted ||
             fd->hasAttr<UsedAttr>();
    };
    for (Decl *decl : decls) {
      auto *fd = dyn_cast<FunctionDecl>(decl);
      if (!fd || emitted(fd)) reach.root(decl);
    }
    for (auto &entry : deferred) {
      const FunctionDecl *fd = entry.first;
      if (emitted(fd)) reach.root(const_cast<FunctionDecl *>(fd));
    }
    reach.walk();
    std::unique_ptr<MangleContext> mangler(sema.Context.createMangleContext());
    for (FunctionDecl *host : reach.hostFunctions())
      owner.hostSymbols.push_back(symbolOf(*mangler, GlobalDecl(host)));

    std::set<std::pair<FileID, unsigned>> starts = exemptStarts(sema.getSourceManager());
    llvm::SmallVector<CanonicalDeclPtr<const FunctionDecl>, 16> unreached;
    for (auto &[fd, diags] : deferred) {
      if (!reach.reached(fd)) {
        unreached.push_back(fd);
        continue;
      }
      if (sema.CUDA().IdentifyTarget(fd) == CUDAFunctionTarget::HostDevice)
        diags = hostCallsAsWarnings(fd, std::move(diags), exempt(sema, fd, starts));
    }
    for (const auto &fd : unreached) deferred.erase(fd);
  }

private:
  // A __host__ __device__ function's references to host functions: nvcc's
  // warning #20011-D instead of Clang's error, and nothing after
  // nv_exec_check_disable; Clang's notes about them go too.
  std::vector<PartialDiagnosticAt> hostCallsAsWarnings(
      const FunctionDecl *caller, std::vector<PartialDiagnosticAt> diags,
      bool exempted) {
    DiagnosticsEngine &engine = sema.getDiagnostics();
    const DiagnosticIDs &ids = *engine.getDiagnosticIDs();
    unsigned warning = engine.getCustomDiagID(
        DiagnosticsEngine::Warning,
        "calling a __host__ function %0 from a __host__ __device__ function "
        "%1 is not allowed");
    std::vector<PartialDiagnosticAt> kept;
    bool dropping = false;
    for (PartialDiagnosticAt &diag : diags) {
      if (dropping && ids.isNote(diag.second.getDiagID())) continue;
      const NamedDecl *callee = hostFunctionReferenced(diag.second);
      dropping = callee != nullptr;
      if (!callee) kept.push_back(std::move(diag));
      else if (!exempted) {
        PartialDiagnostic replacement(warning, sema.Context.getDiagAllocator());
        replacement << callee << caller;
        kept.push_back({diag.first, std::move(replacement)});
      }
    }
    return kept;
  }

  // The host function of Clang's err_ref_bad_target, from its arguments
  // (SemaCUDA's CheckCall: the callee's target, function or variable, the
  // callee, the caller's target); null for any other diagnostic.
  static const NamedDecl *hostFunctionReferenced(const PartialDiagnostic &pd) {
    if (pd.getDiagID() != diag::err_ref_bad_target || !pd.hasStorage())
      return nullptr;
    const DiagnosticStorage &args = *pd.getStorage();
    if (args.NumDiagArgs < 3 ||
        args.DiagArgumentsVal[0] != uint64_t(CUDAFunctionTarget::Host) ||
        args.DiagArgumentsVal[1] != 0 /* function */ ||
        args.DiagArgumentsKind[2] != DiagnosticsEngine::ak_nameddecl)
      return nullptr;
    return reinterpret_cast<const NamedDecl *>(args.DiagArgumentsVal[2]);
  }

  Sema &sema;
  ExecChecks &owner;
};

class ExecChecksConsumer : public SemaConsumer {
public:
  explicit ExecChecksConsumer(ExecChecks &owner) : owner(owner) {}
  void Initialize(ASTContext &) override { frontend::resetExecCheckPragmas(); }
  void InitializeSema(Sema &sema) override {
    sema.addExternalSource(llvm::makeIntrusiveRefCnt<EditingSource>(sema, owner));
  }

private:
  ExecChecks &owner;
};

} // namespace

std::unique_ptr<ASTConsumer> ExecChecks::createConsumer() {
  return std::make_unique<ExecChecksConsumer>(*this);
}

// A host function that device code calls (past nvcc's warning) has no device
// code: each gets a body that traps, where nvcc leaves the call out as
// unreachable, so that a program that takes the call stops instead of
// running on silently; the module then links (ptxas, nvlink).
void ExecChecks::finishModule(llvm::Module &module) const {
  for (const std::string &symbol : hostSymbols) {
    llvm::Function *f = module.getFunction(symbol);
    if (!f || !f->isDeclaration() || f->isIntrinsic()) continue;
    f->setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", f));
    b.CreateIntrinsic(llvm::Intrinsic::trap, {});
    b.CreateUnreachable();
  }
}

} // namespace mycc::offload
