#include "Inspect.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <cstdio>

namespace mycc::objdump {
namespace {

using llvm::StringRef;

constexpr uint8_t kFatbinMagic[4] = {0x50, 0xED, 0x55, 0xBA};

bool startsWithFatbinMagic(StringRef bytes) {
  return bytes.size() >= 4 &&
         bytes.substr(0, 4) ==
             StringRef(reinterpret_cast<const char *>(kFatbinMagic), 4);
}

// An error message on one line: LLVM's object library quotes bytes of the
// file in its messages (an archive member's header), newlines included.
std::string oneLine(const std::string &message) {
  std::string line;
  for (unsigned char c : message) {
    if (c >= 0x20 && c != 0x7f) {
      line += char(c);
      continue;
    }
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, c == '\n' ? "\\n" : "\\x%02x", c);
    line += escaped;
  }
  return line;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", (unsigned long long)value);
  return text;
}

// The section names that hold fat binaries: ELF (and COFF) names, then the
// Mach-O section names of the __NV_CUDA segment.
bool isExecutableFatbinSection(StringRef name) {
  return name == ".nv_fatbin" || name == "__nv_fatbin";
}
bool isRelocatableFatbinSection(StringRef name) {
  return name == "__nv_relfatbin";
}

class Scanner {
public:
  Scanner(std::string base, const InspectOptions &options)
      : base_(std::move(base)), options_(options) {}

  InspectResult result;

  // Every container in `bytes` (a section, or a whole .fatbin file). Zero
  // bytes between containers are padding (sections are concatenated with
  // their alignment). Returns false with result.error set.
  bool scanRegion(StringRef bytes, const std::string &member,
                  const std::string &section, bool relocatable) {
    auto *data = reinterpret_cast<const uint8_t *>(bytes.data());
    uint64_t size = bytes.size(), offset = 0;
    while (offset < size) {
      if (data[offset] == 0) {
        ++offset;
        continue;
      }
      std::string where = (member.empty() ? "" : member + ": ") +
                          (section.empty() ? "container at " : section + "+") +
                          hex(offset);
      std::size_t length = fatbinContainerSize(data + offset, size - offset);
      FatbinReadOptions readOptions;
      readOptions.decompress = options_.decompress;
      FatbinReadResult read = readFatbin(
          data + offset, length ? length : size - offset, readOptions);
      if (!read || length == 0) {
        result.error =
            where + ": malformed fat binary: " +
            (read ? std::string("bad container header") : read.error);
        return false;
      }
      Container container;
      container.member = member;
      container.section = section;
      container.offset = offset;
      container.size = length;
      container.relocatable = relocatable;
      container.images = std::move(read.images);
      nameImages(container);
      result.containers.push_back(std::move(container));
      offset += length;
    }
    return true;
  }

  // A bare cubin: one ELF image, its SM from e_flags.
  void addCubin(const llvm::object::ELFObjectFileBase &elf,
                const std::string &member) {
    FatbinImage image;
    image.kind = ImageKind::Elf;
    unsigned flags = elf.getPlatformFlags();
    uint8_t abi = elf.getEIdentABIVersion();
    image.arch.sm = abi >= llvm::ELF::ELFABIVERSION_CUDA_V2
                        ? (flags & llvm::ELF::EF_CUDA_SM_MASK) >>
                              llvm::ELF::EF_CUDA_SM_OFFSET
                        : flags & llvm::ELF::EF_CUDA_SM;
    image.versionMajor = 1;
    image.versionMinor = abi;
    StringRef bytes = elf.getData();
    image.payload.assign(bytes.data(), bytes.size());
    image.storedSize = bytes.size();
    Container container;
    container.member = member;
    container.size = bytes.size();
    container.cubinFile = true;
    container.images.push_back(std::move(image));
    // cuobjdump names a cubin file "<base>.sm_80.cubin", without a number.
    container.names.push_back(base_ + ".sm_" + container.images[0].arch.str() +
                              ".cubin");
    result.containers.push_back(std::move(container));
  }

  // The fat binary sections of one object file; false on a malformed one.
  bool scanObject(const llvm::object::ObjectFile &object,
                  const std::string &member) {
    if (auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(&object);
        elf && elf->getEMachine() == llvm::ELF::EM_CUDA) {
      addCubin(*elf, member);
      return true;
    }
    struct Found {
      std::string name;
      StringRef contents;
      bool relocatable;
    };
    std::vector<Found> found;
    bool anyExecutable = false;
    for (const llvm::object::SectionRef &section : object.sections()) {
      llvm::Expected<StringRef> name = section.getName();
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      bool relocatable = isRelocatableFatbinSection(*name);
      if (!relocatable && !isExecutableFatbinSection(*name))
        continue;
      llvm::Expected<StringRef> contents = section.getContents();
      if (!contents) {
        result.error = (member.empty() ? "" : member + ": ") + "section " +
                       name->str() + ": " +
                       llvm::toString(contents.takeError());
        return false;
      }
      anyExecutable |= !relocatable;
      found.push_back({name->str(), *contents, relocatable});
    }
    for (const Found &f : found) {
      if (f.relocatable && anyExecutable && !options_.allFatbin)
        continue;
      if (!scanRegion(f.contents, member, f.name, f.relocatable))
        return false;
    }
    return true;
  }

  bool scanArchive(const llvm::object::Archive &archive) {
    llvm::Error err = llvm::Error::success();
    for (const llvm::object::Archive::Child &child : archive.children(err)) {
      llvm::Expected<StringRef> name = child.getName();
      std::string member = name ? name->str() : std::string("?");
      if (!name)
        llvm::consumeError(name.takeError());
      llvm::Expected<llvm::MemoryBufferRef> buffer = child.getMemoryBufferRef();
      if (!buffer) {
        result.error =
            "member " + member + ": " + llvm::toString(buffer.takeError());
        llvm::consumeError(std::move(err));
        return false;
      }
      // LLVM 22 hands out the last member with the size its header claims,
      // even past the end of the archive (it finds out only when it looks
      // for the next member); reading it would read outside the file.
      StringRef whole = archive.getData();
      StringRef bytes = buffer->getBuffer();
      if (bytes.data() < whole.data() ||
          bytes.size() > std::size_t(whole.end() - bytes.data())) {
        result.error = "malformed archive: member " + member +
                       " runs past the end of the archive";
        llvm::consumeError(std::move(err));
        return false;
      }
      if (startsWithFatbinMagic(bytes)) {
        if (!scanRegion(bytes, member, "", false)) {
          llvm::consumeError(std::move(err));
          return false;
        }
        continue;
      }
      llvm::Expected<std::unique_ptr<llvm::object::Binary>> binary =
          child.getAsBinary();
      if (!binary) { // not an object: cuobjdump skips such members too
        llvm::consumeError(binary.takeError());
        continue;
      }
      if (auto *object =
              llvm::dyn_cast<llvm::object::ObjectFile>(binary->get())) {
        if (!scanObject(*object, member)) {
          llvm::consumeError(std::move(err));
          return false;
        }
      }
    }
    if (err) {
      result.error = "malformed archive: " + llvm::toString(std::move(err));
      return false;
    }
    return true;
  }

private:
  void nameImages(Container &container) {
    for (const FatbinImage &image : container.images) {
      unsigned &counter = image.kind == ImageKind::Elf   ? elfCount_
                          : image.kind == ImageKind::Ptx ? ptxCount_
                                                         : ltoCount_;
      container.names.push_back(imageFileName(base_, image, ++counter));
    }
  }

  std::string base_;
  InspectOptions options_;
  unsigned elfCount_ = 0, ptxCount_ = 0, ltoCount_ = 0;
};

} // namespace

std::string kindName(ImageKind kind) {
  switch (kind) {
  case ImageKind::Elf:
    return "ELF";
  case ImageKind::Ptx:
    return "PTX";
  case ImageKind::LtoIr:
    return "LTO-IR";
  case ImageKind::RelocatablePtx:
    return "RELOC-PTX";
  }
  return "?";
}

std::string targetName(const FatbinImage &image) {
  switch (image.kind) {
  case ImageKind::Elf:
    return "sm_" + image.arch.str();
  case ImageKind::Ptx:
    return "compute_" + image.arch.str();
  case ImageKind::LtoIr:
    return "lto_" + image.arch.str();
  case ImageKind::RelocatablePtx:
    return "compute_" + image.arch.str();
  }
  return image.arch.str();
}

std::string imageFileName(const std::string &base, const FatbinImage &image,
                          unsigned number) {
  const char *extension = image.kind == ImageKind::Elf     ? ".cubin"
                          : image.kind == ImageKind::LtoIr ? ".ltoir"
                                                           : ".ptx";
  // cuobjdump 13 leaves the `f` out of a cubin's file name (its listing
  // says sm_120f), but keeps it for PTX, and keeps `a` for both.
  GpuArch named = image.arch;
  if (image.kind == ImageKind::Elf &&
      named.suffix == ArchSuffix::FamilySpecific)
    named.suffix = ArchSuffix::None;
  std::string arch = "sm_" + named.str();
  if (!image.ident.empty())
    return llvm::sys::path::stem(image.ident).str() + "." + arch + extension;
  return base + "." + std::to_string(number) + "." + arch + extension;
}

InspectResult inspectFile(const std::string &path,
                          const InspectOptions &options) {
  InspectResult failed;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    failed.error = buffer.getError().message(); // "No such file or directory"
    if (!failed.error.empty())
      failed.error[0] = char(std::tolower((unsigned char)failed.error[0]));
    return failed;
  }
  StringRef bytes = (*buffer)->getBuffer();
  return inspectBytes(std::string_view(bytes.data(), bytes.size()),
                      llvm::sys::path::stem(path).str(), options);
}

InspectResult inspectBytes(std::string_view contents, const std::string &base,
                           const InspectOptions &options) {
  InspectResult failed;
  Scanner scanner(base, options);
  StringRef bytes(contents.data(), contents.size());

  if (startsWithFatbinMagic(bytes)) {
    scanner.scanRegion(bytes, "", "", false);
  } else {
    llvm::Expected<std::unique_ptr<llvm::object::Binary>> binary =
        llvm::object::createBinary(llvm::MemoryBufferRef(bytes, base));
    if (!binary) {
      llvm::consumeError(binary.takeError());
      failed.error = "not an object file, archive, cubin or fat binary";
      return failed;
    }
    if (auto *archive = llvm::dyn_cast<llvm::object::Archive>(binary->get())) {
      scanner.scanArchive(*archive);
    } else if (auto *object =
                   llvm::dyn_cast<llvm::object::ObjectFile>(binary->get())) {
      scanner.scanObject(*object, "");
    } else {
      failed.error = "not an object file, archive, cubin or fat binary";
      return failed;
    }
  }
  InspectResult result = std::move(scanner.result);
  if (result.error.empty() && result.containers.empty())
    result.error = "no fat binary (no .nv_fatbin or __nv_relfatbin section "
                   "holding a container)";
  if (!result.error.empty()) {
    result.error = oneLine(result.error);
    result.containers.clear();
  }
  return result;
}

} // namespace mycc::objdump
