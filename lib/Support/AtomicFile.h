// Output files written atomically: to a unique temporary beside the final
// path, renamed over it only when everything was written (devices and FIFOs
// excepted: see outputPlace). A failed or
// interrupted step leaves the previous output as it was, and two processes
// writing the same output never see each other's half-written file.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mycc::support {

// An output being written. `stream()` writes to the temporary; `commit()`
// renames it into place; destroying it without a commit removes the
// temporary.
class AtomicOutput {
public:
  // False, with a one-line `error`, when the temporary cannot be created.
  bool open(const std::string &path, std::string &error);
  llvm::raw_pwrite_stream &stream() { return *os; }
  // Where the bytes go until the commit (for tools that write by name).
  const std::string &tempPath() const { return temp; }
  bool commit(std::string &error);
  // Hands the stream to a writer that owns it (Clang's object emission);
  // commit() then only renames.
  std::unique_ptr<llvm::raw_pwrite_stream> takeStream() { return std::move(os); }
  ~AtomicOutput();

private:
  std::string path, temp;
  std::unique_ptr<llvm::raw_fd_ostream> ownedFd;
  std::unique_ptr<llvm::raw_pwrite_stream> os;
};

// Where an output at `path` goes. A device, FIFO or socket (/dev/null,
// /dev/stdout) is written in place, as nvcc writes it: a temporary renamed
// over it would replace the device (as root, /dev/null itself; as anyone
// else, the temporary could not be created in /dev). A symbolic link is
// followed: the file it names is replaced, not the link.
struct OutputPlace {
  std::string path; // the file the bytes go to
  bool inPlace = false;
};
OutputPlace outputPlace(const std::string &path);

// A unique temporary name beside `path`, for a tool that writes the file
// itself (ptxas, the host compiler); renameIntoPlace then publishes it.
// Give it outputPlace(...).path, of an output that is not written in place.
std::string temporaryBeside(const std::string &path);
bool renameIntoPlace(const std::string &temp, const std::string &path,
                     std::string &error);

// Writes `bytes` to `path` atomically; "-" is stdout.
bool writeFileAtomic(const std::string &path, llvm::StringRef bytes,
                     std::string &error);

// Reads a whole file; false with a one-line `error`.
bool readFile(const std::string &path, std::string &out, std::string &error);

} // namespace mycc::support
