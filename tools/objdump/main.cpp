// mycc-objdump: lists, extracts and explains the device images of fat
// binaries in executables, objects, shared libraries, static archives and
// .fatbin files, whether mycc or nvcc built them.
#include "Fatbin.h"
#include "Inspect.h"
#include "Selection.h"
#include "Targets.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mycc::objdump {
namespace {

constexpr const char *kTool = "mycc-objdump";

void printError(const std::string &message) {
  llvm::outs().flush();
  llvm::errs() << kTool << ": error: " << message << "\n";
}

void printWarning(const std::string &message) {
  llvm::outs().flush();
  llvm::errs() << kTool << ": warning: " << message << "\n";
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", (unsigned long long)value);
  return text;
}

// Rows of cells printed with aligned columns; `rightAligned` columns hold
// numbers.
class Table {
public:
  explicit Table(std::vector<std::string> header,
                 std::vector<bool> rightAligned = {})
      : right_(std::move(rightAligned)) {
    rows_.push_back(std::move(header));
    right_.resize(rows_[0].size(), false);
  }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

  // Drops the last column when no row has anything in it.
  void dropEmptyLastColumn() {
    for (std::size_t i = 1; i < rows_.size(); ++i)
      if (!rows_[i].back().empty())
        return;
    for (auto &row : rows_)
      row.pop_back();
  }

  void print(llvm::raw_ostream &os, const std::string &indent) const {
    std::vector<std::size_t> width(rows_[0].size(), 0);
    for (const auto &row : rows_)
      for (std::size_t i = 0; i < row.size(); ++i)
        width[i] = std::max(width[i], row[i].size());
    for (const auto &row : rows_) {
      std::string line = indent;
      for (std::size_t i = 0; i < row.size(); ++i) {
        std::string pad(width[i] - row[i].size(), ' ');
        bool last = i + 1 == row.size();
        line += right_[i] ? pad + row[i] : row[i] + (last ? "" : pad);
        if (!last)
          line += "  ";
      }
      while (!line.empty() && line.back() == ' ')
        line.pop_back();
      os << line << "\n";
    }
  }

private:
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

std::string versionText(const FatbinImage &image) {
  std::string number = std::to_string(image.versionMajor) + "." +
                       std::to_string(image.versionMinor);
  switch (image.kind) {
  case ImageKind::Elf:
    return "ABI " + number;
  case ImageKind::Ptx:
    return "ISA " + number;
  case ImageKind::LtoIr:
    return "IR " + number;
  case ImageKind::RelocatablePtx:
    return "ISA " + number;
  }
  return number;
}

std::string compressionText(const FatbinImage &image, bool decoding) {
  switch (image.compression) {
  case FatbinImage::Compression::None:
    return "none";
  case FatbinImage::Compression::Lz4:
    return decoding && !image.decompressed ? "lz4 (not decoded)" : "lz4";
  case FatbinImage::Compression::Zstd:
    return decoding && !image.decompressed ? "zstd (not decoded)" : "zstd";
  }
  return "?";
}

// Why a compressed image was left as stored.
std::string undecodedReason(const FatbinImage &image) {
  FatbinImage copy = image;
  std::string error;
  if (decompressImage(copy, error))
    return "not decoded";
  return error;
}

// The decoded size: the payload once decoded, else what the header records.
uint64_t imageSize(const FatbinImage &image) {
  if (image.compression != FatbinImage::Compression::None &&
      !image.decompressed)
    return image.uncompressedSize;
  return image.payload.size();
}

// "nv.o .nv_fatbin+0x0", "libx.a(nv.o) __nv_relfatbin+0x40", "a.fatbin".
std::string location(const std::string &file, const Container &c,
                     bool several) {
  std::string text = file;
  if (!c.member.empty())
    text += "(" + c.member + ")";
  if (!c.section.empty())
    text += " " + c.section + "+" + hex(c.offset);
  else if (several && !c.cubinFile)
    text += " at " + hex(c.offset);
  return text;
}

std::string imageList(const Container &c) {
  std::string text;
  for (const FatbinImage &image : c.images) {
    std::string kind = image.kind == ImageKind::Elf   ? "cubin"
                       : image.kind == ImageKind::Ptx ? "PTX"
                                                      : "LTO-IR";
    text += (text.empty() ? "" : ", ") + targetName(image) + " " + kind;
  }
  return text.empty() ? "no images" : text;
}

bool severalInFile(const std::vector<Container> &containers) {
  return containers.size() > 1;
}

// --- --list ---

void list(const std::string &file, const std::vector<Container> &containers,
          bool decoding) {
  llvm::raw_ostream &os = llvm::outs();
  bool several = severalInFile(containers);
  for (const Container &c : containers) {
    os << location(file, c, several) << ": ";
    if (c.cubinFile)
      os << "a cubin, not a fat binary (its a/f suffix is not recorded)\n";
    else
      os << "fat binary, " << c.images.size()
         << (c.images.size() == 1 ? " image, " : " images, ") << c.size
         << " bytes" << (c.relocatable ? ", relocatable device code" : "")
         << "\n";
    if (c.images.empty())
      continue;
    Table table({"kind", "target", "version", "size", "stored", "compression",
                 "file", "notes"},
                {false, false, false, true, true, false, false, false});
    for (std::size_t i = 0; i < c.images.size(); ++i) {
      const FatbinImage &image = c.images[i];
      std::string notes;
      auto note = [&](const std::string &text) {
        notes += (notes.empty() ? "" : ", ") + text;
      };
      if (image.debug)
        note("debug");
      if (!image.ident.empty())
        note("ident " + image.ident);
      // A PTX entry's ptxas options for the driver's JIT (cuobjdump's
      // ptxasOptions); an sm_100+ cubin's options block holds binary data.
      if (llvm::StringRef options = llvm::StringRef(image.options).trim();
          image.kind == ImageKind::Ptx && !options.empty())
        note("ptxas options '" + options.str() + "'");
      table.add({kindName(image.kind), targetName(image), versionText(image),
                 std::to_string(imageSize(image)),
                 std::to_string(image.storedSize),
                 compressionText(image, decoding), c.names[i], notes});
    }
    table.dropEmptyLastColumn();
    table.print(os, "  ");
  }
}

// --- --extract ---

bool extract(const std::string &file, const std::vector<Container> &containers,
             const std::string &dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    printError(dir + ": " + ec.message());
    return false;
  }
  std::set<std::string> written;
  bool several = severalInFile(containers);
  for (const Container &c : containers) {
    llvm::outs() << location(file, c, several) << ":\n";
    for (std::size_t i = 0; i < c.images.size(); ++i) {
      const FatbinImage &image = c.images[i];
      if (image.compression != FatbinImage::Compression::None &&
          !image.decompressed && fatbinCanDecompress()) {
        llvm::outs() << "  " << kindName(image.kind) << " " << targetName(image)
                     << " not written: " << undecodedReason(image) << "\n";
        continue;
      }
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, c.names[i]);
      if (!written.insert(c.names[i]).second)
        printWarning(std::string(path) +
                     ": written again by a later image of the same name");
      std::error_code ec;
      llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
      if (!ec) {
        out << image.payload;
        out.close();
        ec = out.error();
        if (ec)
          out.clear_error();
      }
      if (ec) {
        printError(std::string(path) + ": " + ec.message());
        return false;
      }
      llvm::outs() << "  " << kindName(image.kind) << " " << targetName(image)
                   << " -> " << path << " (" << image.payload.size()
                   << " bytes)\n";
    }
  }
  return true;
}

// --- --explain / --matrix ---

// What MYCC_FORCE_PTX does to a module, as the runtime does it
// (runtime/RuntimeInternal.cpp, withoutCubins): it registers a copy without the
// cubins, so that only PTX can be chosen; it cannot when the module has no
// PTX, and then selects as usual.
struct ForcePtx {
  bool cubinsRemoved = false;
  std::string ignoredBecause; // set when it would be ignored with a warning
};

ForcePtx forcePtxEffect(const Container &c) {
  ForcePtx effect;
  bool anyCubin = false, anyPtx = false;
  for (const FatbinImage &image : c.images) {
    if (image.kind == ImageKind::Elf) {
      anyCubin = true;
      continue;
    }
    anyPtx |= image.kind == ImageKind::Ptx;
  }
  if (!anyCubin) // nothing to remove
    return ForcePtx();
  if (effect.ignoredBecause.empty() && !anyPtx)
    effect.ignoredBecause = "it carries no PTX";
  effect.cubinsRemoved = effect.ignoredBecause.empty();
  return effect;
}

struct ModuleSelection {
  Selection selection;
  std::size_t image = 0; // into Container::images, valid unless None
  ForcePtx force;        // with --force-ptx
};

// The runtime's choice: selectImage over the cubins and PTX of the container
// (the CUDA runtime never loads LTO-IR), as under MYCC_FORCE_PTX if
// `forcePtx`.
ModuleSelection select(const Container &c, unsigned sm, bool forcePtx) {
  ModuleSelection result;
  SelectionPolicy policy;
  if (forcePtx) {
    result.force = forcePtxEffect(c);
    policy.forcePtx = result.force.cubinsRemoved;
  }
  std::vector<ImageDesc> descs;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < c.images.size(); ++i) {
    const FatbinImage &image = c.images[i];
    if (image.kind == ImageKind::LtoIr || image.kind == ImageKind::RelocatablePtx ||
        (image.kind == ImageKind::Elf && result.force.cubinsRemoved))
      continue;
    ImageDesc desc;
    desc.target.isVirtual = image.kind == ImageKind::Ptx;
    desc.target.arch = image.arch;
    descs.push_back(desc);
    index.push_back(i);
  }
  result.selection = selectImage(sm, descs, policy);
  if (result.selection.kind != Selection::Kind::None)
    result.image = index[result.selection.index];
  return result;
}

std::string ccText(unsigned sm) {
  return std::to_string(sm / 10) + "." + std::to_string(sm % 10);
}

void printModuleHeader(const std::string &file, const Container &c,
                       bool several, bool forcePtx) {
  llvm::raw_ostream &os = llvm::outs();
  os << location(file, c, several) << " (" << imageList(c) << ")\n";
  if (c.relocatable)
    os << "  note: relocatable device code: the runtime loads the image the "
          "device link makes from it, not this one\n";
  if (forcePtx) {
    ForcePtx effect = forcePtxEffect(c);
    if (effect.cubinsRemoved)
      os << "  note: MYCC_FORCE_PTX removes the cubins of this module\n";
    else if (!effect.ignoredBecause.empty())
      os << "  note: MYCC_FORCE_PTX is ignored for this module: "
         << effect.ignoredBecause << "\n";
  }
}

void explain(const std::string &file, const std::vector<Container> &containers,
             unsigned sm, bool forcePtx) {
  llvm::raw_ostream &os = llvm::outs();
  bool several = severalInFile(containers);
  for (const Container &c : containers) {
    printModuleHeader(file, c, several, forcePtx);
    ModuleSelection s = select(c, sm, forcePtx);
    std::string device = "sm_" + std::to_string(sm);
    switch (s.selection.kind) {
    case Selection::Kind::Cubin:
      os << "  " << device << " runs the " << targetName(c.images[s.image])
         << " cubin [" << c.names[s.image] << "]\n";
      break;
    case Selection::Kind::PtxJit:
      os << "  " << device << " JIT-compiles the "
         << targetName(c.images[s.image]) << " PTX [" << c.names[s.image]
         << "]\n";
      break;
    case Selection::Kind::None:
      os << "  " << device << " runs nothing: no image fits\n";
      break;
    }
    os << "  why: " << s.selection.reason << "\n";
    if (s.selection.kind == Selection::Kind::None) {
      os << "  fix: rebuild with " << suggestGencode(sm);
      if (s.force.cubinsRemoved &&
          select(c, sm, false).selection.kind != Selection::Kind::None)
        os << ", or unset MYCC_FORCE_PTX";
      os << "\n";
    }
  }
}

std::string shortReason(const Container &c, const ModuleSelection &s,
                        unsigned sm) {
  switch (s.selection.kind) {
  case Selection::Kind::Cubin: {
    const GpuArch &arch = c.images[s.image].arch;
    if (arch.sm == sm)
      return "exact match";
    return std::string(arch.suffix == ArchSuffix::FamilySpecific
                           ? "same family"
                           : "same major") +
           ", minor " + std::to_string(arch.minor()) +
           " <= " + std::to_string(sm % 10);
  }
  case Selection::Kind::PtxJit: {
    if (s.force.cubinsRemoved &&
        select(c, sm, false).selection.kind == Selection::Kind::Cubin)
      return "forced: a cubin fits, but MYCC_FORCE_PTX removed it";
    bool sameMajor = false;
    for (const FatbinImage &image : c.images)
      sameMajor |=
          image.kind == ImageKind::Elf && image.arch.major() == sm / 10;
    return sameMajor ? "no cubin fits " + ccText(sm)
                     : "no cubin for " + std::to_string(sm / 10) + ".x";
  }
  case Selection::Kind::None:
    break;
  }
  if (s.force.cubinsRemoved &&
      select(c, sm, false).selection.kind != Selection::Kind::None)
    return "no PTX fits, and MYCC_FORCE_PTX removed the cubins";
  return "nothing fits; needs " + suggestGencode(sm);
}

// Device compute capabilities: the distinct SM numbers of knownArchs()
// (a device has no a/f suffix).
std::vector<unsigned> deviceSms() {
  std::vector<unsigned> sms;
  for (const GpuArch &arch : knownArchs())
    if (std::find(sms.begin(), sms.end(), arch.sm) == sms.end())
      sms.push_back(arch.sm);
  return sms;
}

void matrix(const std::string &file, const std::vector<Container> &containers,
            bool forcePtx) {
  bool several = severalInFile(containers);
  for (const Container &c : containers) {
    printModuleHeader(file, c, several, forcePtx);
    Table table({"device", "choice", "image", "reason"});
    for (unsigned sm : deviceSms()) {
      ModuleSelection s = select(c, sm, forcePtx);
      std::string choice = s.selection.kind == Selection::Kind::Cubin ? "cubin"
                           : s.selection.kind == Selection::Kind::PtxJit
                               ? "PTX JIT"
                               : "none";
      std::string image = s.selection.kind == Selection::Kind::None
                              ? "-"
                              : targetName(c.images[s.image]);
      table.add(
          {"sm_" + std::to_string(sm), choice, image, shortReason(c, s, sm)});
    }
    table.print(llvm::outs(), "  ");
  }
}

// "sm_86", "86" or "8.6": a device's compute capability as 86.
std::optional<unsigned> parseDevice(const std::string &text,
                                    std::string &error) {
  std::string number = text;
  if (number.rfind("sm_", 0) == 0)
    number = number.substr(3);
  else if (number.rfind("compute_", 0) == 0)
    number = number.substr(8);
  std::size_t dot = number.find('.');
  if (dot != std::string::npos && dot > 0 && dot + 2 == number.size())
    number = number.substr(0, dot) + number.substr(dot + 1);
  if (!number.empty() && (number.back() == 'a' || number.back() == 'f')) {
    error = "'" + text +
            "': a device has no a/f suffix; give its compute "
            "capability, e.g. sm_" +
            number.substr(0, number.size() - 1);
    return std::nullopt;
  }
  std::optional<Target> target = parseTarget("sm_" + number);
  if (!target) {
    error = "'" + text + "' is not a compute capability (e.g. sm_86 or 8.6)";
    return std::nullopt;
  }
  return target->arch.sm;
}

int run(int argc, char **argv) {
  CLI::App app{"mycc-objdump: lists, extracts and explains the device images "
               "in fat binaries (executables, objects, shared libraries, "
               "static archives, .fatbin and .cubin files)",
               kTool};
  bool doList = false, doExtract = false, doMatrix = false, allFatbin = false,
       forcePtx = false, showVersion = false;
  std::string explainSm, outputDir = ".";
  std::vector<std::string> files;
  app.add_flag("--list,-l", doList,
               "List every image: kind, target, version, sizes, compression, "
               "and the file name --extract uses");
  app.add_flag("--extract,-x", doExtract,
               "Write every image (decoded) into the output directory, named "
               "as cuobjdump names them");
  app.add_option("--explain,-e", explainSm,
                 "Say which image the runtime runs on device SM (sm_86, 8.6) "
                 "and why")
      ->type_name("SM");
  app.add_flag("--matrix,-m", doMatrix,
               "The --explain answer for every known SM, as a table");
  CLI::Option *outputOption =
      app.add_option("-o,--output-dir", outputDir,
                     "Directory for --extract (default: the current one)")
          ->type_name("DIR");
  app.add_flag("--all-fatbin,-a", allFatbin,
               "Also read __nv_relfatbin where an object has .nv_fatbin "
               "(cuobjdump -all)");
  app.add_flag("--force-ptx", forcePtx,
               "Explain as the runtime does under MYCC_FORCE_PTX=1");
  app.add_flag("--version", showVersion, "Print the version");
  app.add_option("files", files, "Input files")->type_name("FILE");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    printError(e.what());
    return 1;
  }
  if (showVersion) {
    llvm::outs() << kTool << " (mycc " << MYCC_VERSION << ")\n";
    return 0;
  }
  int actions = doList + doExtract + doMatrix + !explainSm.empty();
  if (actions != 1) {
    printError(actions ? "give only one of --list, --extract, --explain, "
                         "--matrix"
                       : "give one of --list, --extract, --explain SM, "
                         "--matrix (see --help)");
    return 1;
  }
  if (files.empty()) {
    printError("no input file");
    return 1;
  }
  if (outputOption->count() && !doExtract) {
    printError("-o only applies to --extract");
    return 1;
  }
  unsigned sm = 0;
  if (!explainSm.empty()) {
    std::string error;
    std::optional<unsigned> parsed = parseDevice(explainSm, error);
    if (!parsed) {
      printError(error);
      return 1;
    }
    sm = *parsed;
  }
  if (doExtract && !fatbinCanDecompress())
    printWarning("this build cannot decode compressed images; they are "
                 "written as stored");

  InspectOptions options;
  options.allFatbin = allFatbin;
  // Decoding also checks the streams; --explain and --matrix need only the
  // entry headers.
  options.decompress = (doList || doExtract) && fatbinCanDecompress();

  int status = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string &file = files[i];
    InspectResult inspected = inspectFile(file, options);
    if (!inspected.error.empty()) {
      printError(file + ": " + inspected.error);
      status = 1;
      continue;
    }
    if (i)
      llvm::outs() << "\n";
    if (doList)
      list(file, inspected.containers, options.decompress);
    else if (doExtract)
      status |= !extract(file, inspected.containers, outputDir);
    else if (doMatrix)
      matrix(file, inspected.containers, forcePtx);
    else
      explain(file, inspected.containers, sm, forcePtx);
  }
  llvm::outs().flush();
  return status;
}

} // namespace
} // namespace mycc::objdump

int main(int argc, char **argv) { return mycc::objdump::run(argc, argv); }
