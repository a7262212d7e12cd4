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
