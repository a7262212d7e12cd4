// Lists the device functions the CUDA toolkit's headers declare, as the
// device side of a CUDA unit sees them (Clang's parse of cuda_runtime.h and
// the headers named on the command line), one overload per line:
//   name <TAB> return type <TAB> parameter types separated by ';'
// Only non-template, non-member functions (operators included) declared
// __device__ (and not
// __host__) in a file under the toolkit's include directory or in one of
// Clang's CUDA headers (which replace the toolkit's intrinsics headers on
// the device side), whose types are
// all builtin arithmetic and enumeration types, pointers or references to
// them, or the CUDA vector and half/bfloat16 types. The differential test (run.py) calls each of them.
//
//   mycc-list-device-api <cuda path> <gpu, e.g. sm_90> [header...]
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

bool simpleType(QualType t, bool reference = false) {
  t = t.getCanonicalType();
  if (const auto *r = t->getAs<LValueReferenceType>())
    return reference && !r->getPointeeType()->isVoidType() &&
           !r->getPointeeType()->isPointerType() &&
           simpleType(r->getPointeeType().getUnqualifiedType());
  if (t->isVoidType()) return true;
  if (t->isBuiltinType()) return t->isIntegerType() || t->isRealFloatingType();
  if (t->isEnumeralType()) return true; // fp8's interpretation, round modes
  if (const auto *p = t->getAs<PointerType>()) {
    QualType pointee = p->getPointeeType().getCanonicalType();
    return !pointee->isPointerType() && !pointee->isFunctionType() &&
           simpleType(pointee.getUnqualifiedType());
  }
  if (const auto *r = t->getAsCXXRecordDecl()) {
    static const std::set<std::string> known = {
        "char2", "char4", "uchar2", "uchar4", "short2", "short4", "ushort2",
        "ushort4", "int2", "int4", "uint2", "uint4", "longlong2", "ulonglong2",
        "float2", "float4", "double2", "__half", "__half2", "__nv_bfloat16",
        "__nv_bfloat162"};
    return known.count(r->getNameAsString()) > 0;
  }
  return false;
}

class Lister : public ASTConsumer, public RecursiveASTVisitor<Lister> {
public:
  explicit Lister(std::string include) : include(std::move(include)) {}
  void HandleTranslationUnit(ASTContext &context) override {
    ctx = &context;
    TraverseDecl(context.getTranslationUnitDecl());
    for (const std::string &line : lines) llvm::outs() << line << "\n";
  }
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (isa<CXXMethodDecl>(fd) || fd->isTemplated() || fd->isDeleted() ||
        fd->isVariadic() || (!fd->getIdentifier() && !fd->isOverloadedOperator()) ||
        !fd->hasAttr<CUDADeviceAttr>() || fd->hasAttr<CUDAGlobalAttr>())
      return true;
    llvm::StringRef file =
        ctx->getSourceManager().getFilename(ctx->getSourceManager().getSpellingLoc(fd->getLocation()));
    // The toolkit's headers, and Clang's CUDA headers, which declare in its
    // place what the toolkit's sm_*_intrinsics.h and device_functions.h do.
    if (!fromToolkit(file) &&
        !llvm::sys::path::filename(file).starts_with("__clang_cuda_"))
      return true;
    std::string fullName = fd->getNameAsString();
    llvm::StringRef name = fullName;
    if (name.starts_with("__nv_") || name.starts_with("__cuda") ||
        name.starts_with("_Z") || name.starts_with("__internal"))
      return true;
    if (!simpleType(fd->getReturnType(), true)) return true;
    PrintingPolicy policy(ctx->getLangOpts());
    policy.SuppressTagKeyword = true;
    std::string line = name.str() + "\t" +
                       fd->getReturnType().getCanonicalType().getAsString(policy) + "\t";
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      QualType t = fd->getParamDecl(i)->getType();
      if (!simpleType(t, true)) return true;
      line += (i ? ";" : "") + t.getCanonicalType().getAsString(policy);
    }
    lines.insert(line);
    return true;
  }

private:
  // Whether `file` is one of the toolkit's headers, under whatever name it
  // was found (a system include directory may hold links to them).
  bool fromToolkit(llvm::StringRef file) {
    auto [it, added] = toolkitFiles.try_emplace(file.str(), false);
    if (added) {
      llvm::SmallString<256> real;
      it->second = !llvm::sys::fs::real_path(file, real) &&
                   llvm::StringRef(real).starts_with(include);
    }
    return it->second;
  }

  std::string include;
  std::map<std::string, bool> toolkitFiles;
  ASTContext *ctx = nullptr;
  std::set<std::string> lines;
};

class ListAction : public ASTFrontendAction {
public:
  explicit ListAction(std::string include) : include(std::move(include)) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Lister>(include);
  }

private:
  std::string include;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: mycc-list-device-api <cuda path> <gpu> [header...]\n";
    return 2;
  }
  std::string cuda = argv[1];
  std::string code = "#include <cuda_runtime.h>\n";
  for (int i = 3; i < argc; ++i) code += "#include <" + std::string(argv[i]) + ">\n";
  std::vector<std::string> args = {
      "-x", "cuda", "--cuda-device-only", std::string("--cuda-gpu-arch=") + argv[2],
      "--cuda-path=" + cuda, "-nocudalib", "-Wno-unknown-cuda-version",
      "-std=c++17", "-w", "-isystem", cuda + "/include/cccl"};
  llvm::SmallString<256> include;
  if (llvm::sys::fs::real_path(cuda + "/include", include)) {
    llvm::errs() << "mycc-list-device-api: no toolkit at " << cuda << "\n";
    return 2;
  }
  bool ok = tooling::runToolOnCodeWithArgs(
      std::make_unique<ListAction>(std::string(include) + "/"), code, args,
      "device_api.cu",
      "clang++");
  return ok ? 0 : 1;
}
