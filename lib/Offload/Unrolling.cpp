// Loop unrolling where nvcc unrolls and LLVM 22 does not.
//
// NVPTX asks LLVM for partial and runtime unrolling (a loop whose trip count
// is known only at run time unrolled, with a remainder loop), which keeps
// several loads of a loop in flight: nvcc unrolls such loops by 4. Two
// things stop LLVM where nvcc goes on, each costing a memory-bound loop most
// of its overlap (llm.c's LayerNorm kernels ran 11-15% slower for them):
//
// - Clang marks every call in CUDA device code `convergent`, inline
//   assembly included, and LLVM never unrolls a loop holding a convergent
//   operation with a remainder (the remainder would put the operation under
//   a new condition). The CUDA headers' bf16 conversions are inline
//   assembly (`cvt.f32.bf16`), so every loop that reads a bf16 array stays
//   rolled. Assembly whose instructions act on their own thread only
//   (arithmetic, conversions, moves, loads, stores) cannot observe which
//   threads execute it together: in an innermost loop where such assembly
//   is all that is convergent, it loses the attribute, just before LLVM's
//   unrolling. Anything else (bar, shfl, vote, mma, ldmatrix, a branch, an
//   instruction not listed) keeps it, and so does assembly outside such
//   loops, so that nothing else changes (CUB's scan ran 5% slower when
//   every `mov %laneid` lost it and was merged across blocks). The change
//   in Clang that makes this unnecessary: not marking inline assembly
//   convergent unless it is (or an attribute saying which).
//
// - Runtime unrolling needs the trip count computed before the loop, and
//   LLVM gives up when that computation costs more than a small budget
//   (UnrollingPreferences::AllowExpensiveTripCount is false unless the
//   source has `#pragma unroll N`). A loop striding by a parameter
//   (`for (i = tid; i < n; i += stride)`, the usual block-stride loop) has
//   a count that takes a division, so it stays rolled; nvcc pays the
//   division once and unrolls by 4. Such loops (not nested, one exit,
//   small, with a load) get the metadata `#pragma unroll 4` gives them.
//   The LLVM change that makes this unnecessary: NVPTX's
//   getUnrollingPreferences allowing expensive trip counts.
#include "Unrolling.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace mycc::offload {

namespace {

// PTX instructions that act on the executing thread alone: what executes
// together with it cannot change their result. Collective and
// warp-synchronous instructions (bar, barrier, shfl, vote, match, redux,
// activemask, elect, mma, wmma, wgmma, ldmatrix, stmatrix, tcgen05, ...)
// are absent on purpose, and so is control flow.
const StringSet<> &threadLocalOpcodes() {
  static const StringSet<> opcodes = {
      // integer and floating-point arithmetic
      "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs",
      "neg", "min", "max", "popc", "clz", "bfind", "fns", "brev", "bfe", "bfi",
      "szext", "bmsk", "dp4a", "dp2a", "addc", "subc", "madc", "fma", "rcp",
      "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign", "testp",
      // comparison and selection, logic and shifts
      "set", "setp", "selp", "slct", "and", "or", "xor", "not", "cnot", "lop3",
      "shf", "shl", "shr", "prmt",
      // data movement and conversion, atomics
      "mov", "ld", "ldu", "st", "cvt", "cvta", "isspacep", "prefetch",
      "prefetchu", "atom", "red"};
  return opcodes;
}

// The text with // and /* */ comments removed.
std::string withoutComments(StringRef text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos) break;
    } else if (text.substr(i).starts_with("/*")) {
      size_t end = text.find("*/", i + 2);
      i = end == StringRef::npos ? text.size() : end + 2;
      out += ' ';
    } else {
      out += text[i++];
    }
  }
  return out;
}

// Whether a loop carries unroll metadata of its own: a pragma, unrolled
// already, runtime unrolling or all transformations disabled.
bool hasUnrollMetadata(const Loop &loop) {
  return hasUnrollTransformation(&loop) != TM_Unspecified ||
         findOptionMDForLoop(&loop, "llvm.loop.unroll.runtime.disable");
}

// nvcc's factor for such loops.
constexpr unsigned kRuntimeUnrollCount = 4;

} // namespace

bool isThreadLocalPtx(StringRef assembly) {
  std::string text = withoutComments(assembly);
  SmallVector<StringRef, 8> statements;
  StringRef(text).split(statements, ';');
  bool any = false;
  for (StringRef statement : statements) {
    // Braces open and close scopes for .reg declarations.
    std::string plain;
    for (char c : statement)
      if (c != '{' && c != '}') plain += c;
    StringRef s = StringRef(plain).trim();
    if (s.empty()) continue;
    if (s.contains(':')) return false; // a label: control flow
    if (s.starts_with(".")) continue;  // .reg and other declarations
    if (s.starts_with("@")) {          // a guard predicate
      size_t space = s.find_first_of(" \t\r\n");
      if (space == StringRef::npos) return false;
      s = s.substr(space).ltrim();
    }
    StringRef opcode = s.take_until([](char c) { return c == '.' || isSpace(c); });
    if (!threadLocalOpcodes().contains(opcode)) return false;
    any = true;
  }
  return any;
}

bool dropThreadLocalAsmConvergence(Loop &loop) {
  if (!loop.isInnermost()) return false;
  SmallVector<CallBase *, 4> calls;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &i : *block) {
      auto *call = dyn_cast<CallBase>(&i);
      if (!call || !call->isConvergent()) continue;
      if (!call->isInlineAsm() ||
          !isThreadLocalPtx(cast<InlineAsm>(call->getCalledOperand())->getAsmString()))
        return false; // a convergent operation stays: no remainder anyway
      calls.push_back(call);
    }
  for (CallBase *call : calls) call->removeFnAttr(Attribute::Convergent);
  return !calls.empty();
}

unsigned runtimeUnrollCount(const Loop &loop, ScalarEvolution &scalars,
                            const TargetTransformInfo &costs) {
  // The loop need not be in simplified form yet (LoopUnroll makes it so):
  // one block enters it, not necessarily a dedicated preheader.
  BasicBlock *latch = loop.getLoopLatch();
  BasicBlock *entry = loop.getLoopPredecessor();
  // Not nested: inside another loop the division would be paid on every
  // outer iteration, for a loop that often runs a few times (nvcc leaves
  // such a loop rolled too: bench/kernels' binomial tree).
  if (!loop.isInnermost() || loop.getLoopDepth() != 1 || !entry || !latch ||
      loop.getExitingBlock() != latch || hasUnrollMetadata(loop))
    return 0;
  // A count known at compile time, or one cheap to compute: LLVM decides.
  if (scalars.getSmallConstantTripCount(&loop) != 0) return 0;
  const SCEV *taken = scalars.getExitCount(&loop, latch);
  if (isa<SCEVCouldNotCompute>(taken) || !taken->getType()->isIntegerTy()) return 0;
  // Only a division by a value known at run time: LLVM finds that too
  // costly, and ptxas does not unroll such a loop either. A count that
  // divides by a constant (a stride of 32) or costs LLVM's budget for other
  // reasons stays as it was: ptxas unrolls those loops itself, as it does
  // nvcc's, whose PTX leaves them rolled.
  bool runtimeDivision = SCEVExprContains(taken, [](const SCEV *s) {
    auto *division = dyn_cast<SCEVUDivExpr>(s);
    return division && !isa<SCEVConstant>(division->getRHS());
  });
  if (!runtimeDivision) return 0;
  const SCEV *trips = scalars.getAddExpr(taken, scalars.getOne(taken->getType()));
  SCEVExpander expander(scalars, "trips");
  if (!expander.isHighCostExpansion({trips}, const_cast<Loop *>(&loop),
                                    SCEVCheapExpansionBudget, &costs,
                                    entry->getTerminator()))
    return 0;
  // Small (unrolled, within the partial-unrolling threshold), with a load
  // to overlap, nothing convergent (a remainder loop would be illegal) and
  // no call but inline assembly.
  bool loads = false;
  InstructionCost size = 0;
  for (BasicBlock *block : loop.blocks())
    for (Instruction &i : *block) {
      if (auto *call = dyn_cast<CallBase>(&i)) {
        if (call->isConvergent() || call->cannotDuplicate() ||
            !(isa<IntrinsicInst>(call) || call->isInlineAsm()))
          return 0;
      }
      loads |= isa<LoadInst>(i);
      size += costs.getInstructionCost(&i, TargetTransformInfo::TCK_CodeSize);
    }
  if (!loads || !size.isValid() ||
      size.getValue() * kRuntimeUnrollCount > kPartialUnrollThreshold)
    return 0;
  return kRuntimeUnrollCount;
}

bool prepareUnrolling(LoopInfo &loops, ScalarEvolution &scalars,
                      const TargetTransformInfo &costs) {
  bool changed = false;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    changed |= dropThreadLocalAsmConvergence(*loop);
    if (unsigned count = runtimeUnrollCount(*loop, scalars, costs)) {
      addStringMetadataToLoop(loop, "llvm.loop.unroll.count", count);
      changed = true;
    }
  }
  return changed;
}

PreservedAnalyses UnrollingPass::run(Function &function,
                                     FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<LoopAnalysis>(function);
  if (loops.empty()) return PreservedAnalyses::all();
  auto &scalars = analyses.getResult<ScalarEvolutionAnalysis>(function);
  auto &costs = analyses.getResult<TargetIRAnalysis>(function);
  if (!prepareUnrolling(loops, scalars, costs)) return PreservedAnalyses::all();
  // Attributes and metadata only: no instruction or block moved.
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  kept.preserve<ScalarEvolutionAnalysis>();
  return kept;
}

void registerUnrollingPass(PassBuilder &builder) {
  builder.registerVectorizerStartEPCallback(
      [](FunctionPassManager &pipeline, OptimizationLevel level) {
        if (level == OptimizationLevel::O0) return;
        pipeline.addPass(UnrollingPass());
      });
}

} // namespace mycc::offload
