#include "DeviceCodegen.h"

#include "DeviceSema.h"
#include "Frontend.h"
#include "KernelParams.h"
#include "SharedInit.h"

#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

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

// Clang's front end and code generation, with mycc's consumers ahead of
// CodeGen's: DeviceSema (memory spaces of const variables) and the
// SharedInitRecovery one (__shared__ variables with constructors or
// destructors, and nvcc's warning about them).
class DeviceAction : public clang::EmitLLVMOnlyAction {
public:
  DeviceAction(llvm::LLVMContext *context, DeviceSema &sema,
               lowering::SharedInitRecovery &recovery)
      : EmitLLVMOnlyAction(context), sema(sema), recovery(recovery) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &ci,
                    llvm::StringRef file) override {
    auto codegen = EmitLLVMOnlyAction::CreateASTConsumer(ci, file);
    if (!codegen) return nullptr;
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(sema.createConsumer());
    consumers.push_back(recovery.createConsumer(ci, /*warn=*/true));
    consumers.push_back(std::move(codegen));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  DeviceSema &sema;
  lowering::SharedInitRecovery &recovery;
};

} // namespace

bool compileDeviceToPtx(const std::vector<std::string> &cc1,
                        const DeviceCodegenOptions &options, std::string &ptx,
                        std::string &error, llvm::raw_ostream *diagnostics) {
  auto ci = frontend::createCompilerInstance(cc1, {}, error, diagnostics);
  if (!ci) return false;
  // The front end stops at unoptimised IR; the pipeline below is ours.
  ci->getCodeGenOpts().DisableLLVMPasses = true;

  llvm::LLVMContext context;
  // LLVM's optimisation remarks and advisory warnings ("loop not unrolled")
  // are not the user's concern, as with nvcc; errors still surface.
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *info, void *) {
        if (info->getSeverity() != llvm::DS_Error) return;
        llvm::DiagnosticPrinterRawOStream printer(llvm::errs());
        llvm::errs() << "mycc: error: ";
        info->print(printer);
        llvm::errs() << "\n";
      });
  lowering::SharedInitRecovery recovery;
  recovery.watch(*ci);
  auto sema = std::make_unique<DeviceSema>();
  auto action = std::make_unique<DeviceAction>(&context, *sema, recovery);
  bool ok = ci->ExecuteAction(*action);
  // Declarations Clang rejected and mycc rewrote (SharedInit.h): parse again.
  std::vector<frontend::InMemoryFile> rewritten;
  if (recovery.finish(rewritten)) {
    if (recovery.failed()) { // nvcc's warning, made an error
      error.clear();
      return false;
    }
    action.reset();
    ci = frontend::createCompilerInstance(cc1, rewritten, error, diagnostics);
    if (!ci) return false;
    ci->getCodeGenOpts().DisableLLVMPasses = true;
    sema = std::make_unique<DeviceSema>();
    action = std::make_unique<DeviceAction>(&context, *sema, recovery);
    ok = ci->ExecuteAction(*action);
  }
  if (!ok || ci->getDiagnostics().hasErrorOccurred()) {
    error.clear(); // the diagnostics say why
    return false;
  }
  std::unique_ptr<llvm::Module> module = action->takeModule();
  if (!module) {
    error = "device compilation produced no module";
    return false;
  }
  sema->finishModule(*module);

  const auto &targetOpts = ci->getTargetOpts();
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(module->getTargetTriple(), lookupError);
  if (!target) {
    error = "NVPTX target unavailable: " + lookupError;
    return false;
  }
  llvm::TargetOptions machineOpts;
  // nvcc contracts a*b+c into fma by default (--fmad=true).
  machineOpts.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::string features = llvm::join(targetOpts.Features, ",");
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      module->getTargetTriple(), targetOpts.CPU, features, machineOpts,
      llvm::Reloc::Static, std::nullopt, codegenLevel(options.optLevel)));
  module->setDataLayout(machine->createDataLayout());

  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = options.optLevel > 1;
    tuning.SLPVectorization = options.optLevel > 1;
    // The NVPTX target adds its own passes (NVVMReflect for libdevice, address
    // space inference) through the pass builder callbacks.
    llvm::PassBuilder builder(machine.get(), tuning);
    // Kernel parameters passed by value: read in place or copied wide.
    registerKernelParamsPass(builder, *machine);
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager pipeline =
        options.optLevel == 0
            ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
            : builder.buildPerModuleDefaultPipeline(passLevel(options.optLevel));
    pipeline.run(*module, mam);
  }
  if (llvm::verifyModule(*module, &llvm::errs())) {
    error = "internal error: invalid device IR after optimisation";
    return false;
  }

  {
    llvm::raw_string_ostream out(ptx);
    llvm::buffer_ostream buffered(out);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, buffered, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile)) {
      error = "NVPTX backend cannot emit PTX";
      return false;
    }
    codegen.run(*module);
  }
  if (!options.ptxTarget.empty() && options.ptxTarget != targetOpts.CPU)
    return renamePtxTarget(ptx, targetOpts.CPU, options.ptxTarget, error);
  return true;
}

} // namespace mycc::offload
