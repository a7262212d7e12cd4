// Inline assembly only the back end can reject (backend-errors.test).
__global__ void event(int counter) {
  // "n" needs a constant; the front end does not check it, LLVM's
  // instruction selection does.
  asm volatile("pmevent %0;" ::"n"(counter));
}
