#include "ClangHeaderFixes.h"

#include "CacheHints.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <vector>

namespace mycc::offload {
namespace {

using namespace clang;

// Clang's own CUDA headers, found in its resource directory by reserved
// names: __clang_cuda_intrinsics.h, __clang_cuda_device_functions.h, ...
// The name the line markers give: a device side compiled from its
// preprocessed text (the plan with --keep) has them in one file.
bool inClangCudaHeader(const SourceManager &sm, SourceLocation loc) {
  if (loc.isInvalid()) return false;
  PresumedLoc presumed = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (presumed.isInvalid()) return false;
  return llvm::sys::path::filename(presumed.getFilename())
      .starts_with("__clang_cuda_");
}

// PTX addresses memory only in brackets: ld/st/atom/red/cp.async/mbarrier
// and the texture and surface instructions all name an operand `[...]`.
bool touchesMemory(const GCCAsmStmt &s) {
  return llvm::StringRef(s.getAsmString()).contains('[');
}

// Whether `body` calls one of the device-scope compare-and-swap builtins,
// `__nvvm_atom_cas_gen_{us,i,l,ll}` (not the _cta_ or _sys_ ones).
class CasCallFinder : public RecursiveASTVisitor<CasCallFinder> {
public:
  explicit CasCallFinder(ASTContext &ctx) : ctx(ctx) {}
  bool VisitCallExpr(CallExpr *call) {
    if (unsigned id = call->getBuiltinCallee())
      found |= llvm::StringRef(ctx.BuiltinInfo.getName(id))
                   .starts_with("__nvvm_atom_cas_gen_");
    return !found;
  }
  bool found = false;

private:
  ASTContext &ctx;
};

class HeaderVisitor : public RecursiveASTVisitor<HeaderVisitor> {
public:
  HeaderVisitor(ASTContext &ctx, MangleContext &mangler,
                ClangHeaderFixes &owner)
      : ctx(ctx), mangler(mangler), owner(owner) {}

  bool VisitGCCAsmStmt(GCCAsmStmt *s) {
    if (!s->isVolatile() && touchesMemory(*s)) s->setVolatile(true);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (!fd->doesThisDeclarationHaveABody() || fd->isDependentContext())
      return true;
    if (fd->getDeclName().isIdentifier() &&
        fd->getName() == "__nv_associate_access_property") {
      owner.associateAccessProperty = symbolOf(mangler, GlobalDecl(fd));
      return true;
    }
    CasCallFinder finder(ctx);
    finder.TraverseStmt(fd->getBody());
    if (finder.found)
      owner.casWrappers.push_back(symbolOf(mangler, GlobalDecl(fd)));
    return true;
  }

private:
  ASTContext &ctx;
  MangleContext &mangler;
  ClangHeaderFixes &owner;
};

// Calls of the pre-Volta votes outside Clang's headers.
class VoteCallFinder : public RecursiveASTVisitor<VoteCallFinder> {
public:
  VoteCallFinder(ASTContext &ctx, const std::set<const FunctionDecl *> &votes)
      : ctx(ctx), votes(votes) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  // A warning in a system header is not shown, so their declarations
  // (libstdc++, CUDA's and CCCL's headers: most of a unit) are not searched.
  // A user's function or class lies in the user's file, also where a system
  // template instantiates it.
  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) &&
        ctx.getSourceManager().isInSystemHeader(d->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !votes.count(callee->getCanonicalDecl()) ||
        inClangCudaHeader(ctx.getSourceManager(), call->getBeginLoc()))
      return true;
    std::string name = callee->getName().str();
    ctx.getDiagnostics().Report(
        ctx.getSourceManager().getExpansionLoc(call->getBeginLoc()),
        diag::warn_deprecated_message)
        << callee
        << (name + "() is not valid on compute_70 and above, and should be "
                   "replaced with " + name + "_sync()");
    return true;
  }

private:
  ASTContext &ctx;
  const std::set<const FunctionDecl *> &votes;
};

class FixesConsumer : public ASTConsumer {
public:
  explicit FixesConsumer(ClangHeaderFixes &owner) : owner(owner) {}

  void Initialize(ASTContext &context) override {
    ctx = &context;
    mangler.reset(context.createMangleContext());
  }

  // The headers come first in the unit (through Clang's CUDA runtime
  // wrapper), so their functions are edited before user code instantiates
  // or calls them, and before CodeGen, which runs after this consumer.
  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl *d : group) {
      if (!inClangCudaHeader(ctx->getSourceManager(), d->getLocation()))
        continue;
      HeaderVisitor(*ctx, *mangler, owner).TraverseDecl(d);
      if (auto *fd = dyn_cast<FunctionDecl>(d))
        if (fd->getDeclName().isIdentifier() &&
            (fd->getName() == "__any" || fd->getName() == "__all" ||
             fd->getName() == "__ballot"))
          votes.insert(fd->getCanonicalDecl());
    }
    return true;
  }

  // nvcc's headers declare the pre-Volta votes deprecated on compute_70 and
  // above, so nvcc warns at each call before ptxas rejects the PTX ("vote
  // without .sync"); Clang's define them plainly. The unit is searched for
  // the calls only when Sema saw one.
  void HandleTranslationUnit(ASTContext &context) override {
    bool used = false;
    for (const FunctionDecl *vote : votes)
      for (const FunctionDecl *r : vote->redecls()) used |= r->isUsed();
    if (!used || smOf(context.getTargetInfo().getTargetOpts().CPU) < 70)
      return;
    VoteCallFinder(context, votes).TraverseDecl(context.getTranslationUnitDecl());
  }

private:
  // "sm_90a" -> 90; 0 when not an sm_ name.
  static unsigned smOf(llvm::StringRef cpu) {
    unsigned sm = 0;
    if (cpu.consume_front("sm_"))
      cpu.take_while(llvm::isDigit).getAsInteger(10, sm);
    return sm;
  }

  ClangHeaderFixes &owner;
  ASTContext *ctx = nullptr;
  std::unique_ptr<MangleContext> mangler;
  std::set<const FunctionDecl *> votes;
};

} // namespace

std::unique_ptr<ASTConsumer> ClangHeaderFixes::createConsumer() {
  return std::make_unique<FixesConsumer>(*this);
}

namespace {

// A 16-bit compare-and-swap as nvcc's `atom.cas.b16` (sm_70 and newer, which
// every CUDA 13 target is): LLVM's NVPTX back end has no 16-bit cmpxchg and
// would expand it into a loop of 32-bit ones. Relaxed at device scope, like
// every atomicCAS.
void replaceWithCas16(llvm::AtomicCmpXchgInst &cas) {
  llvm::IRBuilder<> b(&cas);
  llvm::Type *i16 = b.getInt16Ty();
  auto *type = llvm::FunctionType::get(
      i16, {cas.getPointerOperand()->getType(), i16, i16}, false);
  auto *atom = llvm::InlineAsm::get(type, "atom.cas.b16 $0, [$1], $2, $3;",
                                    "=h,l,h,h,~{memory}", true);
  llvm::Value *old = b.CreateCall(
      atom, {cas.getPointerOperand(), cas.getCompareOperand(),
             cas.getNewValOperand()});
  llvm::Value *result = llvm::PoisonValue::get(cas.getType());
  result = b.CreateInsertValue(result, old, 0);
  result = b.CreateInsertValue(
      result, b.CreateICmpEQ(old, cas.getCompareOperand()), 1);
  cas.replaceAllUsesWith(result);
  cas.eraseFromParent();
}

// Clang's header computes the SIMD intrinsics __vsub4 and __vsubss4 (per
// byte of two words: a - b, wrapping; a - b, signed and saturated) with
// PTX's vsub4, which GPUs since sm_50 have no instruction for: ptxas
// expands it into about twice the code of CUDA's header, which computes
// them with integer operations on the packed bytes (ggml's q4_0 matrix
// kernels call __vsubss4 in their tile loader, 64 times). Each such
// statement becomes these integer operations: the bytes' differences
// without borrows between bytes, then, for the saturated form, 0x7f or 0x80
// in the bytes where the signs of a and b differ and the difference's sign
// differs from a's. The byte comparisons __vcmpne4 and __vcmpeq4 (ggml's
// i-quant tile loaders call __vcmpne4(signs & mask, 0)) use PTX's vset4 the
// same way; they become a test of each byte of a ^ b for zero.
enum class ByteOp { Sub, SubSaturated, NotEqual, Equal };

// Per byte of x and y: 1 where they differ (`equal`: where they are
// equal), else 0, as vset4 gives it. Bit 7 of each byte of
// t | ((t & 0x7f) + 0x7f) is set where the byte of t = x ^ y is not zero
// (no carry leaves a byte).
llvm::Value *byteComparison(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y,
                            bool equal) {
  llvm::Constant *low = b.getInt32(0x7f7f7f7fu), *ones = b.getInt32(0x01010101u);
  llvm::Value *t = b.CreateXor(x, y);
  llvm::Value *nonzero = b.CreateOr(t, b.CreateAdd(b.CreateAnd(t, low), low));
  llvm::Value *set = b.CreateAnd(b.CreateLShr(nonzero, 7), ones);
  return equal ? b.CreateXor(set, ones) : set;
}

// Per byte: x - y, wrapping, or (`saturated`) signed and saturated.
llvm::Value *byteDifference(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y,
                            bool saturated) {
  llvm::Constant *high = b.getInt32(0x80808080u), *low = b.getInt32(0x7f7f7f7fu);
  // (x | high) - (y & low): no byte borrows from the next; bit 7 of each
  // byte is then 1 ^ borrow, and x7 ^ y7 ^ borrow is wanted.
  llvm::Value *diff = b.CreateXor(
      b.CreateSub(b.CreateOr(x, high), b.CreateAnd(y, low)),
      b.CreateAnd(b.CreateNot(b.CreateXor(x, y)), high));
  if (!saturated) return diff;
  llvm::Value *overflow =
      b.CreateAnd(b.CreateAnd(b.CreateXor(x, y), b.CreateXor(x, diff)), high);
  llvm::Value *limit =
      b.CreateAdd(low, b.CreateLShr(b.CreateAnd(x, high), 7)); // 0x7f, 0x80
  llvm::Value *mask = b.CreateMul(b.CreateLShr(overflow, 7), b.getInt32(0xff));
  return b.CreateXor(diff, b.CreateAnd(b.CreateXor(diff, limit), mask));
}

void replaceByteOperations(llvm::Module &module) {
  std::vector<std::pair<llvm::CallInst *, ByteOp>> found;
  for (llvm::Function &f : module)
    for (llvm::Instruction &inst : llvm::instructions(f)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      auto *code = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())
                        : nullptr;
      if (!code || code->getConstraintString() != "=r,r,r,r" ||
          call->arg_size() != 3 || !call->getType()->isIntegerTy(32))
        continue;
      auto *zero = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
      if (!zero || !zero->isZero()) continue;
      llvm::StringRef text = code->getAsmString();
      if (text == "vsub4.u32.u32.u32 $0,$1,$2,$3;")
        found.push_back({call, ByteOp::Sub});
      else if (text == "vsub4.s32.s32.s32.sat $0,$1,$2,$3;")
        found.push_back({call, ByteOp::SubSaturated});
      else if (text == "vset4.u32.u32.ne $0,$1,$2,$3;")
        found.push_back({call, ByteOp::NotEqual});
      else if (text == "vset4.u32.u32.eq $0,$1,$2,$3;")
        found.push_back({call, ByteOp::Equal});
    }
  for (auto [call, op] : found) {
    llvm::IRBuilder<> b(call);
    llvm::Value *x = call->getArgOperand(0), *y = call->getArgOperand(1);
    bool compare = op == ByteOp::NotEqual || op == ByteOp::Equal;
    call->replaceAllUsesWith(
        compare ? byteComparison(b, x, y, op == ByteOp::Equal)
                : byteDifference(b, x, y, op == ByteOp::SubSaturated));
    call->eraseFromParent();
  }
}

} // namespace

void ClangHeaderFixes::finishModule(llvm::Module &module) const {
  replaceByteOperations(module);
  llvm::SyncScope::ID device = module.getContext().getOrInsertSyncScopeID("device");
  for (const std::string &name : casWrappers) {
    llvm::Function *f = module.getFunction(name);
    if (!f) continue; // not used by this unit
    std::vector<llvm::AtomicCmpXchgInst *> halfWords;
    for (llvm::Instruction &inst : llvm::instructions(*f))
      if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
        cas->setSuccessOrdering(llvm::AtomicOrdering::Monotonic);
        cas->setFailureOrdering(llvm::AtomicOrdering::Monotonic);
        cas->setSyncScopeID(device);
        if (cas->getCompareOperand()->getType()->isIntegerTy(16) &&
            cas->getPointerAddressSpace() == 0)
          halfWords.push_back(cas);
      }
    for (llvm::AtomicCmpXchgInst *cas : halfWords) replaceWithCas16(*cas);
  }
  if (!associateAccessProperty.empty())
    markAccessProperties(module, associateAccessProperty);
}

} // namespace mycc::offload
