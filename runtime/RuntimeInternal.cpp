// The GPU-free part of the runtime (RuntimeInternal.h): reading a module's
// fat binary through its wrapper, the image selection and its messages,
// MYCC_FORCE_PTX's and the JIT cache's containers, the environment. No CUDA
// call, so that the unit tests and the fuzz target (test/fuzz) run it on
// any machine.

#include "RuntimeInternal.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace mycc::rt {

namespace {

// Wrappers carry no size; containers are bounded by their own header. The
// bound only keeps pointer arithmetic in the reader meaningful.
constexpr std::size_t kContainerBound = std::size_t(1) << 40;

std::string smName(unsigned sm) { return "sm_" + std::to_string(sm); }

std::string kindWord(ImageKind kind) {
  switch (kind) {
  case ImageKind::Elf:
    return "cubin";
  case ImageKind::Ptx:
    return "PTX";
  case ImageKind::LtoIr:
    return "LTO-IR";
  case ImageKind::RelocatablePtx:
    return "relocatable PTX";
  }
  return "kind-" + std::to_string(static_cast<unsigned>(kind));
}

std::string targetName(const ModuleImage &image) {
  if (image.kind == ImageKind::LtoIr)
    return "lto_" + image.target.arch.str();
  return image.target.str();
}

// Whether the CUDA runtime was given this image (selection considers only
// those).
bool registered(const ModuleInfo &info, const ModuleImage &image) {
  if (image.kind == ImageKind::Ptx)
    return true;
  if (image.kind == ImageKind::Elf)
    return !info.cubinsRemoved;
  return false;
}

std::string withoutFinalPeriod(std::string text) {
  while (!text.empty() && (text.back() == '.' || text.back() == ' '))
    text.pop_back();
  return text;
}

std::string deviceText(int device, const std::string &deviceName,
                       unsigned sm) {
  return "device " + std::to_string(device) + " (" +
         (deviceName.empty() ? std::string("unknown GPU") : deviceName) +
         ", " + smName(sm) + ")";
}

} // namespace

const uint8_t *wrapperContainer(const void *wrapper, std::size_t &size,
                                std::string &error) {
  size = 0;
  if (!wrapper) {
    error = "no fat binary wrapper";
    return nullptr;
  }
  const auto *w = static_cast<const FatbinWrapper *>(wrapper);
  if (w->magic != kWrapperMagic) {
    char buf[96];
    std::snprintf(buf, sizeof buf,
                  "fat binary wrapper has magic 0x%08X, expected 0x%08X",
                  static_cast<unsigned>(w->magic),
                  static_cast<unsigned>(kWrapperMagic));
    error = buf;
    return nullptr;
  }
  if (w->version != 1 && w->version != 2) {
    error = "fat binary wrapper has version " + std::to_string(w->version) +
            ", expected 1 or 2";
    return nullptr;
  }
  if (!w->data) {
    error = "fat binary wrapper has no data";
    return nullptr;
  }
  const auto *data = reinterpret_cast<const uint8_t *>(w->data);
  if (reinterpret_cast<uintptr_t>(data) % 8 != 0) {
    error = "fat binary is not 8-byte aligned";
    return nullptr;
  }
  size = fatbinContainerSize(data, kContainerBound);
  if (size == 0) {
    error = "the wrapper does not point at a fat binary container";
    return nullptr;
  }
  return data;
}

ModuleInfo describeModule(std::string sourceName,
                          const FatbinReadResult &read) {
  ModuleInfo info;
  info.sourceName = std::move(sourceName);
  if (!read) {
    info.readError = read.error;
    return info;
  }
  for (const FatbinImage &image : read.images) {
    ModuleImage m;
    m.kind = image.kind;
    m.target.isVirtual = image.kind == ImageKind::Ptx;
    m.target.arch = image.arch;
    info.images.push_back(m);
  }
  return info;
}

std::string imageLabel(const ModuleImage &image) {
  return targetName(image) + " " + kindWord(image.kind);
}

Selection selectForModule(const ModuleInfo &info, unsigned sm) {
  std::vector<ImageDesc> candidates;
  std::vector<std::size_t> original;
  for (std::size_t i = 0; i < info.images.size(); ++i) {
    if (!registered(info, info.images[i]))
      continue;
    candidates.push_back(ImageDesc{info.images[i].target});
    original.push_back(i);
  }
  SelectionPolicy policy;
  policy.forcePtx = info.cubinsRemoved;
  policy.noPtx = info.ptxJitDisabled;
  Selection s = selectImage(sm, candidates, policy);
  if (s.kind != Selection::Kind::None) {
    if (s.index < original.size()) {
      s.index = original[s.index];
    } else { // a selection library bug: report nothing rather than garbage
      s.kind = Selection::Kind::None;
      s.index = 0;
    }
  }
  return s;
}

Explanation explainSelection(const ModuleInfo &info, int device,
                             const std::string &deviceName, unsigned sm,
                             const std::string &jitNote) {
  Explanation ex;
  ex.selection = selectForModule(info, sm);
  const Selection &s = ex.selection;
  const std::string where = deviceText(device, deviceName, sm);

  // The log line.
  std::string line = "mycc: select: module " + info.sourceName + " on " +
                     where + ": images ";
  if (info.images.empty())
    line += "none";
  for (std::size_t i = 0; i < info.images.size(); ++i) {
    if (i)
      line += ", ";
    line += imageLabel(info.images[i]);
    if (info.cubinsRemoved && info.images[i].kind == ImageKind::Elf)
      line += " (removed by " + info.forcedBy + ")";
  }
  line += " -> ";
  std::string reason = withoutFinalPeriod(s.reason);
  if (!jitNote.empty())
    reason += (reason.empty() ? "" : "; ") + jitNote;
  if (s.kind == Selection::Kind::None) {
    line += "none";
  } else {
    line += imageLabel(info.images[s.index]);
    if (s.kind == Selection::Kind::PtxJit)
      line += ", JIT-compiled for " + smName(sm);
  }
  if (!reason.empty())
    line += " (" + reason + ")";
  ex.logLine = std::move(line);

  if (s.kind != Selection::Kind::None)
    return ex;

  // Nothing fits: say what the module carries and how to fix the build.
  std::string err = "mycc: error: no image in " + info.sourceName +
                    " runs on " + where + ": ";
  std::string carried;
  unsigned ptxArch = 0; // highest image arch the device could JIT from
  for (const ModuleImage &image : info.images) {
    if (image.kind != ImageKind::Elf && image.kind != ImageKind::Ptx)
      continue;
    if (!carried.empty())
      carried += ", ";
    carried += targetName(image) + " (" + kindWord(image.kind);
    if (info.cubinsRemoved && image.kind == ImageKind::Elf)
      carried += ", removed by " + info.forcedBy;
    carried += ")";
    if (image.target.arch.sm <= sm)
      ptxArch = std::max(ptxArch, image.target.arch.sm);
  }
  if (carried.empty())
    err += "it carries no cubin and no PTX.";
  else
    err += "it carries " + carried + ".";
  err += " Rebuild with " + suggestGencode(sm);
  if (ptxArch != 0 && ptxArch != sm) {
    std::string a = std::to_string(ptxArch);
    err += ", or add PTX with -gencode arch=compute_" + a + ",code=compute_" +
           a;
  }
  err += ".";
  if (info.cubinsRemoved)
    err += " Or unset " + info.forcedBy + ".";
  if (info.ptxJitDisabled)
    err += " Or unset CUDA_DISABLE_PTX_JIT.";
  ex.error = std::move(err);
  return ex;
}

std::string describeLoaded(const ModuleInfo &info, const Selection &selection,
                           int device, unsigned sm, int binaryVersion,
                           int ptxVersion) {
  std::string line = "mycc: select: module " + info.sourceName +
                     " on device " + std::to_string(device) +
                     ": loaded binaryVersion " +
                     std::to_string(binaryVersion) + " ptxVersion " +
                     std::to_string(ptxVersion);
  if (selection.kind == Selection::Kind::None ||
      selection.index >= info.images.size())
    return line;
  const ModuleImage &image = info.images[selection.index];
  const int arch = static_cast<int>(image.target.arch.sm);
  std::string expected;
  if (selection.kind == Selection::Kind::Cubin) {
    if (binaryVersion != arch)
      expected = "binaryVersion " + std::to_string(arch);
  } else {
    if (ptxVersion != arch || binaryVersion != static_cast<int>(sm))
      expected = "binaryVersion " + std::to_string(sm) + " ptxVersion " +
                 std::to_string(arch);
  }
  if (expected.empty())
    line += ", as selected";
  else
    line += "; differs from the selection: " + imageLabel(image) +
            " would give " + expected;
  return line;
}

bool logTopicEnabled(const char *value, std::string_view topic) {
  if (!value)
    return false;
  std::string_view rest(value);
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
      item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
      item.remove_suffix(1);
    if (item == topic)
      return true;
    if (comma == std::string_view::npos)
      break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

bool envFlagSet(const char *value) {
  return value && *value && std::string_view(value) != "0";
}

JitEnvironment jitEnvironment(const char *myccForcePtx,
                              const char *cudaForcePtxJit,
                              const char *cudaDisablePtxJit) {
  JitEnvironment env;
  if (envFlagSet(myccForcePtx)) {
    env.forcedBy = "MYCC_FORCE_PTX";
  } else if (envFlagSet(cudaForcePtxJit)) {
    env.forcedBy = "CUDA_FORCE_PTX_JIT";
    env.strictForce = true;
  }
  env.ptxJitDisabled = envFlagSet(cudaDisablePtxJit);
  return env;
}

std::vector<uint8_t> withoutCubins(const std::vector<FatbinImage> &images,
                                   std::string &why) {
  std::vector<FatbinImage> kept;
  bool anyPtx = false;
  for (const FatbinImage &image : images) {
    if (image.kind == ImageKind::Elf)
      continue;
    // Compressed images are kept as stored: the driver decodes them.
    anyPtx |= image.kind == ImageKind::Ptx;
    kept.push_back(image);
  }
  if (!anyPtx) {
    why = kCarriesNoPtx;
    return {};
  }
  if (kept.size() == images.size()) {
    why = "it carries no cubin";
    return {};
  }
  for (FatbinImage &image : kept) { // reader-only fields
    image.flags = 0;
    image.storedSize = 0;
  }
  std::vector<uint8_t> out = writeFatbin(kept);
  if (out.empty())
    why = "the fat binary writer failed";
  return out;
}

std::vector<uint8_t> prependImages(const std::vector<FatbinImage> &first,
                                   const uint8_t *container, std::size_t size) {
  std::size_t total = fatbinContainerSize(container, size);
  if (total == 0)
    return {};
  std::vector<uint8_t> head = writeFatbin(first);
  if (head.size() < 16)
    return {};
  // Container header: u16 header size at 6, u64 entry bytes at 8.
  std::size_t headerSize = container[6] | std::size_t(container[7]) << 8;
  if (headerSize > total)
    return {};
  std::vector<uint8_t> out(head.size() + (total - headerSize));
  std::memcpy(out.data(), head.data(), head.size());
  std::memcpy(out.data() + head.size(), container + headerSize,
              total - headerSize);
  uint64_t entries = out.size() - 16;
  for (int i = 0; i < 8; ++i)
    out[8 + i] = uint8_t(entries >> (8 * i));
  return out;
}

std::string millisecondsText(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms < 9.95 ? "%.1f ms" : "%.0f ms", ms);
  return text;
}

} // namespace mycc::rt
