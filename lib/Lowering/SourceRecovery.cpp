#include "SourceRecovery.h"

#include "Frontend.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTMutationListener.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticCategories.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>
#include <set>

namespace mycc::lowering {

using namespace clang;

namespace {

// How nvcc reports warning #20054 at a point of the unit.
enum class NvLevel { Warning, Ignored, Error };

// One `#pragma nv_diag_*` naming warning 20054, or `#pragma nv_diagnostic
// push|pop`, in the order the preprocessor met them.
struct PragmaEvent {
  enum Kind { Set, Push, Pop } kind = Set;
  SourceLocation loc;
  NvLevel level = NvLevel::Warning; // for Set
};

// A diagnostic held back during the first parse.
struct HeldDiagnostic {
  DiagnosticsEngine::Level level;
  unsigned id;
  SourceLocation loc;
  std::string message;
  std::vector<CharSourceRange> ranges;
  std::vector<FixItHint> fixIts;
};

const char kNvccWarning[] =
    "dynamic initialization is not supported for a function-scope static "
    "__shared__ variable within a __device__/__global__ function";

// nvcc's warning as a Clang diagnostic in -Wcuda-compat, so that -w, -Werror
// and -Wno-cuda-compat apply to it as to Clang's own warnings; an error where
// `#pragma nv_diag_error` says so.
unsigned nvccDiagID(DiagnosticsEngine &diags, NvLevel level) {
  if (level == NvLevel::Error)
    return diags.getDiagnosticIDs()->getCustomDiagID(
        DiagnosticIDs::CustomDiagDesc(diag::Severity::Error, kNvccWarning,
                                      DiagnosticIDs::CLASS_ERROR));
  return diags.getDiagnosticIDs()->getCustomDiagID(
      DiagnosticIDs::CustomDiagDesc(diag::Severity::Warning, kNvccWarning,
                                    DiagnosticIDs::CLASS_WARNING,
                                    /*ShowInSystemHeader=*/false,
                                    /*ShowInSystemMacro=*/false,
                                    diag::Group::CudaCompat));
}

// Names of the storage a rewrite declares; never warned about themselves.
const char kStoragePrefix[] = "__mycc_shared_";

} // namespace

struct SourceRecovery::Impl {
  DiagnosticsEngine *diags = nullptr;
  DiagnosticConsumer *original = nullptr;
  std::unique_ptr<DiagnosticConsumer> ownedOriginal;
  bool ownsOriginal = false;
  std::unique_ptr<DiagnosticConsumer> holder;
  const LangOptions *langOpts = nullptr;

  std::vector<HeldDiagnostic> held;
  std::set<SourceLocation> errorLocs; // where Clang said err_shared_var_init
  std::set<SourceLocation> asmEscapes; // where Clang said err_asm_invalid_escape
  // Where Clang said err_ref_bad_target at once (not deferred).
  std::set<SourceLocation> wrongSideRefs;
  std::vector<frontend::InMemoryFile> rewritten;
  // nvcc's warnings about rewritten declarations, at the first parse's
  // locations (the rewrite moves the names).
  std::vector<std::pair<SourceLocation, NvLevel>> warnings;
  bool failed = false;
};

namespace {

class Holder : public DiagnosticConsumer {
public:
  explicit Holder(SourceRecovery::Impl &impl) : impl(impl) {}

  void BeginSourceFile(const LangOptions &lo, const Preprocessor *) override {
    impl.langOpts = &lo;
  }

  void HandleDiagnostic(DiagnosticsEngine::Level level,
                        const Diagnostic &info) override {
    // Held as text: a Clang-only warning is recognised here, not when
    // replayed.
    if (clangOnly.drop(level, info)) return;
    DiagnosticConsumer::HandleDiagnostic(level, info); // counts errors
    HeldDiagnostic d;
    d.level = level;
    d.id = info.getID();
    d.loc = info.getLocation();
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    d.message = text.str().str();
    d.ranges.assign(info.getRanges().begin(), info.getRanges().end());
    d.fixIts.assign(info.getFixItHints().begin(), info.getFixItHints().end());
    impl.held.push_back(std::move(d));
    if (info.getID() == diag::err_shared_var_init && info.getLocation().isValid())
      impl.errorLocs.insert(info.getLocation());
    if (info.getID() == diag::err_asm_invalid_escape &&
        info.getLocation().isValid())
      impl.asmEscapes.insert(info.getLocation());
    if (info.getID() == diag::err_ref_bad_target && info.getLocation().isValid())
      impl.wrongSideRefs.insert(info.getLocation());
  }

private:
  SourceRecovery::Impl &impl;
  frontend::ClangOnlyWarnings clangOnly;
};

using PragmaLog = std::vector<PragmaEvent>;

// Records nvcc's diagnostic pragmas about warning 20054. The pragmas are
// handled (accepted and ignored) elsewhere; their words are read here from
// the source.
class PragmaWatcher : public PPCallbacks {
public:
  PragmaWatcher(std::shared_ptr<PragmaLog> log, SourceManager &sm)
      : log(std::move(log)), sm(sm) {}

  void PragmaDirective(SourceLocation loc,
                       PragmaIntroducerKind introducer) override {
    std::string text;
    if (!pragmaText(loc, introducer, text)) return;
    llvm::SmallVector<llvm::StringRef> words;
    llvm::StringRef(text).split(words, ' ', -1, false);
    if (words.empty()) return;
    PragmaEvent e;
    e.loc = loc;
    if (words[0] == "nv_diagnostic") {
      if (words.size() < 2) return;
      if (words[1] == "push") e.kind = PragmaEvent::Push;
      else if (words[1] == "pop") e.kind = PragmaEvent::Pop;
      else return;
      log->push_back(e);
      return;
    }
    std::optional<NvLevel> level =
        llvm::StringSwitch<std::optional<NvLevel>>(words[0])
            .Case("nv_diag_suppress", NvLevel::Ignored)
            .Case("nv_diag_remark", NvLevel::Ignored) // remarks are not shown
            .Case("nv_diag_warning", NvLevel::Warning)
            .Case("nv_diag_default", NvLevel::Warning)
            .Case("nv_diag_once", NvLevel::Warning)
            .Case("nv_diag_error", NvLevel::Error)
            .Default(std::nullopt);
    if (!level) return;
    for (size_t i = 1; i < words.size(); ++i) {
      llvm::StringRef w = words[i];
      w.consume_back("-D");
      if (w == "static_var_with_dynamic_init" || w == "20054") {
        e.level = *level;
        log->push_back(e);
        return;
      }
    }
  }

private:
  // The pragma's words after `pragma`, separated by single spaces (commas
  // count as spaces).
  bool pragmaText(SourceLocation loc, PragmaIntroducerKind introducer,
                  std::string &out) {
    SourceLocation at = sm.getSpellingLoc(loc);
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(sm.getFileID(at), &invalid);
    if (invalid) return false;
    llvm::StringRef rest = buffer.substr(sm.getFileOffset(at));
    std::string raw;
    if (introducer == PIK_HashPragma) {
      if (!rest.consume_front("#")) return false;
      rest = rest.ltrim(" \t");
      if (!rest.consume_front("pragma")) return false;
      // The directive ends at a newline that is not escaped.
      for (size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '\\' && i + 1 < rest.size() && rest[i + 1] == '\n') {
          ++i;
          continue;
        }
        if (rest[i] == '\n') break;
        raw += rest[i];
      }
    } else if (introducer == PIK__Pragma) {
      if (!rest.consume_front("_Pragma")) return false;
      rest = rest.ltrim(" \t");
      if (!rest.consume_front("(")) return false;
      rest = rest.ltrim(" \t");
      if (!rest.consume_front("\"")) return false;
      for (size_t i = 0; i < rest.size() && rest[i] != '"'; ++i) {
        if (rest[i] == '\\' && i + 1 < rest.size()) ++i;
        raw += rest[i];
      }
    } else {
      return false;
    }
    for (char c : raw) {
      bool space = c == ' ' || c == '\t' || c == ',' || c == '\r';
      if (!space) out += c;
      else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    return true;
  }

  std::shared_ptr<PragmaLog> log;
  SourceManager &sm;
};

// The pragmas' verdict at `loc` (events before it, in translation-unit order).
NvLevel levelAt(const PragmaLog &log, SourceManager &sm, SourceLocation loc) {
  NvLevel level = NvLevel::Warning;
  std::vector<NvLevel> stack;
  for (const PragmaEvent &e : log) {
    if (!sm.isBeforeInTranslationUnit(e.loc, loc)) break;
    switch (e.kind) {
    case PragmaEvent::Set: level = e.level; break;
    case PragmaEvent::Push: stack.push_back(level); break;
    case PragmaEvent::Pop:
      if (!stack.empty()) {
        level = stack.back();
        stack.pop_back();
      }
      break;
    }
  }
  return level;
}

// Whether default construction of `record` runs code, as nvcc sees it: not
// for a trivial or constexpr constructor (a constant initialisation, e.g.
// default member initialisers), nor for an empty one (CUDA's definition: no
// parameters, an empty body, no virtual functions, members and bases with
// empty constructors).
bool constructorRuns(const CXXRecordDecl *record) {
  record = record->getDefinition();
  if (!record || record->hasTrivialDefaultConstructor()) return false;
  const CXXConstructorDecl *ctor = nullptr;
  for (const CXXConstructorDecl *c : record->ctors())
    if (c->isDefaultConstructor()) ctor = c;
  if (ctor ? ctor->isConstexpr()
           : record->defaultedDefaultConstructorIsConstexpr())
    return false;
  if (record->isDynamicClass() ||
      (ctor && ctor->isUserProvided() && !ctor->hasTrivialBody()))
    return true;
  if (ctor && ctor->isUserProvided())
    for (const CXXCtorInitializer *init : ctor->inits())
      if (init->isWritten()) return true;
  for (const CXXBaseSpecifier &base : record->bases())
    if (const auto *b = base.getType()->getAsCXXRecordDecl())
      if (constructorRuns(b)) return true;
  for (const FieldDecl *field : record->fields()) {
    if (field->hasInClassInitializer()) return true;
    QualType type = record->getASTContext().getBaseElementType(field->getType());
    if (const auto *f = type->getAsCXXRecordDecl())
      if (constructorRuns(f)) return true;
  }
  return false;
}

// Whether destruction runs code: not for a trivial destructor, nor for an
// empty one (an empty body, no virtual functions, members and bases with
// empty destructors).
bool destructorRuns(const CXXRecordDecl *record) {
  record = record->getDefinition();
  if (!record || record->hasTrivialDestructor()) return false;
  if (record->isDynamicClass()) return true;
  if (const CXXDestructorDecl *dtor = record->getDestructor())
    if (dtor->isUserProvided() && !dtor->hasTrivialBody()) return true;
  for (const CXXBaseSpecifier &base : record->bases())
    if (const auto *b = base.getType()->getAsCXXRecordDecl())
      if (destructorRuns(b)) return true;
  for (const FieldDecl *field : record->fields()) {
    QualType type = record->getASTContext().getBaseElementType(field->getType());
    if (const auto *f = type->getAsCXXRecordDecl())
      if (destructorRuns(f)) return true;
  }
  return false;
}

// nvcc's condition for warning #20054 (measured with CUDA 13): default
// construction or destruction of the variable's class (or array element
// class) would run code, e.g. cuda::barrier's destructor or a constructor
// that sets a member. nvcc runs neither.
bool nvccWarns(const VarDecl *vd) {
  QualType type = vd->getASTContext().getBaseElementType(vd->getType());
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || record->isDependentContext()) return false;
  return constructorRuns(record) || destructorRuns(record);
}

bool isFunctionScopeShared(const VarDecl *vd) {
  return vd->isLocalVarDecl() && vd->hasAttr<CUDASharedAttr>() &&
         !vd->hasExternalStorage();
}

// Rewrites the declarations Clang rejected (first parse), and reports nvcc's
// warning about those it accepted (on the device side).
class SharedVarConsumer : public ASTConsumer,
                          public ASTMutationListener,
                          public RecursiveASTVisitor<SharedVarConsumer> {
public:
  SharedVarConsumer(SourceRecovery::Impl &impl, CompilerInstance &ci,
                    bool warn)
      : impl(impl), warn(warn), pragmas(std::make_shared<PragmaLog>()) {
    if (warn && ci.hasPreprocessor())
      ci.getPreprocessor().addPPCallbacks(
          std::make_unique<PragmaWatcher>(pragmas, ci.getSourceManager()));
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  void Initialize(ASTContext &context) override { ctx = &context; }
  ASTMutationListener *GetASTMutationListener() override {
    return warn ? this : nullptr;
  }

  // Clang accepts some variables nvcc warns about (arrays: Clang does not
  // check their destructor). Each is reported when first used.
  void DeclarationMarkedUsed(const Decl *d) override {
    const auto *vd = dyn_cast<VarDecl>(d);
    if (!vd || !ctx || !isFunctionScopeShared(vd) ||
        vd->getName().starts_with(kStoragePrefix) || !nvccWarns(vd))
      return;
    SourceLocation loc = vd->getLocation();
    if (!loc.isValid() || !warned.insert(loc).second) return;
    SourceManager &sm = ctx->getSourceManager();
    NvLevel level = levelAt(*pragmas, sm, loc);
    if (level == NvLevel::Ignored) return;
    DiagnosticsEngine &diags = ctx->getDiagnostics();
    diags.Report(loc, nvccDiagID(diags, level));
  }

  void HandleTranslationUnit(ASTContext &context) override {
    // Kind 3 is the device side's.
    bool wrongSide = warn && !impl.wrongSideRefs.empty();
    if (impl.errorLocs.empty() && impl.asmEscapes.empty() && !wrongSide) return;
    Rewriter rw(context.getSourceManager(), context.getLangOpts());
    this->rw = &rw;
    if (!impl.errorLocs.empty())
      TraverseDecl(context.getTranslationUnitDecl());
    SourceManager &sm = context.getSourceManager();
    if (wrongSide) inlineWrongSideCallers(context);
    std::set<SourceLocation> literalsDone;
    for (SourceLocation loc : impl.asmEscapes)
      escapeAsmPercents(rw, sm, context.getLangOpts(), sm.getSpellingLoc(loc),
                        literalsDone);
    for (auto it = rw.buffer_begin(); it != rw.buffer_end(); ++it) {
      OptionalFileEntryRef file = sm.getFileEntryRefForID(it->first);
      if (!file) continue;
      frontend::InMemoryFile f;
      f.name = file->getName().str();
      f.text.assign(it->second.begin(), it->second.end());
      impl.rewritten.push_back(std::move(f));
    }
    if (!warn) return;
    for (SourceLocation loc : warnAt) {
      NvLevel level = levelAt(*pragmas, sm, loc);
      if (level != NvLevel::Ignored) impl.warnings.push_back({loc, level});
    }
  }

  // The template pattern is rewritten; its instantiations (same locations)
  // tell whether nvcc warns.
  bool VisitDeclStmt(DeclStmt *ds) {
    std::vector<VarDecl *> vars;
    bool rejected = false;
    for (Decl *d : ds->decls()) {
      auto *vd = dyn_cast<VarDecl>(d);
      if (!vd || !isFunctionScopeShared(vd)) return true;
      vars.push_back(vd);
      rejected |= impl.errorLocs.count(vd->getLocation()) != 0;
    }
    if (!rejected) return true;
    SourceLocation first = vars.front()->getLocation();
    if (!rewriteDone.count(first) && rewrite(ds, vars))
      rewriteDone.insert(first);
    for (VarDecl *vd : vars)
      if (!vd->getType()->isDependentType() && nvccWarns(vd))
        warnAt.insert(vd->getLocation());
    return true;
  }

private:
  // Kind 3: each __host__ __device__ function that Clang rejected a
  // reference in at once (a definition that is not inline, not a template
  // and not static, so Clang knows it is emitted for the device) is declared
  // `inline` on the device side, where its errors are then deferred until
  // device code uses it and ExecChecks reports nvcc's warning #20011. Without
  // -rdc the device code of a unit is a whole program, so such a function
  // is emitted, as before, exactly where this unit's device code calls it.
  // With -rdc other units may call it: `used` keeps it (a weak definition,
  // which nvlink resolves them to), and ExecChecks counts used functions
  // as emitted.
  void inlineWrongSideCallers(ASTContext &context) {
    SourceManager &sm = context.getSourceManager();
    const LangOptions &lo = context.getLangOpts();
    struct Finder : RecursiveASTVisitor<Finder> {
      SourceManager &sm;
      const std::set<SourceLocation> &refs;
      std::vector<FunctionDecl *> found;
      Finder(SourceManager &sm, const std::set<SourceLocation> &refs)
          : sm(sm), refs(refs) {}
      bool VisitFunctionDecl(FunctionDecl *fd) {
        if (!fd->doesThisDeclarationHaveABody() || fd->isInlined() ||
            fd->isTemplated() || fd->getTemplateSpecializationKind() !=
                                     TSK_Undeclared ||
            !fd->hasAttr<CUDAHostAttr>() || !fd->hasAttr<CUDADeviceAttr>() ||
            fd->getStorageClass() == SC_Static)
          return true;
        SourceRange body = fd->getBody()->getSourceRange();
        for (SourceLocation loc : refs)
          if (sm.isPointWithin(sm.getExpansionLoc(loc),
                               sm.getExpansionLoc(body.getBegin()),
                               sm.getExpansionLoc(body.getEnd()))) {
            found.push_back(fd);
            break;
          }
        return true;
      }
    } finder(sm, impl.wrongSideRefs);
    finder.TraverseDecl(context.getTranslationUnitDecl());
    std::set<SourceLocation> inlined;
    for (FunctionDecl *fd : finder.found) {
      // Before the declaration's specifiers: `HD void f()` with HD a macro
      // starts at the macro's name.
      SourceLocation at = fd->getInnerLocStart();
      if (at.isMacroID()) {
        if (!Lexer::isAtStartOfMacroExpansion(at, sm, lo, &at)) continue;
      }
      if (!at.isFileID() || !inlined.insert(at).second) continue;
      // On lines of their own, then the line again from a #line and as
      // many spaces as it had before `at`: every later token keeps its
      // line and column in diagnostics.
      PresumedLoc presumed = sm.getPresumedLoc(at);
      if (presumed.isInvalid()) continue;
      std::string text = lo.GPURelocatableDeviceCode
                             ? "inline __attribute__((used))\n"
                             : "inline\n";
      text += "#line " + std::to_string(presumed.getLine()) + " \"";
      for (char c : llvm::StringRef(presumed.getFilename())) {
        if (c == '\\' || c == '"') text += '\\';
        text += c;
      }
      text += "\"\n" + std::string(sm.getSpellingColumnNumber(at) - 1, ' ');
      rw->InsertTextBefore(at, text);
    }
  }

  // The string literal at `loc` (and those concatenated after it) with
  // each `%` that begins no operand doubled.
  static void escapeAsmPercents(Rewriter &rw, SourceManager &sm,
                                const LangOptions &lo, SourceLocation loc,
                                std::set<SourceLocation> &done) {
    if (!loc.isFileID()) return;
    SourceLocation tok = Lexer::GetBeginningOfToken(loc, sm, lo);
    while (tok.isValid() && tok.isFileID()) {
      Token t;
      if (Lexer::getRawToken(tok, t, sm, lo, /*IgnoreWhiteSpace=*/true) ||
          !t.is(tok::string_literal))
        return;
      if (done.insert(t.getLocation()).second) {
        llvm::StringRef text(sm.getCharacterData(t.getLocation()),
                             t.getLength());
        std::string out = escapedAsmString(text);
        if (out != text) rw.ReplaceText(t.getLocation(), t.getLength(), out);
      }
      tok = t.getEndLoc();
    }
  }

  static std::string escapedAsmString(llvm::StringRef text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
        continue;
      }
      if (c != '%') continue;
      char next = i + 1 < text.size() ? text[i + 1] : '\0';
      char after = i + 2 < text.size() ? text[i + 2] : '\0';
      bool operand = llvm::isDigit(next) || next == '[' ||
                     (llvm::isAlpha(next) && (llvm::isDigit(after) || after == '['));
      if (llvm::StringRef("%={|}").contains(next) && next) {
        out += text[++i];
        continue;
      }
      if (!operand) out += '%';
    }
    return out;
  }

  // Default-initialised: no initialiser written.
  static bool defaultInitialised(const VarDecl *vd) {
    const Expr *init = vd->getInit();
    if (!init) return true; // a dependent type: initialised on instantiation
    const auto *construct = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
    return construct && construct->getNumArgs() == 0 &&
           !construct->isListInitialization() &&
           construct->getParenOrBraceRange().isInvalid();
  }

  // `text` without its line markers (`# <line> "file" flags` on a line of
  // their own); the last one in `last`.
  static std::string withoutLineMarkers(llvm::StringRef text,
                                        std::string *last) {
    std::string out;
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      bool lineEnds = rest.data() != nullptr && line.size() < text.size();
      llvm::StringRef trimmed = line.ltrim();
      bool marker = trimmed.consume_front("#") &&
                    !trimmed.ltrim().empty() &&
                    llvm::isDigit(trimmed.ltrim().front());
      if (marker) {
        if (last) *last = line.trim().str();
      } else {
        out += line.str();
        if (lineEnds) out += '\n';
      }
      text = lineEnds ? rest : llvm::StringRef();
    }
    return out;
  }

  // `<specifiers> T name1 <attributes>, name2[N] <attributes>, ...;`: each
  // declarator is a name with array bounds, none has an initialiser, and the
  // declaration is not written by a macro.
  bool rewrite(DeclStmt *ds, const std::vector<VarDecl *> &vars) {
    SourceManager &sm = ctx->getSourceManager();
    const LangOptions &lo = ctx->getLangOpts();
    for (VarDecl *vd : vars)
      if (vd->getName().empty() || !defaultInitialised(vd) ||
          !vd->getTypeSourceInfo() || !vd->getLocation().isFileID())
        return false;
    SourceLocation begin = sm.getExpansionRange(ds->getBeginLoc()).getBegin();
    SourceLocation semi = sm.getExpansionRange(ds->getEndLoc()).getEnd();
    SourceLocation typeBegin = sm.getExpansionRange(
        vars.front()->getTypeSourceInfo()->getTypeLoc().getBeginLoc()).getBegin();
    FileID fid = sm.getFileID(vars.front()->getLocation());
    for (SourceLocation l : {begin, semi, typeBegin})
      if (!l.isFileID() || sm.getFileID(l) != fid) return false;
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(fid, &invalid);
    if (invalid) return false;
    unsigned b = sm.getFileOffset(begin), s = sm.getFileOffset(semi),
             tb = sm.getFileOffset(typeBegin);
    if (!(b <= tb && s < buffer.size() && buffer[s] == ';')) return false;
    llvm::StringRef original = buffer.slice(b, s + 1);
    // The rewrite joins the declaration's lines: no line comment, directive
    // or line splice may be inside. Line markers may: the host compiler's
    // preprocessor writes them around a macro from a system header
    // (`# 29 "x.cu" 3 4` before `__attribute__((shared))`, `# 29 "x.cu"`
    // after it); they are left out of the joined text, and the last one is
    // written again before it so that it and the lines after it keep their
    // file and line.
    std::string lastMarker;
    std::string joined = withoutLineMarkers(original, &lastMarker);
    if (llvm::StringRef(joined).contains("//") ||
        llvm::StringRef(joined).contains('#') ||
        llvm::StringRef(joined).contains("\\\n"))
      return false;
    auto piece = [&](unsigned from, unsigned to) {
      std::string text = withoutLineMarkers(buffer.slice(from, to), nullptr);
      for (char &c : text)
        if (c == '\n' || c == '\r') c = ' ';
      return text;
    };
    auto blank = [&](unsigned from, unsigned to) {
      return from <= to && buffer.slice(from, to).trim().empty();
    };

    std::string prefix = piece(b, tb); // __shared__, static, alignment ...
    std::string spec;                  // the type specifier
    std::string text;
    unsigned at = tb; // where the next declarator may start
    for (size_t i = 0; i < vars.size(); ++i) {
      VarDecl *vd = vars[i];
      SourceLocation name = vd->getLocation();
      SourceLocation typeLast = sm.getExpansionRange(
          vd->getTypeSourceInfo()->getTypeLoc().getEndLoc()).getEnd();
      if (!typeLast.isFileID() || sm.getFileID(name) != fid ||
          sm.getFileID(typeLast) != fid)
        return false;
      unsigned n = sm.getFileOffset(name);
      unsigned nEnd = n + Lexer::MeasureTokenLength(name, sm, lo);
      unsigned tEnd = sm.getFileOffset(typeLast) +
                      Lexer::MeasureTokenLength(typeLast, sm, lo);
      if (n < at || nEnd > s || tEnd > s) return false;
      if (i == 0) {
        spec = piece(tb, n);
        llvm::StringRef trimmed = llvm::StringRef(spec).rtrim();
        if (trimmed.empty() || trimmed.ends_with("*") ||
            trimmed.ends_with("&") || trimmed.ends_with("("))
          return false; // not a plain name after the type
        spec = trimmed.str();
      } else if (!blank(at, n)) {
        return false;
      }
      unsigned declEnd = std::max(nEnd, tEnd);
      std::string tail = tEnd > nEnd ? piece(nEnd, tEnd) : ""; // [N]
      // The declarator's attributes run to the next top-level comma (or the
      // semicolon).
      unsigned end = s;
      if (i + 1 < vars.size()) {
        int depth = 0;
        for (end = declEnd; end < s; ++end) {
          char c = buffer[end];
          if (c == '(' || c == '[') ++depth;
          else if (c == ')' || c == ']') --depth;
          else if (c == ',' && depth == 0) break;
        }
        if (end >= s) return false;
      }
      std::string rest = piece(declEnd, end); // attributes
      at = end + 1;
      std::string var = vd->getName().str();
      std::string type = kStoragePrefix + ("t_" + var);
      std::string storage = kStoragePrefix + var;
      const char *hd = "__attribute__((host, device)) ";
      if (i) text += " ";
      text += "union " + type + " { " + spec + " value" + tail + "; " + hd +
              type + "() {} " + hd + "~" + type + "() {} }; " + prefix + type +
              " " + storage + rest + "; constexpr auto &" + var + " = " +
              storage + ".value;";
    }
    // Later lines keep their numbers.
    if (!lastMarker.empty()) {
      // The marker's line, and the lines from there to the semicolon.
      size_t after = original.rfind(lastMarker);
      size_t lines = original.substr(after).count('\n');
      text = "\n" + lastMarker + std::string(lines, '\n') + text;
    } else {
      text.append(original.count('\n'), '\n');
    }
    rw->ReplaceText(begin, original.size(), text);
    return true;
  }

  SourceRecovery::Impl &impl;
  bool warn;
  std::shared_ptr<PragmaLog> pragmas;
  ASTContext *ctx = nullptr;
  Rewriter *rw = nullptr;
  std::set<SourceLocation> rewriteDone, warnAt, warned;
};

} // namespace

SourceRecovery::SourceRecovery() : impl(std::make_unique<Impl>()) {}

SourceRecovery::~SourceRecovery() {
  // Give the client back if finish() was not called.
  if (impl->holder) {
    std::vector<frontend::InMemoryFile> ignored;
    finish(ignored);
  }
}

void SourceRecovery::watch(CompilerInstance &ci) {
  impl->diags = &ci.getDiagnostics();
  impl->ownsOriginal = impl->diags->ownsClient();
  if (impl->ownsOriginal) {
    impl->ownedOriginal = impl->diags->takeClient();
    impl->original = impl->ownedOriginal.get();
  } else {
    impl->original = impl->diags->getClient();
  }
  impl->holder = std::make_unique<Holder>(*impl);
  impl->diags->setClient(impl->holder.get(), /*ShouldOwnClient=*/false);
}

std::unique_ptr<ASTConsumer>
SourceRecovery::createConsumer(CompilerInstance &ci, bool warn) {
  return std::make_unique<SharedVarConsumer>(*impl, ci, warn);
}

bool SourceRecovery::finish(std::vector<frontend::InMemoryFile> &files) {
  if (!impl->holder) return false;
  DiagnosticsEngine &diags = *impl->diags;
  diags.setClient(impl->ownsOriginal ? impl->ownedOriginal.release()
                                     : impl->original,
                  impl->ownsOriginal);
  impl->holder.reset();
  impl->errorLocs.clear();
  impl->asmEscapes.clear();
  impl->wrongSideRefs.clear();
  bool retry = !impl->rewritten.empty();
  if (retry) impl->held.clear();
  if (impl->held.empty() && impl->warnings.empty()) {
    files = std::move(impl->rewritten);
    return retry;
  }

  DiagnosticConsumer &client = *impl->original;
  LangOptions fallback;
  client.BeginSourceFile(impl->langOpts ? *impl->langOpts : fallback, nullptr);
  for (const HeldDiagnostic &d : impl->held) {
    DiagnosticStorage storage;
    storage.DiagRanges.append(d.ranges.begin(), d.ranges.end());
    storage.FixItHints.append(d.fixIts.begin(), d.fixIts.end());
    Diagnostic info(&diags, d.loc, d.id, storage, d.message);
    client.HandleDiagnostic(d.level, info);
  }
  impl->held.clear();
  if (retry) {
    for (const auto &[loc, level] : impl->warnings) {
      unsigned id = nvccDiagID(diags, level);
      if (diags.getDiagnosticLevel(id, loc) >= DiagnosticsEngine::Error)
        impl->failed = true;
      diags.Report(loc, id);
    }
  }
  impl->warnings.clear();
  client.EndSourceFile();
  files = std::move(impl->rewritten);
  return retry;
}

bool SourceRecovery::failed() const { return impl->failed; }

} // namespace mycc::lowering
