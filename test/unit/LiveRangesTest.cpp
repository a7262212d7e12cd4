// Shorter live ranges in the NVPTX code generator (lib/Offload/LiveRanges.h):
// which values are recomputed at distant uses, in which form, which
// instructions are kept in place, and the identity the other form rests on.
#include "LiveRanges.h"

#include "llvm/ADT/APInt.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace {

class LiveRanges : public ::testing::Test {
protected:
  // Parses `ir`, runs the pass on its function @k and returns @k.
  Function &run(const std::string &ir, bool expectChange = true) {
    SMDiagnostic diag;
    module = parseAssemblyString(ir, diag, context);
    if (!module) {
      std::string text;
      raw_string_ostream os(text);
      diag.print("test", os);
      ADD_FAILURE() << text;
      abort();
    }
    Function &f = *module->getFunction("k");
    DominatorTree dt(f);
    LoopInfo loops(dt);
    EXPECT_EQ(mycc::offload::shortenLiveRanges(f, loops), expectChange);
    std::string errors;
    raw_string_ostream os(errors);
    EXPECT_FALSE(verifyFunction(f, &os)) << errors;
    return f;
  }

  static BasicBlock &block(Function &f, StringRef name) {
    for (BasicBlock &b : f)
      if (b.getName() == name) return b;
    abort();
  }

  // The value the first load in `b` reads from.
  static Value *loadAddress(BasicBlock &b) {
    for (Instruction &i : b)
      if (auto *load = dyn_cast<LoadInst>(&i)) return load->getPointerOperand();
    return nullptr;
  }

  static std::string print(const Value *value) {
    std::string text;
    raw_string_ostream os(text);
    value->print(os);
    return text;
  }

  static unsigned fakeUses(Function &f) {
    unsigned n = 0;
    for (Instruction &i : instructions(f))
      if (auto *call = dyn_cast<IntrinsicInst>(&i))
        n += call->getIntrinsicID() == Intrinsic::fake_use;
    return n;
  }

  LLVMContext context;
  std::unique_ptr<Module> module;
};

// A digit ((x >> s) & m) whose shared-memory counter is read again after a
// barrier, as in a radix sort's ranking; `keep` says whether x itself is
// still needed after the barrier.
std::string digitKernel(bool keep) {
  return std::string(R"(
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

define ptx_kernel void @k(ptr addrspace(3) %counts, ptr addrspace(1) %in,
                          ptr addrspace(1) %out, i32 %s, i32 %bits) {
entry:
  %x = load i32, ptr addrspace(1) %in
  %m0 = shl i32 -1, %bits
  %m = xor i32 %m0, -1
  %sh = lshr i32 %x, %s
  %d = and i32 %sh, %m
  %z = zext i32 %d to i64
  %a = getelementptr i32, ptr addrspace(3) %counts, i64 %z
  %old = atomicrmw add ptr addrspace(3) %a, i32 1 seq_cst
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %after
after:
  %v = load i32, ptr addrspace(3) %a
  store i32 %v, ptr addrspace(1) %out
)") + (keep ? "  store i32 %x, ptr addrspace(1) %in\n" : "") +
         "  ret void\n}\n";
}

TEST_F(LiveRanges, DigitAddressIsRecomputedInTheOtherForm) {
  Function &f = run(digitKernel(true));
  BasicBlock &after = block(f, "after");
  auto *address = dyn_cast<GetElementPtrInst>(loadAddress(after));
  ASSERT_NE(address, nullptr);
  EXPECT_EQ(address->getParent(), &after) << "the address is recomputed";
  Value *x = nullptr, *digit = nullptr, *s1 = nullptr, *s2 = nullptr;
  ASSERT_TRUE(match(address->getOperand(1), m_ZExt(m_Value(digit))));
  // (x & (m << s)) >> s, not (x >> s) & m: ptxas would merge that with the
  // original.
  EXPECT_TRUE(match(digit, m_LShr(m_And(m_Value(x), m_Shl(m_Value(), m_Value(s1))),
                                  m_Value(s2))))
      << print(digit);
  EXPECT_EQ(x, &*block(f, "entry").begin()) << "from the loaded key";
  EXPECT_TRUE(isa<Argument>(s1) && s1 == s2) << "with the kernel's shift";
  // The original stays for the atomic before the barrier.
  BasicBlock &entry = block(f, "entry");
  unsigned bitFields = 0;
  for (Instruction &i : entry)
    bitFields += match(&i, m_And(m_LShr(m_Value(), m_Value()), m_Value()));
  EXPECT_EQ(bitFields, 1u);
}

// Unreachable code may use a value before its definition without a phi,
// so an instruction can be among its own operands. A cuda::barrier kept in
// __shared__ with cuda::memcpy_async left such a cycle behind a bit-field
// extraction, and following it overflowed the stack (SIGSEGV).
TEST_F(LiveRanges, CycleInUnreachableCodeIsNotFollowed) {
  Function &f = run(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %out) {
entry:
  ret void
dead:
  %c = add i32 %d, 1
  %d = add i32 %c, 1
  %sh = lshr i32 %c, 4
  %digit = and i32 %sh, 15
  br label %use
use:
  store i32 %digit, ptr addrspace(1) %out
  ret void
}
)",
                    /*expectChange=*/false);
  EXPECT_EQ(block(f, "use").size(), 2u) << "nothing recomputed there";
}

TEST_F(LiveRanges, NotRecomputedWhenItsOperandIsDeadThere) {
  // x is not needed after the barrier: recomputing from it would keep it
  // live instead of the address.
  Function &f = run(digitKernel(false), /*expectChange=*/false);
  EXPECT_EQ(loadAddress(block(f, "after")),
            static_cast<Value *>(&*std::next(block(f, "entry").begin(), 6)));
}

TEST_F(LiveRanges, OtherArithmeticIsNotRecomputed) {
  // Only what a bit-field extraction feeds: plain arithmetic copies raised
  // other kernels' register counts.
  Function &f = run(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %x = load i32, ptr addrspace(1) %in
  %y = add i32 %x, 7
  br label %next
next:
  store i32 %y, ptr addrspace(1) %out
  store i32 %x, ptr addrspace(1) %in
  ret void
}
)",
                    /*expectChange=*/false);
  auto &store = *block(f, "next").begin();
  EXPECT_EQ(cast<Instruction>(store.getOperand(0))->getParent(),
            &block(f, "entry"));
}

TEST_F(LiveRanges, NeverIntoALoopTheValueIsComputedOutsideOf) {
  Function &f = run(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %s, i32 %n) {
entry:
  %x = load i32, ptr addrspace(1) %in
  %sh = lshr i32 %x, %s
  %d = and i32 %sh, 255
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %d, ptr addrspace(1) %p
  store i32 %x, ptr addrspace(1) %in
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)",
                    /*expectChange=*/false);
  (void)f;
}

// An addition whose two operands die at it, used only after `gap` other
// instructions in a block between.
std::string sumKernel(unsigned gap) {
  std::string ir = R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %a = load i32, ptr addrspace(1) %in
  %p = getelementptr i32, ptr addrspace(1) %in, i64 1
  %b = load i32, ptr addrspace(1) %p
  %sum = add i32 %a, %b
  br label %between
between:
)";
  for (unsigned i = 0; i < gap; ++i)
    ir += "  store volatile i32 " + std::to_string(i) +
          ", ptr addrspace(1) %out\n";
  ir += R"(  br label %use
use:
  store i32 %sum, ptr addrspace(1) %out
  ret void
}
)";
  return ir;
}

TEST_F(LiveRanges, KeepsAnInstructionWhoseOperandsDieThereInPlace) {
  Function &f = run(sumKernel(100));
  ASSERT_EQ(fakeUses(f), 1u);
  Instruction &sum = *std::next(block(f, "entry").begin(), 3);
  auto *pin = dyn_cast<IntrinsicInst>(sum.getNextNode());
  ASSERT_NE(pin, nullptr) << "the fake use follows the addition";
  EXPECT_EQ(pin->getArgOperand(0), &sum);
}

TEST_F(LiveRanges, ShortDistancesAreLeftToMachineSinking) {
  Function &f = run(sumKernel(10), /*expectChange=*/false);
  EXPECT_EQ(fakeUses(f), 0u);
}

// The identity the recomputation rests on: for every shift the original
// allows (below the width; a larger one makes both poison), every mask and
// every value, (x >> s) & m == (x & (m << s)) >> s. Exhaustive at 8 bits.
TEST_F(LiveRanges, WmmaAddressOffsetsMoveNextToTheAccess) {
  // A GEMM's K loop after LICM: two fragment addresses, constant offsets
  // from one base, computed before the loop. Each is recomputed next to its
  // load as base + offset (one i8 GEP, the offsets of both steps added), so
  // that only the base stays live; the hoisted ones go.
  Function &f = run(R"(
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3(ptr addrspace(3), i32)
define ptx_kernel void @k(ptr addrspace(3) %tile, i32 %row, i32 %n) {
entry:
  %base = getelementptr [72 x half], ptr addrspace(3) %tile, i32 %row
  %a0 = getelementptr inbounds i8, ptr addrspace(3) %base, i32 2304
  %a1 = getelementptr inbounds [72 x half], ptr addrspace(3) %a0, i32 0, i32 16
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %x = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3(ptr addrspace(3) %a0, i32 72)
  %y = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3(ptr addrspace(3) %a1, i32 72)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
)");
  std::vector<std::string> addresses;
  for (Instruction &i : block(f, "loop"))
    if (auto *call = dyn_cast<CallInst>(&i); call && call->getCalledFunction()->isIntrinsic())
      addresses.push_back(print(call->getArgOperand(0)));
  ASSERT_EQ(addresses.size(), 2u);
  // (the offset in the address space's index type, i64 in this module)
  EXPECT_NE(addresses[0].find("getelementptr inbounds i8, ptr addrspace(3) %base, i64 2304"), std::string::npos)
      << addresses[0];
  EXPECT_NE(addresses[1].find("getelementptr inbounds i8, ptr addrspace(3) %base, i64 2336"), std::string::npos)
      << addresses[1];
  EXPECT_EQ(block(f, "entry").size(), 2u); // %base and the branch
}

TEST(BitFieldIdentity, HoldsForEveryShiftMaskAndValue) {
  unsigned failures = 0;
  for (unsigned s = 0; s < 8; ++s)
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned x = 0; x < 256; ++x) {
        APInt X(8, x), M(8, m);
        APInt plain = X.lshr(s) & M;
        APInt other = (X & M.shl(s)).lshr(s);
        failures += plain != other;
      }
  EXPECT_EQ(failures, 0u);
}

} // namespace
