// The JIT cache's readers on arbitrary bytes: an entry file (written by
// anyone who could write the cache directory) must be a hit with the
// payload it declares, or a miss/damaged entry that is then removed; the
// settings' size and JIT-option texts parse or are refused.
#include "JitCache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {
// Removed at exit (the name outlives the static destructors for that).
std::string cacheDir() {
  static const std::string *dir = [] {
    char model[] = "/tmp/mycc-jit-fuzz-XXXXXX";
    auto *name = new std::string(mkdtemp(model));
    std::atexit([] { std::filesystem::remove_all(cacheDir()); });
    return name;
  }();
  return *dir;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace mycc::rt;
  std::string text(reinterpret_cast<const char *>(data), size);
  uint64_t bytes = 0;
  parseByteSize(text, bytes);
  JitOptions jit;
  std::string why;
  parseJitOptions(text, jit, why);

  JitCache cache(cacheDir() + "/c", 1 << 20);
  if (!cache.open(why)) std::abort();
  JitKey key{};
  key[0] = 1;
  // The entry: the input, with the key the lookup asks for where an entry
  // keeps it (so that the checks past it are reached).
  std::string entry = text;
  if (entry.size() >= 16 + key.size())
    entry.replace(16, key.size(), reinterpret_cast<const char *>(key.data()),
                  key.size());
  std::string path = cache.entryPath(key);
  if (FILE *f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(entry.data(), 1, entry.size(), f);
    std::fclose(f);
  }
  std::string payload;
  JitCache::Lookup found = cache.load(key, payload, &why);
  if (found == JitCache::Lookup::Hit && payload.size() > entry.size())
    std::abort();
  ::unlink(path.c_str());
  return 0;
}
