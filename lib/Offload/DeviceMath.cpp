#include "DeviceMath.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <vector>

namespace mycc::offload {
namespace {

// The name a __nvvm_reflect call asks for ("__CUDA_PREC_SQRT"), if its
// argument is a constant string.
llvm::StringRef reflectName(const llvm::CallBase &call) {
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(
      call.getArgOperand(0)->stripPointerCasts());
  if (!global || !global->hasInitializer()) return {};
  const auto *text =
      llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  return text && text->isCString() ? text->getAsCString() : llvm::StringRef();
}

void resolveReflect(llvm::Module &module, llvm::StringRef name, int value) {
  for (const char *callee : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    llvm::Function *reflect = module.getFunction(callee);
    if (!reflect) continue;
    std::vector<llvm::CallBase *> calls;
    for (llvm::User *user : reflect->users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
        if (call->getCalledFunction() == reflect && reflectName(*call) == name)
          calls.push_back(call);
    for (llvm::CallBase *call : calls) {
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), value));
      call->eraseFromParent();
    }
  }
}

bool isOne(const llvm::Value *v) {
  const auto *c = llvm::dyn_cast<llvm::ConstantFP>(v);
  return c && c->isExactlyValue(1.0);
}

} // namespace

void resolveMathReflect(llvm::Module &module,
                        const frontend::DeviceMath &math) {
  resolveReflect(module, "__CUDA_PREC_SQRT", math.precSqrt ? 1 : 0);
}

void lowerDivisionAndSqrt(llvm::Module &module,
                          const frontend::DeviceMath &math) {
  if (math.precDiv && math.precSqrt) return;
  std::vector<llvm::BinaryOperator *> fullDivisions;
  for (llvm::Function &f : module) {
    for (llvm::Instruction &inst : llvm::instructions(f)) {
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst)) {
        if (!math.precSqrt && call->getIntrinsicID() == llvm::Intrinsic::sqrt &&
            call->getType()->getScalarType()->isFloatTy())
          call->setHasApproxFunc(true);
        continue;
      }
      auto *div = llvm::dyn_cast<llvm::BinaryOperator>(&inst);
      if (math.precDiv || !div || div->getOpcode() != llvm::Instruction::FDiv ||
          !div->getType()->getScalarType()->isFloatTy())
        continue;
      // Scalar x / y without fast math is div.full; a vector division the
      // pipeline made stays IEEE (more precise than nvcc's, not less).
      if (math.fastMath || isOne(div->getOperand(0)))
        div->setHasApproxFunc(true);
      else if (div->getType()->isFloatTy())
        fullDivisions.push_back(div);
    }
  }
  for (llvm::BinaryOperator *div : fullDivisions) {
    llvm::IRBuilder<> builder(div);
    llvm::Value *full = builder.CreateIntrinsic(
        math.ftz ? llvm::Intrinsic::nvvm_div_full_ftz
                 : llvm::Intrinsic::nvvm_div_full,
        {}, {div->getOperand(0), div->getOperand(1)});
    div->replaceAllUsesWith(full);
    div->eraseFromParent();
  }
}

} // namespace mycc::offload
