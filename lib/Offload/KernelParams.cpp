// Kernel parameters passed by value.
//
// A kernel's parameters live in the parameter space (constant bank 0 on the
// GPU); CUDA 12.1+ allows up to 32764 bytes of them. C++ gives each thread its
// own copy of a by-value parameter, which it may write and whose address it
// may take. nvcc therefore reads a parameter in place (ld.param) and gives the
// kernel a local copy only where it writes the parameter or lets its address
// escape; with `__grid_constant__` it never copies.
//
// LLVM's NVPTX backend (NVPTXLowerArgs, during code generation) does the same
// in principle, but
//  - its copy is a memcpy of the whole parameter, which NVPTXLowerAggrCopies
//    expands into a loop of one-byte loads and stores (ld.param.b8 /
//    st.local.b8: 32004 iterations for a 32 KiB parameter, where nvcc copies
//    4 bytes per iteration);
//  - it reads a parameter in place only if LLVM has proved the kernel never
//    writes it (`readonly`, `captures(none)`), which fails as soon as the
//    parameter's address goes to a device function whose attributes LLVM does
//    not infer (templates and inline functions: linkonce_odr), or through
//    ptrtoint (an alignment test).
//
// This pass runs at the end of mycc's optimisation pipeline, on the optimised
// IR. For each byval parameter of each kernel it follows every pointer derived
// from the parameter (through GEPs, casts, phis, selects, and into the device
// functions of the module it is passed to) and decides:
//  - read only, and LLVM would see that: nothing to do;
//  - read only, but through uses LLVM's analysis gives up on (calls,
//    ptrtoint): the parameter is marked `nvvm.grid_constant`,
//    the IR form of `__grid_constant__`, and stays in the parameter space
//    (cvta.param gives the callee a generic pointer to it; sm_70+, PTX 7.7+);
//  - written, or its address escapes where it cannot be followed (or is
//    compared with a pointer from elsewhere, see walkPointer): the kernel
//    gets its own copy in local memory, made here (alloca + memcpy, then SROA,
//    so that fields accessed at constant offsets become registers as before).
// Finally every remaining memcpy of at least 128 bytes out of a kernel's byval
// parameter is expanded into a loop copying the widest words the alignment
// allows (4 bytes for `.align 4`, up to 16), 4 words per iteration.
//
// A parameter the source declared `__grid_constant__` is left alone.
#include "KernelParams.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>

namespace mycc::offload {
namespace {

using namespace llvm;

constexpr unsigned kParamAddressSpace = 101; // NVPTX's .param space
constexpr StringRef kGridConstant = "nvvm.grid_constant";
// NVPTXLowerAggrCopies expands memcpys of this many bytes or more into byte
// loops; shorter ones are lowered with wide loads and stores already.
constexpr uint64_t kMinExpandBytes = 128;
// Words copied per loop iteration.
constexpr uint64_t kUnroll = 4;
// How deep the walk follows a pointer into device functions, and how many
// uses it looks at before it gives up (and copies).
constexpr unsigned kMaxCallDepth = 4;
constexpr unsigned kMaxVisits = 20000;

// What a kernel does with a byval parameter.
struct Usage {
  bool written = false;  // stored to, here or in a callee
  bool escapes = false;  // the address goes where the walk cannot follow it
  bool opaque = false;   // only read, but through uses that LLVM's own
                         // analysis treats as escapes
  bool returned = false; // (device function parameter) returned
  bool needsCopy() const { return written || escapes; }
};

class UseWalker {
public:
  Usage analyse(Argument &arg) {
    Usage usage;
    walkPointer(&arg, usage, 0);
    return usage;
  }

private:
  using Worklist = SmallVector<Value *, 16>;

  bool budgetLeft(Usage &usage) {
    if (++visits <= kMaxVisits) return true;
    usage.escapes = true;
    return false;
  }

  // Every pointer derived from `root`.
  void walkPointer(Value *root, Usage &usage, unsigned depth) {
    Worklist work{root};
    SmallPtrSet<Value *, 32> seen{root};
    SmallVector<ICmpInst *, 4> compares;
    auto derived = [&](Value *v) {
      if (seen.insert(v).second) work.push_back(v);
    };
    while (!work.empty() && !usage.needsCopy()) {
      Value *value = work.pop_back_val();
      for (Use &use : value->uses()) {
        if (!budgetLeft(usage)) return;
        auto *user = dyn_cast<Instruction>(use.getUser());
        if (!user) {
          usage.escapes = true;
        } else if (auto *gep = dyn_cast<GetElementPtrInst>(user)) {
          if (gep->getPointerOperand() == value) derived(gep);
          else usage.escapes = true;
        } else if (isa<BitCastInst>(user) || isa<PHINode>(user) ||
                   isa<SelectInst>(user) || isa<FreezeInst>(user)) {
          derived(user);
        } else if (auto *cast = dyn_cast<AddrSpaceCastInst>(user)) {
          if (cast->getDestAddressSpace() == kParamAddressSpace) derived(cast);
          else usage.escapes = true;
        } else if (isa<LoadInst>(user)) {
          // a read
        } else if (auto *store = dyn_cast<StoreInst>(user)) {
          if (use.getOperandNo() == store->getPointerOperandIndex())
            usage.written = true;
          else
            usage.escapes = true; // the address itself is stored
        } else if (auto *rmw = dyn_cast<AtomicRMWInst>(user)) {
          if (use.getOperandNo() == rmw->getPointerOperandIndex())
            usage.written = true;
          else
            usage.escapes = true;
        } else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(user)) {
          if (use.getOperandNo() == cmpxchg->getPointerOperandIndex())
            usage.written = true;
          else
            usage.escapes = true;
        } else if (auto *compare = dyn_cast<ICmpInst>(user)) {
          if (depth == 0) compares.push_back(compare); // checked below
        } else if (isa<PtrToIntInst>(user)) {
          walkInteger(user, usage);
          usage.opaque = true;
        } else if (auto *call = dyn_cast<CallBase>(user)) {
          walkCall(*call, use, usage, depth, derived);
        } else if (isa<ReturnInst>(user)) {
          usage.returned = true;
        } else {
          usage.escapes = true;
        }
        if (usage.needsCopy()) return;
      }
    }
    // In the kernel, comparing the address with a pointer not derived from
    // the parameter (rather than with another address in it, or null) makes
    // LLVM 22's address space inference crash when the parameter stays in
    // place: the kernel gets its copy then, and the comparison sees a local
    // address, as with nvcc.
    for (ICmpInst *compare : compares)
      for (Value *operand : compare->operands())
        if (!seen.count(operand) && !isa<Constant>(operand))
          usage.escapes = true;
  }

  // An address converted to an integer: harmless while the integer is only
  // computed with and compared (alignment tests); anything else (inttoptr,
  // stores, calls) counts as an escape.
  void walkInteger(Value *root, Usage &usage) {
    Worklist work{root};
    SmallPtrSet<Value *, 16> seen{root};
    while (!work.empty() && !usage.escapes) {
      Value *value = work.pop_back_val();
      for (Use &use : value->uses()) {
        if (!budgetLeft(usage)) return;
        auto *user = dyn_cast<Instruction>(use.getUser());
        if (user && (isa<BinaryOperator>(user) || isa<TruncInst>(user) ||
                     isa<ZExtInst>(user) || isa<SExtInst>(user) ||
                     isa<PHINode>(user) || isa<SelectInst>(user) ||
                     isa<FreezeInst>(user))) {
          if (seen.insert(user).second) work.push_back(user);
        } else if (user && (isa<ICmpInst>(user) || isa<SwitchInst>(user))) {
          // compared
        } else {
          usage.escapes = true;
          return;
        }
      }
    }
  }

  template <class Derived>
  void walkCall(CallBase &call, Use &use, Usage &usage, unsigned depth,
                Derived &derived) {
    if (!call.isArgOperand(&use)) { // the callee itself, or a bundle operand
      usage.escapes = true;
      return;
    }
    unsigned argNo = call.getArgOperandNo(&use);
    bool readOnly = call.onlyReadsMemory(argNo) || call.onlyReadsMemory();
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(&call)) {
      if (intrinsic->isLifetimeStartOrEnd() || intrinsic->isDroppable())
        return;
      if (auto *transfer = dyn_cast<AnyMemTransferInst>(intrinsic)) {
        // Copied from: a read (a long copy becomes loads, expandCopy).
        if (transfer->getRawDest() == use.get()) usage.written = true;
        return;
      }
      if (isa<AnyMemSetInst>(intrinsic)) {
        usage.written = true;
        return;
      }
      if (readOnly && call.doesNotCapture(argNo)) usage.opaque = true;
      else usage.escapes = true;
      return;
    }
    if (call.isByValArgument(argNo)) { // the callee gets a copy
      usage.opaque = true;
      return;
    }
    if (readOnly && call.doesNotCapture(argNo)) {
      usage.opaque = true;
      return;
    }
    Function *callee = call.getCalledFunction();
    if (callee && !callee->isDeclaration() && !callee->isInterposable() &&
        !callee->isVarArg() && !call.isInlineAsm() &&
        callee->getFunctionType() == call.getFunctionType() &&
        argNo < callee->arg_size() && depth < kMaxCallDepth) {
      // A device function of this module: follow the parameter into it. Only
      // a pointer result can carry the address back (as an integer or inside
      // an aggregate it would have escaped in the callee's walk).
      usage.opaque = true;
      Argument *param = callee->getArg(argNo);
      bool returned = true; // a recursive call may return it
      if (activeSet.insert(param).second) {
        Usage inner;
        walkPointer(param, inner, depth + 1);
        activeSet.erase(param);
        usage.written |= inner.written;
        usage.escapes |= inner.escapes;
        returned = inner.returned;
      }
      if (returned && call.getType()->isPointerTy()) derived(&call);
      return;
    }
    usage.escapes = true;
  }

  SmallPtrSet<const Argument *, 8> activeSet; // callee parameters being walked
  unsigned visits = 0;
};

// cvta.param, which a parameter left in the parameter space needs wherever a
// generic pointer to it is taken, exists from sm_70 and PTX 7.7 on.
bool hasCvtaParam(const TargetMachine &machine) {
  unsigned sm = 0, ptx = 0;
  StringRef cpu = machine.getTargetCPU();
  if (cpu.consume_front("sm_")) cpu.consumeInteger(10, sm);
  SmallVector<StringRef, 8> features;
  machine.getTargetFeatureString().split(features, ',');
  for (StringRef feature : features) {
    unsigned version = 0;
    if (feature.consume_front("+ptx") && !feature.consumeInteger(10, version))
      ptx = std::max(ptx, version);
  }
  return sm >= 70 && ptx >= 77;
}

// Replaces the parameter by a local copy made at the kernel's entry.
void copyToLocal(Argument &arg) {
  Function &kernel = *arg.getParent();
  const DataLayout &layout = kernel.getDataLayout();
  Type *type = arg.getParamByValType();
  Align align = arg.getParamAlign().value_or(layout.getPrefTypeAlign(type));
  IRBuilder<> builder(&*kernel.getEntryBlock().getFirstInsertionPt());
  AllocaInst *copy = builder.CreateAlloca(type, layout.getAllocaAddrSpace(),
                                          nullptr, arg.getName() + ".copy");
  copy->setAlignment(align);
  Value *local = copy;
  if (copy->getType() != arg.getType())
    local = builder.CreateAddrSpaceCast(copy, arg.getType());
  arg.replaceAllUsesWith(local);
  builder.CreateMemCpy(local, align, &arg, align,
                       layout.getTypeAllocSize(type).getFixedValue());
}

// A memcpy out of a byval parameter, as a loop of aligned words.
void expandCopy(MemCpyInst &memcpy) {
  LLVMContext &context = memcpy.getContext();
  uint64_t length = cast<ConstantInt>(memcpy.getLength())->getZExtValue();
  Align align = std::min({memcpy.getSourceAlign().valueOrOne(),
                          memcpy.getDestAlign().valueOrOne(), Align(16)});
  uint64_t word = align.value();
  Type *wordType = word == 16
                       ? static_cast<Type *>(FixedVectorType::get(
                             Type::getInt32Ty(context), 4))
                       : Type::getIntNTy(context, word * 8);
  Type *i8 = Type::getInt8Ty(context);
  Type *i64 = Type::getInt64Ty(context);
  Value *dest = memcpy.getRawDest();
  Value *source = memcpy.getRawSource();
  auto copyAt = [&](IRBuilder<> &builder, Value *offset, Type *type,
                    Align access) {
    Value *from = builder.CreateInBoundsGEP(i8, source, offset);
    LoadInst *load = builder.CreateAlignedLoad(type, from, access);
    Value *to = builder.CreateInBoundsGEP(i8, dest, offset);
    builder.CreateAlignedStore(load, to, access);
  };

  uint64_t done = 0;
  uint64_t words = length / word;
  if (words >= 4 * kUnroll) {
    uint64_t iterations = words / kUnroll;
    auto [body, index] = SplitBlockAndInsertSimpleForLoop(
        ConstantInt::get(i64, iterations), memcpy.getIterator());
    IRBuilder<> loop(body);
    Value *base = loop.CreateMul(index, ConstantInt::get(i64, kUnroll * word),
                                 "", /*HasNUW=*/true, /*HasNSW=*/true);
    for (uint64_t u = 0; u < kUnroll; ++u)
      copyAt(loop,
             u == 0 ? base
                    : loop.CreateAdd(base, ConstantInt::get(i64, u * word), "",
                                     /*HasNUW=*/true, /*HasNSW=*/true),
             wordType, align);
    done = iterations * kUnroll * word;
  }
  IRBuilder<> rest(&memcpy);
  for (; done + word <= length; done += word)
    copyAt(rest, ConstantInt::get(i64, done), wordType, align);
  for (uint64_t size = word / 2; size >= 1; size /= 2)
    for (; done + size <= length; done += size)
      copyAt(rest, ConstantInt::get(i64, done), Type::getIntNTy(context, size * 8),
             commonAlignment(align, done));
  memcpy.eraseFromParent();
}

bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel &&
         !function.isDeclaration();
}

} // namespace

PreservedAnalyses KernelParamsPass::run(Module &module,
                                        ModuleAnalysisManager &analyses) {
  bool cvtaParam = hasCvtaParam(machine);
  bool changed = false;
  for (Function &kernel : module) {
    if (!isKernel(kernel)) continue;
    SmallPtrSet<Argument *, 4> byval;
    bool copied = false;
    for (Argument &arg : kernel.args()) {
      if (!arg.hasByValAttr()) continue;
      byval.insert(&arg);
      if (arg.use_empty() || arg.hasAttribute(kGridConstant)) continue;
      Usage usage = UseWalker().analyse(arg);
      if (!usage.needsCopy() && !usage.opaque) continue; // LLVM reads it in place
      if (!usage.needsCopy() && cvtaParam) {
        arg.addAttr(Attribute::get(kernel.getContext(), kGridConstant));
        changed = true;
        continue;
      }
      copyToLocal(arg);
      copied = changed = true;
    }
    if (byval.empty()) continue;
    if (copied && optimize) {
      // As LLVM's backend does after its own copy: fields accessed at
      // constant offsets become registers, and only what is still accessed
      // through memory stays in the copy.
      auto &functions =
          analyses.getResult<FunctionAnalysisManagerModuleProxy>(module)
              .getManager();
      functions.invalidate(kernel, PreservedAnalyses::none());
      PreservedAnalyses kept =
          SROAPass(SROAOptions::ModifyCFG).run(kernel, functions);
      functions.invalidate(kernel, kept);
    }
    SmallVector<MemCpyInst *, 4> copies;
    for (Instruction &inst : instructions(kernel)) {
      auto *memcpy = dyn_cast<MemCpyInst>(&inst);
      if (!memcpy || memcpy->isVolatile()) continue;
      auto *length = dyn_cast<ConstantInt>(memcpy->getLength());
      if (!length || length->getZExtValue() < kMinExpandBytes) continue;
      auto *from = dyn_cast<Argument>(
          getUnderlyingObject(memcpy->getRawSource(), /*MaxLookup=*/0));
      if (from && byval.count(from)) copies.push_back(memcpy);
    }
    for (MemCpyInst *memcpy : copies) expandCopy(*memcpy);
    changed |= !copies.empty();
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void registerKernelParamsPass(PassBuilder &builder,
                              const TargetMachine &machine) {
  builder.registerOptimizerLastEPCallback(
      [&machine](ModulePassManager &pipeline, OptimizationLevel level,
                 ThinOrFullLTOPhase) {
        pipeline.addPass(
            KernelParamsPass(machine, level != OptimizationLevel::O0));
      });
}

} // namespace mycc::offload
