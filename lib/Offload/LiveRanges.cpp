// Shorter live ranges in the NVPTX code generator. See LiveRanges.h.
//
// Why: a kernel's register count decides how many of its blocks an SM runs
// at once, and LLVM's NVPTX code generator does not see register pressure.
// The case that shows it is CUB's radix sort (onesweep kernel, 64-bit
// offsets): each thread ranks 18 keys, each by its digit ((key >> bit) &
// mask) and a shared-memory counter address computed from it, and uses both
// again after the ranking. LLVM keeps 18 digits and addresses live across
// the ranking and sinks each rank's last addition next to the scatter,
// keeping its two operands live instead: 80 registers, 2 blocks of 384
// threads per SM. nvcc's PTX recomputes digits and addresses from the keys:
// 56 registers, 3 blocks. A plain recomputation does not help: ptxas finds
// the same expression and merges the copies back; (x & (m << s)) >> s is
// equal for every shift the original allows, and ptxas keeps it apart.
// docs/performance.md has the measurements.
#include "LiveRanges.h"
#include "MemoryAccesses.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>

namespace mycc::offload {
namespace {

using namespace llvm;

// Limits: instructions recomputed for one use block, blocks a value may be
// recomputed in, and rounds over the function (a round can make the
// operands of what it recomputed candidates of the next).
constexpr unsigned kMaxTree = 8;
constexpr unsigned kMaxUseBlocks = 4;
constexpr unsigned kMaxRounds = 4;
// Sinking an instruction keeps its operands live instead of its result; for
// a few instructions that costs nothing, across many it costs registers.
constexpr size_t kMinPinSpan = 64;

// Integer and address arithmetic a GPU executes in one ALU instruction (or
// none: casts between pointer and integer forms), without side effects.
bool isCheap(const Instruction &inst) {
  Type *type = inst.getType();
  if (!type->isIntegerTy() && !type->isPointerTy()) return false;
  if (type->isIntegerTy() && type->getIntegerBitWidth() > 64) return false;
  switch (inst.getOpcode()) {
  case Instruction::GetElementPtr:
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::Trunc:
  case Instruction::AddrSpaceCast:
  case Instruction::BitCast:
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    break;
  default:
    return false;
  }
  for (const Value *op : inst.operands())
    if (op->getType()->isVectorTy()) return false;
  return true;
}

// A bit-field extraction (x >> s) & m, either operand order: its shift.
BinaryOperator *bitFieldShift(Instruction &inst, Value *&mask) {
  if (inst.getOpcode() != Instruction::And) return nullptr;
  for (unsigned i = 0; i < 2; ++i) {
    auto *shift = dyn_cast<BinaryOperator>(inst.getOperand(i));
    if (shift && shift->getOpcode() == Instruction::LShr) {
      mask = inst.getOperand(1 - i);
      return shift;
    }
  }
  return nullptr;
}

// SSA liveness of single values, computed on demand (the path exploration of
// Appel and Brandis, block by block) and dropped when a value's uses change.
class Liveness {
public:
  // True when `value` is needed at `at` or after it: `at` or a later
  // instruction of its block uses it, or it is live out of the block.
  bool liveAt(Value *value, Instruction *at) {
    const Info &info = get(value);
    BasicBlock *block = at->getParent();
    if (info.liveOut.contains(block)) return true;
    for (User *user : value->users()) {
      auto *inst = cast<Instruction>(user);
      if (isa<PHINode>(inst) || inst->getParent() != block) continue;
      if (inst == at || at->comesBefore(inst)) return true;
    }
    return false;
  }

  // How many instructions `value` stays live across without being used:
  // the sizes of the blocks it is live into and out of.
  size_t liveThrough(Value *value) {
    const Info &info = get(value);
    size_t count = 0;
    for (BasicBlock *block : info.liveIn)
      if (info.liveOut.contains(block)) count += block->size();
    return count;
  }

  void forget(Value *value) { cache.erase(value); }

private:
  struct Info {
    SmallPtrSet<BasicBlock *, 16> liveIn, liveOut;
  };

  const Info &get(Value *value) {
    auto it = cache.find(value);
    if (it != cache.end()) return *it->second;
    auto info = std::make_unique<Info>();
    BasicBlock *def = nullptr;
    if (auto *inst = dyn_cast<Instruction>(value)) def = inst->getParent();
    SmallVector<BasicBlock *, 16> work; // blocks just made live in
    auto liveOut = [&](BasicBlock *block) {
      if (info->liveOut.insert(block).second && block != def &&
          info->liveIn.insert(block).second)
        work.push_back(block);
    };
    for (Use &use : value->uses()) {
      auto *user = cast<Instruction>(use.getUser());
      if (auto *phi = dyn_cast<PHINode>(user)) {
        liveOut(phi->getIncomingBlock(use));
      } else if (user->getParent() != def &&
                 info->liveIn.insert(user->getParent()).second) {
        work.push_back(user->getParent());
      }
    }
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      for (BasicBlock *pred : predecessors(block)) liveOut(pred);
    }
    return *cache.try_emplace(value, std::move(info)).first->second;
  }

  DenseMap<Value *, std::unique_ptr<Info>> cache;
};

// Where a use needs its value: before the user, or at the end of the
// incoming block for a phi.
BasicBlock *useBlock(const Use &use) {
  auto *user = cast<Instruction>(use.getUser());
  if (auto *phi = dyn_cast<PHINode>(user)) return phi->getIncomingBlock(use);
  return user->getParent();
}

// Each WMMA access whose address is a constant offset from a base computed
// in another block gets the offset recomputed next to it, where instruction
// selection folds it into the access ([base+offset]): only the base stays
// live. LICM hoists these addresses out of the K loop of a tensor-core GEMM
// (a warp's fragments of A and B at each k step: two bases and 24 offsets in
// the common shape) and CodeGenPrepare sinks such addresses back next to
// loads and stores but not next to intrinsics (NVPTX's
// getAddrModeArguments does not name the WMMA ones): 24 more registers live
// across the loop, fewer staging loads in flight.
bool foldWmmaAddressOffsets(Function &function) {
  const DataLayout &layout = function.getParent()->getDataLayout();
  SmallVector<WeakTrackingVH, 16> replaced;
  for (BasicBlock &block : function)
    for (Instruction &inst : block) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (!call || !isWmmaMemoryAccess(*call)) continue;
      auto *gep = dyn_cast<GetElementPtrInst>(call->getArgOperand(0));
      if (!gep || gep->getParent() == &block) continue;
      // Through constant-offset steps to the base.
      Value *base = gep;
      APInt offset(layout.getIndexTypeSizeInBits(gep->getType()), 0);
      bool inBounds = true;
      while (auto *step = dyn_cast<GetElementPtrInst>(base)) {
        APInt here(offset.getBitWidth(), 0);
        if (!step->accumulateConstantOffset(layout, here)) break;
        offset += here;
        inBounds &= step->isInBounds();
        base = step->getPointerOperand();
      }
      if (base == gep) continue;
      IRBuilder<> builder(call);
      Value *address = builder.CreateGEP(builder.getInt8Ty(), base, builder.getInt(offset),
                                         gep->getName() + ".fold", inBounds ? GEPNoWrapFlags::inBounds()
                                                                            : GEPNoWrapFlags::none());
      call->setArgOperand(0, address);
      replaced.push_back(gep);
    }
  bool changed = !replaced.empty();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(replaced);
  return changed;
}

class LiveRangeShortener {
public:
  LiveRangeShortener(Function &function, LoopInfo &loops)
      : function(function), loops(loops),
        kernel(function.getCallingConv() == CallingConv::PTX_Kernel) {}

  bool run() {
    bool changed = false;
    for (unsigned round = 0; round < kMaxRounds; ++round) {
      SmallVector<Instruction *, 64> candidates;
      for (BasicBlock &block : function)
        for (Instruction &inst : block)
          if (isCheap(inst)) candidates.push_back(&inst);
      bool any = false;
      for (Instruction *inst : candidates) any |= recompute(*inst);
      if (!any) break;
      changed = true;
    }
    if (changed) {
      SmallVector<WeakTrackingVH, 64> dead;
      for (BasicBlock &block : function)
        for (Instruction &inst : block)
          if (isCheap(inst) && inst.use_empty()) dead.push_back(&inst);
      RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
      liveness = Liveness(); // it may name deleted values
    }
    return pinInPlace() || changed;
  }

private:
  // One instruction to recompute; a bit-field extraction is recomputed in
  // the other form, from its shift's operands.
  struct Step {
    Instruction *inst;
    BinaryOperator *bitFieldShift; // null for a plain copy
    Value *mask;
  };

  // Values that cost no register where they are used: constants (including
  // global addresses) and a kernel's parameters, which the GPU reads from
  // the constant bank.
  bool isFree(const Value *value) const {
    return isa<Constant>(value) || (kernel && isa<Argument>(value));
  }

  // Collects, in operand-first order, the steps that compute `value` before
  // `at` from values live there anyway. Sets `bitField` when the steps
  // include a bit-field extraction.
  bool collect(Value *value, Instruction *at, bool root,
               SmallVectorImpl<Step> &steps,
               SmallPtrSetImpl<Instruction *> &seen, bool &bitField) {
    if (isFree(value)) return true;
    if (!root && liveness.liveAt(value, at)) return true;
    auto *inst = dyn_cast<Instruction>(value);
    if (!inst || !isCheap(*inst)) return false;
    if (seen.contains(inst)) return true;
    if (steps.size() >= kMaxTree) return false;
    // An instruction among its own operands (only possible in unreachable
    // code, which the verifier lets refer to itself without a phi) cannot be
    // recomputed; following it would not end.
    if (!active.insert(inst).second) return false;
    Value *mask = nullptr;
    BinaryOperator *shift = bitFieldShift(*inst, mask);
    if (shift && !liveness.liveAt(shift, at)) {
      for (Value *op : {shift->getOperand(0), shift->getOperand(1), mask})
        if (!collect(op, at, false, steps, seen, bitField)) return false;
      bitField = true;
    } else {
      shift = nullptr;
      for (Value *op : inst->operands())
        if (!collect(op, at, false, steps, seen, bitField)) return false;
    }
    active.erase(inst);
    seen.insert(inst);
    steps.push_back({inst, shift, mask});
    return true;
  }

  // Recomputes `inst` in every other block that uses it, or nowhere: a
  // value still needed somewhere far away stays live anyway. Only values
  // computed from a bit-field extraction: recomputing other arithmetic
  // raised register counts of other kernels (ptxas merges the copies).
  bool recompute(Instruction &inst) {
    BasicBlock *def = inst.getParent();
    Loop *defLoop = loops.getLoopFor(def);
    // The blocks that use the value, other than its own, each with the point
    // a copy has to dominate: its first user there (or the terminator, for
    // phis only).
    SmallVector<std::pair<BasicBlock *, Instruction *>, kMaxUseBlocks> sites;
    for (Use &use : inst.uses()) {
      BasicBlock *block = useBlock(use);
      if (block == def) continue;
      auto *user = cast<Instruction>(use.getUser());
      Instruction *at = isa<PHINode>(user) ? block->getTerminator() : user;
      auto *site =
          llvm::find_if(sites, [&](auto &s) { return s.first == block; });
      if (site == sites.end()) {
        // Never into a loop the value is computed outside of.
        Loop *loop = loops.getLoopFor(block);
        if (loop && loop != defLoop && !loop->contains(def)) return false;
        if (sites.size() == kMaxUseBlocks) return false;
        sites.push_back({block, at});
      } else if (at->comesBefore(site->second)) {
        site->second = at;
      }
    }
    if (sites.empty()) return false;
    SmallVector<SmallVector<Step, kMaxTree>, kMaxUseBlocks> plans(sites.size());
    bool bitField = false;
    for (size_t i = 0; i < sites.size(); ++i) {
      SmallPtrSet<Instruction *, kMaxTree> seen;
      active.clear();
      if (!collect(&inst, sites[i].second, true, plans[i], seen, bitField))
        return false;
    }
    if (!bitField) return false;
    for (size_t i = 0; i < sites.size(); ++i) {
      BasicBlock *block = sites[i].first;
      Value *copy = emit(plans[i], sites[i].second);
      inst.replaceUsesWithIf(copy,
                             [&](Use &use) { return useBlock(use) == block; });
    }
    liveness.forget(&inst);
    return true;
  }

  // Emits `steps` before `at`; returns the copy of the last one.
  Value *emit(ArrayRef<Step> steps, Instruction *at) {
    DenseMap<Value *, Value *> copies;
    auto operand = [&](Value *original) {
      auto it = copies.find(original);
      if (it != copies.end()) return it->second;
      liveness.forget(original); // gains a use
      return original;
    };
    IRBuilder<> builder(at);
    Value *copy = nullptr;
    for (const Step &step : steps) {
      std::string name = (step.inst->getName() + ".remat").str();
      if (step.bitFieldShift) {
        Value *x = operand(step.bitFieldShift->getOperand(0));
        Value *s = operand(step.bitFieldShift->getOperand(1));
        Value *field = builder.CreateShl(operand(step.mask), s);
        copy = builder.CreateLShr(builder.CreateAnd(x, field), s, name);
      } else {
        Instruction *clone = step.inst->clone();
        for (Use &op : clone->operands()) op.set(operand(op.get()));
        builder.Insert(clone, name);
        copy = clone;
      }
      copies[step.inst] = copy;
    }
    return copy;
  }

  // Keeps in place (with a fake use in its own block, which machine sinking
  // respects) each cheap instruction whose result is used only in other
  // blocks, at which two or more register operands die, and across which
  // the result would stay live for kMinPinSpan or more instructions.
  bool pinInPlace() {
    SmallVector<Instruction *, 16> pins;
    for (BasicBlock &block : function)
      for (Instruction &inst : block) {
        if (!isCheap(inst) || inst.use_empty() ||
            inst.getType()->isIntegerTy(1))
          continue;
        if (llvm::any_of(inst.uses(),
                         [&](Use &use) { return useBlock(use) == &block; }))
          continue;
        SmallPtrSet<Value *, 2> dying;
        for (Value *op : inst.operands())
          if (!isFree(op) && !liveness.liveAt(op, inst.getNextNode()))
            dying.insert(op);
        if (dying.size() >= 2 && liveness.liveThrough(&inst) >= kMinPinSpan)
          pins.push_back(&inst);
      }
    if (pins.empty()) return false;
    Function *fakeUse = Intrinsic::getOrInsertDeclaration(
        function.getParent(), Intrinsic::fake_use);
    for (Instruction *inst : pins)
      CallInst::Create(fakeUse, {inst}, "", inst->getNextNode()->getIterator());
    return true;
  }

  Function &function;
  LoopInfo &loops;
  bool kernel;
  Liveness liveness;
  // The instructions collect() is inside of, for the one use being planned.
  SmallPtrSet<Instruction *, kMaxTree> active;
};

class ShortenLiveRangesPass : public FunctionPass {
public:
  static char ID;
  ShortenLiveRangesPass() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "Shorten live ranges (recompute bit fields, keep operand-heavy "
           "instructions in place)";
  }
  void getAnalysisUsage(AnalysisUsage &usage) const override {
    usage.addRequired<LoopInfoWrapperPass>();
    usage.setPreservesCFG();
  }
  bool runOnFunction(Function &function) override {
    if (skipFunction(function)) return false;
    return shortenLiveRanges(
        function, getAnalysis<LoopInfoWrapperPass>().getLoopInfo());
  }
};
char ShortenLiveRangesPass::ID = 0;

} // namespace

bool shortenLiveRanges(Function &function, LoopInfo &loops) {
  bool folded = foldWmmaAddressOffsets(function);
  return LiveRangeShortener(function, loops).run() || folded;
}

void registerShortenLiveRanges() {
  static RegisterTargetPassConfigCallback callback(
      [](TargetMachine &machine, legacy::PassManagerBase &,
         TargetPassConfig *config) {
        if (!machine.getTargetTriple().isNVPTX() ||
            machine.getOptLevel() == CodeGenOptLevel::None)
          return;
        std::unique_ptr<FunctionPass> prepare(createCodeGenPrepareLegacyPass());
        config->insertPass(prepare->getPassID(), new ShortenLiveRangesPass());
      });
}

} // namespace mycc::offload
