// Job slots of a run that no job uses: a job running in this process may
// borrow some for threads of its own (device code generation split over
// them) and gives them back when those threads end. The driver's scheduler
// lends them while it runs; elsewhere (a -cc1 tool run from a shell, the
// unit tests) there is nothing to borrow.
#pragma once

namespace mycc::support {

class IdleSlots {
public:
  virtual ~IdleSlots() = default;
  // At most `most` slots, those idle now (possibly none).
  virtual unsigned borrow(unsigned most) = 0;
  virtual void giveBack(unsigned count) = 0;
};

// The lender of this process (nullptr: none). One at a time.
void setIdleSlots(IdleSlots *slots);

// Slots borrowed from the process's lender, given back when this ends.
class BorrowedSlots {
public:
  explicit BorrowedSlots(unsigned most);
  ~BorrowedSlots();
  BorrowedSlots(const BorrowedSlots &) = delete;
  BorrowedSlots &operator=(const BorrowedSlots &) = delete;
  unsigned count() const { return borrowed; }

private:
  IdleSlots *lender;
  unsigned borrowed = 0;
};

} // namespace mycc::support
