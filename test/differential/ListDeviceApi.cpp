// Lists the device functions the CUDA toolkit's headers declare, as the
// device side of a CUDA unit sees them (Clang's parse of cuda_runtime.h and
// the headers named on the command line), one overload per line, fields
// separated by tabs:
//   kind  object  callee  return  parameters(;)  template parameters(,)
// kind is `fn` (a free or static function: `callee(args)`), `method`
// (`object.callee(args)` on an object of type `object`) or `ctor`
// (`object(args)`). Types are spelled so that a unit including the same
// headers can name them; a class of the instantiation header is spelled by
// its alias there.
//
// Listed: functions, operators and conversions declared __device__ in a file
// under the toolkit's include directory or in one of Clang's CUDA headers
// (which replace the toolkit's intrinsics headers on the device side),
//  - free functions at namespace scope, outside implementation namespaces
//    (a name component starting with '_', `std`, `details`);
//  - the public members (with those of public bases) of every class the
//    instantiation header names as `using X = ...;` in namespace mycc_diff;
//  - function templates, free or members of those classes, whose required
//    template parameters are all types: the template parameters column names
//    them as `type-parameter-D-I`, as they appear in the other columns
//    (run.py instantiates each with a list of types);
//  - the instantiations the instantiation header names explicitly
//    (`extern template ...;`, or `template ...;` for a function of internal
//    linkage), with their template arguments written out.
// Every type must be void, an arithmetic or enumeration type, a class
// declared in those headers, or a pointer or reference to one of these.
//
// The unit includes mycc's prelude first, as mycc's device side does (it
// enables what the headers offer only to nvcc, e.g. cluster groups).
//
//   mycc-list-device-api <cuda path> <gpu, e.g. sm_90> <mycc prelude>
//                        <instantiation header> [header...]
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
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
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

class Lister : public ASTConsumer, public RecursiveASTVisitor<Lister> {
public:
  Lister(std::string include, std::string preamble)
      : include(std::move(include)), preamble(std::move(preamble)) {}

  void HandleTranslationUnit(ASTContext &context) override {
    ctx = &context;
    policy.emplace(context.getLangOpts());
    policy->SuppressTagKeyword = true;
    policy->FullyQualifiedName = true;
    policy->PrintAsCanonical = true;
    // The instantiation header's classes first: their aliases spell them.
    for (Decl *d : context.getTranslationUnitDecl()->decls())
      if (auto *ns = dyn_cast<NamespaceDecl>(d); ns && ns->getName() == "mycc_diff")
        for (Decl *m : ns->decls())
          if (auto *alias = dyn_cast<TypedefNameDecl>(m))
            if (auto *rd = alias->getUnderlyingType()->getAsCXXRecordDecl();
                rd && rd->hasDefinition())
              aliases.emplace(rd->getDefinition()->getCanonicalDecl(),
                              "mycc_diff::" + alias->getNameAsString());
    TraverseDecl(context.getTranslationUnitDecl());
    for (auto &[rd, alias] : aliases) {
      std::set<std::string> hidden;
      listMembers(rd->getDefinition(), alias, hidden, /*aliased=*/true);
    }
    for (const std::string &line : lines) llvm::outs() << line << "\n";
  }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (isa<CXXMethodDecl>(fd) || fd->isTemplated()) return true;
    if (!fd->getDeclContext()->getRedeclContext()->isFileContext()) return true;
    if (listable(fd) && publicName(fd)) emit("fn", "-", qualifiedName(fd), fd, {});
    return true;
  }

  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *td) {
    FunctionDecl *fd = td->getTemplatedDecl();
    if (isa<CXXMethodDecl>(fd) ||
        !fd->getDeclContext()->getRedeclContext()->isFileContext())
      return true;
    if (listable(fd) && publicName(fd))
      emitTemplate("fn", "-", qualifiedName(fd), td);
    // The instantiation header's explicit instantiations of any template.
    for (FunctionDecl *spec : preambleInstantiations(td))
      emit("fn", "-", qualifiedName(fd) + templateArguments(spec), spec, {});
    return true;
  }

private:
  // The instantiations of `td` the instantiation header names explicitly.
  std::vector<FunctionDecl *> preambleInstantiations(FunctionTemplateDecl *td) {
    std::vector<FunctionDecl *> found;
    for (FunctionDecl *spec : td->specializations()) {
      TemplateSpecializationKind k = spec->getTemplateSpecializationKind();
      if ((k == TSK_ExplicitInstantiationDeclaration ||
           k == TSK_ExplicitInstantiationDefinition) &&
          realPath(spec->getPointOfInstantiation()) == preamble && deviceCallable(spec))
        found.push_back(spec);
    }
    return found;
  }

  bool deviceCallable(const FunctionDecl *fd) {
    return fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAGlobalAttr>() &&
           !fd->isDeleted() && !fd->isVariadic() &&
           (fd->getIdentifier() || fd->isOverloadedOperator() ||
            isa<CXXConversionDecl>(fd) || isa<CXXConstructorDecl>(fd));
  }

  // Declared for device code in the toolkit's headers (or Clang's CUDA ones).
  bool listable(const FunctionDecl *fd) {
    if (!deviceCallable(fd)) return false;
    return fromToolkit(fd) ||
           llvm::sys::path::filename(realPath(fd->getLocation())).starts_with("__clang_cuda_");
  }

  // Not an implementation detail: no name component starting with '_'
  // (besides the intrinsics' own double-underscore names at global scope),
  // nor in std, cuda::std or a `details` namespace.
  bool publicName(const FunctionDecl *fd) {
    if (fd->getIdentifier()) {
      llvm::StringRef name = fd->getName();
      if (name.starts_with("__nv_") || name.starts_with("__cuda") ||
          name.starts_with("_Z") || name.starts_with("__internal") ||
          name.starts_with("__cccl") ||
          (name.starts_with("_") && !fd->getDeclContext()->isTranslationUnit() &&
           !isa<LinkageSpecDecl>(fd->getDeclContext())))
        return false;
    }
    for (const DeclContext *dc = fd->getDeclContext(); !dc->isTranslationUnit();
         dc = dc->getParent())
      if (auto *ns = dyn_cast<NamespaceDecl>(dc)) {
        if (ns->isInline()) continue; // libcu++'s ABI version namespace
        llvm::StringRef n = ns->getName();
        if (n.starts_with("_") || n == "std" || n == "details" || n == "detail" ||
            ns->isAnonymousNamespace())
          return false;
      } else if (!isa<LinkageSpecDecl>(dc)) {
        return false;
      }
    return !fd->getDeclContext()->isNamespace() || fd->getIdentifier() ||
           fd->isOverloadedOperator();
  }

  std::string qualifiedName(const FunctionDecl *fd) {
    std::string name;
    llvm::raw_string_ostream os(name);
    fd->printQualifiedName(os, *policy);
    return name;
  }

  std::string templateArguments(const FunctionDecl *spec) {
    std::string text = "<";
    const TemplateArgumentList *args = spec->getTemplateSpecializationArgs();
    for (unsigned i = 0; i < args->size(); ++i) {
      const TemplateArgument &a = args->get(i);
      if (a.getKind() == TemplateArgument::Pack) return "";
      if (i) text += ", ";
      if (a.getKind() == TemplateArgument::Type) {
        std::optional<std::string> t = spell(a.getAsType(), false);
        if (!t) return "";
        text += *t;
      } else {
        llvm::raw_string_ostream os(text);
        a.print(*policy, os, /*IncludeType=*/true);
      }
    }
    return text + ">";
  }

  // The members of `rd` and of its public bases that no more derived class
  // hides, called on an object of type `alias` (whose constructors are
  // those of `rd` when `aliased`, not of a base).
  void listMembers(const CXXRecordDecl *rd, const std::string &alias,
                   std::set<std::string> &hidden, bool aliased) {
    std::set<std::string> here;
    for (Decl *d : rd->decls()) {
      if (d->getAccess() != AS_public || d->isImplicit()) continue;
      if (auto *td = dyn_cast<FunctionTemplateDecl>(d)) {
        auto *md = dyn_cast<CXXMethodDecl>(td->getTemplatedDecl());
        if (!md || isa<CXXConstructorDecl>(md) || !listable(md)) continue;
        std::string name = md->getNameAsString();
        here.insert(name);
        if (hidden.count(name)) continue;
        emitTemplate(md->isStatic() ? "fn" : "method", alias,
                     md->isStatic() ? alias + "::" + name : name, td);
        for (FunctionDecl *spec : preambleInstantiations(td))
          emit(md->isStatic() ? "fn" : "method", alias,
               (md->isStatic() ? alias + "::" : std::string()) + name +
                   templateArguments(spec),
               spec, {});
      } else if (auto *md = dyn_cast<CXXMethodDecl>(d)) {
        if (isa<CXXDestructorDecl>(md) || !listable(md)) continue;
        bool ctor = isa<CXXConstructorDecl>(md);
        if (ctor && !aliased) continue; // a base's constructors
        std::string name = ctor ? alias : md->getNameAsString();
        here.insert(name);
        if (hidden.count(name)) continue;
        if (ctor) emit("ctor", alias, alias, md, {});
        else if (md->isStatic()) emit("fn", "-", alias + "::" + name, md, {});
        else emit("method", alias, name, md, {});
      }
    }
    hidden.insert(here.begin(), here.end());
    for (const CXXBaseSpecifier &base : rd->bases())
      if (base.getAccessSpecifier() == AS_public)
        if (auto *b = base.getType()->getAsCXXRecordDecl(); b && b->hasDefinition()) {
          std::set<std::string> inherited = hidden;
          listMembers(b->getDefinition(), alias, inherited, /*aliased=*/false);
        }
  }

  void emitTemplate(const char *kind, const std::string &object,
                    const std::string &callee, FunctionTemplateDecl *td) {
    // Clang's CUDA headers' templates (the integer overloads of <cmath>'s
    // functions) stand for non-template overloads in nvcc's headers, which
    // are listed as such.
    if (!fromToolkit(td)) return;
    std::vector<std::string> params;
    bool defaulted = false;
    for (NamedDecl *p : *td->getTemplateParameters()) {
      if (p->isTemplateParameterPack()) return;
      if (auto *type = dyn_cast<TemplateTypeParmDecl>(p)) {
        if (type->hasDefaultArgument()) { defaulted = true; break; }
        params.push_back("type-parameter-" + std::to_string(type->getDepth()) + "-" +
                         std::to_string(type->getIndex()));
        continue;
      }
      auto *value = dyn_cast<NonTypeTemplateParmDecl>(p);
      if (!value) return; // a template template parameter
      if (value->hasDefaultArgument()) { defaulted = true; break; }
      // A value parameter: an enumeration's enumerators (cuda::ptx's
      // dot_space, dot_sem, ...), or 0 for an integer.
      std::string candidates;
      QualType vt = value->getType().getCanonicalType();
      if (const auto *et = vt->getAs<EnumType>()) {
        std::optional<std::string> enumName = spell(vt, false);
        if (!enumName) return;
        for (const EnumConstantDecl *e : et->getDecl()->getDefinition()->enumerators())
          candidates += (candidates.empty() ? "" : "|") + *enumName + "::" +
                        e->getNameAsString();
      } else if (vt->isIntegerType()) {
        candidates = "0";
      } else {
        return;
      }
      params.push_back("value-parameter-" + std::to_string(value->getDepth()) + "-" +
                       std::to_string(value->getIndex()) + "=" + candidates);
    }
    if (!params.empty()) {
      emit(kind, object, callee, td->getTemplatedDecl(), params);
    } else if (defaulted) {
      // Only defaulted parameters (cuda::ptx's `template <typename = void>`):
      // called as a function, where its types do not depend on them.
      emit(kind, object, callee, td->getTemplatedDecl(), {}, /*dependent=*/false);
    }
  }

  void emit(const char *kind, const std::string &object, const std::string &callee,
            const FunctionDecl *fd, const std::vector<std::string> &tparams,
            std::optional<bool> dependentTypes = std::nullopt) {
    bool dependent = dependentTypes.value_or(!tparams.empty());
    std::string line = std::string(kind) + "\t" + object + "\t" + callee + "\t";
    if (isa<CXXConstructorDecl>(fd)) {
      line += object;
    } else {
      std::optional<std::string> ret = spell(fd->getReturnType(), dependent);
      if (!ret) return;
      line += *ret;
    }
    line += "\t";
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      std::optional<std::string> t = spell(fd->getParamDecl(i)->getType(), dependent);
      if (!t) return;
      line += (i ? ";" : "") + *t;
    }
    line += "\t";
    for (unsigned i = 0; i < tparams.size(); ++i) line += (i ? "," : "") + tparams[i];
    lines.insert(line);
  }

  // `t` as the generated unit can write it, or nothing where it is not one
  // of the types the test can make a value of.
  std::optional<std::string> spell(QualType t, bool dependent) {
    t = t.getCanonicalType();
    if (const auto *r = t->getAs<ReferenceType>()) {
      QualType pointee = r->getPointeeType();
      if (pointee->isVoidType() || pointee->isFunctionType()) return std::nullopt;
      std::optional<std::string> inner = spell(pointee, dependent);
      if (!inner) return std::nullopt;
      return *inner + (isa<RValueReferenceType>(r) ? " &&" : " &");
    }
    std::string quals;
    if (t.isConstQualified()) quals += "const ";
    if (t.isVolatileQualified()) quals += "volatile ";
    t = t.getUnqualifiedType();
    if (const auto *p = t->getAs<PointerType>()) {
      QualType pointee = p->getPointeeType().getCanonicalType();
      // A pointer to an array (the legacy pipeline's memcpy_async).
      if (const auto *array = ctx->getAsConstantArrayType(pointee)) {
        std::optional<std::string> element = spell(array->getElementType(), dependent);
        if (!element) return std::nullopt;
        return *element + " (*" + (quals.empty() ? "" : " " + quals.substr(0, quals.size() - 1)) +
               ")[" + std::to_string(array->getSize().getZExtValue()) + "]";
      }
      if (pointee->isPointerType() || pointee->isFunctionType() ||
          pointee->isMemberPointerType())
        return std::nullopt;
      std::optional<std::string> inner = spell(pointee, dependent);
      if (!inner) return std::nullopt;
      return *inner + " *" + (quals.empty() ? "" : " " + quals.substr(0, quals.size() - 1));
    }
    if (t->isVoidType()) return quals + "void";
    if (t->isBuiltinType()) {
      if (!t->isIntegerType() && !t->isRealFloatingType()) return std::nullopt;
      return quals + t.getAsString(*policy);
    }
    // A template's own parameters, and types made of them, are written out
    // with the parameters as `type-parameter-D-I` (run.py substitutes them).
    if (dependent && t->isDependentType()) return quals + t.getAsString(*policy);
    if (t->isEnumeralType() || t->isRecordType()) {
      const TagDecl *tag = t->getAsTagDecl();
      if (const auto *rd = dyn_cast<CXXRecordDecl>(tag)) {
        if (auto it = aliases.find(rd->getCanonicalDecl()); it != aliases.end())
          return quals + it->second;
        if (!rd->hasDefinition() || rd->isLambda()) return std::nullopt;
      }
      if (!tag->getIdentifier() && !tag->getTypedefNameForAnonDecl()) return std::nullopt;
      if (!fromToolkit(tag)) return std::nullopt;
      std::string text = t.getAsString(*policy);
      if (text.find('(') != std::string::npos) return std::nullopt; // anonymous
      return quals + text;
    }
    return std::nullopt;
  }

  // The real path of the file `loc` is spelled in (empty if none), under
  // whatever name it was found: a system include directory may hold links
  // to the toolkit's headers.
  const std::string &realPath(SourceLocation loc) {
    SourceManager &sm = ctx->getSourceManager();
    std::string file = sm.getFilename(sm.getSpellingLoc(loc)).str();
    auto [it, added] = realPaths.try_emplace(file);
    if (added) {
      llvm::SmallString<256> real;
      if (!llvm::sys::fs::real_path(file, real)) it->second = std::string(real);
    }
    return it->second;
  }

  // Whether `d` is declared in one of the toolkit's headers.
  bool fromToolkit(const Decl *d) {
    return llvm::StringRef(realPath(d->getLocation())).starts_with(include);
  }

  std::string include, preamble;
  std::map<std::string, std::string> realPaths;
  std::map<const CXXRecordDecl *, std::string> aliases;
  ASTContext *ctx = nullptr;
  std::optional<PrintingPolicy> policy;
  std::set<std::string> lines;
};

class ListAction : public ASTFrontendAction {
public:
  ListAction(std::string include, std::string preamble)
      : include(std::move(include)), preamble(std::move(preamble)) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Lister>(include, preamble);
  }

private:
  std::string include, preamble;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    llvm::errs() << "usage: mycc-list-device-api <cuda path> <gpu> <mycc prelude> "
                    "<instantiation header> [header...]\n";
    return 2;
  }
  std::string cuda = argv[1];
  // The directory the headers really are in: a prefix may only mirror the
  // toolkit, with links to its files (as mycc finds it, driver/Toolkit.cpp).
  llvm::SmallString<256> runtimeHeader, preamble;
  if (llvm::sys::fs::real_path(cuda + "/include/cuda_runtime.h", runtimeHeader)) {
    llvm::errs() << "mycc-list-device-api: no toolkit at " << cuda << "\n";
    return 2;
  }
  std::string include = llvm::sys::path::parent_path(runtimeHeader).str();
  if (llvm::sys::fs::real_path(argv[4], preamble)) {
    llvm::errs() << "mycc-list-device-api: cannot read " << argv[4] << "\n";
    return 2;
  }
  std::string code = "#include \"" + std::string(argv[3]) + "\"\n#include <cuda_runtime.h>\n";
  for (int i = 5; i < argc; ++i) code += "#include <" + std::string(argv[i]) + ">\n";
  code += "#include \"" + std::string(preamble) + "\"\n";
  std::vector<std::string> args = {
      "-x", "cuda", "--cuda-device-only", std::string("--cuda-gpu-arch=") + argv[2],
      "--cuda-path=" + cuda, "-nocudalib", "-Wno-unknown-cuda-version",
      "-std=c++17", "-w", "-isystem", cuda + "/include/cccl"};
  bool ok = tooling::runToolOnCodeWithArgs(
      std::make_unique<ListAction>(std::string(include) + "/", std::string(preamble)),
      code, args, "device_api.cu", "clang++");
  return ok ? 0 : 1;
}
