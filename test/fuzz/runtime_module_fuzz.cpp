// What the runtime reads of a module at registration and at its first
// launch, on arbitrary bytes: the fat binary wrapper and the container it
// points at, the image selection for each device and its messages, the
// PTX-only copy MYCC_FORCE_PTX registers, and the container the JIT cache
// builds. The calls into the CUDA runtime are not part of it.
//
// Input: byte 0 chooses the wrapper (magic, version) and the environment
// (forced PTX, PTX JIT disabled), byte 1 one more device SM; the rest is the
// container. Wrappers carry no size: the runtime trusts the size in the
// container header, which mycc wrote, so a header claiming more than the
// input holds is not read.
#include "RuntimeInternal.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace mycc;
using namespace mycc::rt;

bool oneLine(const std::string &text) {
  return text.find('\n') == std::string::npos;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  const uint8_t mode = data[0];
  const unsigned extraSm = data[1];
  data += 2;
  size -= 2;

  // The container, 8-byte aligned as in .nv_fatbin, at least a header long.
  std::vector<uint64_t> words((std::max<size_t>(size, 16) + 7) / 8);
  std::memcpy(words.data(), data, size);
  FatbinWrapper wrapper{(mode & 1) ? 0x12345678 : kWrapperMagic,
                        (mode & 2) ? 2 : ((mode & 4) ? 3 : 1),
                        reinterpret_cast<const unsigned long long *>(words.data()),
                        nullptr};
  std::string error;
  std::size_t containerSize = 0;
  const uint8_t *container = wrapperContainer(&wrapper, containerSize, error);
  if (!container) {
    if (error.empty() || !oneLine(error))
      std::abort();
    return 0;
  }
  if (containerSize > size)
    return 0;

  FatbinReadResult read = readFatbin(container, containerSize);
  // The runtime selects from the headers alone: they must describe the
  // module as the whole read does.
  FatbinReadOptions headersOnly;
  headersOnly.payloads = FatbinReadOptions::Payloads::None;
  FatbinReadResult headers = readFatbin(container, containerSize, headersOnly);
  ModuleInfo info = describeModule("fuzz.cu", headers);
  if (!headers && info.readError.empty())
    std::abort();
  if (bool(read) != bool(headers) || read.images.size() != headers.images.size())
    std::abort(); // a whole read and a headers-only read disagree on what is valid
  for (std::size_t i = 0; i < read.images.size(); ++i)
    if (read.images[i].kind != headers.images[i].kind ||
        read.images[i].arch.sm != headers.images[i].arch.sm ||
        read.images[i].arch.suffix != headers.images[i].arch.suffix)
      std::abort();
  info.ptxJitDisabled = mode & 8;
  if (mode & 16) { // MYCC_FORCE_PTX, as registerModule applies it
    std::string why;
    std::vector<uint8_t> forced = withoutCubins(read.images, why);
    if (forced.empty() == why.empty())
      std::abort(); // a copy, or a reason why not
    if (!forced.empty()) {
      FatbinReadResult back = readFatbin(forced.data(), forced.size());
      if (!back)
        std::abort();
      size_t kept = 0;
      for (const FatbinImage &image : read.images)
        kept += image.kind != ImageKind::Elf;
      if (back.images.size() != kept)
        std::abort();
      for (const FatbinImage &image : back.images)
        if (image.kind == ImageKind::Elf)
          std::abort();
      info.cubinsRemoved = true;
    }
  }

  for (unsigned sm : {50u, 75u, 80u, 86u, 89u, 90u, 100u, 120u, extraSm}) {
    Explanation ex = explainSelection(info, 0, "fuzz GPU", sm, "");
    if (!oneLine(ex.logLine) || !oneLine(ex.error))
      std::abort();
    if (ex.selection.kind == Selection::Kind::None) {
      if (ex.error.empty())
        std::abort(); // nothing fits: the runtime says why
      continue;
    }
    if (!ex.error.empty() || ex.selection.index >= info.images.size())
      std::abort();
    const ModuleImage &chosen = info.images[ex.selection.index];
    if (chosen.kind != (ex.selection.kind == Selection::Kind::Cubin
                            ? ImageKind::Elf
                            : ImageKind::Ptx))
      std::abort();
    (void)describeLoaded(info, ex.selection, 0, sm, int(extraSm), int(sm));

    if (ex.selection.kind == Selection::Kind::PtxJit) {
      // The JIT cache's container: the compiled cubin, then the module's.
      FatbinImage cubin;
      cubin.kind = ImageKind::Elf;
      cubin.arch.sm = sm;
      cubin.payload = "not an ELF file";
      std::vector<uint8_t> jit = prependImages({cubin}, container, containerSize);
      if (jit.empty())
        continue;
      FatbinReadResult back = readFatbin(jit.data(), jit.size());
      if (read && (!back || back.images.size() != read.images.size() + 1 ||
                   back.images[0].kind != ImageKind::Elf ||
                   back.images[0].arch.sm != sm))
        std::abort();
    }
  }
  return 0;
}
