// The bound on straight-line strength reduction (lib/Offload/
// StrengthReduction.h): which functions the code generator's SLSR skips,
// that every other pass runs, and that the context's gate comes back.
#include "StrengthReduction.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace llvm;
using mycc::offload::kStrengthReductionBlockLimit;
using mycc::offload::StrengthReductionBound;

namespace {

// A function @name of `blocks` blocks, each `adds` additions long.
std::string function(const std::string &name, unsigned blocks, unsigned adds) {
  std::string ir = "define i32 @" + name + "(i32 %s) {\n";
  std::string last = "%s";
  for (unsigned b = 0; b < blocks; ++b) {
    ir += "b" + std::to_string(b) + ":\n";
    for (unsigned i = 0; i < adds; ++i) {
      std::string v = "%v" + std::to_string(b) + "_" + std::to_string(i);
      ir += "  " + v + " = add i32 " + last + ", %s\n";
      last = v;
    }
    ir += b + 1 < blocks ? "  br label %b" + std::to_string(b + 1) + "\n"
                         : "  ret i32 " + last + "\n";
  }
  return ir + "}\n";
}

class StrengthReduction : public ::testing::Test {
protected:
  void SetUp() override {
    unsigned limit = kStrengthReductionBlockLimit;
    SMDiagnostic diag;
    module = parseAssemblyString(
        function("large", 1, limit) + function("spread", 2, limit - 1) +
            function("small", 1, 20),
        diag, context);
    ASSERT_TRUE(module) << diag.getMessage().str();
  }

  LLVMContext context;
  std::unique_ptr<Module> module;
};

TEST_F(StrengthReduction, SkipsOnlyStrengthReductionOfALargeBlock) {
  StrengthReductionBound bound(*module);
  OptPassGate &gate = context.getOptPassGate();
  ASSERT_TRUE(gate.isEnabled());
  // The legacy pass manager's names: the pass's argument, "function (NAME)".
  EXPECT_FALSE(gate.shouldRunPass("slsr", "function (large)"));
  EXPECT_TRUE(gate.shouldRunPass("gvn", "function (large)"));
  EXPECT_TRUE(gate.shouldRunPass("nvptx-isel", "function (large)"));
  // Many candidates, but no block with the limit's number.
  EXPECT_TRUE(gate.shouldRunPass("slsr", "function (spread)"));
  EXPECT_TRUE(gate.shouldRunPass("slsr", "function (small)"));
  // Not a function of the module, or not a function: SLSR runs.
  EXPECT_TRUE(gate.shouldRunPass("slsr", "function (other)"));
  EXPECT_TRUE(gate.shouldRunPass("slsr", "module (large)"));
}

TEST_F(StrengthReduction, RestoresTheContextsGate) {
  OptPassGate &before = context.getOptPassGate();
  {
    StrengthReductionBound bound(*module);
    EXPECT_NE(&context.getOptPassGate(), &before);
  }
  EXPECT_EQ(&context.getOptPassGate(), &before);
}

} // namespace
