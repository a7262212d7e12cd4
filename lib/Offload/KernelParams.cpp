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
//  - not written, its address escaping, and the parameter declared `const`
//    (mycc.const_param): grid constant as well;
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
// A parameter declared `const` (and without mutable members), marked by
// KernelAttributes from the AST: CUTLASS writes __grid_constant__ for nvcc
// only, and hands the address of such a parameter to inline assembly.
constexpr StringRef kConstParam = "mycc.const_param";
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
  bool compared = false; // compared with a pointer from elsewhere (a copy
                         // then, always: see walkPointer)
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
          usage.escapes = usage.compared = true;
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

// Replaces the parameter by a local copy made at the function's entry.
MemCpyInst *copyToLocal(Argument &arg) {
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
  return cast<MemCpyInst>(
      builder.CreateMemCpy(local, align, &arg, align,
                           layout.getTypeAllocSize(type).getFixedValue()));
}

// A memcpy out of a byval parameter, as a loop of aligned words (straight
// line without `loop`).
void expandCopy(MemCpyInst &memcpy, bool loop = true) {
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
  if (loop && words >= 4 * kUnroll) {
    uint64_t iterations = words / kUnroll;
    auto [body, index] = SplitBlockAndInsertSimpleForLoop(
        ConstantInt::get(i64, iterations), memcpy.getIterator());
    IRBuilder<> inLoop(body);
    Value *base = inLoop.CreateMul(index, ConstantInt::get(i64, kUnroll * word),
                                   "", /*HasNUW=*/true, /*HasNSW=*/true);
    for (uint64_t u = 0; u < kUnroll; ++u)
      copyAt(inLoop,
             u == 0 ? base
                    : inLoop.CreateAdd(base, ConstantInt::get(i64, u * word),
                                       "", /*HasNUW=*/true, /*HasNSW=*/true),
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

// Whether every use of a device function's byval parameter is a load in the
// entry block (through GEPs). LLVM 22's NVPTX back end, with 32-bit local
// pointers (-nvptx-short-ptr, which mycc uses), aborts on any other use
// ("Copy one register into another with a different width"): a load in a
// later block, or the address passed on or returned.
// docs/nvcc-compatibility.md has the reduced case.
bool readInEntryBlock(Argument &arg) {
  const BasicBlock &entry = arg.getParent()->getEntryBlock();
  SmallVector<Value *, 8> work{&arg};
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    for (User *user : v->users()) {
      if (auto *gep = dyn_cast<GetElementPtrInst>(user)) {
        work.push_back(gep);
        continue;
      }
      auto *load = dyn_cast<LoadInst>(user);
      if (!load || load->isVolatile() || load->getParent() != &entry)
        return false;
    }
  }
  return true;
}

// The largest aggregate a device function's parameter is passed as a value
// for (a load of it at each call).
constexpr uint64_t kMaxValueParamBytes = 1024;

// Whether `arg`, a byval parameter of a device function, can be passed as an
// aggregate value instead: the PTX is the same (`.param .align A .b8 p[N]`)
// when the type's ABI alignment is the byval alignment, and every caller is
// a direct call in this module that can be rewritten.
bool passableAsValue(Argument &arg) {
  Function &function = *arg.getParent();
  const DataLayout &layout = function.getDataLayout();
  Type *type = arg.getParamByValType();
  if (!type || !type->isAggregateType() ||
      layout.getTypeAllocSize(type).getFixedValue() > kMaxValueParamBytes)
    return false;
  MaybeAlign align = arg.getParamAlign();
  if (align && *align != layout.getABITypeAlign(type)) return false;
  return !function.hasAddressTaken() && !function.isVarArg();
}

// Replaces `function` by one (returned) that takes the parameters numbered
// in `which` (byval pointers) as aggregate values, which its entry stores
// into a local copy; each call loads the aggregate where it passed the
// pointer. LLVM 22's NVPTX back end reads an aggregate value parameter
// (ld.param) without the fault readInEntryBlock describes, at every
// optimisation level.
Function *passAsValues(Function &function,
                       const SmallVector<unsigned, 4> &which) {
  Module &module = *function.getParent();
  LLVMContext &context = module.getContext();
  const DataLayout &layout = module.getDataLayout();
  FunctionType *oldType = function.getFunctionType();
  SmallVector<Type *, 8> params(oldType->params());
  SmallVector<Type *, 4> types;
  SmallVector<Align, 4> aligns;
  for (unsigned i : which) {
    Argument &arg = *function.getArg(i);
    types.push_back(arg.getParamByValType());
    aligns.push_back(arg.getParamAlign().value_or(
        layout.getABITypeAlign(arg.getParamByValType())));
    params[i] = types.back();
  }
  AttributeList attrs = function.getAttributes();
  for (unsigned i : which)
    attrs = attrs.removeParamAttributes(context, i);
  auto *newFunction = Function::Create(
      FunctionType::get(oldType->getReturnType(), params, false),
      function.getLinkage(), function.getAddressSpace(), "", &module);
  newFunction->copyAttributesFrom(&function);
  newFunction->setAttributes(attrs);
  newFunction->copyMetadata(&function, 0);
  newFunction->setSubprogram(function.getSubprogram());
  newFunction->takeName(&function);
  newFunction->splice(newFunction->begin(), &function);

  IRBuilder<> entry(&*newFunction->getEntryBlock().getFirstInsertionPt());
  for (unsigned i = 0; i < function.arg_size(); ++i) {
    Argument &oldArg = *function.getArg(i);
    Argument &newArg = *newFunction->getArg(i);
    newArg.takeName(&oldArg);
    auto at = std::find(which.begin(), which.end(), i);
    if (at == which.end()) {
      oldArg.replaceAllUsesWith(&newArg);
      continue;
    }
    size_t k = at - which.begin();
    AllocaInst *copy = entry.CreateAlloca(
        types[k], layout.getAllocaAddrSpace(), nullptr, newArg.getName() + ".copy");
    copy->setAlignment(aligns[k]);
    Value *local = copy;
    if (copy->getType() != oldArg.getType())
      local = entry.CreateAddrSpaceCast(copy, oldArg.getType());
    entry.CreateAlignedStore(&newArg, local, aligns[k]);
    oldArg.replaceAllUsesWith(local);
  }

  SmallVector<CallBase *, 8> calls;
  for (User *user : function.users())
    calls.push_back(cast<CallBase>(user));
  for (CallBase *call : calls) {
    IRBuilder<> before(call);
    SmallVector<Value *, 8> args(call->args());
    for (size_t k = 0; k < which.size(); ++k)
      args[which[k]] =
          before.CreateAlignedLoad(types[k], args[which[k]], aligns[k]);
    SmallVector<OperandBundleDef, 1> bundles;
    call->getOperandBundlesAsDefs(bundles);
    CallInst *replacement = before.CreateCall(newFunction, args, bundles);
    AttributeList callAttrs = call->getAttributes();
    for (unsigned i : which)
      callAttrs = callAttrs.removeParamAttributes(context, i);
    replacement->setAttributes(callAttrs);
    replacement->setCallingConv(call->getCallingConv());
    replacement->setDebugLoc(call->getDebugLoc());
    if (auto *tail = dyn_cast<CallInst>(call))
      replacement->setTailCallKind(tail->getTailCallKind());
    replacement->takeName(call);
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  function.eraseFromParent();
  return newFunction;
}

// SROA on a function whose byval parameter this file copied (as LLVM's
// backend does after its own copy): fields accessed at constant offsets
// become registers, and only what is still accessed through memory stays in
// the copy.
void promoteCopies(Function &function, FunctionAnalysisManager &analyses) {
  analyses.invalidate(function, PreservedAnalyses::none());
  PreservedAnalyses kept =
      SROAPass(SROAOptions::ModifyCFG).run(function, analyses);
  analyses.invalidate(function, kept);
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
      // A `const` parameter that is not written: whatever its address goes
      // to (inline assembly, as the TMA copies of CUTLASS and CuTe, which
      // cannot read a descriptor from a local copy) only reads it.
      bool readOnlyConst = !usage.written && !usage.compared &&
                           arg.hasAttribute(kConstParam);
      if ((!usage.needsCopy() || readOnlyConst) && cvtaParam) {
        arg.addAttr(Attribute::get(kernel.getContext(), kGridConstant));
        changed = true;
        continue;
      }
      copyToLocal(arg);
      copied = changed = true;
    }
    if (byval.empty()) continue;
    if (copied && optimize) {
      promoteCopies(
          kernel, analyses.getResult<FunctionAnalysisManagerModuleProxy>(module)
                      .getManager());
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


PreservedAnalyses DeviceFunctionParamsPass::run(Module &module,
                                                ModuleAnalysisManager &analyses) {
  bool changed = false;
  auto &analysesOf =
      analyses.getResult<FunctionAnalysisManagerModuleProxy>(module)
          .getManager();
  SmallVector<Function *, 8> deviceFunctions;
  for (Function &function : module)
    if (!function.isDeclaration() && !isKernel(function))
      deviceFunctions.push_back(&function);
  for (Function *current : deviceFunctions) {
    SmallVector<unsigned, 4> asValues;
    bool copied = false;
    for (Argument &arg : current->args()) {
      // Without optimisation the back end faults on any read of the
      // parameter in place; with it, on those readInEntryBlock rejects.
      if (!arg.hasByValAttr() || (optimize && readInEntryBlock(arg)))
        continue;
      if (passableAsValue(arg) &&
          (signatures || current->hasLocalLinkage())) {
        asValues.push_back(arg.getArgNo());
      } else if (!arg.use_empty()) {
        // Straight-line loads in the entry block, also where SROA does not
        // run: the back end's own expansion would loop over bytes in a
        // block of its own. (At -O0 the back end still faults on these.)
        expandCopy(*copyToLocal(arg), /*loop=*/false);
        copied = true;
      }
    }
    Function *function = current;
    if (!asValues.empty()) {
      analysesOf.clear(*current, current->getName()); // it is replaced
      function = passAsValues(*current, asValues);
      copied = true;
    }
    changed |= copied;
    if (copied && optimize) promoteCopies(*function, analysesOf);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void registerKernelParamsPass(PassBuilder &builder,
                              const TargetMachine &machine) {
  builder.registerOptimizerLastEPCallback(
      [&machine](ModulePassManager &pipeline, OptimizationLevel level,
                 ThinOrFullLTOPhase phase) {
        bool optimize = level != OptimizationLevel::O0;
        pipeline.addPass(KernelParamsPass(machine, optimize));
        // Before the device link, another unit may call an external
        // function: its signature stays.
        pipeline.addPass(DeviceFunctionParamsPass(
            optimize, phase != ThinOrFullLTOPhase::FullLTOPreLink));
      });
  // The linked program of relocatable device code is optimised again.
  builder.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &pipeline, OptimizationLevel level) {
        pipeline.addPass(
            DeviceFunctionParamsPass(level != OptimizationLevel::O0, true));
      });
}

void restrictKernelPointers(llvm::Module &module) {
  for (llvm::Function &f : module)
    if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      for (llvm::Argument &arg : f.args())
        if (arg.getType()->isPointerTy() && !arg.hasByValAttr())
          arg.addAttr(llvm::Attribute::NoAlias);
}

} // namespace mycc::offload
