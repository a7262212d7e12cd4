#include "Jobserver.h"

#include <cerrno>
#include <fcntl.h>
#include <regex>
#include <unistd.h>

namespace mycc::driver {
namespace {

// A descriptor of its own for a file make shares with its children, in
// non-blocking mode: reading must never wait (the scheduler asks again
// later), and changing the shared descriptor's mode would change make's.
int reopenNonBlocking(const std::string &path, int flags) {
  return ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC);
}

} // namespace

std::unique_ptr<Jobserver> Jobserver::fromMakeflags(const std::string &flags) {
  std::smatch m;
  // The last one counts: recursive makes append theirs.
  static const std::regex fifo(R"(--jobserver-auth=fifo:(\S+))");
  static const std::regex fds(R"(--jobserver-(?:auth|fds)=(\d+),(\d+))");
  std::string rest = flags, path, r, w;
  while (std::regex_search(rest, m, fifo)) {
    path = m[1];
    rest = m.suffix();
  }
  rest = flags;
  while (std::regex_search(rest, m, fds)) {
    r = m[1];
    w = m[2];
    rest = m.suffix();
  }
  int readFd = -1, writeFd = -1;
  if (!path.empty()) {
    readFd = reopenNonBlocking(path, O_RDONLY);
    writeFd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  } else if (!r.empty()) {
    // make passes the descriptors only to recipes it knows run make-aware
    // tools (`+` or $(MAKE)); closed ones mean there is no jobserver here.
    int in = std::stoi(r), out = std::stoi(w);
    if (::fcntl(in, F_GETFD) == -1 || ::fcntl(out, F_GETFD) == -1)
      return nullptr;
    readFd = reopenNonBlocking("/proc/self/fd/" + r, O_RDONLY);
    writeFd = ::dup(out);
  }
  if (readFd < 0 || writeFd < 0) {
    if (readFd >= 0) ::close(readFd);
    if (writeFd >= 0) ::close(writeFd);
    return nullptr;
  }
  return std::unique_ptr<Jobserver>(new Jobserver(readFd, writeFd));
}

Jobserver::~Jobserver() {
  while (!held.empty()) release();
  ::close(readFd);
  ::close(writeFd);
}

bool Jobserver::tryAcquire() {
  char token;
  ssize_t n = ::read(readFd, &token, 1);
  if (n != 1) return false; // EAGAIN: none free now
  held.push_back(token);
  return true;
}

void Jobserver::release() {
  if (held.empty()) return;
  char token = held.back();
  held.pop_back();
  while (::write(writeFd, &token, 1) < 0 && errno == EINTR) {
  }
}

} // namespace mycc::driver
