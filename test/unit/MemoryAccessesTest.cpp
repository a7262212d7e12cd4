// Memory accesses in nvcc's forms (lib/Offload/MemoryAccesses.h): which
// copies become 16-byte vector accesses, and which WMMA loads and stores
// move to the intrinsic of their address space.
#include "MemoryAccesses.h"
#include "ParseIr.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace llvm;

namespace {

class MemoryAccesses : public ::testing::Test {
protected:
  Function &parse(const std::string &ir) {
    return mycc::test::parseFunction(context, module, ir);
  }
  void expectValid() { EXPECT_FALSE(verifyModule(*module, &errs())); }

  static int count(Function &f, bool (*what)(Instruction &)) {
    int n = 0;
    for (Instruction &i : instructions(f)) n += what(i);
    return n;
  }
  static bool isCopy(Instruction &i) { return isa<MemTransferInst>(i); }
  static bool isWideLoad(Instruction &i) {
    auto *load = dyn_cast<LoadInst>(&i);
    return load && load->getType()->isVectorTy() && load->getAlign() == Align(16);
  }
  static bool isWideStore(Instruction &i) {
    auto *store = dyn_cast<StoreInst>(&i);
    return store && store->getValueOperand()->getType()->isVectorTy() && store->getAlign() == Align(16);
  }

  LLVMContext context;
  std::unique_ptr<Module> module;
};

constexpr const char *kCopies = R"(
@tile = external addrspace(3) global [0 x [24 x half]], align 16
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memcpy.p3.p0.i64(ptr addrspace(3), ptr, i64, i1)
declare void @llvm.memmove.p3.p1.i64(ptr addrspace(3), ptr addrspace(1), i64, i1)
define void @k(ptr align 16 %src, ptr align 16 %dst, ptr addrspace(1) align 16 %g, i64 %row, ptr align 8 %odd) {
  ; Clang's alignment for *(int4 *)&tile[row][0]: the element's, 2; the
  ; 48-byte rows of a 16-byte aligned array are 16-byte aligned (known in
  ; the address's own space, where the pass's address space inference has
  ; put it)
  %t = getelementptr [24 x half], ptr addrspace(3) @tile, i64 %row
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) align 2 %t, ptr align 16 %src, i64 16, i1 false)
  ; 64 bytes in four pieces; a memmove, loads first
  call void @llvm.memmove.p3.p1.i64(ptr addrspace(3) align 16 %t, ptr addrspace(1) align 16 %g, i64 64, i1 false)
  ; kept: volatile, 8-byte aligned, 144 bytes, 24 bytes
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 16, i1 true)
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 8 %odd, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 144, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 24, i1 false)
  ret void
}
)";

TEST_F(MemoryAccesses, AlignedCopiesBecomeVectorAccesses) {
  Function &f = parse(kCopies);
  EXPECT_TRUE(mycc::offload::widenAlignedCopies(f));
  expectValid();
  EXPECT_EQ(count(f, isWideLoad), 1 + 4);
  EXPECT_EQ(count(f, isWideStore), 1 + 4);
  EXPECT_EQ(count(f, isCopy), 4);
  // The memmove's four loads come before its first store.
  int loadsBeforeStore = 0;
  bool inMove = false;
  for (Instruction &i : instructions(f)) {
    if (auto *load = dyn_cast<LoadInst>(&i); load && load->getPointerAddressSpace() == 1) inMove = true;
    if (inMove && isWideLoad(i)) ++loadsBeforeStore;
    if (inMove && isWideStore(i)) break;
  }
  EXPECT_EQ(loadsBeforeStore, 4);
  EXPECT_FALSE(mycc::offload::widenAlignedCopies(f)); // nothing left to widen
}

constexpr const char *kWmma = R"(
@tile = external addrspace(3) global [0 x half], align 16
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)
define ptx_kernel void @k(ptr %param, i64 %n, i1 %c) {
entry:
  %base = getelementptr half, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %n
  br label %loop
loop:
  %p = phi ptr [ %base, %entry ], [ %next, %loop ]
  %a = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %p, i32 24)
  %next = getelementptr i8, ptr %p, i64 32
  br i1 %c, label %loop, label %done
done:
  ; a kernel's pointer parameter: global
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %param, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, i32 16)
  ; shared or global: left generic
  %either = select i1 %c, ptr %base, ptr %param
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %either, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, i32 16)
  ret void
}
)";

TEST_F(MemoryAccesses, WmmaMovesToTheSpaceOfItsAddress) {
  Function &f = parse(kWmma);
  EXPECT_TRUE(mycc::offload::wmmaInSpecificSpaces(f));
  expectValid();
  std::vector<std::string> callees;
  for (Instruction &i : instructions(f))
    if (auto *call = dyn_cast<CallInst>(&i)) callees.push_back(call->getCalledFunction()->getName().str());
  ASSERT_EQ(callees.size(), 3u);
  EXPECT_EQ(callees[0], "llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3");
  EXPECT_EQ(callees[1], "llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p1");
  EXPECT_EQ(callees[2], "llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0");
}

} // namespace
