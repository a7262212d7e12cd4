// Unrolling where nvcc unrolls (lib/Offload/Unrolling.h): which inline
// assembly loses `convergent`, and which loops get an unroll count.
#include "Unrolling.h"
#include "ParseIr.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace llvm;
using namespace mycc::offload;

namespace {

TEST(ThreadLocalPtx, ArithmeticConversionsAndMemory) {
  EXPECT_TRUE(isThreadLocalPtx("{ cvt.f32.bf16 $0, $1;}\n"));
  EXPECT_TRUE(isThreadLocalPtx("{  cvt.rn.bf16.f32 $0, $1;}\n"));
  EXPECT_TRUE(isThreadLocalPtx("{.reg .b32 t;\n mov.b32 t, $1;\n add.u32 $0, t, 1;\n}"));
  EXPECT_TRUE(isThreadLocalPtx("@p fma.rn.f32 $0, $1, $2, $0;"));
  EXPECT_TRUE(isThreadLocalPtx("st.global.v4.f32 [$0], {$1, $2, $3, $4};"));
  EXPECT_TRUE(isThreadLocalPtx("ld.global.nc.v4.u32 {$0,$1,$2,$3}, [$4]; // shfl in a comment"));
  EXPECT_TRUE(isThreadLocalPtx("/* bar.sync */ atom.global.add.u32 $0, [$1], 1;"));
}

TEST(ThreadLocalPtx, CollectiveOrUnknownStaysConvergent) {
  EXPECT_FALSE(isThreadLocalPtx("shfl.sync.bfly.b32 $0, $1, 1, 31, -1;"));
  EXPECT_FALSE(isThreadLocalPtx("bar.sync 0;"));
  EXPECT_FALSE(isThreadLocalPtx("activemask.b32 $0;"));
  EXPECT_FALSE(isThreadLocalPtx("redux.sync.add.u32 $0, $1, -1;"));
  EXPECT_FALSE(isThreadLocalPtx("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];"));
  EXPECT_FALSE(isThreadLocalPtx("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};"));
  EXPECT_FALSE(isThreadLocalPtx("mov.u32 $0, 1; vote.sync.all.pred p, q, -1;"));
  EXPECT_FALSE(isThreadLocalPtx("L1: add.u32 $0, $0, 1; setp.lt.u32 p, $0, 8; @p bra L1;"));
  EXPECT_FALSE(isThreadLocalPtx("cp.async.ca.shared.global [$0], [$1], 16;"));
  EXPECT_FALSE(isThreadLocalPtx(""));
  EXPECT_FALSE(isThreadLocalPtx("// nothing\n"));
}

class Unrolling : public ::testing::Test {
protected:
  Function &parse(const std::string &ir) {
    return mycc::test::parseFunction(context, module, ir);
  }

  // The count each loop of @k would get, in the order of their headers.
  std::vector<unsigned> counts(Function &f) {
    TargetLibraryInfoImpl libraryInfo(module->getTargetTriple());
    TargetLibraryInfo library(libraryInfo);
    AssumptionCache assumptions(f);
    DominatorTree dominators(f);
    LoopInfo loops(dominators);
    ScalarEvolution scalars(f, library, assumptions, dominators, loops);
    TargetTransformInfo costs(f.getDataLayout());
    std::vector<unsigned> result;
    for (BasicBlock &block : f)
      if (Loop *loop = loops.getLoopFor(&block); loop && loop->getHeader() == &block)
        result.push_back(runtimeUnrollCount(*loop, scalars, costs));
    return result;
  }

  LLVMContext context;
  std::unique_ptr<Module> module;
};

// One loop body, entered from %entry when %tid < %n; STEP is its stride,
// EXTRA one more instruction in the body, MD its loop metadata.
std::string loop(const std::string &step, const std::string &extra = "",
                 const std::string &md = "!{!0, !1}") {
  return R"(
declare void @g()
declare float @sync(float) convergent
define void @k(ptr %x, i32 %n, i32 %stride, i32 %tid, ptr %out) {
entry:
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ %tid, %entry ], [ %next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %idx
  %v = load float, ptr %p, align 4
  %sum = fadd fast float %v, %s
  )" + extra + R"(
  %next = add nsw i32 %i, )" + step + R"(
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  %r = phi float [ 0.0, %entry ], [ %sum, %loop ]
  store float %r, ptr %out
  ret void
}
!0 = distinct )" + md + R"(
!1 = !{!"llvm.loop.mustprogress"}
!2 = !{!"llvm.loop.unroll.disable"}
)";
}

TEST_F(Unrolling, BlockStrideLoopGetsNvccsCount) {
  EXPECT_EQ(counts(parse(loop("%stride"))), std::vector<unsigned>{4});
}

TEST_F(Unrolling, CheapTripCountIsLeftToLLVM) {
  EXPECT_EQ(counts(parse(loop("1"))), std::vector<unsigned>{0});
  // A constant stride divides by a constant: ptxas unrolls such loops.
  EXPECT_EQ(counts(parse(loop("32"))), std::vector<unsigned>{0});
}

TEST_F(Unrolling, ConvergentCallsOrPragmasKeepTheLoop) {
  EXPECT_EQ(counts(parse(loop("%stride", "%w = call float @sync(float %v)"))),
            std::vector<unsigned>{0});
  EXPECT_EQ(counts(parse(loop("%stride", "call void @g()"))), std::vector<unsigned>{0});
  EXPECT_EQ(counts(parse(loop("%stride", "", "!{!0, !1, !2}"))), std::vector<unsigned>{0});
}

// The same loop inside another: the division would be paid on every outer
// iteration (nvcc leaves it rolled too).
TEST_F(Unrolling, NestedLoopsAreLeftAlone) {
  Function &f = parse(R"(
define void @k(ptr %x, i32 %n, i32 %stride, i32 %tid, i32 %m, ptr %out) {
entry:
  br label %outer
outer:
  %o = phi i32 [ 0, %entry ], [ %onext, %latch ]
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %loop, label %latch
loop:
  %i = phi i32 [ %tid, %outer ], [ %next, %loop ]
  %s = phi float [ 0.0, %outer ], [ %sum, %loop ]
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %idx
  %v = load float, ptr %p, align 4
  %sum = fadd fast float %v, %s
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %latch, !llvm.loop !0
latch:
  %r = phi float [ 0.0, %outer ], [ %sum, %loop ]
  store float %r, ptr %out
  %onext = add nsw i32 %o, 1
  %again = icmp slt i32 %onext, %m
  br i1 %again, label %outer, label %exit, !llvm.loop !2
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
!2 = distinct !{!2, !1}
)");
  EXPECT_EQ(counts(f), (std::vector<unsigned>{0, 0}));
}

// Two loops: one converting with thread-local assembly, one that also
// shuffles. Only the first loses `convergent` (the second could not be
// unrolled with a remainder anyway); nothing outside loops changes.
TEST_F(Unrolling, ThreadLocalAsmInLoopsLosesConvergent) {
  Function &f = parse(R"(
define void @k(ptr %x, i32 %n, ptr %out) {
entry:
  %h0 = load i16, ptr %x
  %outside = call float asm "{ cvt.f32.bf16 $0, $1;}", "=f,h"(i16 %h0) #0
  br label %convert
convert:
  %i = phi i32 [ 0, %entry ], [ %inext, %convert ]
  %h = load i16, ptr %x
  %a = call float asm "{ cvt.f32.bf16 $0, $1;}", "=f,h"(i16 %h) #0
  store float %a, ptr %out
  %inext = add nsw i32 %i, 1
  %more = icmp slt i32 %inext, %n
  br i1 %more, label %convert, label %shuffle
shuffle:
  %j = phi i32 [ 0, %convert ], [ %jnext, %shuffle ]
  %h2 = load i16, ptr %x
  %b = call float asm "{ cvt.f32.bf16 $0, $1;}", "=f,h"(i16 %h2) #0
  %c = call float asm sideeffect "shfl.sync.bfly.b32 $0, $1, 1, 31, -1;", "=f,f"(float %b) #0
  store float %c, ptr %out
  %jnext = add nsw i32 %j, 1
  %again = icmp slt i32 %jnext, %n
  br i1 %again, label %shuffle, label %exit
exit:
  ret void
}
attributes #0 = { convergent nounwind }
)");
  DominatorTree dominators(f);
  LoopInfo loops(dominators);
  std::vector<bool> changed;
  for (BasicBlock &block : f)
    if (Loop *loop = loops.getLoopFor(&block); loop && loop->getHeader() == &block)
      changed.push_back(dropThreadLocalAsmConvergence(*loop));
  EXPECT_EQ(changed, (std::vector<bool>{true, false}));
  std::vector<bool> convergent;
  for (Instruction &i : instructions(f))
    if (auto *call = dyn_cast<CallInst>(&i)) convergent.push_back(call->isConvergent());
  EXPECT_EQ(convergent, (std::vector<bool>{true, false, true, true}));
}

} // namespace
