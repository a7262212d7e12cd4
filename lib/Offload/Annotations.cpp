#include "Annotations.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

namespace mycc::offload {

std::vector<llvm::GlobalValue *> takeAnnotated(llvm::Module &module,
                                               llvm::StringRef annotation) {
  std::vector<llvm::GlobalValue *> found;
  llvm::GlobalVariable *list = module.getNamedGlobal("llvm.global.annotations");
  if (!list || !list->hasInitializer()) return found;
  auto *array = llvm::dyn_cast<llvm::ConstantArray>(list->getInitializer());
  if (!array) return found;
  // Each entry: {annotated global, annotation string, file, line, arguments}.
  std::vector<llvm::Constant *> kept;
  for (llvm::Use &op : array->operands()) {
    auto *entry = llvm::cast<llvm::Constant>(op.get());
    auto *text = entry->getNumOperands() > 1
                     ? llvm::dyn_cast<llvm::GlobalVariable>(
                           entry->getOperand(1)->stripPointerCasts())
                     : nullptr;
    auto *data = text && text->hasInitializer()
                     ? llvm::dyn_cast<llvm::ConstantDataSequential>(
                           text->getInitializer())
                     : nullptr;
    if (data && data->isCString() && data->getAsCString() == annotation) {
      if (auto *gv = llvm::dyn_cast<llvm::GlobalValue>(
              entry->getOperand(0)->stripPointerCasts()))
        found.push_back(gv);
      continue;
    }
    kept.push_back(entry);
  }
  if (kept.size() == array->getNumOperands()) return found;
  if (kept.empty()) {
    list->eraseFromParent();
    return found;
  }
  auto *type =
      llvm::ArrayType::get(array->getType()->getElementType(), kept.size());
  auto *replacement = new llvm::GlobalVariable(
      module, type, list->isConstant(), list->getLinkage(),
      llvm::ConstantArray::get(type, kept), "", list);
  replacement->setSection(list->getSection());
  replacement->takeName(list);
  list->eraseFromParent();
  return found;
}

} // namespace mycc::offload
