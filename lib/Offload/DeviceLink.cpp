#include "DeviceLink.h"

#include "llvm/ADT/StringExtras.h"
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
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + path + ": " + buffer.getError().message();
    return false;
  }
  llvm::SmallVector<llvm::object::OffloadFile> binaries;
  if (llvm::Error e = llvm::object::extractOffloadBinaries(
          (*buffer)->getMemBufferRef(), binaries)) {
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

} // namespace mycc::offload
