// A client of the GNU make jobserver (make -jN, and every tool that speaks
// its protocol): when MAKEFLAGS names one, each job mycc runs beyond the
// first takes a token from it and gives it back when done, so that a build
// running many compiles at once never has more of them running than it
// asked for. Tokens are bytes in a pipe (--jobserver-auth=R,W, or the older
// --jobserver-fds) or in a named pipe (--jobserver-auth=fifo:PATH).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace mycc::driver {

class Jobserver {
public:
  // The jobserver MAKEFLAGS names, if it names one that can be used.
  static std::unique_ptr<Jobserver> fromMakeflags(const std::string &makeflags);
  ~Jobserver();

  // Takes a token if one is free now (never blocks).
  bool tryAcquire();
  // Gives back a token taken with tryAcquire.
  void release();

private:
  Jobserver(int readFd, int writeFd) : readFd(readFd), writeFd(writeFd) {}
  int readFd, writeFd;
  std::vector<char> held; // the tokens, given back as they were
};

} // namespace mycc::driver
