// Volatile locals kept in registers (lib/Offload/VolatileLocals.h): which
// allocas lose `volatile` on their accesses, and which keep it because their
// address escapes or is used through a derived pointer.
#include "VolatileLocals.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace llvm;

namespace {

class VolatileLocals : public ::testing::Test {
protected:
  // Parses `ir`, runs the pass on @k; returns how many volatile loads and
  // stores are left.
  int volatilesAfter(const std::string &ir, bool expectChange) {
    SMDiagnostic diag;
    module = parseAssemblyString(ir, diag, context);
    if (!module) {
      ADD_FAILURE() << diag.getMessage().str();
      return -1;
    }
    Function &f = *module->getFunction("k");
    EXPECT_EQ(mycc::offload::promotableVolatileLocals(f), expectChange);
    int left = 0;
    for (Instruction &i : instructions(f))
      if (auto *load = dyn_cast<LoadInst>(&i)) left += load->isVolatile();
      else if (auto *store = dyn_cast<StoreInst>(&i)) left += store->isVolatile();
    return left;
  }

  LLVMContext context;
  std::unique_ptr<Module> module;
};

TEST_F(VolatileLocals, OnlyLoadedAndStoredLosesVolatile) {
  // libcu++'s atomic_ref after inlining: its pointer in a stack slot, read
  // through volatile loads in the wait loop.
  EXPECT_EQ(volatilesAfter(R"(
declare void @llvm.lifetime.start.p0(ptr)
define void @k(ptr %flag, ptr %out) {
  %slot = alloca ptr, align 8
  call void @llvm.lifetime.start.p0(ptr %slot)
  store ptr %flag, ptr %slot, align 8
  %p = load volatile ptr, ptr %slot, align 8
  %v = load i32, ptr %p
  store volatile ptr %p, ptr %slot, align 8
  store i32 %v, ptr %out
  ret void
}
)", true), 0);
}

TEST_F(VolatileLocals, EscapingAddressKeepsVolatile) {
  EXPECT_EQ(volatilesAfter(R"(
define void @k(ptr %out, i32 %v) {
  %x = alloca i32, align 4
  store volatile i32 %v, ptr %x, align 4
  store ptr %x, ptr %out
  %r = load volatile i32, ptr %x, align 4
  store i32 %r, ptr %out
  ret void
}
)", false), 2);
}

TEST_F(VolatileLocals, StoringItsOwnAddressKeepsVolatile) {
  EXPECT_EQ(volatilesAfter(R"(
define void @k(ptr %out) {
  %x = alloca ptr, align 8
  store volatile ptr %x, ptr %x, align 8
  %r = load volatile ptr, ptr %x, align 8
  store ptr %r, ptr %out
  ret void
}
)", false), 2);
}

TEST_F(VolatileLocals, DerivedPointerKeepsVolatile) {
  // A field of a local struct, reached through a GEP: left alone.
  EXPECT_EQ(volatilesAfter(R"(
define void @k(ptr %out, i32 %v) {
  %s = alloca { i32, i32 }, align 4
  %f = getelementptr { i32, i32 }, ptr %s, i32 0, i32 1
  store volatile i32 %v, ptr %f, align 4
  %r = load volatile i32, ptr %f, align 4
  store i32 %r, ptr %out
  ret void
}
)", false), 2);
}

TEST_F(VolatileLocals, GlobalMemoryKeepsVolatile) {
  EXPECT_EQ(volatilesAfter(R"(
define void @k(ptr %p, ptr %out) {
  %r = load volatile i32, ptr %p, align 4
  store volatile i32 %r, ptr %out, align 4
  ret void
}
)", false), 2);
}

} // namespace
