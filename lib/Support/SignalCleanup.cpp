#include "SignalCleanup.h"

#include <atomic>
#include <csignal>
#include <pthread.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace mycc::support {

unsigned jobStackBytes() {
  static const unsigned bytes = [] {
    const char *mb = std::getenv("MYCC_JOB_STACK_MB");
    unsigned long n = mb ? std::strtoul(mb, nullptr, 10) : 0;
    return n >= 1 && n < 4096 ? unsigned(n << 20) : 256u << 20;
  }();
  return bytes;
}

namespace {

// SIGPIPE: a reader that stops early (`mycc -E x.cu | head`, a compiler
// cache closing its end) ends the run as an interrupt does.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
constexpr std::size_t kNumSignals = sizeof(kSignals) / sizeof(kSignals[0]);

// Set before the handlers are installed, read only by them.
char armedPath[4096];
std::atomic<bool> armed{false};
struct sigaction previous[kNumSignals];
bool ignoredAtStart[kNumSignals];
bool installed = false;

// Only async-signal-safe calls below: open, getdents64 (as a system call),
// unlinkat, close, nanosleep, sigaction, raise.
struct LinuxDirent64 {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

// Empties the directory `fd` refers to; subdirectories `depth` levels down.
void emptyDirectory(int fd, int depth) {
  char buffer[4096];
  for (;;) {
    long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n <= 0) return;
    for (long at = 0; at < n;) {
      auto *entry = reinterpret_cast<LinuxDirent64 *>(buffer + at);
      at += entry->reclen;
      const char *name = entry->name;
      if (!std::strcmp(name, ".") || !std::strcmp(name, "..")) continue;
      if (unlinkat(fd, name, 0) == 0 || depth == 0) continue;
      int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) continue;
      emptyDirectory(sub, depth - 1);
      close(sub);
      unlinkat(fd, name, AT_REMOVEDIR);
    }
  }
}

void removeArmedDirectory() {
  // A tool still running may add a file meanwhile: a few tries.
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = open(armedPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    emptyDirectory(fd, 4);
    close(fd);
    if (rmdir(armedPath) == 0) return;
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, nullptr);
  }
}

// Stack overflow: the thread's stack bounds and its message, noted when it
// starts watching; read by the handler on the alternate stack.
thread_local uintptr_t stackLow = 0;
thread_local char overflowMessage[1024];
thread_local std::size_t overflowLength = 0;
thread_local int overflowExit = 1;
struct sigaction previousSegv;
std::atomic<bool> segvInstalled{false};

void onFault(int sig, siginfo_t *info, void *context) {
  uintptr_t at = reinterpret_cast<uintptr_t>(info->si_addr);
  // The guard page below the stack, and a little into it.
  if (stackLow && at + (1u << 20) >= stackLow && at < stackLow + (64u << 10)) {
    ssize_t ignored = write(2, overflowMessage, overflowLength);
    (void)ignored;
    if (armed.exchange(false)) removeArmedDirectory();
    _exit(overflowExit);
  }
  // Not an overflow: as before this handler.
  if (previousSegv.sa_flags & SA_SIGINFO) {
    previousSegv.sa_sigaction(sig, info, context);
  } else if (previousSegv.sa_handler != SIG_DFL && previousSegv.sa_handler != SIG_IGN) {
    previousSegv.sa_handler(sig);
  } else {
    sigaction(sig, &previousSegv, nullptr);
    raise(sig);
  }
}

void onSignal(int sig) {
  if (armed.exchange(false)) removeArmedDirectory();
  // Then as before: LLVM's handler (or the default action) ends the process.
  for (std::size_t i = 0; i < kNumSignals; ++i)
    if (kSignals[i] == sig) sigaction(sig, &previous[i], nullptr);
  raise(sig);
}

} // namespace

void armTempDirCleanup(const std::string &dir) {
  if (dir.size() >= sizeof armedPath) return;
  armed = false;
  std::memcpy(armedPath, dir.c_str(), dir.size() + 1);
  armed = true;
  if (installed) return;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < kNumSignals; ++i)
    if (!ignoredAtStart[i]) sigaction(kSignals[i], &action, &previous[i]);
  installed = true;
}

void recordIgnoredSignals() {
  for (std::size_t i = 0; i < kNumSignals; ++i) {
    struct sigaction current;
    ignoredAtStart[i] = sigaction(kSignals[i], nullptr, &current) == 0 &&
                        current.sa_handler == SIG_IGN;
  }
}

void disarmTempDirCleanup() { armed = false; }

void watchStackOverflow(const std::string &what, int exitStatus) {
  pthread_attr_t attr;
  void *low = nullptr;
  std::size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  pthread_attr_getstack(&attr, &low, &size);
  pthread_attr_destroy(&attr);
  stackLow = reinterpret_cast<uintptr_t>(low);
  overflowExit = exitStatus;
  std::string message = "mycc: error: internal error in " + what +
                        ": stack overflow; please report\n";
  overflowLength = std::min(message.size(), sizeof overflowMessage);
  std::memcpy(overflowMessage, message.data(), overflowLength);
  // This thread's alternate stack, for the handler (kept until the thread
  // ends: a thread_local buffer).
  thread_local char alternate[64 << 10];
  stack_t ss;
  ss.ss_sp = alternate;
  ss.ss_size = sizeof alternate;
  ss.ss_flags = 0;
  sigaltstack(&ss, nullptr);
  if (segvInstalled.exchange(true)) return;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previousSegv);
}

} // namespace mycc::support
