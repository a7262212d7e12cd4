// LLVM IR from a test's text, for the unit tests of mycc's passes.
#pragma once

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace mycc::test {

// Parses `ir` into `module` and returns its function `name`; a text that
// does not parse, or has no such function, fails the test and stops it.
inline llvm::Function &parseFunction(llvm::LLVMContext &context,
                                     std::unique_ptr<llvm::Module> &module,
                                     const std::string &ir, const char *name = "k") {
  llvm::SMDiagnostic diag;
  module = llvm::parseAssemblyString(ir, diag, context);
  llvm::Function *function = module ? module->getFunction(name) : nullptr;
  if (!function) {
    ADD_FAILURE() << (module ? std::string("no function @") + name : diag.getMessage().str());
    std::abort();
  }
  return *function;
}

} // namespace mycc::test
