// Memory accesses in the forms nvcc's PTX has.
//
// Two things LLVM 22's NVPTX back end does not do, each of which costs
// tensor-core kernels a large part of their speed (the staging copies and
// fragment loads of the usual WMMA GEMM):
//
// - A 16-byte aligned copy (`*(int4 *)dst = *(const int4 *)src`, a float4
//   assigned: Clang emits llvm.memcpy for a struct copy) becomes two 8-byte
//   loads and stores, since NVPTXTargetLowering does not override
//   getOptimalMemOpType. ptxas merges the shared stores but not the global
//   loads. nvcc's PTX has one ld.global.v4 and one st.shared.v4. The
//   copies are widened here, before code generation, into <4 x i32>
//   accesses. The LLVM change that makes this unnecessary: NVPTX's
//   getOptimalMemOpType returning v4i32 for 16-byte aligned operands.
//
// - The WMMA load and store intrinsics are overloaded on their pointer's
//   address space, and the back end has a shared-memory instruction for
//   each (wmma.load.a...shared), but InferAddressSpaces does not move them
//   there: NVPTXTTIImpl's collectFlatAddressOperands and
//   rewriteIntrinsicWithAddressSpace do not list the nvvm_wmma_*
//   intrinsics. A generic wmma.load after cvta.shared is what ptxas then
//   sees, and it emits generic loads (4 per f16 fragment) instead of one
//   LDSM. Since the intrinsic is not one of its roots, the inference does
//   not even look at an address only such a call uses. Here the call takes
//   the intrinsic of the space its address is computed from, on a cast back
//   to that space, and InferAddressSpaces, run next, folds the cast into
//   the computation. The LLVM change that makes this unnecessary: those two
//   hooks covering the WMMA intrinsics (as they cover ldu/ldg and the
//   prefetches).
#include "MemoryAccesses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace mycc::offload {

namespace {

constexpr unsigned kGeneric = 0, kGlobal = 1, kShared = 3;
// Larger copies are NVPTX's LowerAggrCopies' (a loop) as before.
constexpr uint64_t kMaxWidenedBytes = 128;

// A copy whose kind and size allow widening: not volatile, a constant
// multiple of 16 bytes up to kMaxWidenedBytes (alignment aside).
bool widenableSize(const MemTransferInst &copy) {
  auto *length = dyn_cast<ConstantInt>(copy.getLength());
  if (copy.isVolatile() || !length) return false;
  uint64_t bytes = length->getZExtValue();
  return bytes != 0 && bytes % 16 == 0 && bytes <= kMaxWidenedBytes;
}

// Raises the copy's alignments to what its addresses are known to have
// (Clang gives `*(int4 *)&tile[r][c] = ...` the alignment of `tile`'s
// element type, not of int4); then whether it is one to widen.
bool widenable(MemTransferInst &copy, const DataLayout &layout) {
  if (!widenableSize(copy)) return false;
  Align dest = std::max(copy.getDestAlign().valueOrOne(), getKnownAlignment(copy.getRawDest(), layout));
  Align source = std::max(copy.getSourceAlign().valueOrOne(), getKnownAlignment(copy.getRawSource(), layout));
  copy.setDestAlignment(dest);
  copy.setSourceAlignment(source);
  return dest >= Align(16) && source >= Align(16);
}

// The address space a generic pointer points into, from how it was
// computed: through offsets, selects and phis to a cast from a specific
// space (kGeneric where that is not known, or the inputs differ).
unsigned specificSpace(const Value *pointer, SmallPtrSetImpl<const Value *> &seen, unsigned depth) {
  constexpr unsigned kUnknown = ~0u; // a phi already being looked at: no vote
  if (depth > 16) return kGeneric;
  pointer = pointer->stripPointerCasts();
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != kGeneric) return space;
  if (auto *cast = dyn_cast<Operator>(pointer); cast && cast->getOpcode() == Instruction::AddrSpaceCast)
    return specificSpace(cast->getOperand(0), seen, depth + 1);
  if (auto *gep = dyn_cast<GEPOperator>(pointer))
    return specificSpace(gep->getPointerOperand(), seen, depth + 1);
  // A kernel's pointer parameter points to global memory, as NVPTX's
  // lowering of kernel arguments (and nvcc) takes it.
  if (auto *argument = dyn_cast<Argument>(pointer))
    return argument->getParent()->getCallingConv() == CallingConv::PTX_Kernel &&
                   !argument->hasByValAttr()
               ? kGlobal
               : kGeneric;
  SmallVector<const Value *, 4> inputs;
  if (auto *select = dyn_cast<SelectInst>(pointer)) {
    inputs = {select->getTrueValue(), select->getFalseValue()};
  } else if (auto *phi = dyn_cast<PHINode>(pointer)) {
    if (!seen.insert(phi).second) return kUnknown;
    inputs.append(phi->incoming_values().begin(), phi->incoming_values().end());
  } else {
    return kGeneric;
  }
  unsigned found = kUnknown;
  for (const Value *input : inputs) {
    unsigned s = specificSpace(input, seen, depth + 1);
    if (s == kUnknown) continue;
    if (s == kGeneric || (found != kUnknown && s != found)) return kGeneric;
    found = s;
  }
  return found;
}

} // namespace

bool isWmmaMemoryAccess(const CallInst &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee || !callee->isIntrinsic()) return false;
  StringRef name = callee->getName();
  return name.starts_with("llvm.nvvm.wmma.") &&
         (name.contains(".load.") || name.contains(".store.")) &&
         call.arg_size() > 0 && call.getArgOperand(0)->getType()->isPointerTy();
}

bool widenAlignedCopies(Function &function) {
  SmallVector<MemTransferInst *, 8> copies;
  const DataLayout &layout = function.getParent()->getDataLayout();
  for (Instruction &i : instructions(function))
    if (auto *copy = dyn_cast<MemTransferInst>(&i); copy && widenable(*copy, layout))
      copies.push_back(copy);
  if (copies.empty()) return false;
  auto *piece = FixedVectorType::get(Type::getInt32Ty(function.getContext()), 4);
  for (MemTransferInst *copy : copies) {
    IRBuilder<> builder(copy);
    uint64_t pieces = cast<ConstantInt>(copy->getLength())->getZExtValue() / 16;
    // Alias scopes stay; the type-based tags of a struct copy describe its
    // fields, not 16-byte pieces.
    AAMDNodes aliasing = copy->getAAMetadata();
    aliasing.TBAA = aliasing.TBAAStruct = nullptr;
    SmallVector<Value *, 8> values;
    for (uint64_t p = 0; p < pieces; ++p) {
      Value *from = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), copy->getSource(), p * 16);
      LoadInst *load = builder.CreateAlignedLoad(piece, from, Align(16));
      load->setAAMetadata(aliasing);
      values.push_back(load);
    }
    for (uint64_t p = 0; p < pieces; ++p) {
      Value *to = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), copy->getDest(), p * 16);
      StoreInst *store = builder.CreateAlignedStore(values[p], to, Align(16));
      store->setAAMetadata(aliasing);
    }
    copy->eraseFromParent();
  }
  return true;
}

bool wmmaInSpecificSpaces(Function &function) {
  bool changed = false;
  for (Instruction &i : make_early_inc_range(instructions(function))) {
    auto *call = dyn_cast<CallInst>(&i);
    if (!call || !isWmmaMemoryAccess(*call)) continue;
    Value *address = call->getArgOperand(0);
    if (address->getType()->getPointerAddressSpace() != kGeneric) continue;
    SmallPtrSet<const Value *, 16> seen;
    unsigned space = specificSpace(address, seen, 0);
    if (space != kShared && space != kGlobal) continue;
    Function *callee = call->getCalledFunction();
    Intrinsic::ID id = callee->getIntrinsicID();
    if (id == Intrinsic::not_intrinsic || !Intrinsic::isOverloaded(id)) continue;
    auto *spaceType = PointerType::get(function.getContext(), space);
    Function *specific = Intrinsic::getOrInsertDeclaration(function.getParent(), id, {spaceType});
    // Only the address's type may differ: an intrinsic overloaded on more
    // than its pointer is left as it is.
    FunctionType *was = callee->getFunctionType(), *now = specific->getFunctionType();
    if (now->getReturnType() != was->getReturnType() || now->getNumParams() != was->getNumParams() ||
        now->getParamType(0) != spaceType)
      continue;
    bool same = true;
    for (unsigned p = 1; p < was->getNumParams(); ++p)
      same &= now->getParamType(p) == was->getParamType(p);
    if (!same) continue;
    // A cast back to the space the address came from, which address space
    // inference then folds into the address's computation.
    auto *cast = new AddrSpaceCastInst(address, spaceType, "", call->getIterator());
    call->setCalledFunction(specific);
    call->setArgOperand(0, cast);
    changed = true;
  }
  return changed;
}

PreservedAnalyses MemoryAccessesPass::run(Function &function,
                                          FunctionAnalysisManager &analyses) {
  // Only functions with something to change are touched: address space
  // inference rewrites more than this pass needs, and code generation then
  // sees another order of uses (-split-compile's parts, read back from
  // bitcode, would not).
  bool candidates = false;
  for (Instruction &i : instructions(function)) {
    if (auto *copy = dyn_cast<MemTransferInst>(&i)) {
      candidates |= widenableSize(*copy);
    } else if (auto *call = dyn_cast<CallInst>(&i)) {
      candidates |= isWmmaMemoryAccess(*call);
    }
    if (candidates) break;
  }
  if (!candidates) return PreservedAnalyses::all();
  // Addresses in their spaces first: alignment is known from a shared
  // array's declaration only through its own address space.
  PreservedAnalyses inferred = InferAddressSpacesPass().run(function, analyses);
  bool changed = !inferred.areAllPreserved();
  analyses.invalidate(function, inferred);
  changed |= widenAlignedCopies(function);
  // The WMMA addresses computed in their spaces (the casts just made fold).
  if (wmmaInSpecificSpaces(function)) {
    InferAddressSpacesPass().run(function, analyses);
    changed = true;
  }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

void registerMemoryAccessesPass(PassBuilder &builder) {
  builder.registerOptimizerLastEPCallback(
      [](ModulePassManager &pipeline, OptimizationLevel level, ThinOrFullLTOPhase) {
        if (level == OptimizationLevel::O0) return;
        pipeline.addPass(createModuleToFunctionPassAdaptor(MemoryAccessesPass()));
      });
  builder.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &pipeline, OptimizationLevel level) {
        if (level == OptimizationLevel::O0) return;
        pipeline.addPass(createModuleToFunctionPassAdaptor(MemoryAccessesPass()));
      });
}

} // namespace mycc::offload
