// The fat binary reader on arbitrary bytes: it must return an error or
// images, never crash, hang or allocate without bound; what it returns must
// write back and read again to the same images (payloads the same up to the
// zero padding a writer adds to a payload whose size is not a multiple of
// 8, which the reader keeps for a cubin that does not parse as ELF).
#include "Fatbin.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace mycc;
  mycc::fatbinContainerSize(data, size);
  FatbinReadOptions options;
  options.decompress = true;
  FatbinReadResult decoded = readFatbin(data, size, options);
  FatbinReadResult stored = readFatbin(data, size);
  if (!stored) return 0;
  std::vector<uint8_t> again = writeFatbin(stored.images);
  FatbinReadResult back = readFatbin(again.data(), again.size());
  if (!back || back.images.size() != stored.images.size()) std::abort();
  for (size_t i = 0; i < back.images.size(); ++i) {
    const std::string &was = stored.images[i].payload, &is = back.images[i].payload;
    if (back.images[i].kind != stored.images[i].kind || is.size() < was.size() ||
        is.compare(0, was.size(), was) != 0 ||
        is.find_first_not_of('\0', was.size()) != std::string::npos)
      std::abort();
  }
  (void)decoded;
  return 0;
}
