#include "DeviceLink.h"

#include "Fatbin.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mycc::offload {
namespace {

// Keys of the image's string table beyond LLVM's "triple" and "arch".
constexpr const char *kProducer = "mycc.producer";
constexpr const char *kUnit = "mycc.unit";
constexpr const char *kSource = "mycc.source";
constexpr const char *kVirtual = "mycc.virtual";
constexpr const char *kCodes = "mycc.codes";
constexpr const char *kFeatures = "mycc.features";

// An object or archive mapped for reading; null, with `error`, if it cannot be.
std::unique_ptr<llvm::MemoryBuffer> openInput(const std::string &path,
                                              std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + path + ": " + buffer.getError().message();
    return nullptr;
  }
  return std::move(*buffer);
}

} // namespace

std::string packRelocatableImage(const RelocatableImage &image) {
  std::string codes;
  for (const Target &t : image.codes)
    codes += (codes.empty() ? "" : ",") + t.str();
  std::string virt = image.virtualArch.str();
  llvm::object::OffloadBinary::OffloadingImage entry;
  entry.TheImageKind = llvm::object::IMG_Bitcode;
  entry.TheOffloadKind = llvm::object::OFK_Cuda;
  entry.Flags = 0;
  entry.StringData["triple"] = "nvptx64-nvidia-cuda";
  entry.StringData["arch"] = image.target.cpu;
  entry.StringData[kProducer] = "mycc";
  entry.StringData[kUnit] = image.unitId;
  entry.StringData[kSource] = image.source;
  entry.StringData[kVirtual] = virt;
  entry.StringData[kCodes] = codes;
  entry.StringData[kFeatures] = image.target.features;
  entry.Image = llvm::MemoryBuffer::getMemBuffer(image.bitcode, "", false);
  llvm::SmallString<0> bytes = llvm::object::OffloadBinary::write(entry);
  return std::string(bytes.str());
}

bool readRelocatableImages(const std::string &path,
                           std::vector<RelocatableImage> &out,
                           std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInput(path, error);
  if (!buffer) return false;
  llvm::SmallVector<llvm::object::OffloadFile> binaries;
  if (llvm::Error e = llvm::object::extractOffloadBinaries(
          buffer->getMemBufferRef(), binaries)) {
    error = "cannot read the device code in " + path + ": " +
            llvm::toString(std::move(e));
    return false;
  }
  for (const auto &file : binaries) {
    const llvm::object::OffloadBinary &b = *file.getBinary();
    if (b.getString(kProducer) != "mycc") continue; // not ours
    RelocatableImage image;
    image.unitId = b.getString(kUnit).str();
    image.source = b.getString(kSource).str();
    image.target.cpu = b.getArch().str();
    image.target.features = b.getString(kFeatures).str();
    image.bitcode = b.getImage().str();
    image.file = path;
    std::optional<Target> virt = parseTarget(b.getString(kVirtual));
    bool ok = virt && virt->isVirtual && !image.unitId.empty() &&
              b.getImageKind() == llvm::object::IMG_Bitcode;
    llvm::SmallVector<llvm::StringRef> codes;
    b.getString(kCodes).split(codes, ',', -1, false);
    for (llvm::StringRef c : codes) {
      std::optional<Target> code = parseTarget(c);
      if (!code) ok = false;
      else image.codes.push_back(*code);
    }
    if (!ok) {
      error = path + ": malformed relocatable device code (written by another "
                     "mycc version?); recompile it";
      return false;
    }
    image.virtualArch = *virt;
    out.push_back(std::move(image));
  }
  return true;
}

namespace {

bool isNamed(const llvm::object::SectionRef &section, llvm::StringRef name) {
  llvm::Expected<llvm::StringRef> sectionName = section.getName();
  if (sectionName) return *sectionName == name;
  llvm::consumeError(sectionName.takeError());
  return false;
}

bool relocatableFatbinsOf(const llvm::object::ObjectFile &object,
                          const std::string &name,
                          std::vector<RelocatableFatbin> &out,
                          std::string &error) {
  // The unit's module id names its relocatable PTX in a device link's fat
  // binary (-reloc-ptx); one unit per object, as nvcc writes them.
  std::string moduleId;
  for (const llvm::object::SectionRef &section : object.sections()) {
    if (!isNamed(section, "__nv_module_id")) continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (contents) moduleId = contents->split('\0').first.str();
    else llvm::consumeError(contents.takeError());
  }
  for (const llvm::object::SectionRef &section : object.sections()) {
    if (!isNamed(section, "__nv_relfatbin")) continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      error = "cannot read the device code in " + name + ": " +
              llvm::toString(contents.takeError());
      return false;
    }
    RelocatableFatbin entry;
    entry.file = name;
    entry.moduleId = moduleId;
    // One container per unit (a relocatable link, ld -r, joins several).
    const auto *data = reinterpret_cast<const uint8_t *>(contents->data());
    std::size_t left = contents->size();
    while (left >= 16) {
      std::size_t size = fatbinContainerSize(data, left);
      FatbinReadResult read = size ? readFatbin(data, size) : FatbinReadResult{};
      if (!size || !read) {
        error = name + ": malformed relocatable device code (" +
                (size ? read.error : std::string("not a fat binary")) + ")";
        return false;
      }
      for (const FatbinImage &image : read.images) {
        if (image.kind == ImageKind::Ptx) entry.ptx.push_back(image);
        if (image.kind != ImageKind::Ptx && image.kind != ImageKind::Elf) continue;
        Target code;
        code.arch = image.arch;
        code.isVirtual = image.kind == ImageKind::Ptx;
        if (std::find(entry.codes.begin(), entry.codes.end(), code) ==
            entry.codes.end())
          entry.codes.push_back(code);
      }
      // Containers are 8-byte aligned in the section.
      size = (size + 7) & ~std::size_t(7);
      if (size >= left) break;
      data += size;
      left -= size;
    }
    out.push_back(std::move(entry));
  }
  return true;
}

} // namespace

bool readRelocatableFatbins(const std::string &path,
                            std::vector<RelocatableFatbin> &out,
                            std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInput(path, error);
  if (!buffer) return false;
  llvm::Expected<std::unique_ptr<llvm::object::Binary>> binary =
      llvm::object::createBinary(buffer->getMemBufferRef());
  if (!binary) { // not an object (a linker script, a shared library stub...)
    llvm::consumeError(binary.takeError());
    return true;
  }
  if (auto *object = llvm::dyn_cast<llvm::object::ObjectFile>(binary->get()))
    return relocatableFatbinsOf(*object, path, out, error);
  auto *archive = llvm::dyn_cast<llvm::object::Archive>(binary->get());
  if (!archive) return true;
  llvm::Error err = llvm::Error::success();
  for (const llvm::object::Archive::Child &child : archive->children(err)) {
    llvm::Expected<std::unique_ptr<llvm::object::Binary>> member =
        child.getAsBinary();
    if (!member) {
      llvm::consumeError(member.takeError());
      continue;
    }
    auto *object = llvm::dyn_cast<llvm::object::ObjectFile>(member->get());
    if (!object) continue;
    llvm::Expected<llvm::StringRef> name = child.getName();
    std::string label = path + "(" + (name ? name->str() : std::string("?")) + ")";
    if (!name) llvm::consumeError(name.takeError());
    if (!relocatableFatbinsOf(*object, label, out, error)) return false;
  }
  if (err) {
    error = "cannot read the archive " + path + ": " + llvm::toString(std::move(err));
    return false;
  }
  return true;
}

} // namespace mycc::offload
