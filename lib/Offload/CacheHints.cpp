#include "CacheHints.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace mycc::offload {
namespace {

using namespace llvm;

Function *markerIn(Module &module) {
  LLVMContext &ctx = module.getContext();
  auto *ptr = PointerType::getUnqual(ctx);
  FunctionCallee callee = module.getOrInsertFunction(
      kAccessPropertyMarker,
      FunctionType::get(ptr, {ptr, Type::getInt64Ty(ctx)}, false));
  auto *marker = cast<Function>(callee.getCallee());
  // No memory access and no other effect: the optimiser may move, merge or
  // drop it like arithmetic, but cannot see through it.
  marker->setDoesNotAccessMemory();
  marker->setDoesNotThrow();
  marker->setWillReturn();
  return marker;
}

// How one element of an access is named in PTX and passed to inline asm.
struct Element {
  const char *ptxType;
  const char *constraint;
  Type *asmType; // the operand's type in the asm call
};

// nullopt: not an element the hinted instructions can move.
std::optional<Element> elementOf(Type *type, const DataLayout &layout) {
  LLVMContext &ctx = type->getContext();
  if (type->isFloatTy()) return Element{"f32", "f", type};
  if (type->isDoubleTy()) return Element{"f64", "d", type};
  if (type->isPointerTy() && layout.getTypeSizeInBits(type) == 64)
    return Element{"b64", "l", Type::getInt64Ty(ctx)};
  if (!type->isIntegerTy() && !type->isHalfTy() && !type->isBFloatTy())
    return std::nullopt;
  switch (layout.getTypeSizeInBits(type)) {
  case 8: return Element{"u8", "r", Type::getInt32Ty(ctx)};
  case 16: return Element{"b16", "h", Type::getInt16Ty(ctx)};
  case 32: return Element{"b32", "r", Type::getInt32Ty(ctx)};
  case 64: return Element{"b64", "l", Type::getInt64Ty(ctx)};
  default: return std::nullopt;
  }
}

// The access's type as elements: one scalar, or a vector of 2 or 4.
bool shapeOf(Type *type, const DataLayout &layout, Element &element,
             unsigned &count) {
  count = 1;
  if (auto *vector = dyn_cast<FixedVectorType>(type)) {
    count = vector->getNumElements();
    type = vector->getElementType();
    if (count != 2 && count != 4) return false;
    if (count == 4 && layout.getTypeSizeInBits(type) > 32) return false;
    if (layout.getTypeSizeInBits(type) < 16) return false;
  }
  std::optional<Element> e = elementOf(type, layout);
  if (!e) return false;
  element = *e;
  return true;
}

// A value of the access's type as asm operands, and back.
Value *toOperand(IRBuilder<> &b, Value *v, Type *operandType) {
  Type *type = v->getType();
  if (type == operandType) return v;
  if (type->isPointerTy()) return b.CreatePtrToInt(v, operandType);
  if (type->isIntegerTy()) return b.CreateZExtOrTrunc(v, operandType);
  return b.CreateBitCast(v, operandType); // half/bfloat as i16
}
Value *fromOperand(IRBuilder<> &b, Value *v, Type *type) {
  if (v->getType() == type) return v;
  if (type->isPointerTy()) return b.CreateIntToPtr(v, type);
  if (type->isIntegerTy()) return b.CreateZExtOrTrunc(v, type);
  return b.CreateBitCast(v, type);
}

// "{$0, $1}" for operands first..first+count-1; "$0" for one.
std::string operandList(unsigned first, unsigned count) {
  if (count == 1) return "$" + std::to_string(first);
  std::string list = "{";
  for (unsigned i = 0; i < count; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list + "}";
}

std::string accessType(const Element &e, unsigned count) {
  return (count == 1 ? "" : ".v" + std::to_string(count)) + "." + e.ptxType;
}

// The generic address converted to a global one, as nvcc's PTX does.
std::string globalAddress(unsigned operand) {
  return ".reg .b64 %hinted; cvta.to.global.u64 %hinted, $" +
         std::to_string(operand) + "; ";
}

bool lowerLoad(LoadInst &load, Value *policy) {
  const DataLayout &layout = load.getDataLayout();
  Element e;
  unsigned count;
  if (load.isVolatile() || load.isAtomic() ||
      !shapeOf(load.getType(), layout, e, count))
    return false;
  IRBuilder<> b(&load);
  SmallVector<Type *, 4> results(count, e.asmType);
  Type *resultType = count == 1 ? e.asmType
                                : StructType::get(load.getContext(), results);
  std::string constraints;
  for (unsigned i = 0; i < count; ++i)
    constraints += std::string(i ? ",=" : "=") + e.constraint;
  constraints += ",l,l,~{memory}";
  std::string text = "{ " + globalAddress(count) + "ld.global.L2::cache_hint" +
                     accessType(e, count) + " " + operandList(0, count) +
                     ", [%hinted], $" + std::to_string(count + 1) + "; }";
  auto *asmType = FunctionType::get(
      resultType, {load.getPointerOperand()->getType(), policy->getType()},
      false);
  Value *raw = b.CreateCall(InlineAsm::get(asmType, text, constraints, true),
                            {load.getPointerOperand(), policy});
  Value *value;
  if (count == 1) {
    value = fromOperand(b, raw, load.getType());
  } else {
    auto *vector = cast<FixedVectorType>(load.getType());
    value = PoisonValue::get(vector);
    for (unsigned i = 0; i < count; ++i)
      value = b.CreateInsertElement(
          value,
          fromOperand(b, b.CreateExtractValue(raw, i), vector->getElementType()),
          i);
  }
  load.replaceAllUsesWith(value);
  load.eraseFromParent();
  return true;
}

bool lowerStore(StoreInst &store, Value *policy) {
  const DataLayout &layout = store.getDataLayout();
  Value *stored = store.getValueOperand();
  Element e;
  unsigned count;
  if (store.isVolatile() || store.isAtomic() ||
      !shapeOf(stored->getType(), layout, e, count))
    return false;
  IRBuilder<> b(&store);
  SmallVector<Value *, 6> operands{store.getPointerOperand()};
  SmallVector<Type *, 6> types{store.getPointerOperand()->getType()};
  std::string constraints = "l";
  for (unsigned i = 0; i < count; ++i) {
    Value *element = count == 1 ? stored : b.CreateExtractElement(stored, i);
    operands.push_back(toOperand(b, element, e.asmType));
    types.push_back(e.asmType);
    constraints += std::string(",") + e.constraint;
  }
  operands.push_back(policy);
  types.push_back(policy->getType());
  constraints += ",l,~{memory}";
  std::string text = "{ " + globalAddress(0) + "st.global.L2::cache_hint" +
                     accessType(e, count) + " [%hinted], " +
                     operandList(1, count) + ", $" +
                     std::to_string(count + 1) + "; }";
  auto *asmType = FunctionType::get(Type::getVoidTy(store.getContext()),
                                    types, false);
  b.CreateCall(InlineAsm::get(asmType, text, constraints, true), operands);
  store.eraseFromParent();
  return true;
}

// A copy of one aligned 1- to 16-byte object (a float4 assigned through an
// annotated_ptr is a 16-byte memcpy) as one load and one store, which the
// hints can then apply to; nullptr where it is not such a copy.
std::pair<LoadInst *, StoreInst *> splitCopy(MemCpyInst &copy) {
  auto *length = dyn_cast<ConstantInt>(copy.getLength());
  if (!length || copy.isVolatile()) return {nullptr, nullptr};
  uint64_t bytes = length->getZExtValue();
  uint64_t align = std::min(copy.getDestAlign().valueOrOne().value(),
                            copy.getSourceAlign().valueOrOne().value());
  LLVMContext &ctx = copy.getContext();
  Type *type = nullptr;
  if (bytes == 16) type = FixedVectorType::get(Type::getInt32Ty(ctx), 4);
  else if (bytes == 8 || bytes == 4 || bytes == 2 || bytes == 1)
    type = Type::getIntNTy(ctx, 8 * bytes);
  if (!type || align < bytes) return {nullptr, nullptr};
  IRBuilder<> b(&copy);
  LoadInst *load = b.CreateAlignedLoad(type, copy.getSource(), Align(bytes));
  StoreInst *store = b.CreateAlignedStore(load, copy.getDest(), Align(bytes));
  copy.eraseFromParent();
  return {load, store};
}

// Loads and stores through `pointer` or address arithmetic on it.
void lowerAccesses(Value *pointer, Value *policy) {
  SmallVector<Value *, 8> work{pointer};
  while (!work.empty()) {
    Value *p = work.pop_back_val();
    SmallVector<User *, 8> users(p->users());
    for (User *user : users) {
      if (auto *gep = dyn_cast<GetElementPtrInst>(user)) {
        work.push_back(gep);
      } else if (auto *load = dyn_cast<LoadInst>(user)) {
        lowerLoad(*load, policy);
      } else if (auto *store = dyn_cast<StoreInst>(user)) {
        if (store->getPointerOperand() == p) lowerStore(*store, policy);
      } else if (auto *copy = dyn_cast<MemCpyInst>(user)) {
        bool from = copy->getSource() == p, to = copy->getDest() == p;
        auto [load, store] = splitCopy(*copy);
        if (load && from) lowerLoad(*load, policy);
        if (store && to) lowerStore(*store, policy);
      }
    }
  }
}

// The calls of `f` (not other uses of its address).
SmallVector<CallInst *, 8> callsOf(Function &f) {
  SmallVector<CallInst *, 8> calls;
  for (User *user : f.users())
    if (auto *call = dyn_cast<CallInst>(user))
      if (call->getCalledFunction() == &f) calls.push_back(call);
  return calls;
}

} // namespace

void markAccessProperties(Module &module, StringRef associate) {
  Function *f = module.getFunction(associate);
  if (!f || f->arg_size() != 2 || !f->getReturnType()->isPointerTy() ||
      !f->getArg(0)->getType()->isPointerTy() ||
      !f->getArg(1)->getType()->isIntegerTy(64))
    return;
  Function *marker = markerIn(module);
  for (CallInst *call : callsOf(*f)) {
    auto *marked = CallInst::Create(
        marker, {call->getArgOperand(0), call->getArgOperand(1)}, "",
        call->getIterator());
    call->replaceAllUsesWith(marked);
    call->eraseFromParent();
  }
}

void lowerCacheHints(Module &module) {
  Function *marker = module.getFunction(kAccessPropertyMarker);
  if (!marker) return;
  for (CallInst *call : callsOf(*marker)) {
    lowerAccesses(call, call->getArgOperand(1));
    call->replaceAllUsesWith(call->getArgOperand(0));
    call->eraseFromParent();
  }
  if (marker->use_empty()) marker->eraseFromParent();
}

} // namespace mycc::offload
