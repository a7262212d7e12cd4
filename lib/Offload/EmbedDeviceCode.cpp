#include "EmbedDeviceCode.h"

#include "AtomicFile.h"

#include "llvm/Object/ELF.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

namespace mycc::offload {

// The object's bytes stay as the host compiler wrote them; the device code
// goes at the end of the file, and the section's header (its offset and
// size) is rewritten to point there. A relocatable object has no segments,
// so nothing else refers to where a section lies, and relocations against
// the section (the wrapper's pointer to its start) stay valid. Not
// llvm-objcopy's --update-section, which writes the object anew and, doing
// so, drops GRP_COMDAT from groups whose signature symbol is local (g++'s
// groups of constructors, `_ZN...C5E...`): the linker would then keep every
// unit's copy.
bool fillDeviceCode(const std::string &object, const std::string &section,
                    const std::vector<std::string> &files,
                    const std::string &output, std::string &error) {
  auto in = llvm::MemoryBuffer::getFile(object, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
  if (!in) {
    error = "cannot read " + object + ": " + in.getError().message();
    return false;
  }
  using ELF = llvm::object::ELF64LE;
  auto elf = llvm::object::ELFFile<ELF>::create((*in)->getBuffer());
  if (!elf || elf->getHeader().e_type != llvm::ELF::ET_REL) {
    if (!elf) llvm::consumeError(elf.takeError());
    error = object + ": the host compiler's output is not a 64-bit ELF object";
    return false;
  }
  auto sections = elf->sections();
  if (!sections) {
    error = object + ": " + llvm::toString(sections.takeError());
    return false;
  }
  const ELF::Shdr *target = nullptr;
  for (const ELF::Shdr &header : *sections) {
    auto name = elf->getSectionName(header);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == section) target = &header;
  }
  if (!target) {
    error = object + ": no " + section +
            " section to hold the device code (the lowered unit's; "
            "link-time optimisation of the host code leaves it out)";
    return false;
  }
  std::string bytes = (*in)->getBuffer().str();
  uint64_t align = std::max<uint64_t>(1, target->sh_addralign);
  bytes.resize((bytes.size() + align - 1) / align * align, '\0');
  uint64_t offset = bytes.size();
  for (const std::string &file : files) {
    auto data = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!data) {
      error = "cannot read " + file + ": " + data.getError().message();
      return false;
    }
    bytes += (*data)->getBuffer();
  }
  ELF::Shdr header = *target;
  header.sh_offset = offset;
  header.sh_size = bytes.size() - offset;
  std::size_t at = reinterpret_cast<const char *>(target) -
                   (*in)->getBufferStart();
  std::memcpy(&bytes[at], &header, sizeof header);
  support::AtomicOutput out;
  if (!out.open(output, error)) return false;
  out.stream() << bytes;
  return out.commit(error);
}

} // namespace mycc::offload
