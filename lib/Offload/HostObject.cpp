#include "HostObject.h"

#include "AtomicFile.h"
#include "Frontend.h"
#include "HostLowering.h"

#include "clang/CodeGen/BackendUtil.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

namespace mycc::offload {

struct HostUnit::State {
  llvm::LLVMContext context;
  std::unique_ptr<clang::CompilerInstance> instance;
  std::unique_ptr<llvm::Module> module;
};

HostUnit::HostUnit() : state(std::make_unique<State>()) {}
HostUnit::~HostUnit() = default;

std::unique_ptr<HostUnit> HostUnit::generate(const std::vector<std::string> &cc1,
                                             const std::string &unitName,
                                             const std::string &unitText,
                                             std::string &error,
                                             llvm::raw_ostream *diagnostics) {
  std::unique_ptr<HostUnit> unit(new HostUnit());
  State &s = *unit->state;
  s.instance = frontend::createCompilerInstance(cc1, {{unitName, unitText}},
                                                error, diagnostics);
  if (!s.instance) return nullptr;
  // Optimisation runs once, in emitObject, after the fat binary is in.
  s.instance->getCodeGenOpts().DisableLLVMPasses = true;
  clang::EmitLLVMOnlyAction action(&s.context);
  if (!s.instance->ExecuteAction(action) ||
      s.instance->getDiagnostics().hasErrorOccurred()) {
    error.clear(); // the diagnostics say why
    return nullptr;
  }
  s.module = action.takeModule();
  if (!s.module) {
    error = "host compilation produced no module";
    return nullptr;
  }
  return unit;
}

std::string HostUnit::bitcode() const {
  // Without the symbol table WriteBitcodeToFile adds: building it assembles
  // the module's asm, whose .incbin of the relocatable fat binary (-rdc)
  // may not exist yet (the device side is still compiling).
  llvm::SmallVector<char, 0> buffer;
  llvm::BitcodeWriter writer(buffer);
  writer.writeModule(*state->module);
  writer.writeStrtab();
  return std::string(buffer.begin(), buffer.end());
}

std::unique_ptr<HostUnit> HostUnit::load(const std::vector<std::string> &cc1,
                                         const std::string &bitcode,
                                         std::string &error,
                                         llvm::raw_ostream *diagnostics) {
  std::unique_ptr<HostUnit> unit(new HostUnit());
  State &s = *unit->state;
  s.instance = frontend::createCompilerInstance(cc1, {}, error, diagnostics);
  if (!s.instance) return nullptr;
  auto parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bitcode, "host IR"), s.context);
  if (!parsed) {
    error = "unreadable host IR: " + llvm::toString(parsed.takeError());
    return nullptr;
  }
  s.module = std::move(*parsed);
  return unit;
}

namespace {

// What nvcc and clang emit: the container in .nv_fatbin and a wrapper
// {magic, version 1, data, NULL} in .nvFatBinSegment, where cuobjdump and the
// CUDA runtime look for it.
bool embedFatbin(llvm::Module &module, const std::vector<uint8_t> &fatbin,
                 std::string &error) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *bytes = llvm::ConstantDataArray::get(
      ctx, llvm::ArrayRef<uint8_t>(fatbin.data(), fatbin.size()));
  auto *data = new llvm::GlobalVariable(module, bytes->getType(), true,
                                        llvm::GlobalValue::PrivateLinkage,
                                        bytes, "__mycc_fatbin_data");
  data->setSection(".nv_fatbin");
  data->setAlignment(llvm::Align(8));

  auto *i32 = llvm::Type::getInt32Ty(ctx);
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *wrapperType = llvm::StructType::get(ctx, {i32, i32, ptr, ptr});
  auto *init = llvm::ConstantStruct::get(
      wrapperType, {llvm::ConstantInt::get(i32, 0x466243b1),
                    llvm::ConstantInt::get(i32, 1), data,
                    llvm::ConstantPointerNull::get(ptr)});
  auto *wrapper = new llvm::GlobalVariable(module, wrapperType, true,
                                           llvm::GlobalValue::InternalLinkage,
                                           init, "");
  wrapper->setSection(".nvFatBinSegment");
  wrapper->setAlignment(llvm::Align(8));
  llvm::GlobalVariable *declared =
      module.getGlobalVariable(lowering::kFatbinWrapperSymbol, true);
  if (!declared) {
    error = "internal error: the lowered unit does not reference the fat binary";
    return false;
  }
  wrapper->takeName(declared);
  declared->replaceAllUsesWith(wrapper);
  declared->eraseFromParent();
  return true;
}

} // namespace

bool HostUnit::emitObject(const std::vector<uint8_t> &fatbin,
                          const std::string &objectFile, std::string &error) {
  return embedFatbin(*state->module, fatbin, error) &&
         writeObject(objectFile, error);
}

bool HostUnit::emitRelocatableObject(const std::vector<std::string> &images,
                                     const std::string &objectFile,
                                     std::string &error) {
  // One buffer: the offload binaries back to back, as LLVM's readers expect.
  std::string bytes;
  for (const std::string &image : images) bytes += image;
  // Marked SHF_EXCLUDE by LLVM for this section name: the device link reads
  // it from the objects, and the final link leaves it out.
  if (!bytes.empty())
    llvm::embedBufferInModule(
        *state->module,
        llvm::MemoryBufferRef(bytes, "mycc relocatable device code"),
        ".llvm.offloading", llvm::Align(8));
  return writeObject(objectFile, error);
}

bool HostUnit::writeObject(const std::string &objectFile, std::string &error) {
  State &s = *state;
  clang::CodeGenOptions &codegenOpts = s.instance->getCodeGenOpts();
  codegenOpts.DisableLLVMPasses = false;

  support::AtomicOutput out;
  if (!out.open(objectFile, error)) return false;
  clang::emitBackendOutput(*s.instance, codegenOpts,
                           s.module->getDataLayoutStr(), s.module.get(),
                           clang::Backend_EmitObj,
                           llvm::vfs::getRealFileSystem(),
                           out.takeStream());
  if (s.instance->getDiagnostics().hasErrorOccurred()) {
    error = "host code generation failed";
    return false;
  }
  if (!out.commit(error)) return false;
  return true;
}

} // namespace mycc::offload
