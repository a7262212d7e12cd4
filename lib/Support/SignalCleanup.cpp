#include "SignalCleanup.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace mycc::support {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
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

} // namespace mycc::support
