// mycc-objdump's reading of a file on arbitrary bytes: an executable, object
// or shared library (through LLVM's Object library), a static archive, a
// bare cubin or a .fatbin. It must return containers or one line of error,
// never crash, hang or allocate without bound; each container names each of
// its images, and an error leaves no containers.
#include "Inspect.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace mycc::objdump;
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  for (bool all : {false, true}) {
    InspectOptions options;
    options.allFatbin = all;
    options.decompress = all; // -x decodes; the listing does not
    InspectResult result = inspectBytes(bytes, "fuzz", options);
    if (!result.error.empty()) {
      if (!result.containers.empty() ||
          result.error.find('\n') != std::string::npos)
        std::abort();
      continue;
    }
    if (result.containers.empty())
      std::abort(); // "no fat binary" is an error
    for (const Container &c : result.containers) {
      if (c.names.size() != c.images.size())
        std::abort();
      for (const mycc::FatbinImage &image : c.images)
        (void)targetName(image), (void)kindName(image.kind);
    }
  }
  return 0;
}
