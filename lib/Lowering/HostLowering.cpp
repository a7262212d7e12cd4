#include "HostLowering.h"
#include "HostCompilerText.h"
#include "SourceRecovery.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "../../runtime/mycc_abi.h"

#include <map>
#include <set>

namespace mycc::lowering {
namespace {

using namespace clang;

// The runtime interface, pasted at the top of every rewritten unit. The unit
// is already preprocessed, so the header's directives are dropped.
std::string abiPrelude() {
  static const char *text =
#include "AbiText.inc"
      ;
  std::string out = "// mycc: runtime interface (runtime/mycc_abi.h)\n";
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (!line.ltrim().starts_with("#")) out += line.str() + "\n";
  return out;
}

// g++ before 13 numbers the lambdas of a function in one sequence, whatever
// their signatures (GCC 13 numbers them per signature, as the Itanium ABI
// says and Clang does): the host compiler's stub of a kernel specialised on
// such a lambda has g++'s number in its symbol, the device kernel Clang's.
// mycc/host.h declares this enumerator when the host compiler numbers so.
constexpr const char kLambdaNumbersPerFunction[] =
    "__mycc_host_lambda_numbers_per_function";

// Where g++ names a kernel's stub otherwise than Clang 22:
//  - a specialisation of a static function template at global scope has no
//    'L' of internal linkage, as the kernel itself (`_Z1kIiEvT_`, Clang
//    `_ZL1kIiEvT_`) or inside a template argument (ggml's dequantizers); in
//    a namespace both write it;
//  - a non-type template parameter whose type depends on another parameter
//    has no `Tn <type>`, which Clang writes from its ABI 18 on.
// mycc/host.h declares this enumerator when the host compiler is g++.
constexpr const char kGccMangling[] = "__mycc_host_gcc_mangling";

// The stubs' type of a __restrict__ pointer parameter without it.
constexpr const char kUnrestrict[] = "__mycc_unrestrict";

// The host compiler's number of a lambda in a function's body: its place
// among all the function's lambdas (closure types are added to the
// function's context in lexical order). Others keep Clang's number.
UnsignedOrNone lambdaNumberPerFunction(ASTContext &, const NamedDecl *nd) {
  const auto *closure = dyn_cast<CXXRecordDecl>(nd);
  if (!closure || !closure->isLambda() || closure->getLambdaContextDecl() ||
      !isa<FunctionDecl>(closure->getDeclContext()))
    return std::nullopt;
  unsigned number = 0;
  for (const Decl *d : closure->getDeclContext()->decls()) {
    const auto *other = dyn_cast<CXXRecordDecl>(d);
    if (!other || !other->isLambda() || other->getLambdaContextDecl()) continue;
    ++number;
    if (other == closure) return number;
  }
  return std::nullopt;
}

struct KernelEntry {
  std::string symbol;     // mangled: the host stub's symbol
  std::string deviceName; // the device symbol: the same, except for internal
                          // kernels under -rdc (Clang's externalized name)
  // An implicit instantiation of a kernel template: the host compiler may
  // not instantiate its stub (see registrationTable).
  bool implicitInstantiation = false;
};

struct VarEntry {
  std::string hostExpr;   // qualified name of the shadow (for a managed
                          // variable, of the host pointer cudart sets)
  std::string deviceName; // mangled device-side symbol
  std::string sizeExpr;   // sizeof(...) of the variable
  int flags = 0;          // __MYCC_VAR_*
};

// The prelude's spelling of __managed__ (lib/Offload/Annotations.h).
constexpr llvm::StringLiteral kManagedAnnotation = "mycc.managed";

const AnnotateAttr *managedAttr(const VarDecl *vd) {
  for (const VarDecl *r : vd->redecls())
    for (const auto *a : r->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == kManagedAnnotation) return a;
  return nullptr;
}

// A pointer, or `&expr`, as a void *, without a C-style cast: the host
// compiler's -Wcast-qual warns on one that drops the const of a `const T`
// parameter or variable.
std::string voidPointer(const std::string &pointer) {
  return "const_cast<void *>(static_cast<const volatile void *>(" + pointer +
         "))";
}
std::string voidAddress(const std::string &expr) {
  return voidPointer("&" + expr);
}

// Whether the host compiler gets none of a definition's body, so that the
// host parse need not read it: a kernel's becomes its stub
// (rewriteKernelBody), a __device__ function's a stopping body or nothing
// (leaveOutDeviceBody). Constructors are read (their member initializers
// go with the body, and the initializers' start is found in the parsed
// AST), and so are lambdas' call operators, constexpr functions and those
// whose body deduces the return type (Sema reads those in any case).
bool hostNeedsNoBody(const FunctionDecl *fd) {
  if (fd->hasAttr<CUDAGlobalAttr>()) return true;
  if (!fd->hasAttr<CUDADeviceAttr>() || fd->hasAttr<CUDAHostAttr>() ||
      isa<CXXConstructorDecl>(fd))
    return false;
  if (const auto *method = dyn_cast<CXXMethodDecl>(fd))
    if (method->getParent()->isLambda()) return false;
  return true;
}

class Lowerer : public RecursiveASTVisitor<Lowerer> {
public:
  Lowerer(ASTContext &ctx, Rewriter &rw, const LoweringOptions &options)
      : ctx(ctx), sm(ctx.getSourceManager()), rw(rw), options(options),
        mangler(ctx.createMangleContext()) {
    if (!ctx.getTranslationUnitDecl()
             ->lookup(&ctx.Idents.get(kLambdaNumbersPerFunction))
             .empty())
      hostMangler.reset(ItaniumMangleContext::create(
          ctx, ctx.getDiagnostics(), &lambdaNumberPerFunction));
    gccHost =
        !ctx.getTranslationUnitDecl()
             ->lookup(&ctx.Idents.get(kGccMangling))
             .empty();
  }

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (options.forHostCompiler && fd->isInvalidDecl()) {
      leaveOutRedeclaration(fd);
      return true;
    }
    if (options.forHostCompiler) {
      leaveOutDeviceBody(fd);
      spellNoinlineForHostCompiler(fd);
    }
    if (!fd->hasAttr<CUDAGlobalAttr>()) return true;
    makeTemplateStubStatic(fd);
    if (definesBody(fd) && inMainFile(fd->getLocation()) &&
        !fd->getTemplateInstantiationPattern() &&
        !fd->hasAttr<CUDALaunchBoundsAttr>())
      nvccWarning(fd->getLocation(), options.missingLaunchBounds,
                  "no __launch_bounds__ specified for __global__ function");
    rewriteKernelAttrs(fd);
    if (definesBody(fd) && inMainFile(fd->getLocation()))
      rewriteKernelBody(fd);
    if (fd->isThisDeclarationADefinition()) collectKernel(fd);
    return true;
  }

  // A member alias that names the outer entity it hides, as CUB writes
  // `using BlockExchange = BlockExchange<T, ...>;`: g++ rejects it (the name
  // "changes meaning" within the class, [basic.scope.class]); Clang and
  // nvcc's front end accept it, and nvcc writes the outer name qualified.
  // So does this, for the host compiler. The outer entity may be a member of
  // an enclosing class, as CUTLASS's `struct OutputOp { using
  // ElementAccumulator = ElementAccumulator; };`: qualified by that class's
  // (injected) name.
  bool VisitTypedefNameDecl(TypedefNameDecl *td) {
    if (!options.forHostCompiler || !td->getDeclContext()->isRecord())
      return true;
    TypeSourceInfo *written = td->getTypeSourceInfo();
    if (!written) return true;
    TypeLoc tl = written->getTypeLoc().getUnqualifiedLoc();
    const NamedDecl *outer = nullptr;
    SourceLocation nameLoc;
    if (auto spec = tl.getAs<TemplateSpecializationTypeLoc>()) {
      if (spec.getQualifierLoc()) return true;
      outer = spec.getTypePtr()->getTemplateName().getAsTemplateDecl();
      nameLoc = spec.getTemplateNameLoc();
    } else if (auto tag = tl.getAs<TagTypeLoc>()) {
      if (tag.getQualifierLoc()) return true;
      outer = tag.getDecl();
      nameLoc = tag.getNameLoc();
    } else if (auto alias = tl.getAs<TypedefTypeLoc>()) {
      if (alias.getQualifierLoc()) return true;
      outer = alias.getDecl();
      nameLoc = alias.getNameLoc();
    }
    if (!outer || outer == td || outer->getDeclName() != td->getDeclName() ||
        !inMainFile(nameLoc) || insideDropped(nameLoc))
      return true;
    const DeclContext *home = outer->getDeclContext()->getRedeclContext();
    if (home->isFileContext()) {
      rw.ReplaceText(nameLoc, outer->getName().size(), qualifiedName(outer));
      return true;
    }
    // A member of a class that encloses the alias's class.
    const auto *record = dyn_cast<CXXRecordDecl>(home);
    if (!record || !record->getIdentifier() || home == td->getDeclContext() ||
        !home->Encloses(td->getDeclContext()))
      return true;
    std::string spelled = (record->isDependentContext() ? "typename " : "") +
                          record->getName().str() + "::" + outer->getName().str();
    rw.ReplaceText(nameLoc, outer->getName().size(), spelled);
    return true;
  }

  // A class defined under a name qualified from the global namespace, as
  // CUB's test_util.h specialises `template <> class ::cuda::std::
  // numeric_limits<TestFoo> {...}`: nvcc's front end and Clang accept it,
  // g++ does not ("global qualification of class name is invalid"). At
  // global scope the name means the same without the leading `::`.
  bool VisitTagDecl(TagDecl *tag) {
    if (!options.forHostCompiler || !tag->isThisDeclarationADefinition() ||
        !tag->getLexicalDeclContext()->getRedeclContext()->isTranslationUnit())
      return true;
    NestedNameSpecifierLoc qualifier = tag->getQualifierLoc();
    if (!qualifier) return true;
    SourceLocation at = qualifier.getBeginLoc();
    if (!at.isFileID() || !inMainFile(at) || insideDropped(at)) return true;
    Token token;
    const SourceManager &sm = ctx.getSourceManager();
    if (Lexer::getRawToken(at, token, sm, ctx.getLangOpts(),
                           /*IgnoreWhiteSpace=*/true) ||
        !token.is(tok::coloncolon) || token.getLocation() != at)
      return true;
    rw.ReplaceText(at, 2, "  ");
    return true;
  }

  // GNU's `typeof`, which nvcc's front end and Clang (-fgnu-keywords) take
  // under -std=c++NN and g++ does not: written as __typeof__, as nvcc's
  // lowered units have it.
  bool VisitTypeOfExprTypeLoc(TypeOfExprTypeLoc tl) {
    spellTypeofForHostCompiler(tl.getTypeofLoc());
    return true;
  }
  bool VisitTypeOfTypeLoc(TypeOfTypeLoc tl) {
    spellTypeofForHostCompiler(tl.getTypeofLoc());
    return true;
  }

  bool VisitVarDecl(VarDecl *vd) {
    // Only namespace-scope managed variables are registered and rewritten;
    // any other would silently give host code its shadow.
    if (managedAttr(vd) && !isa<ParmVarDecl>(vd) &&
        (!vd->getDeclContext()->isFileContext() || vd->isStaticDataMember() ||
         vd->getDescribedVarTemplate() ||
         isa<VarTemplateSpecializationDecl>(vd))) {
      if (vd->isFirstDecl() && !isa<VarTemplateSpecializationDecl>(vd))
        unsupported(vd->getLocation(),
                    "__managed__ variables outside namespace scope (static "
                    "data members, variable templates, local variables)");
      return true;
    }
    if (!(vd->hasAttr<CUDADeviceAttr>() || vd->hasAttr<CUDAConstantAttr>()) ||
        vd->hasAttr<CUDASharedAttr>() || isa<ParmVarDecl>(vd) ||
        !vd->getDeclContext()->isFileContext() || vd->isStaticDataMember() ||
        vd->getDescribedVarTemplate() ||
        isa<VarTemplateSpecializationDecl>(vd) ||
        sm.isInSystemHeader(vd->getLocation()))
      return true; // DeviceSema.h relies on no system-header one registered
    // Declarations without a definition here stay device declarations in
    // whole-program mode: there is nothing to register for them. With
    // relocatable device code they declare the shadow another unit defines.
    const VarDecl *def = vd->getDefinition();
    if (!def && !options.rdc) return true;
    const bool managed = managedAttr(vd) != nullptr;
    // A shadow keeps external linkage only with relocatable device code.
    const bool hide = options.rdc && hidden(vd);
    for (Attr *a : vd->attrs())
      if (((isa<CUDADeviceAttr>(a) || isa<CUDAConstantAttr>(a)) &&
           !a->isImplicit()) ||
          (isa<AnnotateAttr>(a) &&
           cast<AnnotateAttr>(a)->getAnnotation() == kManagedAnnotation))
        replaceAttr(a, hide ? "visibility(\"hidden\")" : "");
    if (managed) declareManagedPointer(vd, def != nullptr);
    if (!def) return true;
    // In whole-program mode a shadow is private to its unit, as with nvcc:
    // two units may each define a device variable of the same name. With
    // relocatable device code it keeps its linkage, like the variable.
    if (!options.rdc && vd->isFirstDecl() && vd->getStorageClass() == SC_None &&
        !vd->isExternC() && inMainFile(vd->getBeginLoc()))
      rw.InsertTextBefore(vd->getBeginLoc(), "static ");
    if (vd == def) {
      VarEntry e;
      e.hostExpr = qualifiedName(vd);
      e.sizeExpr = "sizeof(" + e.hostExpr + ")";
      e.deviceName = mangledName(GlobalDecl(vd));
      if (vd->hasAttr<CUDAConstantAttr>()) e.flags |= __MYCC_VAR_CONSTANT;
      if (managed) {
        e.flags |= __MYCC_VAR_MANAGED;
        e.hostExpr = managedPointers[vd->getCanonicalDecl()];
      }
      if (options.rdc && !ctx.getLangOpts().CUID.empty()) {
        // An internal variable is visible to the device link (and to the
        // CUDA runtime) only if Clang externalized it, under a name of its
        // own; one it did not externalize cannot be reached from the host.
        bool internal = !vd->isExternallyVisible();
        if (internal && !ctx.shouldExternalize(vd)) return true;
        if (internal) e.deviceName += externalizedPostfix(vd);
      }
      vars.push_back(std::move(e));
    }
    return true;
  }

  // A host access to a __managed__ variable is an access of its managed
  // allocation, through the pointer cudart sets when the module is loaded
  // (nvcc's lowering: `*(__nv_init_managed_rt(), ptr)`). Device code keeps
  // the shadow, which it never runs on the host.
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    const auto *vd = dyn_cast<VarDecl>(ref->getDecl());
    if (!vd) return true;
    auto pointer = managedPointers.find(vd->getCanonicalDecl());
    if (pointer == managedPointers.end() || runsOnDeviceOnly(*ref)) return true;
    SourceRange range = ref->getSourceRange();
    if (!inMainFile(range.getBegin()) || !range.getEnd().isFileID()) return true;
    rw.ReplaceText(range, "(*(::__mycc_managed_ready ? (void)0 : "
                          "::__mycc_managed_init(), " +
                              pointer->second + "))");
    return true;
  }

  // The function whose body holds `stmt`, if any.
  const FunctionDecl *enclosingFunction(const Stmt *stmt) {
    DynTypedNodeList parents = ctx.getParents(*stmt);
    while (!parents.empty()) {
      const DynTypedNode &parent = parents[0];
      if (const auto *fd = parent.get<FunctionDecl>()) return fd;
      if (const auto *s = parent.get<Stmt>()) {
        parents = ctx.getParents(*s);
      } else if (const auto *d = parent.get<Decl>()) {
        parents = ctx.getParents(*d);
      } else {
        break;
      }
    }
    return nullptr;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *call) {
    // A launch in device code (dynamic parallelism) is the device side's:
    // the host unit keeps no device body.
    if (const FunctionDecl *fd = enclosingFunction(call);
        fd && (fd->hasAttr<CUDAGlobalAttr>() ||
               (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>())))
      return true;
    const CallExpr *config = call->getConfig();
    if (config->getNumArgs() < 4 || isa<CXXDefaultArgExpr>(config->getArg(3)))
      nvccWarning(config->getBeginLoc(), options.defaultStreamLaunch,
                  "explicit stream argument not provided in kernel launch");
    SourceLocation open = config->getBeginLoc();   // "<<<"
    SourceLocation close = config->getRParenLoc(); // ">>>"
    SourceLocation calleeBegin = call->getCallee()->getBeginLoc();
    SourceLocation end = call->getRParenLoc();
    if (!open.isFileID() || !close.isFileID() || !calleeBegin.isFileID() ||
        !end.isFileID()) {
      unsupported(call->getBeginLoc(), "kernel launch inside a macro expansion");
      return true;
    }
    std::string args = rw.getRewrittenText(
        CharSourceRange::getCharRange(open.getLocWithOffset(3), close));
    // nvcc's lowering: the configuration is pushed first; a failed push skips
    // the launch.
    rw.InsertTextBefore(calleeBegin,
                        "(__cudaPushCallConfiguration(" + args + ") ? (void)0 : ");
    rw.RemoveText(CharSourceRange::getCharRange(open, close.getLocWithOffset(3)));
    rw.InsertTextAfterToken(end, ")");
    return true;
  }

  // nvcc's registration of a unit of relocatable device code (the
  // toolkit's crt/host_runtime.h and link.stub): the constructor hands the
  // unit's callback, fat binary wrapper and module id to
  // __cudaRegisterLinkedBinary<id>, which the device link's object defines;
  // once every unit of the link has called it, the linked image is
  // registered and each callback registers its unit's kernels and variables
  // on its handle (through the runtime: __mycc_register_linked_unit). The
  // wrapper and the relocatable fat binary are in embeddedDeviceCode.
  std::string nvccRegistration() const {
    std::string id = kModuleIdPrefix + options.unitId;
    std::string out;
    llvm::raw_string_ostream os(out);
    os << "extern \"C\" void __cudaRegisterLinkedBinary" << id
       << "(void (*)(void **), void *, void *, void (*)(void *));\n"
       << "extern \"C\" const char __fatbinwrap" << id << "[];\n"
       << "static const unsigned char __mycc_module_id_str[] "
          "__attribute__((section(\"__nv_module_id\"), used)) = \""
       << id << "\";\n"
       << "static void __mycc_linked_callback(void **handle) {\n"
          "  __mycc_register_linked_unit(handle, &__mycc_module);\n}\n"
       << "static void __mycc_dummy_ref(void *p) {\n"
          "  static void *volatile ref; ref = p;\n}\n"
       << "__attribute__((constructor)) static void __mycc_register(void) {\n"
       << "  __cudaRegisterLinkedBinary" << id
       << "(__mycc_linked_callback, (void *)__fatbinwrap" << id
       << ", (void *)__mycc_module_id_str, __mycc_dummy_ref);\n}\n";
    // What the host refers to, for nvlink: kernels, device variables and
    // constants (nvcc's .nvHRKE/.nvHRDE/.nvHRCE; the internal-linkage lists
    // stay empty: Clang externalizes internal symbols under -fgpu-rdc).
    auto list = [&](const char *section, auto &&names) {
      os << "__asm__(\".pushsection " << section
         << ",\\\"a\\\",@progbits\\n";
      for (const std::string &name : names) os << ".asciz \\\"" << name << "\\\"\\n";
      if (names.empty()) os << ".byte 0\\n";
      os << ".popsection\");\n";
    };
    std::vector<std::string> kernelNames, varNames, constNames;
    for (const auto &k : kernels) kernelNames.push_back(k.deviceName);
    for (const auto &v : vars)
      ((v.flags & __MYCC_VAR_CONSTANT) ? constNames : varNames)
          .push_back(v.deviceName);
    list(".nvHRKE", kernelNames);
    list(".nvHRKI", std::vector<std::string>{});
    list(".nvHRDE", varNames);
    list(".nvHRDI", std::vector<std::string>{});
    list(".nvHRCE", constNames);
    list(".nvHRCI", std::vector<std::string>{});
    return out;
  }

  std::string registrationTable(const std::string &sourceName) {
    std::string out;
    llvm::raw_string_ostream os(out);
    os << "\n// mycc: registration table\n";
    std::string linked = kLinkedImagePrefix + options.unitId;
    bool nvccLinked = options.rdc && !options.deviceLto;
    if (options.rdc && !nvccLinked)
      os << "extern \"C\" const struct __mycc_linked_image " << linked
         << " __attribute__((visibility(\"hidden\")));\n"
         << "extern \"C\" __attribute__((visibility(\"hidden\"))) const char "
         << kUnitSymbolPrefix << options.unitId << "[1] = {0};\n";
    else
      os << "extern \"C\" const char " << kFatbinWrapperSymbol
         << "[] __attribute__((visibility(\"hidden\")));\n";
    // Kernels are referenced by their symbol: template specialisations on
    // lambda or local types have no spelling, but they have a mangled name.
    // An implicit instantiation is referenced weakly (weakref: a static stub
    // stays static): Clang's parse instantiates kernel templates along paths
    // the host compiler never sees (a kernel's body, which the stub replaces;
    // CCCL's device-side dispatch names its host-only kernels so), and a stub
    // the host compiler did not instantiate cannot be launched from the host:
    // its entry is null and the runtime passes over it.
    // g++ compares a weakref's type with its target's where it knows the
    // target (-Wattribute-alias, an error under -Werror). The unit is
    // preprocessed text: a pragma, no #if.
    bool quiet = gccHost && std::any_of(kernels.begin(), kernels.end(),
                                        [](const KernelEntry &k) {
                                          return k.implicitInstantiation;
                                        });
    if (quiet)
      os << "#pragma GCC diagnostic push\n"
            "#pragma GCC diagnostic ignored \"-Wattribute-alias\"\n";
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (kernels[i].implicitInstantiation)
        os << "static void __mycc_kernel_" << i
           << "(void) __attribute__((weakref(\"" << gccSymbol(kernels[i].symbol)
           << "\")));\n";
      else
        os << "extern \"C\" void __mycc_kernel_" << i << "(void) __asm__(\""
           << gccSymbol(kernels[i].symbol) << "\");\n";
    }
    if (quiet) os << "#pragma GCC diagnostic pop\n";
    os << "static const struct __mycc_kernel_entry __mycc_kernels[] = {\n";
    for (size_t i = 0; i < kernels.size(); ++i)
      os << "  {(const void *)&__mycc_kernel_" << i << ", \""
         << kernels[i].deviceName << "\"},\n";
    os << "  {0, 0}\n};\n";
    os << "static const struct __mycc_var_entry __mycc_vars[] = {\n";
    for (const auto &v : vars)
      os << "  {" << voidAddress(v.hostExpr) << ", \"" << v.deviceName << "\", "
         << v.sizeExpr << ", " << v.flags << "},\n";
    os << "  {0, 0, 0, 0}\n};\n";
    os << "static const struct __mycc_module_desc __mycc_module = {"
       << MYCC_ABI_VERSION << ", "
       << (options.rdc ? std::string("0") : kFatbinWrapperSymbol)
       << ", __mycc_kernels, " << kernels.size() << ", __mycc_vars, "
       << vars.size() << ", \"";
    os.write_escaped(sourceName);
    os << "\", "
       << (options.rdc && !nvccLinked ? "&" + linked : std::string("0"))
       << "};\n";
    if (nvccLinked)
      os << nvccRegistration();
    else
      os << "__attribute__((constructor)) static void __mycc_register(void) {\n"
            "  __mycc_register_module(&__mycc_module);\n}\n";
    if (!managedPointers.empty())
      os << "static void __mycc_managed_init(void) {\n"
            "  __mycc_init_managed(&__mycc_module);\n"
            "  __mycc_managed_ready = 1;\n}\n";
    return out;
  }

  // Declarations for the top of the unit (empty when it needs none): what
  // the rewritten accesses of managed variables need, and kUnrestrict.
  std::string headDeclarations() const {
    std::string out;
    if (usesUnrestrict)
      out += std::string("template <class T> struct ") + kUnrestrict +
             " { typedef T type; };\ntemplate <class T> struct " + kUnrestrict +
             "<T *__restrict__> { typedef T *type; };\n";
    if (managedPointers.empty()) return out;
    return out + "static char __mycc_managed_ready;\n"
                 "static void __mycc_managed_init(void);\n";
  }

  // Template kernels: the specialisations this unit instantiates.
  void collectSpecializations() {
    for (FunctionTemplateDecl *ftd : kernelTemplates)
      for (FunctionDecl *spec : ftd->specializations()) {
        auto kind = spec->getTemplateSpecializationKind();
        bool emitted = (kind == TSK_ImplicitInstantiation && spec->isUsed()) ||
                       kind == TSK_ExplicitInstantiationDefinition;
        // `template __global__ void k<2>(int *);` spells the attribute
        // again; it must name a host function like the template does.
        if (kind == TSK_ExplicitInstantiationDefinition ||
            kind == TSK_ExplicitInstantiationDeclaration)
          rewriteKernelAttrs(spec);
        if (emitted) addKernel(spec);
      }
  }

  // The edits that must not fall into dropped text, once all is known.
  void finishSpellings() {
    for (unsigned offset : typeofs) {
      SourceLocation loc = sm.getComposedLoc(sm.getMainFileID(), offset);
      if (!insideDropped(loc)) rw.ReplaceText(loc, 6, "__typeof__");
    }
  }

  // Global static function templates, whose specialisations g++ names
  // without 'L' (kGccMangling).
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *ftd) {
    if (gccHost && ftd->getTemplatedDecl()->getStorageClass() == SC_Static &&
        ftd->getDeclContext()->getRedeclContext()->isTranslationUnit())
      staticTemplateNames.insert(ftd->getName().str());
    return true;
  }

  unsigned numKernels() const { return kernels.size(); }
  unsigned numVars() const { return vars.size(); }
  bool failed() const { return hadError; }
  // Whether a skipped body could not be found (bodyRange).
  bool missedSkippedBody() const { return bodyNotFound; }

private:
  void spellTypeofForHostCompiler(SourceLocation loc) {
    if (!options.forHostCompiler || !inMainFile(loc)) return;
    const char *at = sm.getCharacterData(loc);
    if (llvm::StringRef(at, 6) == "typeof" && !llvm::isAlnum(at[6]) &&
        at[6] != '_' && at[6] != '$')
      typeofs.insert(sm.getFileOffset(loc));
  }

  // Whether the unit's text holds a body for this declaration, parsed or
  // skipped (hostNeedsNoBody).
  static bool definesBody(const FunctionDecl *fd) {
    return fd->doesThisDeclarationHaveABody() || fd->hasSkippedBody();
  }

  // The braces of a definition's body: the parsed body's, or for one the
  // parse skipped, found in the text (skippedBody). Invalid, and the unit
  // marked for lowering again with every body parsed, where they cannot be
  // found.
  SourceRange bodyRange(const FunctionDecl *fd) {
    if (const Stmt *body = fd->getBody()) return body->getSourceRange();
    SourceRange range = skippedBody(fd);
    if (range.isInvalid()) bodyNotFound = true;
    return range;
  }

  // A skipped body is the first `{` after the declarator, outside
  // parentheses and brackets, to its matching `}`. The declarator may end
  // before its trailing attributes; anything else before a `{` (`:` of a
  // constructor's initializers, `try`, `=`, `;`) means no body was found
  // where one was skipped.
  SourceRange skippedBody(const FunctionDecl *fd) const {
    SourceLocation end = fd->getSourceRange().getEnd();
    if (const Expr *constraint = fd->getTrailingRequiresClause().ConstraintExpr)
      if (sm.isBeforeInTranslationUnit(end, constraint->getEndLoc()))
        end = constraint->getEndLoc();
    if (!inMainFile(end)) return {};
    auto [file, offset] = sm.getDecomposedLoc(end);
    llvm::StringRef buffer = sm.getBufferData(file);
    Lexer lexer(sm.getLocForStartOfFile(file), ctx.getLangOpts(),
                buffer.begin(), buffer.begin() + offset, buffer.end());
    Token token;
    lexer.LexFromRawLexer(token); // the declarator's last token
    int nesting = 0;
    SourceLocation open;
    while (open.isInvalid()) {
      lexer.LexFromRawLexer(token);
      if (token.is(tok::eof)) return {};
      if (token.isOneOf(tok::l_paren, tok::l_square)) {
        ++nesting;
      } else if (token.isOneOf(tok::r_paren, tok::r_square)) {
        if (--nesting < 0) return {};
      } else if (nesting == 0) {
        if (token.is(tok::l_brace)) open = token.getLocation();
        else if (token.isOneOf(tok::semi, tok::equal, tok::colon,
                               tok::r_brace) ||
                 (token.is(tok::raw_identifier) &&
                  token.getRawIdentifier() == "try"))
          return {};
      }
    }
    for (int depth = 1; depth > 0;) {
      lexer.LexFromRawLexer(token);
      if (token.is(tok::eof)) return {};
      if (token.is(tok::l_brace)) ++depth;
      else if (token.is(tok::r_brace)) --depth;
    }
    return SourceRange(open, token.getLocation());
  }

  // The `:` that begins a constructor's initializers, given the first
  // initializer's start (whitespace between them only); invalid otherwise.
  SourceLocation colonBefore(SourceLocation first) const {
    if (!inMainFile(first)) return SourceLocation();
    const char *at = sm.getCharacterData(first);
    const char *start = sm.getBufferData(sm.getMainFileID()).data();
    const char *p = at;
    while (p > start && llvm::isSpace(p[-1])) --p;
    if (p == start || p[-1] != ':' || (p - 1 > start && p[-2] == ':'))
      return SourceLocation();
    return first.getLocWithOffset(-(at - (p - 1)));
  }

  // Text left out or replaced for the host compiler (device bodies, kernel
  // bodies, rejected redeclarations): no other edit may fall inside it.
  // Declarations are visited outside in: a member function of a local
  // class in a device function's body falls into text already left out,
  // and a second edit there would garble the unit (overlapping edits).
  // The replacement takes as many lines as the text it replaces, so that
  // the host compiler's messages about what follows name the right lines:
  // it is written on one line, then the dropped text's line breaks (and its
  // last line marker, if the preprocessor wrote one inside).
  void dropText(SourceRange range, llvm::StringRef replacement) {
    if (insideDropped(range.getBegin())) return;
    dropped.push_back({sm.getFileOffset(sm.getExpansionLoc(range.getBegin())),
                       sm.getFileOffset(sm.getExpansionLoc(range.getEnd()))});
    llvm::StringRef original = Lexer::getSourceText(
        CharSourceRange::getTokenRange(range), sm, ctx.getLangOpts());
    rw.ReplaceText(range, sameLines(original, replacement));
  }

  static std::string sameLines(llvm::StringRef original,
                               llvm::StringRef replacement) {
    std::string text = replacement.str();
    std::replace(text.begin(), text.end(), '\n', ' ');
    // The last line marker (`# 12 "x.cu" 3`) inside, without the include
    // stack's flags 1 and 2, and the line breaks after it.
    std::string marker;
    llvm::StringRef after = original;
    for (std::size_t at = original.find("\n#"); at != llvm::StringRef::npos;
         at = original.find("\n#", at + 1)) {
      llvm::StringRef line = original.substr(at + 1).split('\n').first;
      llvm::SmallVector<llvm::StringRef, 6> words;
      line.split(words, ' ', -1, /*KeepEmpty=*/false);
      if (words.size() < 3 || words[0] != "#" ||
          !llvm::all_of(words[1], llvm::isDigit) || !words[2].starts_with("\""))
        continue;
      marker = "# " + words[1].str() + " " + words[2].str();
      for (llvm::StringRef flag : llvm::drop_begin(words, 3))
        if (flag == "3" || flag == "4") marker += " " + flag.str();
      after = original.substr(at + 1 + line.size());
    }
    if (!marker.empty()) text += "\n" + marker;
    return text + std::string(after.count('\n'), '\n');
  }

  bool insideDropped(SourceLocation loc) const {
    if (loc.isInvalid()) return false;
    unsigned offset = sm.getFileOffset(sm.getExpansionLoc(loc));
    for (const auto &[begin, end] : dropped)
      if (begin <= offset && offset <= end) return true;
    return false;
  }

  bool inMainFile(SourceLocation loc) const {
    return loc.isValid() && loc.isFileID() &&
           sm.getFileID(loc) == sm.getMainFileID();
  }

  // Declares, after the declaration of managed variable `vd`, the host
  // pointer cudart sets to its managed allocation:
  // `static __typeof__(x) *__mycc_managed_N = 0;` (a pointer to the array
  // for an array). With relocatable device code it is named after the
  // device symbol and keeps external linkage, so that units declaring the
  // variable `extern` reach the defining unit's pointer.
  void declareManagedPointer(VarDecl *vd, bool defines) {
    const VarDecl *canonical = vd->getCanonicalDecl();
    std::string name;
    if (options.rdc)
      name = "__mycc_managed_" + mangledName(GlobalDecl(vd->getDefinition()
                                                            ? vd->getDefinition()
                                                            : vd));
    else
      name = "__mycc_managed_" + std::to_string(managedPointers.size());
    std::string qualified = qualifiedName(vd);
    qualified = qualified.substr(0, qualified.size() - vd->getName().size()) + name;
    bool first = managedPointers.emplace(canonical, qualified).second;
    if (!first && !(defines && vd->getDefinition() == vd)) return;
    if (!defines && !options.rdc) return;
    SourceLocation after = endOfDeclaration(vd);
    if (after.isInvalid()) {
      unsupported(vd->getLocation(),
                  "this declaration of a __managed__ variable");
      return;
    }
    std::string decl = std::string(" ") +
                       (options.rdc ? (defines ? "" : "extern ")
                                    : "static ") +
                       "__typeof__(" + vd->getName().str() + ") *" + name +
                       (defines ? " = 0;" : ";");
    rw.InsertTextAfter(after, decl);
  }

  // The location after the `;` that ends the declaration `vd` belongs to.
  SourceLocation endOfDeclaration(const VarDecl *vd) const {
    SourceLocation loc = vd->getEndLoc();
    if (!inMainFile(loc)) return {};
    int depth = 0;
    for (int guard = 0; guard < 100000; ++guard) {
      std::optional<Token> next =
          Lexer::findNextToken(loc, sm, ctx.getLangOpts());
      if (!next) return {};
      loc = next->getLocation();
      if (next->isOneOf(tok::l_paren, tok::l_brace, tok::l_square)) ++depth;
      else if (next->isOneOf(tok::r_paren, tok::r_brace, tok::r_square)) --depth;
      else if (next->is(tok::semi) && depth <= 0) return next->getEndLoc();
    }
    return {};
  }

  // Whether `ref` is inside a kernel, a __device__ function or a __device__
  // lambda, which the host never runs.
  bool runsOnDeviceOnly(const DeclRefExpr &ref) {
    DynTypedNodeList parents = ctx.getParents(ref);
    while (!parents.empty()) {
      const DynTypedNode &node = parents[0];
      const FunctionDecl *fd = node.get<FunctionDecl>();
      if (const auto *lambda = node.get<LambdaExpr>())
        fd = lambda->getCallOperator();
      if (fd)
        return fd->hasAttr<CUDAGlobalAttr>() ||
               (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>());
      parents = ctx.getParents(node);
    }
    return false; // a namespace-scope initializer: host code
  }

  // A __device__ function's body is device code the host compiler cannot
  // compile (inline PTX, device builtins) and would emit for the host. For
  // an inline function or one of internal linkage it becomes, as in nvcc's
  // host code, a body that stops the program and names the parameters
  // (-Wunused-parameter), under `unused` (-Wunused-function): a declaration
  // alone, which such a function named in a kernel's template argument is,
  // draws g++'s "used but never defined" (an error under -Werror). Other
  // functions keep a declaration only, as do constructors and destructors
  // (their member initializers go with the body: they may name members that
  // only a body could initialise) and functions whose return type a body
  // deduces. Bodies stay where they cannot go: constexpr functions (the
  // host may evaluate them) and lambdas (their closure types are host
  // types).
  void leaveOutDeviceBody(FunctionDecl *fd) {
    if (!fd->hasAttr<CUDADeviceAttr>() || fd->hasAttr<CUDAHostAttr>() ||
        fd->hasAttr<CUDAGlobalAttr>() || !definesBody(fd) ||
        fd->isConstexpr() || fd->isDefaulted() || fd->isDeleted())
      return;
    if (const auto *method = dyn_cast<CXXMethodDecl>(fd))
      if (method->getParent()->isLambda()) return;
    Stmt *body = fd->getBody();
    if ((!body && !fd->hasSkippedBody()) || isa_and_nonnull<CXXTryStmt>(body))
      return;
    SourceRange range = bodyRange(fd);
    if (range.isInvalid()) return;
    if (const auto *ctor = dyn_cast<CXXConstructorDecl>(fd))
      for (const CXXCtorInitializer *init : ctor->inits())
        if (init->isWritten()) {
          // From the `:` before the first written initializer.
          SourceLocation colon = colonBefore(init->getSourceRange().getBegin());
          if (colon.isInvalid()) return;
          range.setBegin(colon);
          break;
        }
    if (!inMainFile(range.getBegin()) || !range.getEnd().isFileID()) return;
    bool declarationOnly = isa<CXXConstructorDecl, CXXDestructorDecl>(fd) ||
                           fd->getReturnType()->getContainedDeducedType();
    if (!fd->isOutOfLine()) {
      // Only an inline function or one of internal linkage needs a body:
      // g++ expects others from another unit (and would suggest `noreturn`
      // for them under -Wmissing-noreturn).
      if (declarationOnly || (fd->isExternallyVisible() && !fd->isInlined())) {
        dropText(range, ";");
        return;
      }
      dropText(range, stoppingBody(fd));
      if (!isa<CXXMethodDecl>(fd))
        markUnused(fd);
      return;
    }
    // Out of its class, a declaration is not allowed: the definition goes,
    // unless the host compiler emits it only where used (inline, templates),
    // which get the stopping body (or keep theirs, where the class holds
    // only a declaration).
    if (fd->isInlined() || fd->isTemplated()) {
      if (!declarationOnly)
        dropText(range, stoppingBody(fd));
      return;
    }
    SourceLocation begin = fd->getOuterLocStart();
    if (!inMainFile(begin)) return;
    dropText(SourceRange(begin, range.getEnd()), "");
  }

  // The host body of a device function: `{ (void)a; __builtin_trap(); }`.
  static std::string stoppingBody(const FunctionDecl *fd) {
    std::string body = "{ ";
    for (const ParmVarDecl *param : fd->parameters())
      if (!param->getName().empty() && !param->isParameterPack())
        body += "(void)" + param->getName().str() + "; ";
    return body + "__builtin_trap(); }";
  }

  // `__attribute__((unused))` among the declaration's specifiers, before
  // its type (where GNU attributes may stand in a function definition).
  void markUnused(const FunctionDecl *fd) {
    SourceLocation type = fd->getTypeSpecStartLoc();
    if (!inMainFile(type) || insideDropped(type)) return;
    rw.InsertTextBefore(type, "__attribute__((unused)) ");
  }

  // `__noinline__` is a keyword of CUDA's front ends (Clang's and nvcc's),
  // not a macro: nvcc writes it as GNU's attribute for the host compiler.
  void spellNoinlineForHostCompiler(FunctionDecl *fd) {
    for (const auto *a : fd->specific_attrs<NoInlineAttr>())
      if (a->isKeywordAttribute())
        replaceAttr(a, "__attribute__((noinline))");
  }

  // A redeclaration Clang rejected under acceptNvccRedeclarations because
  // it lacks the constexpr of the library's declaration (CUDA's headers
  // redeclare std::abs, std::sin, ... so): nvcc's front end merges it into
  // the first declaration, and the host compiler would reject it, so it is
  // left out. (The other kind, a __host__ __device__ redeclaration, is a
  // plain redeclaration to the host compiler and stays.)
  void leaveOutRedeclaration(FunctionDecl *fd) {
    if (fd->doesThisDeclarationHaveABody() || fd->isConstexpr()) return;
    bool constexprElsewhere = false;
    for (NamedDecl *other : fd->getDeclContext()->lookup(fd->getDeclName())) {
      const auto *ofd = dyn_cast<FunctionDecl>(other);
      if (const auto *ftd = dyn_cast<FunctionTemplateDecl>(other))
        ofd = ftd->getTemplatedDecl();
      if (ofd && ofd != fd && !ofd->isInvalidDecl() && ofd->isConstexpr() &&
          ctx.hasSameFunctionTypeIgnoringExceptionSpec(ofd->getType(),
                                                       fd->getType()))
        constexprElsewhere = true;
    }
    if (!constexprElsewhere) return;
    SourceRange range = fd->getSourceRange();
    if (!inMainFile(range.getBegin()) || !range.getEnd().isFileID()) return;
    SourceLocation semi = Lexer::findLocationAfterToken(
        range.getEnd(), tok::semi, sm, ctx.getLangOpts(), false);
    if (semi.isInvalid()) return;
    dropText(SourceRange(range.getBegin(), semi.getLocWithOffset(-1)), "");
  }

  // One of nvcc's front-end warnings (LoweringOptions::Warning). The host
  // parse runs with -w (its warnings are the host compiler's to give), so
  // these are let through here.
  void nvccWarning(SourceLocation loc, LoweringOptions::Warning level,
                   llvm::StringRef text) {
    if (level == LoweringOptions::Warning::Off || !loc.isValid()) return;
    auto &diags = ctx.getDiagnostics();
    bool error = level == LoweringOptions::Warning::Error;
    unsigned id = diags.getCustomDiagID(
        error ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, "%0");
    bool ignoring = diags.getIgnoreAllWarnings();
    diags.setIgnoreAllWarnings(false);
    diags.Report(loc, id) << text;
    diags.setIgnoreAllWarnings(ignoring);
    if (error) hadError = true;
  }

  void unsupported(SourceLocation loc, llvm::StringRef what) {
    auto &diags = ctx.getDiagnostics();
    unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Error,
                                        "mycc does not support %0 yet");
    diags.Report(loc, id) << what;
    hadError = true;
  }

  // Replaces the attribute's name (and arguments) inside its
  // __attribute__((...)) with `text`; an empty __attribute__(()) is valid.
  void replaceAttr(const Attr *a, llvm::StringRef text) {
    SourceRange r = a->getRange();
    if (!inMainFile(r.getBegin()) || !r.getEnd().isFileID() ||
        insideDropped(r.getBegin()))
      return;
    // Redeclarations and instantiations share attributes: edit each once.
    if (!rewrittenAttrs.insert(r.getBegin().getRawEncoding()).second) return;
    rw.ReplaceText(CharSourceRange::getTokenRange(r), text);
  }

  // -static-global-template-stub: `static` on each declaration of a kernel
  // template at namespace scope that is not internal already (its explicit
  // specialisations follow the template).
  void makeTemplateStubStatic(FunctionDecl *fd) {
    FunctionTemplateDecl *ftd = fd->getDescribedFunctionTemplate();
    if (!options.staticTemplateStubs || options.rdc || !ftd ||
        fd->getFriendObjectKind() != Decl::FOK_None ||
        !fd->getDeclContext()->getRedeclContext()->isFileContext() ||
        fd->isInAnonymousNamespace() ||
        ftd->getCanonicalDecl()->getTemplatedDecl()->getStorageClass() ==
            SC_Static)
      return;
    staticStubTemplates.insert(ftd->getCanonicalDecl());
    if (gccHost && ftd->getDeclContext()->getRedeclContext()->isTranslationUnit())
      staticTemplateNames.insert(ftd->getName().str());
    SourceLocation at = fd->getInnerLocStart();
    if (!inMainFile(at) || !at.isFileID() || insideDropped(at)) return;
    rw.InsertTextBefore(at, "static ");
  }

  // -device-entity-has-hidden-visibility: an entity of external linkage
  // without a visibility of its own or of its namespace.
  bool hidden(const NamedDecl *d) const {
    return options.hiddenDeviceEntities && d->isExternallyVisible() &&
           !d->getLinkageAndVisibility().isVisibilityExplicit();
  }

  // A specialisation's symbol once its template is static: 'L' before the
  // template's own name, as both compilers write internal names (g++'s
  // exception at global scope is gccSymbol's).
  static std::string internalSymbol(std::string symbol, llvm::StringRef name) {
    std::string own = std::to_string(name.size()) + name.str() + "I";
    size_t at = symbol.find(own, llvm::StringRef(symbol).starts_with("_ZN") ? 3 : 2);
    if (at != std::string::npos) symbol.insert(at, "L");
    return symbol;
  }

  void rewriteKernelAttrs(FunctionDecl *fd) {
    for (Attr *a : fd->attrs()) {
      if (a->isImplicit()) continue;
      if (isa<CUDAGlobalAttr>(a)) {
        // A stub is kept even when nothing the host compiler emits refers
        // to it: the registration table names it by symbol. On a template
        // the attribute keeps every specialisation the host compiler
        // instantiates (one referenced only from an inline function that is
        // never emitted, as CUB's EmptyKernel<void>, would be dropped). An
        // explicit instantiation spells the template's attributes again.
        bool keep = !fd->isFunctionTemplateSpecialization();
        FunctionTemplateDecl *ftd = fd->getDescribedFunctionTemplate();
        bool hide = keep && !(ftd && staticStubTemplates.count(
                                         ftd->getCanonicalDecl())) &&
                    hidden(fd);
        replaceAttr(a, !keep ? "host"
                       : hide ? "host, used, visibility(\"hidden\")"
                              : "host, used");
      } else if (isa<CUDALaunchBoundsAttr>(a) || isa<CUDAClusterDimsAttr>(a)) {
        replaceAttr(a, ""); // device-only properties
      }
    }
    for (ParmVarDecl *p : fd->parameters())
      for (Attr *a : p->attrs())
        if (isa<CUDAGridConstantAttr>(a) && !a->isImplicit()) replaceAttr(a, "");
  }

  void rewriteKernelBody(FunctionDecl *fd) {
    // Parameters need names for the stub to pass their addresses.
    std::vector<std::string> names;
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      ParmVarDecl *p = fd->getParamDecl(i);
      std::string name = p->getName().str();
      if (name.empty()) {
        name = "__mycc_p" + std::to_string(i);
        if (inMainFile(p->getLocation()))
          rw.InsertTextBefore(p->getLocation(), " " + name);
      }
      names.push_back(name + (p->isParameterPack() ? "..." : ""));
    }
    std::string self = "&" + fd->getNameAsString();
    if (FunctionTemplateDecl *ftd = fd->getDescribedFunctionTemplate()) {
      self += "<";
      TemplateParameterList *tpl = ftd->getTemplateParameters();
      for (unsigned i = 0; i < tpl->size(); ++i) {
        NamedDecl *tp = tpl->getParam(i);
        std::string name = tp->getName().str();
        if (name.empty()) {
          name = "__mycc_t" + std::to_string(i);
          if (inMainFile(tp->getLocation()))
            rw.InsertTextBefore(tp->getLocation(), " " + name);
        }
        if (i) self += ", ";
        self += name + (tp->isParameterPack() ? "..." : "");
      }
      self += ">";
    } else if (const auto *written = fd->getTemplateSpecializationArgsAsWritten()) {
      self += rw.getRewrittenText(SourceRange(written->LAngleLoc, written->RAngleLoc));
    }
    // -std=c++03 (nvcc compiles kernels in C++03 too): 0 for nullptr, and
    // the spelling of decltype that g++ and Clang accept in every mode.
    const bool cxx11 = ctx.getLangOpts().CPlusPlus11;
    std::string argList = cxx11 ? "nullptr" : "0", typeList;
    const char *decltypeKeyword = cxx11 ? "decltype(" : "__decltype(";
    for (size_t i = 0; i < names.size(); ++i) {
      bool pack = llvm::StringRef(names[i]).ends_with("...");
      std::string base = pack ? names[i].substr(0, names[i].size() - 3) : names[i];
      std::string type = decltypeKeyword + base + ")";
      std::string address = "&" + base;
      // g++ keeps a parameter's __restrict__ in decltype and matches it
      // against the function's type, which has none (ggml's kernels):
      // "invalid static_cast from <unresolved overloaded function type>".
      // Its address converts to void * only without it, too.
      QualType declared = fd->getParamDecl(i)->getType();
      if (const auto *expansion = declared->getAs<PackExpansionType>())
        declared = expansion->getPattern();
      if (declared.isRestrictQualified()) {
        type = std::string(fd->isTemplated() ? "typename " : "") +
               kUnrestrict + "<" + type + ">::type";
        address = "const_cast<" + type + " *>(" + address + ")";
        usesUnrestrict = true;
      }
      argList += ", " + voidPointer(address) + (pack ? "..." : "");
      if (i) typeList += ", ";
      typeList += type + (pack ? "..." : "");
    }
    // The stub passes its own address, the kernel's identity on the host;
    // the cast picks this overload (and this specialisation) by type.
    std::string body = "{ void *__mycc_args[] = {" + argList + "}; " +
                       launchFunction() +
                       "((const void *)static_cast<void (*)(" + typeList +
                       ")>(" + self + "), __mycc_args + 1); }";
    SourceRange range = bodyRange(fd);
    if (range.isValid()) dropText(range, body);
  }

  // Under CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc's -default-stream
  // per-thread) cuda_runtime_api.h declares the runtime's _ptsz entry
  // points in place of the plain ones, and nvcc's stubs launch through
  // cudaLaunchKernel_ptsz: a launch without a stream goes to the per-thread
  // default stream. The unit is preprocessed, so the declaration tells.
  const char *launchFunction() {
    if (!perThreadStream) {
      IdentifierInfo &ptsz = ctx.Idents.get("cudaLaunchKernel_ptsz");
      perThreadStream =
          !ctx.getTranslationUnitDecl()->lookup(DeclarationName(&ptsz)).empty();
    }
    return *perThreadStream ? "__mycc_launch_ptsz" : "__mycc_launch";
  }

  void collectKernel(FunctionDecl *fd) {
    if (FunctionTemplateDecl *ftd = fd->getDescribedFunctionTemplate()) {
      kernelTemplates.insert(ftd->getCanonicalDecl());
      return;
    }
    addKernel(fd);
  }

  void addKernel(FunctionDecl *fd) {
    GlobalDecl kernel(fd, KernelReferenceKind::Kernel);
    std::string deviceName = mangledName(kernel);
    std::string symbol;
    if (gccHost) {
      // The mangling of Clang's ABI 17 (no `Tn`), for this name only.
      auto &langOpts = const_cast<LangOptions &>(ctx.getLangOpts());
      LangOptions::ClangABI abi = langOpts.getClangABICompat();
      if (abi > LangOptions::ClangABI::Ver17)
        langOpts.setClangABICompat(LangOptions::ClangABI::Ver17);
      symbol = mangledName(kernel, hostMangler ? *hostMangler : *mangler);
      langOpts.setClangABICompat(abi);
    } else {
      symbol = hostMangler ? mangledName(kernel, *hostMangler) : deviceName;
    }
    // Clang externalizes internal kernels under -fgpu-rdc (always, unlike
    // variables), appending the unit's hash.
    if (options.rdc && !ctx.getLangOpts().CUID.empty() &&
        ctx.shouldExternalize(fd))
      deviceName += externalizedPostfix(fd);
    if (FunctionTemplateDecl *primary = fd->getPrimaryTemplate();
        primary && staticStubTemplates.count(primary->getCanonicalDecl()))
      symbol = internalSymbol(symbol, primary->getName());
    if (seenKernels.insert(symbol).second)
      kernels.push_back({symbol, deviceName,
                         fd->getTemplateSpecializationKind() ==
                             TSK_ImplicitInstantiation});
  }

  // What Clang's device CodeGen appends to an externalized internal symbol
  // under -fgpu-rdc (CodeGenModule::printPostfixForExternalizedDecl, CUDA
  // spelling: ptxas allows no '.').
  std::string externalizedPostfix(const Decl *d) const {
    return std::string(isa<VarDecl>(d) ? "__static__" : "__intern__") +
           ctx.getCUIDHash().str();
  }

  // `_ZL<n><name>I` -> `_Z<n><name>I` for the global static function
  // templates, wherever the name occurs (kGccMangling).
  std::string gccSymbol(std::string symbol) const {
    for (const std::string &name : staticTemplateNames) {
      std::string clang = "_ZL" + std::to_string(name.size()) + name + "I";
      for (size_t at = symbol.find(clang); at != std::string::npos;
           at = symbol.find(clang, at + 1))
        symbol.erase(at + 2, 1);
    }
    return symbol;
  }

  std::string mangledName(GlobalDecl gd) { return mangledName(gd, *mangler); }
  static std::string mangledName(GlobalDecl gd, MangleContext &with) {
    const auto *nd = cast<NamedDecl>(gd.getDecl());
    if (!with.shouldMangleDeclName(nd)) return nd->getName().str();
    std::string out;
    llvm::raw_string_ostream os(out);
    with.mangleName(gd, os);
    return out;
  }

  // "::a::b::name": anonymous and inline namespaces are found through their
  // parent by qualified lookup, so they are skipped.
  static std::string qualifiedName(const NamedDecl *d) {
    std::string out = d->getNameAsString();
    for (const DeclContext *dc = d->getDeclContext(); dc; dc = dc->getParent())
      if (const auto *ns = dyn_cast<NamespaceDecl>(dc))
        if (!ns->isAnonymousNamespace() && !ns->isInline())
          out = ns->getNameAsString() + "::" + out;
    return "::" + out;
  }

  ASTContext &ctx;
  std::optional<bool> perThreadStream; // launchFunction()
  SourceManager &sm;
  Rewriter &rw;
  std::set<unsigned> typeofs; // offsets of `typeof` in the main file
  std::vector<std::pair<unsigned, unsigned>> dropped; // see dropText
  const LoweringOptions &options;
  std::unique_ptr<MangleContext> mangler;
  // The host compiler's names of kernel stubs where they differ from
  // Clang's (kLambdaNumbersPerFunction); null where they do not.
  std::unique_ptr<MangleContext> hostMangler;
  bool gccHost = false; // kGccMangling
  std::set<std::string> staticTemplateNames; // VisitFunctionTemplateDecl
  std::set<const FunctionTemplateDecl *> staticStubTemplates; // made static
  bool usesUnrestrict = false;       // a stub's cast needs kUnrestrict
  std::vector<KernelEntry> kernels;
  std::set<std::string> seenKernels;
  std::set<FunctionTemplateDecl *> kernelTemplates;
  std::vector<VarEntry> vars;
  // Each __managed__ variable (canonical declaration): the qualified name of
  // its host pointer.
  std::map<const VarDecl *, std::string> managedPointers;
  std::set<SourceLocation::UIntTy> rewrittenAttrs;
  bool hadError = false;
  bool bodyNotFound = false;
};

// The device code in the host object, put there by the assembler: the fat
// binary in .nv_fatbin with its __fatBinC_Wrapper_t {magic, version 1, data,
// NULL} in .nvFatBinSegment, where cuobjdump and the CUDA runtime look (what
// lib/Offload/HostObject.cpp emits for Clang); with -rdc, the unit's images
// back to back in .llvm.offloading, excluded from linked files, of the
// section type (SHT_LLVM_OFFLOADING, written as a number, which GNU as and
// LLVM's assembler both read) by which the device link finds them. The
// wrapper is local to the object: the unit's table refers to it by name.
std::string embeddedDeviceCode(const LoweringOptions &options) {
  const std::string head = "\n// mycc: the device code\n";
  // The bytes: .incbin of each file, or with deviceCodeLater none (the
  // embed-device-code job fills the section).
  auto bytesOf = [](const std::vector<std::string> &files) {
    std::string text;
    for (const std::string &file : files)
      text += ".incbin " + asmFileNameInC(file) + "\\n";
    return text;
  };
  bool later = options.deviceCodeLater;
  if (!options.rdcImages.empty() || (later && options.rdc && options.deviceLto)) {
    std::string asmText = ".pushsection " + std::string(kOffloadingSection) +
                          ",\\\"e\\\",@" +
                          std::to_string(llvm::ELF::SHT_LLVM_OFFLOADING) +
                          "\\n.balign 8\\n" + bytesOf(options.rdcImages);
    return head + "__asm__(\"" + asmText + ".popsection\\n\");\n";
  }
  // One fat binary: the unit's own, or nvcc's relocatable one in
  // __nv_relfatbin with its wrapper global as __fatbinwrap<module id>
  // (nvlink's registration refers to it by that name). Its bytes come by
  // .incbin, later, or with fatbinText from the bundle's text the unit
  // includes (InternalTools.cpp, fatbinAsmText).
  bool relocatable = options.rdc && !options.deviceLto;
  const std::string &incbin = relocatable ? options.relfatbin : options.fatbin;
  if (incbin.empty() && options.fatbinText.empty() && !later) return {};
  std::string section =
      relocatable ? kRelocatableFatbinSection : kFatbinSection;
  std::string label =
      relocatable ? ".L__mycc_relfatbin_data" : ".L__mycc_fatbin_data";
  std::string wrapper =
      relocatable ? "__fatbinwrap" + std::string(kModuleIdPrefix) + options.unitId
                  : std::string(kFatbinWrapperSymbol);
  std::string segment =
      ".pushsection .nvFatBinSegment,\\\"aw\\\",@progbits\\n.balign 8\\n";
  if (relocatable)
    segment += ".globl " + wrapper + "\\n.type " + wrapper +
               ",@object\\n.size " + wrapper + ",24\\n";
  segment += wrapper + ":\\n.long 0x466243b1\\n.long 1\\n.quad " + label +
             "\\n.quad 0\\n.popsection\\n";
  if (!options.fatbinText.empty())
    return head + "#define __MYCC_FATBIN_SECTION \"" + section +
           "\"\n#define __MYCC_FATBIN_LABEL \"" + label + "\"\n#include \"" +
           llvm::sys::path::filename(options.fatbinText).str() + "\"\n" +
           "__asm__(\"" + segment + "\");\n";
  return head + "__asm__(\".pushsection " + section +
         ",\\\"a\\\",@progbits\\n.balign 8\\n" + label + ":\\n" +
         (later ? "" : bytesOf({incbin})) + ".popsection\\n" + segment +
         "\");\n";
}

// The host compiler takes the file named by the first line of a
// preprocessed unit, when that is a line marker, for its main file; else the
// unit's own (temporary) name. g++ checks some rules only outside the main
// file: -Wsubobject-linkage (an error under CCCL's -Werror) for a class
// template of a header instantiated with a lambda of the .cu. The lowered
// unit starts with the marker of the .cu (the first one of the host
// compiler's preprocessed text), so that the host compiler reads it as it
// would read the .cu itself.
std::string firstLineMarker(llvm::StringRef text) {
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    if (line.starts_with("# 0 \"") || line.starts_with("# 1 \""))
      return line.str() + "\n";
    if (!line.trim().empty() && !line.starts_with("#")) break;
    text = rest;
  }
  return {};
}

class LoweringConsumer : public ASTConsumer {
public:
  LoweringConsumer(CompilerInstance &ci, const std::string &sourceName,
                   const LoweringOptions &options, LoweredUnit &out,
                   bool &missedSkippedBody)
      : ci(ci), sourceName(sourceName), options(options), out(out),
        missedSkippedBody(missedSkippedBody) {}

  // For the host compiler, the parse skips the bodies it will not get
  // (hostNeedsNoBody; the parse runs with SkipFunctionBodies): kernels and
  // __device__ functions, and with them the instantiations only device
  // code needs. The device side parses them, and reports their errors.
  bool shouldSkipFunctionBody(Decl *d) override {
    const FunctionDecl *fd = d->getAsFunction();
    if (!options.forHostCompiler || !fd || !hostNeedsNoBody(fd)) return false;
    // In the unit's own text, whatever its line markers say.
    const SourceManager &sm = ci.getSourceManager();
    SourceLocation at = fd->getLocation();
    return at.isFileID() && sm.getFileID(at) == sm.getMainFileID();
  }

  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ci.getDiagnostics().hasErrorOccurred()) return;
    Rewriter rw(ctx.getSourceManager(), ctx.getLangOpts());
    Lowerer lowerer(ctx, rw, options);
    lowerer.TraverseDecl(ctx.getTranslationUnitDecl());
    lowerer.collectSpecializations();
    lowerer.finishSpellings();
    if (lowerer.missedSkippedBody()) {
      missedSkippedBody = true;
      return;
    }
    if (lowerer.failed()) return;
    FileID main = ctx.getSourceManager().getMainFileID();
    std::string head, tail = lowerer.registrationTable(sourceName);
    if (options.forHostCompiler) {
      // As nvcc's lowered units: the CUDA attributes stay in the text, and
      // the host compiler is told not to warn about them. Like cudafe++'s
      // output, the unit also turns off the host compiler's warnings about
      // unused local typedefs and variables (nvcc's own front end warns
      // about unused variables instead, #177-D): CUB's templates declare
      // typedefs they do not use, an error under CCCL's -Werror otherwise.
      // cudafe++ writes the host code anew from its own representation,
      // every operand of a mixed-precedence expression in parentheses and
      // every empty body braced, so the host compiler never warns of how
      // the source wrote them (-Wparentheses, -Wdangling-else,
      // -Wlogical-not-parentheses, -Wempty-body); this text is the source's
      // own, and the unit turns those off instead (CUB's test_util.h:
      // `UnsignedBits(1) << (sizeof(UnsignedBits) * 8) - 1`, an error
      // under CCCL's -Werror).
      head = firstLineMarker(ctx.getSourceManager().getBufferData(main)) +
             "#pragma GCC diagnostic ignored \"-Wunused-local-typedefs\"\n"
             "#pragma GCC diagnostic ignored \"-Wattributes\"\n"
             "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
             "#pragma GCC diagnostic ignored \"-Wparentheses\"\n"
             "#pragma GCC diagnostic ignored \"-Wdangling-else\"\n"
             "#pragma GCC diagnostic ignored \"-Wlogical-not-parentheses\"\n"
             "#pragma GCC diagnostic ignored \"-Wempty-body\"\n";
      tail += embeddedDeviceCode(options);
    } else if (!options.relfatbin.empty()) {
      tail += embeddedDeviceCode(options); // Clang assembles it the same way
    }
    rw.InsertTextBefore(ctx.getSourceManager().getLocForStartOfFile(main),
                        head + abiPrelude() + lowerer.headDeclarations());
    rw.InsertTextAfter(ctx.getSourceManager().getLocForEndOfFile(main), tail);
    const auto &buffer = rw.getEditBuffer(main);
    out.text.assign(buffer.begin(), buffer.end());
    out.kernels = lowerer.numKernels();
    out.variables = lowerer.numVars();
  }

private:
  CompilerInstance &ci;
  const std::string &sourceName;
  const LoweringOptions &options;
  LoweredUnit &out;
  bool &missedSkippedBody;
};

class LoweringAction : public ASTFrontendAction {
public:
  LoweringAction(const std::string &sourceName, const LoweringOptions &options,
                 LoweredUnit &out, SourceRecovery *recovery)
      : sourceName(sourceName), options(options), out(out),
        recovery(recovery) {}

  // Whether a body the parse skipped could not be found in the text.
  bool missedSkippedBody() const { return missed; }

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 llvm::StringRef) override {
    auto lowering = std::make_unique<LoweringConsumer>(ci, sourceName,
                                                       options, out, missed);
    if (!recovery) return lowering;
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    consumers.push_back(recovery->createConsumer(ci, /*warn=*/false));
    consumers.push_back(std::move(lowering));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

private:
  const std::string &sourceName;
  const LoweringOptions &options;
  LoweredUnit &out;
  SourceRecovery *recovery;
  bool missed = false;
};

} // namespace

// Clang checks __launch_bounds__'s third argument (maxclusterrank) against
// the GPU being compiled for, and the host side has none: every kernel with
// one drew "maxclusterrank requires sm_90 or higher, CUDA arch provided:
// unknown, ignoring" from the host parse. The attribute means nothing on the
// host (the lowering removes it); the device side, which knows the GPU, still
// warns where it applies.
static void silenceDeviceOnlyWarnings(clang::DiagnosticsEngine &diags) {
  diags.setSeverity(clang::diag::warn_cuda_maxclusterrank_sm_90,
                    clang::diag::Severity::Ignored, clang::SourceLocation());
}

// Clang's rules that CUDA's headers, read as nvcc's front end reads them,
// break: a __host__ __device__ redeclaration of a __host__ C library
// function (where mycc/host.h's region does not cover the first
// declaration) and std::abs/sin/... redeclared without libstdc++'s
// constexpr. Each is one function to nvcc's front end and to the host
// compiler; Clang keeps the first declaration. Errors of the user's code of
// these kinds still come from the device side, which parses the same code.
static void configureDiagnostics(clang::DiagnosticsEngine &diags,
                                 const LoweringOptions &options) {
  silenceDeviceOnlyWarnings(diags);
  if (!options.forHostCompiler) return;
  for (unsigned id : {clang::diag::err_cuda_ovl_target,
                      clang::diag::err_constexpr_redecl_mismatch})
    diags.setSeverity(id, clang::diag::Severity::Ignored,
                      clang::SourceLocation());
}

// What the lowered unit must not hand the host compiler: CUDA's attributes,
// as host_defines.h spells them (nvcc's lowered units have none left
// either; the host compiler ignores most, with a warning, and rejects them
// on deduction guides).
constexpr const char *kNotForHostCompiler[] = {
    "__attribute__((host))", "__attribute__((device))",
    "__attribute__((global))", "__attribute__((shared))",
    "__attribute__((constant))", "__attribute__((managed))",
    "__attribute__((device_builtin))", "__attribute__((cudart_builtin))",
    "__attribute__((device_builtin_texture_type))",
    "__attribute__((device_builtin_surface_type))",
    "__attribute__((grid_constant))", "__attribute__((nv_weak))"};

// Pragmas for the CUDA front end, not the host compiler (which would warn
// about each under -Wall): nvcc's front end consumes them and its lowered
// unit has none; mycc/host.h's pragma for Clang. Other pragmas (omp, pack,
// unroll, GCC ...) stay, as in nvcc's lowered unit.
constexpr llvm::StringLiteral kFrontEndPragmas[] = {
    "nv_diag_suppress", "nv_diag_warning", "nv_diag_error",
    "nv_diag_remark",   "nv_diag_once",    "nv_diag_default",
    "nv_diagnostic",    "diag_suppress",   "diag_warning",
    "diag_error",       "diag_remark",     "diag_once",
    "diag_default",     "nv_exec_check_disable", "hd_warning_disable",
    "clang force_cuda_host_device"};

static bool isFrontEndPragma(llvm::StringRef line) {
  line = line.ltrim();
  if (!line.consume_front("#")) return false;
  line = line.ltrim();
  if (!line.consume_front("pragma")) return false;
  line = line.ltrim();
  for (llvm::StringRef name : kFrontEndPragmas)
    if (line.starts_with(name) &&
        (line.size() == name.size() || !llvm::isAlnum(line[name.size()]) &&
                                           line[name.size()] != '_'))
      return true;
  return false;
}

// The host compiler's spelling of the lowered unit: HostCompilerText's
// changes undone, kNotForHostCompiler and kFrontEndPragmas erased, each
// within its line, so that the line markers stay right.
static std::string forHostCompiler(const HostCompilerText &spelling,
                                   const std::string &lowered) {
  std::string text = spelling.forHostCompiler(lowered);
  // One pass per spelling, copying what stays: the CUDA headers alone hold
  // thousands of these, and erasing each in place moved the rest of a unit
  // of several megabytes every time (a third of CUTLASS's lowering time).
  for (const char *needle : kNotForHostCompiler) {
    size_t length = std::char_traits<char>::length(needle);
    size_t at = text.find(needle);
    if (at == std::string::npos) continue;
    std::string kept;
    kept.reserve(text.size());
    size_t from = 0;
    for (; at != std::string::npos; at = text.find(needle, from)) {
      kept.append(text, from, at - from);
      from = at + length;
    }
    kept.append(text, from, std::string::npos);
    text = std::move(kept);
  }
  std::string out;
  out.reserve(text.size());
  llvm::StringRef rest = text;
  while (!rest.empty()) {
    size_t eol = rest.find('\n');
    llvm::StringRef line = rest.substr(0, eol);
    if (!isFrontEndPragma(line)) out += line;
    if (eol == llvm::StringRef::npos) break;
    out += '\n';
    rest = rest.substr(eol + 1);
  }
  return out;
}

// Gives Clang the unit's text in Clang's spelling (HostCompilerText), in
// place of the file the instance would read.
static bool remapInClangSpelling(clang::CompilerInstance &instance,
                                 HostCompilerText &spelling,
                                 frontend::InMemoryFile &unit) {
  clang::DiagnosticsEngine &diags = instance.getDiagnostics();
  const auto &inputs = instance.getFrontendOpts().Inputs;
  if (inputs.size() != 1 || !inputs[0].isFile()) {
    diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                       "lowering for the host compiler "
                                       "needs exactly one input file"));
    return false;
  }
  std::string name = inputs[0].getFile().str();
  auto file = llvm::MemoryBuffer::getFile(name);
  if (!file) {
    diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                       "cannot read '%0': %1"))
        << name << file.getError().message();
    return false;
  }
  unit.name = name;
  unit.text = spelling.forClang((*file)->getBuffer().str());
  instance.getPreprocessorOpts().addRemappedFile(
      name, llvm::MemoryBuffer::getMemBufferCopy(unit.text, name).release());
  return true;
}

// A new instance of `instance`'s invocation, to lower the unit again:
// `files` in place of the files they name (with `replaceRemapped`, in place
// of the remapped files too, whose buffers the first parse's source
// manager owned), reporting to the same diagnostics client.
static std::unique_ptr<CompilerInstance>
instanceAgain(CompilerInstance &instance, const LoweringOptions &options,
              const std::vector<frontend::InMemoryFile> &files,
              bool replaceRemapped) {
  auto invocation =
      std::make_shared<CompilerInvocation>(instance.getInvocation());
  if (replaceRemapped) invocation->getPreprocessorOpts().clearRemappedFiles();
  for (const auto &f : files)
    invocation->getPreprocessorOpts().addRemappedFile(
        f.name, llvm::MemoryBuffer::getMemBufferCopy(f.text, f.name).release());
  auto again = std::make_unique<CompilerInstance>(invocation);
  again->createDiagnostics(instance.getDiagnostics().getClient(),
                           /*ShouldOwnClient=*/false);
  configureDiagnostics(again->getDiagnostics(), options);
  return again;
}

// The lowering, run again on the rewritten text when SourceRecovery.h rewrote
// __shared__ declarations Clang rejected.
// `missedSkippedBody` tells whether a body the parse skipped could not be
// found in the text (the unit is then lowered with every body parsed).
static bool lowerWithRecovery(clang::CompilerInstance &instance,
                              const std::string &sourceName,
                              const LoweringOptions &options,
                              LoweredUnit &out, bool &missedSkippedBody) {
  SourceRecovery recovery;
  recovery.watch(instance);
  LoweringAction action(sourceName, options, out, &recovery);
  bool ok = instance.ExecuteAction(action);
  missedSkippedBody = action.missedSkippedBody();
  std::vector<frontend::InMemoryFile> rewritten;
  if (!recovery.finish(rewritten) || missedSkippedBody)
    return ok && !instance.getDiagnostics().hasErrorOccurred() &&
           !out.text.empty();

  // Lower the rewritten unit, with the same options and diagnostics (for the
  // host compiler, the rewritten text replaces forClang's).
  auto retry =
      instanceAgain(instance, options, rewritten, options.forHostCompiler);
  out = LoweredUnit();
  LoweringAction again(sourceName, options, out, nullptr);
  ok = retry->ExecuteAction(again);
  missedSkippedBody = again.missedSkippedBody();
  return ok && !retry->getDiagnostics().hasErrorOccurred() && !out.text.empty();
}

bool lowerHostUnit(clang::CompilerInstance &instance,
                   const std::string &sourceName,
                   const LoweringOptions &options, LoweredUnit &out) {
  configureDiagnostics(instance.getDiagnostics(), options);
  HostCompilerText spelling;
  frontend::InMemoryFile unit;
  if (options.forHostCompiler &&
      !remapInClangSpelling(instance, spelling, unit))
    return false;
  instance.getFrontendOpts().SkipFunctionBodies = options.forHostCompiler;
  bool missedSkippedBody = false;
  bool ok = lowerWithRecovery(instance, sourceName, options, out,
                              missedSkippedBody);
  if (missedSkippedBody) {
    // A skipped body the text did not show where expected: the unit again,
    // every body parsed.
    auto full = instanceAgain(instance, options, {unit},
                              /*replaceRemapped=*/true);
    full->getFrontendOpts().SkipFunctionBodies = false;
    out = LoweredUnit();
    ok = lowerWithRecovery(*full, sourceName, options, out, missedSkippedBody);
  }
  if (!ok) return false;
  if (options.forHostCompiler) out.text = forHostCompiler(spelling, out.text);
  return true;
}

std::string asmFileNameInC(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == '"' || c == '\\') out += "\\\\\\";
    out += c;
  }
  return "\\\"" + out + "\\\"";
}

std::string deviceLinkUnit(const std::vector<std::string> &unitIds,
                           const std::string &name) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << abiPrelude() << "\n// mycc: device link\n";
  os << "extern \"C\" {\n";
  os << "extern const char " << kFatbinWrapperSymbol
     << "[] __attribute__((visibility(\"hidden\")));\n";
  if (!unitIds.empty()) {
    std::string first = kLinkedImagePrefix + unitIds.front();
    os << "__attribute__((visibility(\"hidden\"))) extern const struct "
          "__mycc_linked_image "
       << first << ";\n";
    os << "const struct __mycc_linked_image " << first << " = {"
       << MYCC_ABI_VERSION << ", " << kFatbinWrapperSymbol << ", "
       << unitIds.size() << ", \"";
    os.write_escaped(name);
    os << "\"};\n";
    for (size_t i = 1; i < unitIds.size(); ++i)
      os << "extern const struct __mycc_linked_image " << kLinkedImagePrefix
         << unitIds[i] << " __attribute__((alias(\"" << first
         << "\"), visibility(\"hidden\")));\n";
    // References to the units: the host link takes each of them.
    for (const std::string &id : unitIds)
      os << "__attribute__((visibility(\"hidden\"))) extern const char "
         << kUnitSymbolPrefix << id << "[];\n";
    os << "__attribute__((used)) static const void *const __mycc_units[] = {";
    for (size_t i = 0; i < unitIds.size(); ++i)
      os << (i ? ", " : "") << kUnitSymbolPrefix << unitIds[i];
    os << "};\n";
  }
  os << "}\n";
  return out;
}

} // namespace mycc::lowering
