#include "RunProgram.h"
#include "AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"

#include <optional>

namespace mycc::support {

ProgramOutput runCapturing(llvm::StringRef program,
                           llvm::ArrayRef<llvm::StringRef> args,
                           unsigned seconds) {
  ProgramOutput result;
  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("mycc-run", "out", outPath)) {
    result.execError = "cannot create a temporary file";
    return result;
  }
  if (llvm::sys::fs::createTemporaryFile("mycc-run", "err", errPath)) {
    llvm::sys::fs::remove(outPath);
    result.execError = "cannot create a temporary file";
    return result;
  }
  // An interrupt while the program runs removes them too (LLVM's handlers).
  llvm::sys::RemoveFileOnSignal(outPath);
  llvm::sys::RemoveFileOnSignal(errPath);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                outPath.str(), errPath.str()};
  result.status = llvm::sys::ExecuteAndWait(program, args, std::nullopt,
                                            redirects, seconds, 0,
                                            &result.execError);
  // A missing output reads as empty: the exit status says what happened.
  std::string ignored;
  readFile(std::string(outPath), result.out, ignored);
  readFile(std::string(errPath), result.err, ignored);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  llvm::sys::DontRemoveFileOnSignal(outPath);
  llvm::sys::DontRemoveFileOnSignal(errPath);
  return result;
}

} // namespace mycc::support
