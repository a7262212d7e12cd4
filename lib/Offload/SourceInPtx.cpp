#include "SourceInPtx.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <vector>

namespace mycc::offload {
namespace {

// A source file's lines, read once; empty when it cannot be read.
struct SourceFile {
  std::string path;
  std::vector<llvm::StringRef> lines;
  std::unique_ptr<llvm::MemoryBuffer> text;
  bool loaded = false;

  const std::vector<llvm::StringRef> &get() {
    if (loaded) return lines;
    loaded = true;
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer) return lines;
    text = std::move(*buffer);
    llvm::StringRef rest = text->getBuffer();
    while (!rest.empty()) {
      auto [line, after] = rest.split('\n');
      lines.push_back(line.rtrim('\r'));
      rest = after;
    }
    return lines;
  }
};

// `.file 1 "/path/x.cu"` (LLVM may add a timestamp and size after a comma).
bool parseFile(llvm::StringRef line, unsigned &id, std::string &path) {
  line = line.trim();
  if (!line.consume_front(".file")) return false;
  line = line.ltrim();
  llvm::StringRef number = line.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (number.getAsInteger(10, id)) return false;
  line = line.drop_front(number.size()).ltrim();
  if (!line.consume_front("\"")) return false;
  size_t end = line.find('"');
  if (end == llvm::StringRef::npos) return false;
  path = line.take_front(end).str();
  return true;
}

// `.loc 1 7 3` (with optional attributes after the column).
bool parseLoc(llvm::StringRef line, unsigned &file, unsigned &row) {
  line = line.trim();
  if (!line.consume_front(".loc")) return false;
  llvm::SmallVector<llvm::StringRef, 4> fields;
  llvm::SplitString(line, fields); // on spaces and tabs
  return fields.size() >= 2 && !fields[0].getAsInteger(10, file) &&
         !fields[1].getAsInteger(10, row);
}

} // namespace

std::string interleaveSource(const std::string &ptx) {
  std::map<unsigned, SourceFile> files;
  llvm::StringRef all = ptx;
  for (llvm::StringRef rest = all; !rest.empty();) {
    auto [line, after] = rest.split('\n');
    unsigned id;
    std::string path;
    if (parseFile(line, id, path)) files[id].path = path;
    rest = after;
  }
  if (files.empty()) return ptx;

  // Going forward in a file, the lines skipped since the last one shown
  // come too, up to this many (a function's first lines, a loop's header).
  constexpr unsigned kMaxSkipped = 4;
  std::string out;
  out.reserve(ptx.size() * 2);
  std::map<unsigned, unsigned> shownUpTo; // per file
  unsigned lastFile = 0, lastRow = 0;
  for (llvm::StringRef rest = all; !rest.empty();) {
    auto [line, after] = rest.split('\n');
    unsigned file, row;
    if (parseLoc(line, file, row) && row > 0 &&
        (file != lastFile || row != lastRow) && files.count(file)) {
      SourceFile &source = files[file];
      const std::vector<llvm::StringRef> &lines = source.get();
      unsigned &shown = shownUpTo[file];
      unsigned first = row > shown && row - shown <= kMaxSkipped + 1 ? shown + 1 : row;
      for (unsigned r = first; r <= row && r <= lines.size(); ++r)
        out += "//" + source.path + ":" + std::to_string(r) + " " +
               lines[r - 1].str() + "\n";
      shown = row;
      lastFile = file;
      lastRow = row;
    }
    out += line.str();
    if (!after.empty() || rest.ends_with("\n")) out += "\n";
    rest = after;
  }
  return out;
}

} // namespace mycc::offload
