// Removing the run's temporary directory when the run is interrupted
// (SIGINT, SIGTERM, SIGHUP, SIGPIPE): the normal return removes it, a
// signal would leave it behind in $TMPDIR.
#pragma once

#include <string>

namespace mycc::support {

// From now until disarmTempDirCleanup(), an interrupt signal removes `dir`
// and what it holds (files, and directories down to a few levels) before
// the process ends as the signal ends it (LLVM's handlers, installed by
// InitLLVM, then remove their files and re-raise). One directory at a time;
// the path must be shorter than 4096 bytes.
void armTempDirCleanup(const std::string &dir);

// The stack of each thread that compiles (the driver's jobs, the parts of a
// split code generation). Clang recurses on the depth of expressions (its
// code generator on each operand of a long sum: 200,000 terms on one line
// need about 200 MB, which nvcc compiles) and of templates: 256 MB of
// address space, of which pages are only used as deep as a thread goes; an
// overflow beyond it is a one-line internal error (watchStackOverflow).
// MYCC_JOB_STACK_MB overrides it (a smaller stack shows the overflow
// handling in a test; a larger one takes deeper sources).
unsigned jobStackBytes();

// On the calling thread until it ends: a stack overflow (SIGSEGV at the
// stack's guard page, handled on an alternate stack) writes
// "mycc: error: internal error in <what>: stack overflow; please report",
// removes the armed directory and exits with `exitStatus`. Other faults go
// to the handlers installed before (LLVM's crash recovery).
void watchStackOverflow(const std::string &what, int exitStatus);

// Notes which of those signals the process was started with ignored (a
// background job of a shell, nohup): they stay ignored, and cleaning up on
// them would pull the directory from under a run that goes on. Call first
// in main, before LLVM installs its handlers.
void recordIgnoredSignals();
void disarmTempDirCleanup();

} // namespace mycc::support
