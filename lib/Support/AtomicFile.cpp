#include "AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace mycc::support {

namespace {

// The model of a temporary's name beside `path`: each % becomes a random
// hex digit (createUniquePath, createUniqueFile).
llvm::SmallString<256> temporaryModel(const std::string &path) {
  llvm::SmallString<256> model(path);
  model += ".tmp-%%%%%%%%";
  return model;
}

} // namespace

OutputPlace outputPlace(const std::string &path) {
  OutputPlace place{path, false};
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*Follow=*/true))
    return place; // not there yet (or a dangling link): a new file
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    place.inPlace = true;
    return place;
  }
  llvm::SmallString<256> real;
  if (llvm::sys::fs::is_symlink_file(path) &&
      !llvm::sys::fs::real_path(path, real))
    place.path = std::string(real);
  return place;
}

std::string temporaryBeside(const std::string &path) {
  llvm::SmallString<256> unique;
  llvm::sys::fs::createUniquePath(temporaryModel(path), unique,
                                  /*MakeAbsolute=*/false);
  return std::string(unique);
}

bool renameIntoPlace(const std::string &temp, const std::string &path,
                     std::string &error) {
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  return true;
}

bool AtomicOutput::open(const std::string &target, std::string &error) {
  OutputPlace place = outputPlace(target);
  path = place.path;
  int fd = -1;
  if (place.inPlace) { // no temporary: commit() only flushes
    if (std::error_code ec = llvm::sys::fs::openFileForWrite(
            path, fd, llvm::sys::fs::CD_OpenExisting)) {
      error = "cannot write " + target + ": " + ec.message();
      return false;
    }
    os = std::make_unique<llvm::raw_fd_ostream>(fd, /*shouldClose=*/true);
    return true;
  }
  llvm::SmallString<256> unique;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(temporaryModel(path), fd, unique)) {
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  temp = std::string(unique);
  os = std::make_unique<llvm::raw_fd_ostream>(fd, /*shouldClose=*/true);
  return true;
}

bool AtomicOutput::commit(std::string &error) {
  if (os) {
    os->flush();
    if (auto *fd = static_cast<llvm::raw_fd_ostream *>(os.get());
        fd->has_error()) {
      error = "cannot write " + path + ": " + fd->error().message();
      fd->clear_error();
      os.reset();
      llvm::sys::fs::remove(temp);
      temp.clear();
      return false;
    }
    os.reset();
  }
  if (temp.empty()) return true; // written in place
  bool ok = renameIntoPlace(temp, path, error);
  temp.clear();
  return ok;
}

AtomicOutput::~AtomicOutput() {
  if (os) {
    if (auto *fd = static_cast<llvm::raw_fd_ostream *>(os.get()))
      fd->clear_error();
    os.reset();
  }
  if (!temp.empty()) llvm::sys::fs::remove(temp);
}

bool writeFileAtomic(const std::string &path, llvm::StringRef bytes,
                     std::string &error) {
  if (path == "-") {
    llvm::outs() << bytes;
    llvm::outs().flush();
    return true;
  }
  AtomicOutput out;
  if (!out.open(path, error)) return false;
  out.stream() << bytes;
  return out.commit(error);
}

bool readFile(const std::string &path, std::string &out, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + path + ": " + buffer.getError().message();
    return false;
  }
  out = (*buffer)->getBuffer().str();
  return true;
}

} // namespace mycc::support
