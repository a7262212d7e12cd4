#include "DeviceCodegen.h"

#include "IdleSlots.h"
#include "SplitCodegen.h"
#include "StrengthReduction.h"

#include "CacheHints.h"
#include "ClangHeaderFixes.h"
#include "DeviceMath.h"
#include "DeviceSema.h"
#include "ExecChecks.h"
#include "Frontend.h"
#include "KernelAttributes.h"
#include "KernelParams.h"
#include "LiveRanges.h"
#include "MemoryAccesses.h"
#include "SourceInPtx.h"
#include "SourceRecovery.h"
#include "Unrolling.h"
#include "VolatileLocals.h"

#include "clang/Basic/SourceManager.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <map>
#include <mutex>

namespace mycc::offload {
namespace {

llvm::OptimizationLevel passLevel(unsigned level) {
  switch (level) {
  case 0: return llvm::OptimizationLevel::O0;
  case 1: return llvm::OptimizationLevel::O1;
  case 2: return llvm::OptimizationLevel::O2;
  default: return llvm::OptimizationLevel::O3;
  }
}

llvm::CodeGenOptLevel codegenLevel(unsigned level) {
  return level == 0 ? llvm::CodeGenOptLevel::None
                    : llvm::CodeGenOptLevel::Aggressive;
}

// Renames the GPU of the PTX's `.target` directive ("sm_100" -> "sm_100f").
//
// Why: Clang 22 does not know the family targets (sm_100f, sm_103f, sm_110f,
// sm_120f, sm_121f), so the front end compiles a family target for the plain
// GPU of the family (frontend::clangGpuName), which every GPU of the family
// can run, with the macros nvcc defines for the family
// (__CUDA_ARCH_FAMILY_SPECIFIC__). The PTX must still declare the family:
//  - ptxas checks instructions against `.target`: code the family macro
//    enables (e.g. `tcgen05` inline assembly) is rejected at `.target sm_100`
//    ("Instruction 'tcgen05.fence' not supported on .target 'sm_100'") and
//    accepted at `.target sm_100f`;
//  - the PTX is embedded as compute_100f; at `.target sm_100f` ptxas, and the
//    driver's JIT, build it only for GPUs of the family ("Program with
//    .target 'sm_100f' cannot be compiled to different SM-family
//    architecture"), as with nvcc's compute_100f PTX.
// Nothing else in the PTX depends on the name, and the PTX ISA version is
// already the one the family needs (the front end asks for
// minPtxVersion(sm_100f), 8.8, where sm_100 alone would take 8.6).
bool renamePtxTarget(std::string &ptx, llvm::StringRef from,
                     llvm::StringRef to, std::string &error) {
  // The directive is one line: `.target sm_100` or `.target sm_100, debug`.
  llvm::StringRef text(ptx);
  size_t pos = 0;
  while ((pos = text.find(".target ", pos)) != llvm::StringRef::npos) {
    bool lineStart = pos == 0 || text[pos - 1] == '\n';
    size_t name = pos + llvm::StringRef(".target ").size();
    llvm::StringRef rest = text.substr(name);
    if (lineStart && rest.starts_with(from) &&
        (rest.size() == from.size() || !llvm::isAlnum(rest[from.size()]))) {
      ptx.replace(name, from.size(), to.str());
      return true;
    }
    pos = name;
  }
  error = "internal error: no '.target " + from.str() +
          "' directive in the PTX to rename to " + to.str();
  return false;
}

// What mycc adds to Clang's device front end: consumers that see each
// declaration before CodeGen does, and the edits they make to the module
// CodeGen produces.
struct DeviceFrontEndPasses {
  ClangHeaderFixes headerFixes;      // Clang's CUDA headers, as nvcc's
  DeviceSema sema;                   // memory spaces of variables
  KernelAttributes kernelAttributes; // __cluster_dims__, __maxnreg__
  ExecChecks execChecks;             // nv_exec_check_disable, host callees

  // In this order: the header fixes edit the headers' functions before
  // anything else sees them.
  std::vector<FrontEndPass *> all() {
    return {&headerFixes, &sema, &kernelAttributes, &execChecks};
  }
  void addConsumers(std::vector<std::unique_ptr<clang::ASTConsumer>> &out) {
    for (FrontEndPass *pass : all()) out.push_back(pass->createConsumer());
  }
  void finishModule(llvm::Module &module) {
    for (FrontEndPass *pass : all()) pass->finishModule(module);
  }
};

// Clang's front end and code generation, with mycc's consumers ahead of
// CodeGen's: DeviceFrontEndPasses and the SourceRecovery one (__shared__
// variables with constructors or destructors, and nvcc's warning about them).
class DeviceAction : public clang::EmitLLVMOnlyAction {
public:
  DeviceAction(llvm::LLVMContext *context, DeviceFrontEndPasses &passes,
               lowering::SourceRecovery &recovery)
      : EmitLLVMOnlyAction(context), passes(passes), recovery(recovery) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &ci,
                    llvm::StringRef file) override {
    auto codegen = EmitLLVMOnlyAction::CreateASTConsumer(ci, file);
    if (!codegen) return nullptr;
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    passes.addConsumers(consumers);
    consumers.push_back(recovery.createConsumer(ci, /*warn=*/true));
    consumers.push_back(std::move(codegen));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  DeviceFrontEndPasses &passes;
  lowering::SourceRecovery &recovery;
};

// Errors LLVM reports once the front end is done: inline assembly the back
// end cannot accept (an operand that must be a constant and is not), an
// operation instruction selection cannot lower. LLVM prints them through the
// context and carries on, writing PTX that lacks the offending code, so each
// is printed here as one line and counted, and a compile that had any fails.
// Inline assembly names its source by a cookie (Clang's `!srcloc`: a
// SourceLocation's raw encoding per line of the asm string), which means
// something only while the front end's SourceManager exists: locate() turns
// them into "file:line:col" before the front end goes. LLVM's optimisation
// remarks and advisory warnings ("loop not unrolled") are not the user's
// concern, as with nvcc, except the inliner's under -opt-info inline.
class BackendErrors {
public:
  BackendErrors(llvm::LLVMContext &context, llvm::raw_ostream *out,
                bool inlineRemarks = false)
      : out(out ? *out : llvm::errs()), inlineRemarks(inlineRemarks) {
    install(context);
  }

  void install(llvm::LLVMContext &context) {
    context.setDiagnosticHandler(std::make_unique<Handler>(*this));
  }

  // Records where each inline asm statement of `module` comes from.
  void locate(const llvm::Module &module, const clang::SourceManager &sm) {
    for (const llvm::Function &f : module)
      for (const llvm::Instruction &inst : llvm::instructions(f)) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        const llvm::MDNode *srcloc =
            call && call->isInlineAsm() ? inst.getMetadata("srcloc") : nullptr;
        if (!srcloc) continue;
        for (const llvm::MDOperand &op : srcloc->operands()) {
          auto *cookie = llvm::mdconst::dyn_extract<llvm::ConstantInt>(op);
          if (!cookie) continue;
          uint64_t raw = cookie->getZExtValue();
          if (locations.count(raw)) continue;
          auto loc = clang::SourceLocation::getFromRawEncoding(
              static_cast<clang::SourceLocation::UIntTy>(raw));
          clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
          if (p.isValid())
            locations[raw] = std::string(p.getFilename()) + ":" +
                             std::to_string(p.getLine()) + ":" +
                             std::to_string(p.getColumn());
        }
      }
  }

  unsigned count() const { return errors; }

private:
  // The context's handler: which remarks passes should make, and where
  // diagnostics go.
  struct Handler : llvm::DiagnosticHandler {
    explicit Handler(BackendErrors &self) : self(self) {}
    bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
      // A callback set over this handler (the bitcode device link's, for
      // the linker's messages) takes them while it is set.
      if (DiagHandlerCallback) DiagHandlerCallback(&info, DiagnosticContext);
      else handle(&info, &self);
      return true;
    }
    bool isAnyRemarkEnabled() const override { return self.inlineRemarks; }
    bool isAnalysisRemarkEnabled(llvm::StringRef) const override { return false; }
    bool isMissedOptRemarkEnabled(llvm::StringRef pass) const override {
      return self.wantsRemarksOf(pass);
    }
    bool isPassedOptRemarkEnabled(llvm::StringRef pass) const override {
      return self.wantsRemarksOf(pass);
    }
    BackendErrors &self;
  };

  // -opt-info inline: the inliner's remarks only.
  bool wantsRemarksOf(llvm::StringRef pass) const {
    return inlineRemarks && pass == "inline";
  }

  // nvcc's form (its cicc is LLVM too): "remark: inl.cu:3:30: <message>".
  void remark(const llvm::DiagnosticInfoOptimizationBase &info) {
    if (!wantsRemarksOf(info.getPassName())) return;
    out << "remark: ";
    if (info.isLocationAvailable()) out << info.getLocationStr() << ": ";
    out << info.getMsg() << "\n";
  }

  static void handle(const llvm::DiagnosticInfo *info, void *context) {
    auto &self = *static_cast<BackendErrors *>(context);
    if (const auto *opt = llvm::dyn_cast<llvm::DiagnosticInfoOptimizationBase>(info))
      if (info->getSeverity() == llvm::DS_Remark) self.remark(*opt);
    if (info->getSeverity() != llvm::DS_Error) return;
    ++self.errors;
    std::string where = "mycc";
    std::string message;
    llvm::raw_string_ostream text(message);
    if (const auto *asmError = llvm::dyn_cast<llvm::DiagnosticInfoInlineAsm>(info)) {
      auto it = self.locations.find(asmError->getLocCookie());
      if (it != self.locations.end()) where = it->second;
      text << asmError->getMsgStr() << " (inline assembly)";
    } else {
      llvm::DiagnosticPrinterRawOStream printer(text);
      info->print(printer);
    }
    self.out << where << ": error: " << message << "\n";
  }

  llvm::raw_ostream &out;
  bool inlineRemarks;
  std::map<uint64_t, std::string> locations;
  unsigned errors = 0;
};

// Fails a compile whose back end reported errors (printed already).
bool noBackendErrors(const BackendErrors &errors, std::string &error) {
  if (!errors.count()) return true;
  error.clear(); // the diagnostics say why
  return false;
}

// The front end: the .cu to unoptimised device IR, with the GPU it targets.
// Under -fgpu-rdc Clang gives a static device variable that host code uses
// a name of its own (`x__static__<unit hash>`), decided when it sees the
// host's use; device code that used the variable earlier in the unit still
// refers to the plain name, an undefined external that the device link
// reported (nvlink: "Undefined reference to '_ZL4coef'"). The uses go to the
// definition.
void joinExternalizedStatics(llvm::Module &module) {
  std::vector<std::pair<llvm::GlobalVariable *, llvm::GlobalVariable *>> pairs;
  for (llvm::GlobalVariable &gv : module.globals()) {
    if (gv.isDeclaration()) continue;
    llvm::StringRef name = gv.getName();
    std::size_t at = name.find("__static__");
    if (at == llvm::StringRef::npos || at == 0) continue;
    llvm::GlobalVariable *plain =
        module.getGlobalVariable(name.substr(0, at), /*AllowInternal=*/true);
    if (plain && plain->isDeclaration()) pairs.push_back({plain, &gv});
  }
  for (auto [plain, definition] : pairs) {
    plain->replaceAllUsesWith(definition);
    plain->eraseFromParent();
  }
}

// Device-side kernel launches through the device runtime's V2 interface, as
// nvcc's: Clang's launch (cudaGetParameterBuffer(align, size), the
// arguments stored into it, cudaLaunchDevice(func, buffer, grid, block,
// shared, stream)) becomes a local buffer for the arguments and a call of
// the prelude's __mycc_launch_device, which takes a V2 buffer for the
// configuration, copies the arguments and launches with cudaLaunchDeviceV2.
// The older interface ignored cudaStreamTailLaunch and
// cudaStreamFireAndForget: those launches never ran, without an error.
void useLaunchDeviceV2(llvm::Module &module) {
  llvm::Function *helper = nullptr; // internal: its name is mangled
  for (llvm::Function &f : module)
    if (f.getName().contains("__mycc_launch_device") && !f.isDeclaration())
      helper = &f;
  if (!helper) return;
  auto named = [](const llvm::CallBase *call, llvm::StringRef what) {
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    return callee && callee->getName().contains(what) &&
           !callee->getName().contains("V2");
  };
  std::vector<llvm::CallBase *> launches;
  for (llvm::Function &f : module)
    for (llvm::Instruction &inst : llvm::instructions(f))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
          call && call->arg_size() == 6 && named(call, "cudaLaunchDevice"))
        launches.push_back(call);
  const llvm::DataLayout &layout = module.getDataLayout();
  for (llvm::CallBase *launch : launches) {
    auto *get = llvm::dyn_cast<llvm::CallBase>(launch->getArgOperand(1));
    // The buffer's other uses (the null check, the argument stores) go to
    // the local buffer.
    if (!get || get->arg_size() != 2 || !named(get, "cudaGetParameterBuffer"))
      continue;
    auto *align = llvm::dyn_cast<llvm::ConstantInt>(get->getArgOperand(0));
    auto *size = llvm::dyn_cast<llvm::ConstantInt>(get->getArgOperand(1));
    if (!align || !size || helper->arg_size() != 7) continue;
    llvm::Function &f = *get->getFunction();
    llvm::IRBuilder<> entry(&*f.getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst *buffer = entry.CreateAlloca(
        entry.getInt8Ty(), layout.getAllocaAddrSpace(),
        entry.getInt64(std::max<uint64_t>(size->getZExtValue(), 1)),
        "mycc.launch.args");
    buffer->setAlignment(llvm::Align(std::max<uint64_t>(
        llvm::PowerOf2Ceil(align->getZExtValue()), 1)));
    llvm::Value *args = buffer;
    if (args->getType() != get->getType())
      args = llvm::IRBuilder<>(get).CreateAddrSpaceCast(buffer, get->getType());
    get->replaceAllUsesWith(args);
    get->eraseFromParent();
    llvm::IRBuilder<> at(launch);
    llvm::Value *operands[] = {launch->getArgOperand(0), args,
                               at.getInt64(size->getZExtValue()),
                               launch->getArgOperand(2), launch->getArgOperand(3),
                               launch->getArgOperand(4), launch->getArgOperand(5)};
    llvm::CallInst *call = at.CreateCall(helper, operands);
    call->setAttributes(helper->getAttributes());
    call->setCallingConv(helper->getCallingConv());
    launch->replaceAllUsesWith(call);
    launch->eraseFromParent();
  }
  llvm::removeFromUsedLists(module, [&](llvm::Constant *c) {
    return c->stripPointerCasts() == helper;
  });
  if (helper->use_empty()) helper->eraseFromParent();
}

std::unique_ptr<llvm::Module> runFrontEnd(const std::vector<std::string> &cc1,
                                          llvm::LLVMContext &context,
                                          DeviceTarget &target,
                                          std::string &error,
                                          llvm::raw_ostream *diagnostics,
                                          BackendErrors *backendErrors) {
  auto ci = frontend::createCompilerInstance(cc1, {}, error, diagnostics);
  if (!ci) return nullptr;
  // The front end stops at unoptimised IR; the pipeline is ours.
  ci->getCodeGenOpts().DisableLLVMPasses = true;
  lowering::SourceRecovery recovery;
  recovery.watch(*ci);
  auto passes = std::make_unique<DeviceFrontEndPasses>();
  auto action = std::make_unique<DeviceAction>(&context, *passes, recovery);
  bool ok = ci->ExecuteAction(*action);
  // Declarations Clang rejected and mycc rewrote (SourceRecovery.h): parse again.
  std::vector<frontend::InMemoryFile> rewritten;
  if (recovery.finish(rewritten)) {
    if (recovery.failed()) { // nvcc's warning, made an error
      error.clear();
      return nullptr;
    }
    action.reset();
    ci = frontend::createCompilerInstance(cc1, rewritten, error, diagnostics);
    if (!ci) return nullptr;
    ci->getCodeGenOpts().DisableLLVMPasses = true;
    passes = std::make_unique<DeviceFrontEndPasses>();
    action = std::make_unique<DeviceAction>(&context, *passes, recovery);
    ok = ci->ExecuteAction(*action);
  }
  if (!ok || ci->getDiagnostics().hasErrorOccurred()) {
    error.clear(); // the diagnostics say why
    return nullptr;
  }
  std::unique_ptr<llvm::Module> module = action->takeModule();
  if (!module) {
    error = "device compilation produced no module";
    return nullptr;
  }
  passes->finishModule(*module);
  joinExternalizedStatics(*module);
  useLaunchDeviceV2(*module);
  if (backendErrors) backendErrors->locate(*module, ci->getSourceManager());
  target.cpu = ci->getTargetOpts().CPU;
  target.features = llvm::join(ci->getTargetOpts().Features, ",");
  return module;
}

std::unique_ptr<llvm::TargetMachine>
createMachine(llvm::Module &module, const DeviceTarget &target,
              const DeviceCodegenOptions &options, std::string &error) {
  std::string lookupError;
  const llvm::Target *nvptx =
      llvm::TargetRegistry::lookupTarget(module.getTargetTriple(), lookupError);
  if (!nvptx) {
    error = "NVPTX target unavailable: " + lookupError;
    return nullptr;
  }
  applyBackendOptions();
  llvm::TargetOptions machineOpts;
  // nvcc contracts a*b+c into fma by default (-fmad=true); with -fmad=false
  // the backend writes mul.rn/add.rn, which ptxas does not contract either.
  machineOpts.AllowFPOpFusion =
      options.math.fmad ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> machine(nvptx->createTargetMachine(
      module.getTargetTriple(), target.cpu, target.features, machineOpts,
      llvm::Reloc::Static, std::nullopt, codegenLevel(options.optLevel)));
  // The IR was built for Clang's data layout; a backend with other pointer
  // sizes (applyBackendOptions not called, or bitcode from a mycc that used
  // another layout) would miscompile it.
  llvm::DataLayout layout = machine->createDataLayout();
  if (module.getDataLayout() != layout) {
    error = "device code has data layout '" +
            module.getDataLayoutStr() + "', the NVPTX backend '" +
            layout.getStringRepresentation() +
            "' (compiled by another version of mycc?)";
    return nullptr;
  }
  return machine;
}

// Which of LLVM's pipelines: one unit's whole program; a unit of relocatable
// device code before the device link (LLVM's full-LTO pre-link pipeline); the
// linked program (LLVM's full-LTO pipeline).
enum class Stage { WholeProgram, PreLink, LinkTime };

// nvcc's cicc turns no switch into a table, of branch targets (brx.idx,
// unless -jtd asks for them) or of values in global memory (SimplifyCFG's
// lookup tables, which LLVM builds by default): compare trees only. The
// attribute stops both; emitPtx lifts it for -jtd's jump tables.
void noSwitchTables(llvm::Module &module) {
  for (llvm::Function &f : module)
    if (!f.isDeclaration()) f.addFnAttr("no-jump-tables", "true");
}

// -jtd N: jump tables from a case density of N percent (LLVM's
// -jump-table-density, one value per process as one command has one -jtd).
void allowJumpTables(llvm::Module &module, unsigned density) {
  static std::mutex mutex;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto &registered = llvm::cl::getRegisteredOptions();
    auto found = registered.find("jump-table-density");
    if (found != registered.end())
      static_cast<llvm::cl::opt<unsigned> *>(found->second)->setValue(density);
  }
  for (llvm::Function &f : module) f.removeFnAttr("no-jump-tables");
}

bool optimize(llvm::Module &module, llvm::TargetMachine &machine,
              unsigned optLevel, Stage stage, std::string &error) {
  noSwitchTables(module);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel > 1;
  tuning.SLPVectorization = optLevel > 1;
  // -fdevice-time-trace: each pass an event of the job's profile (the
  // handler does nothing on a thread without one).
  llvm::PassInstrumentationCallbacks instrumentation;
  llvm::TimeProfilingPassesHandler timeProfiling;
  timeProfiling.registerCallbacks(instrumentation);
  // The NVPTX target adds its own passes (NVVMReflect for libdevice, address
  // space inference) through the pass builder callbacks.
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &instrumentation);
  // Kernel parameters passed by value: read in place or copied wide. The
  // pass runs at the end of the whole-program and pre-link pipelines.
  registerKernelParamsPass(builder, machine);
  // Volatile locals whose address never escapes stay in registers, as nvcc
  // keeps them (libcu++'s atomic_ref wait loop).
  registerVolatileLocalsPass(builder);
  // 16-byte copies as vector accesses, WMMA fragments loaded from shared
  // memory with the shared-space instructions, as in nvcc's PTX.
  registerMemoryAccessesPass(builder);
  // Loops unrolled where nvcc unrolls them: past thread-local inline
  // assembly, and with a trip count that takes a division.
  registerUnrollingPass(builder);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = passLevel(optLevel);
  llvm::ModulePassManager pipeline;
  if (optLevel == 0)
    pipeline = builder.buildO0DefaultPipeline(level, stage == Stage::PreLink
                                                         ? llvm::ThinOrFullLTOPhase::FullLTOPreLink
                                                         : llvm::ThinOrFullLTOPhase::None);
  else if (stage == Stage::PreLink)
    pipeline = builder.buildLTOPreLinkDefaultPipeline(level);
  else if (stage == Stage::LinkTime)
    pipeline = builder.buildLTODefaultPipeline(level, nullptr);
  else
    pipeline = builder.buildPerModuleDefaultPipeline(level);
  pipeline.run(module, mam);
  if (llvm::verifyModule(module, &llvm::errs())) {
    error = "internal error: invalid device IR after optimisation";
    return false;
  }
  return true;
}

bool emitPtx(llvm::Module &module, llvm::TargetMachine &machine,
             const DeviceTarget &target, const DeviceCodegenOptions &options,
             std::string &ptx, std::string &error) {
  // cuda::annotated_ptr's accesses, marked since the front end (CacheHints.h).
  lowerCacheHints(module);
  if (options.jumpTableDensity <= 100) allowJumpTables(module, options.jumpTableDensity);
  {
    llvm::raw_string_ostream out(ptx);
    llvm::buffer_ostream buffered(out);
    llvm::legacy::PassManager codegen;
    // Fewer registers where LLVM's code generator cannot see the pressure
    // (LiveRanges.h); runs inside the pipeline built below.
    registerShortenLiveRanges();
    // No straight-line strength reduction where its search is quadratic.
    StrengthReductionBound strengthReduction(module);
    if (machine.addPassesToEmitFile(codegen, buffered, nullptr,
                                    llvm::CodeGenFileType::AssemblyFile)) {
      error = "NVPTX backend cannot emit PTX";
      return false;
    }
    codegen.run(module);
  }
  if (!options.ptxTarget.empty() && options.ptxTarget != target.cpu)
    return renamePtxTarget(ptx, target.cpu, options.ptxTarget, error);
  return true;
}

// Code generation of a module this large takes seconds (ggml's fattn.cu:
// most of it GVN and instruction selection), and
// splitting it over idle job slots pays; below it, the split's copying of
// the module is a larger part of less. Four parts: on 2-4 idle cores, the
// largest part bounds the time.
constexpr unsigned kSplitWorthInstructions = 20000;
constexpr unsigned kSplitParts = 4;

bool worthSplitting(const llvm::Module &module) {
  size_t instructions = 0;
  for (const llvm::Function &f : module)
    instructions += f.getInstructionCount();
  return instructions >= kSplitWorthInstructions;
}

// -split-compile: code generation over several threads (SplitCodegen.h),
// else emitPtx. Back-end errors in a part send the module to emitPtx whole,
// where BackendErrors reports them with their source locations.
bool emitPtxInThreads(llvm::Module &module, llvm::TargetMachine &machine,
                      const DeviceTarget &target,
                      const DeviceCodegenOptions &options, std::string &ptx,
                      std::string &error) {
  lowerDivisionAndSqrt(module, options.math);
  unsigned parts = options.splitThreads, threads = parts;
  std::optional<support::BorrowedSlots> borrowed;
  if (options.borrowIdleThreads && worthSplitting(module)) {
    // The parts are fixed, so that the PTX is the same on any machine and
    // however busy it is; the threads are whatever is idle now.
    parts = kSplitParts;
    borrowed.emplace(kSplitParts - 1);
    threads = 1 + borrowed->count();
  }
  if (parts > 1) {
    lowerCacheHints(module); // on the whole module, before it is split
    EmitPart emit = [&](llvm::Module &part, std::string &text,
                        std::string &partError) {
      bool backendError = false;
      part.getContext().setDiagnosticHandlerCallBack(
          [](const llvm::DiagnosticInfo *info, void *flag) {
            if (info->getSeverity() == llvm::DS_Error)
              *static_cast<bool *>(flag) = true;
          },
          &backendError);
      auto partMachine = createMachine(part, target, options, partError);
      if (!partMachine ||
          !emitPtx(part, *partMachine, target, options, text, partError))
        return false;
      if (backendError) partError.clear();
      return !backendError;
    };
    switch (emitPtxInParts(module, parts, threads, emit, ptx, error)) {
    case SplitResult::Done: return true;
    case SplitResult::Failed: return false;
    case SplitResult::NotSplit: ptx.clear(); borrowed.reset(); break;
    }
  }
  return emitPtx(module, machine, target, options, ptx, error);
}

// The PTX, and with -src-in-ptx the source lines in it.
bool emitPtxMaybeSplit(llvm::Module &module, llvm::TargetMachine &machine,
                       const DeviceTarget &target,
                       const DeviceCodegenOptions &options, std::string &ptx,
                       std::string &error) {
  if (!emitPtxInThreads(module, machine, target, options, ptx, error))
    return false;
  if (options.sourceInPtx) ptx = interleaveSource(ptx);
  return true;
}

// Device functions and variables a linked program uses but no unit defines.
// The PTX the CUDA driver and ptxas resolve themselves (printf, malloc,
// free, assert) is not among them.
std::vector<std::string> undefinedSymbols(const llvm::Module &module) {
  static const llvm::StringRef provided[] = {
      "vprintf", "malloc", "free", "__assertfail",
      "__cuda_syscall_aligned_malloc", // over-aligned new (the prelude's)
      kAccessPropertyMarker}; // lowered before code generation
  std::vector<std::string> names;
  auto check = [&](const llvm::GlobalValue &gv) {
    if (!gv.isDeclaration() || gv.use_empty()) return;
    llvm::StringRef name = gv.getName();
    if (name.starts_with("llvm.")) return;
    for (llvm::StringRef p : provided)
      if (name == p) return;
    names.push_back(name.str());
  };
  for (const llvm::Function &f : module)
    if (!f.isIntrinsic()) check(f);
  for (const llvm::GlobalVariable &v : module.globals())
    // `extern __shared__ T x[]` is the dynamic shared memory: never defined.
    if (v.getAddressSpace() != 3) check(v);
  return names;
}

} // namespace

// Loop unrolling: NVPTX lets LLVM unroll a loop partially up to a size of a
// quarter of the full-unroll threshold (75 at -O3), and LLVM peels a loop
// instead of unrolling it when peeling makes a condition of its body
// invariant. nvcc's PTX unrolls loops such as a GEMM's global-to-shared
// staging copy and a stencil's sweep by 4 (more loads in flight) and does
// not peel them. A threshold of 150 and no peeling give the same unrolling;
// measured on bench/kernels (docs/performance.md, "Kernel speed"): the WMMA
// GEMMs and the stencil faster, nothing slower beyond noise. LLVM keeps these
// options process-wide; in-process host compilation (--host-in-process)
// sees them too.
void applyBackendOptions() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::string threshold =
        "--unroll-partial-threshold=" + std::to_string(kPartialUnrollThreshold);
    const char *argv[] = {"mycc", "--nvptx-short-ptr", threshold.c_str(),
                          "--unroll-allow-peeling=false"};
    llvm::cl::ParseCommandLineOptions(std::size(argv), argv);
  });
}

// Whole-program device code: no other module can call a __device__
// function, so those with external linkage are made internal and the ones
// no kernel reaches are dropped, as nvcc drops them (-keep-device-functions
// keeps them, as .visible functions in the PTX). Kernels and functions
// marked used stay.
static void internalizeDeviceFunctions(llvm::Module &module) {
  llvm::SmallVector<llvm::GlobalValue *, 8> used;
  llvm::collectUsedGlobalVariables(module, used, /*CompilerUsed=*/false);
  llvm::collectUsedGlobalVariables(module, used, /*CompilerUsed=*/true);
  llvm::SmallPtrSet<llvm::GlobalValue *, 8> keep(used.begin(), used.end());
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.hasExternalLinkage() && !keep.count(&f) &&
        f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

bool compileDeviceToPtx(const std::vector<std::string> &cc1,
                        const DeviceCodegenOptions &options, std::string &ptx,
                        std::string &error, llvm::raw_ostream *diagnostics) {
  llvm::LLVMContext context;
  BackendErrors errors(context, diagnostics, options.inlineRemarks);
  DeviceTarget target;
  auto module = runFrontEnd(cc1, context, target, error, diagnostics, &errors);
  if (!module) return false;
  // Relocatable device code (-fgpu-rdc) is not a whole program: other units
  // may call its functions (unless -ewp says it is one).
  bool relocatable = std::find(cc1.begin(), cc1.end(), "-fgpu-rdc") != cc1.end() &&
                     !options.extensibleWholeProgram;
  if (options.syntaxOnly) {
    // -fdevice-syntax-only: the source has been checked; the PTX is an
    // empty module (its header only), as nvcc's cicc writes it.
    auto empty = std::make_unique<llvm::Module>(module->getName(), context);
    empty->setTargetTriple(module->getTargetTriple());
    empty->setDataLayout(module->getDataLayout());
    module = std::move(empty);
  } else if (!options.keepDeviceFunctions && !relocatable) {
    internalizeDeviceFunctions(*module);
  }
  resolveMathReflect(*module, options.math);
  if (options.restrictKernelPointers) restrictKernelPointers(*module);
  auto machine = createMachine(*module, target, options, error);
  return machine &&
         optimize(*module, *machine, options.optLevel, Stage::WholeProgram,
                  error) &&
         emitPtxMaybeSplit(*module, *machine, target, options, ptx, error) &&
         noBackendErrors(errors, error);
}

bool compileDeviceToBitcode(const std::vector<std::string> &cc1,
                            const DeviceCodegenOptions &options,
                            RelocatableDeviceCode &out, std::string &error,
                            llvm::raw_ostream *diagnostics) {
  llvm::LLVMContext context;
  BackendErrors errors(context, diagnostics, options.inlineRemarks);
  auto module =
      runFrontEnd(cc1, context, out.target, error, diagnostics, &errors);
  if (!module) return false;
  resolveMathReflect(*module, options.math);
  if (options.restrictKernelPointers) restrictKernelPointers(*module);
  auto machine = createMachine(*module, out.target, options, error);
  if (!machine ||
      !optimize(*module, *machine, options.optLevel, Stage::PreLink, error) ||
      !noBackendErrors(errors, error))
    return false;
  out.bitcode.clear();
  llvm::raw_string_ostream os(out.bitcode);
  llvm::WriteBitcodeToFile(*module, os);
  return true;
}

bool linkDeviceToPtx(const std::vector<DeviceBitcodeInput> &units,
                     const DeviceTarget &target,
                     const DeviceCodegenOptions &options, std::string &ptx,
                     std::string &error) {
  llvm::LLVMContext context;
  BackendErrors errors(context, nullptr);
  std::unique_ptr<llvm::Module> linked;
  // Which units declare each symbol they do not define, for messages.
  std::map<std::string, std::vector<std::string>> declaredBy;
  for (const DeviceBitcodeInput &unit : units) {
    auto parsed = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(unit.bitcode, unit.name), context);
    if (!parsed) {
      error = unit.name + ": unreadable device code: " +
              llvm::toString(parsed.takeError());
      return false;
    }
    std::unique_ptr<llvm::Module> module = std::move(*parsed);
    for (const llvm::GlobalValue &gv : module->global_values())
      if (gv.isDeclaration() && !gv.getName().starts_with("llvm."))
        declaredBy[gv.getName().str()].push_back(unit.source);
    if (!linked) {
      linked = std::move(module);
      continue;
    }
    // Two units defining one symbol: the Linker reports it through the
    // context's handler; the message below says which symbol and where.
    std::string linkError;
    context.setDiagnosticHandlerCallBack(
        [](const llvm::DiagnosticInfo *info, void *text) {
          if (info->getSeverity() != llvm::DS_Error) return;
          llvm::raw_string_ostream os(*static_cast<std::string *>(text));
          llvm::DiagnosticPrinterRawOStream printer(os);
          info->print(printer);
        },
        &linkError);
    bool failed = llvm::Linker::linkModules(*linked, std::move(module));
    errors.install(context);
    if (failed) {
      error = "device link failed" +
              (linkError.empty() ? std::string() : ": " + linkError) +
              " (in " + unit.source + ")";
      return false;
    }
  }
  if (!linked) {
    error = "internal error: no device code to link";
    return false;
  }

  std::vector<std::string> undefined = undefinedSymbols(*linked);
  if (!undefined.empty()) {
    const std::string &name = undefined.front();
    llvm::StringRef n(name);
    if (n.starts_with("cudaLaunchDevice") ||
        n.starts_with("cudaGetParameterBuffer") || n.starts_with("cudaCG") ||
        n.starts_with("cudaDevice") || n.starts_with("cudaStream") ||
        n.starts_with("cudaGetLastError") || n.starts_with("cudaMalloc"))
      error = "device code calls the CUDA device runtime (" + name +
              "): device-side kernel launches and device runtime API calls "
              "are not supported by mycc yet";
    else {
      std::string users;
      for (const std::string &u : declaredBy[name])
        users += (users.empty() ? "" : ", ") + u;
      error = "undefined device symbol '" + llvm::demangle(name) + "'" +
              (users.empty() ? "" : " (used in " + users + ")") +
              (undefined.size() > 1
                   ? " and " + std::to_string(undefined.size() - 1) + " more"
                   : "");
    }
    return false;
  }

  auto machine = createMachine(*linked, target, options, error);
  if (!machine) return false;
  // Only what the host reaches stays visible: kernels (launched by name)
  // and variables (registered by name). Everything else may be inlined
  // across units and dropped.
  llvm::internalizeModule(*linked, [](const llvm::GlobalValue &gv) {
    if (const auto *f = llvm::dyn_cast<llvm::Function>(&gv))
      return f->getCallingConv() == llvm::CallingConv::PTX_Kernel;
    return llvm::isa<llvm::GlobalVariable>(gv);
  });
  return optimize(*linked, *machine, options.optLevel, Stage::LinkTime,
                  error) &&
         emitPtxMaybeSplit(*linked, *machine, target, options, ptx, error) &&
         noBackendErrors(errors, error);
}

} // namespace mycc::offload
