#include "IdleSlots.h"

#include <atomic>

namespace mycc::support {

static std::atomic<IdleSlots *> processLender{nullptr};

void setIdleSlots(IdleSlots *slots) { processLender = slots; }

BorrowedSlots::BorrowedSlots(unsigned most) : lender(processLender) {
  if (lender && most) borrowed = lender->borrow(most);
}

BorrowedSlots::~BorrowedSlots() {
  if (borrowed) lender->giveBack(borrowed);
}

} // namespace mycc::support
