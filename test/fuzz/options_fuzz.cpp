// nvcc's command line on arbitrary words (split at NUL and newline): the
// parser must give options or a one-line error, never crash or hang. The
// first word may also be read as NVCC_PREPEND_FLAGS' text (split as an
// options file is), and a word starting with "-gencode=" tests -gencode
// strings on their own.
#include "Options.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') words.emplace_back();
    else words.back() += c;
  }
  std::string environment = words.front();
  words.erase(words.begin());
  std::vector<std::string> args =
      mycc::driver::withEnvironmentFlags(words, environment, "");
  // Options files name files: none are read (nothing on disk is touched).
  for (std::string &word : args)
    if (word.rfind("-optf", 0) == 0 || word.rfind("--options-file", 0) == 0)
      word = "-w";
  mycc::driver::ParseResult parsed = mycc::driver::parseCommandLine(args);
  if (!parsed && (parsed.error.empty() ||
                  parsed.error.find('\n') != std::string::npos))
    std::abort(); // an error is one line
  return 0;
}
