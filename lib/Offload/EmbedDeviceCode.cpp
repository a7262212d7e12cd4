#include "EmbedDeviceCode.h"

#include "AtomicFile.h"

#include "llvm/Object/ELF.h"
#include "llvm/Support/Error.h"

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
  std::string bytes;
  if (!support::readFile(object, bytes, error)) return false;
  using ELF = llvm::object::ELF64LE;
  auto elf = llvm::object::ELFFile<ELF>::create(bytes);
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
  // The header and where it lies, before `bytes` grows (and moves).
  ELF::Shdr header = *target;
  std::size_t at = reinterpret_cast<const char *>(target) - bytes.data();
  uint64_t align = std::max<uint64_t>(1, header.sh_addralign);
  bytes.resize((bytes.size() + align - 1) / align * align, '\0');
  uint64_t offset = bytes.size();
  std::string data;
  for (const std::string &file : files) {
    if (!support::readFile(file, data, error)) return false;
    bytes += data;
  }
  header.sh_offset = offset;
  header.sh_size = bytes.size() - offset;
  std::memcpy(&bytes[at], &header, sizeof header);
  return support::writeFileAtomic(output, bytes, error);
}

} // namespace mycc::offload
