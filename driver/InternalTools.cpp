#include "InternalTools.h"

#include "AtomicFile.h"
#include "DeviceCodegen.h"
#include "DeviceLink.h"
#include "Fatbin.h"
#include "EmbedDeviceCode.h"
#include "Frontend.h"
#include "HostLowering.h"
#include "HostObject.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <mutex>

namespace mycc::driver {
namespace {

using support::readFile;
using support::writeFileAtomic;

// Options that take a value (the next word); every other `-x` is a flag.
const char *const kValued[] = {"-o",     "-arch",  "-ptx-target", "-source",
                               "-unit-id", "-code", "-image",     "-fatbin",
                               "-rdc-image", "-unit", "-ir", "-split",
                               "-L",     "-l", "-ptx-options", "-relfatbin",
                               "-embedded-fatbin", "-link-stub", "-fatbin-c",
                               "-register", "-compress-ptx", "-compress-elf",
                               "-jump-table-density", "-reloc-ptx-from",
                               "-ident", "-fatbin-text", "-module-id-file",
                               "-module-id", "-object"};

bool isValued(llvm::StringRef option) {
  return std::find(std::begin(kValued), std::end(kValued), option) !=
         std::end(kValued);
}

// A parsed `mycc -cc1 <tool> ...` line.
struct ToolArgs {
  std::string tool;
  std::multimap<std::string, std::string> values;
  std::vector<std::string> flags, inputs, cc1;

  std::string get(const char *option) const {
    auto it = values.find(option);
    return it == values.end() ? std::string() : it->second;
  }
  std::vector<std::string> all(const char *option) const {
    std::vector<std::string> out;
    auto [from, to] = values.equal_range(option);
    for (auto it = from; it != to; ++it) out.push_back(it->second);
    return out;
  }
  bool has(const char *flag) const {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  }
};

bool parseToolArgs(const std::vector<std::string> &argv, ToolArgs &args,
                   std::string &error) {
  if (argv.size() < 3 || argv[1] != "-cc1") {
    error = "-cc1: expected a tool name";
    return false;
  }
  args.tool = argv[2];
  for (size_t i = 3; i < argv.size(); ++i) {
    const std::string &word = argv[i];
    if (word == "--") {
      args.cc1.assign(argv.begin() + i + 1, argv.end());
      break;
    }
    if (word.size() < 2 || word[0] != '-') {
      args.inputs.push_back(word);
    } else if (!isValued(word)) {
      args.flags.push_back(word);
    } else if (i + 1 < argv.size()) {
      args.values.emplace(word, argv[++i]);
    } else {
      error = "-cc1 " + args.tool + ": " + word + " needs a value";
      return false;
    }
  }
  return true;
}

bool require(const ToolArgs &args, const char *option, std::string &error) {
  if (!args.get(option).empty()) return true;
  error = "-cc1 " + args.tool + ": missing " + option;
  return false;
}

// A side's preprocessing (preprocess-host, preprocess-device); with -M/-MD
// the cc1 arguments also make Clang's preprocessor write the rule. Without -o
// the job is there for the rule alone.
bool preprocess(const ToolArgs &args, llvm::raw_ostream &diag,
                std::string &error) {
  auto ci = frontend::createCompilerInstance(args.cc1, {}, error, &diag);
  if (!ci) return false;
  // Clang's parser turns some trait keywords back into names as it meets
  // them; so must the preprocessor here (Frontend.h says why).
  struct Watched : clang::PrintPreprocessedAction {
    bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
      frontend::watchLibraryTraitNames(ci.getPreprocessor());
      return clang::PrintPreprocessedAction::BeginSourceFileAction(ci);
    }
  };
  std::unique_ptr<clang::FrontendAction> action;
  if (args.get("-o").empty()) {
    action = std::make_unique<clang::PreprocessOnlyAction>();
  } else {
    ci->getFrontendOpts().OutputFile = args.get("-o");
    action = std::make_unique<Watched>();
  }
  if (!ci->ExecuteAction(*action) || ci->getDiagnostics().hasErrorOccurred()) {
    error.clear(); // the diagnostics say why
    return false;
  }
  return true;
}

bool lowerHost(const ToolArgs &args, llvm::raw_ostream &diag,
               std::string &error) {
  if (!require(args, "-o", error) || !require(args, "-source", error))
    return false;
  auto ci = frontend::createCompilerInstance(args.cc1, {}, error, &diag);
  if (!ci) return false;
  lowering::LoweredUnit unit;
  lowering::LoweringOptions options;
  options.rdc = args.has("-rdc");
  options.unitId = args.get("-unit-id");
  options.forHostCompiler = args.has("-host-compiler");
  options.staticTemplateStubs = args.has("-static-template-stubs");
  options.hiddenDeviceEntities = args.has("-hidden-device-entities");
  options.fatbin = args.get("-fatbin");
  options.rdcImages = args.all("-rdc-image");
  options.deviceLto = args.has("-dlto");
  using Warn = lowering::LoweringOptions::Warning;
  options.defaultStreamLaunch = args.has("-Werror=default-stream-launch")
                                    ? Warn::Error
                                : args.has("-Wdefault-stream-launch") ? Warn::Warn
                                                                      : Warn::Off;
  options.missingLaunchBounds = args.has("-Werror=missing-launch-bounds")
                                    ? Warn::Error
                                : args.has("-Wmissing-launch-bounds") ? Warn::Warn
                                                                      : Warn::Off;
  options.relfatbin = args.get("-relfatbin");
  options.fatbinText = args.get("-fatbin-text");
  options.deviceCodeLater = args.has("-device-code-later");
  if (!lowering::lowerHostUnit(*ci, args.get("-source"), options, unit)) {
    error.clear(); // the diagnostics say why
    return false;
  }
  // nvcc's cudafe++ writes the unit's module id beside the lowered unit; a
  // compiler cache keeps it as the step's result (the plan with --keep).
  std::string moduleId = args.get("-module-id-file");
  if (!moduleId.empty() &&
      !writeFileAtomic(moduleId,
                       (options.unitId.empty()
                            ? llvm::sys::path::filename(args.get("-source")).str()
                            : options.unitId) +
                           "\n",
                       error))
    return false;
  return writeFileAtomic(args.get("-o"), unit.text, error);
}

bool targetOption(const ToolArgs &args, const char *option, Target &target,
                  std::string &error) {
  std::optional<Target> parsed = parseTarget(args.get(option));
  if (!parsed) {
    error = "-cc1 " + args.tool + ": " + option + " needs a target, not '" +
            args.get(option) + "'";
    return false;
  }
  target = *parsed;
  return true;
}

offload::DeviceCodegenOptions codegenOptions(const ToolArgs &args) {
  offload::DeviceCodegenOptions codegen;
  codegen.ptxTarget = args.get("-ptx-target");
  if (args.has("-O0")) codegen.optLevel = 0; // -G
  if (args.has("-O1")) codegen.optLevel = 1; // -Ofc max
  if (args.has("-O2")) codegen.optLevel = 2; // -Ofc mid
  codegen.math = {args.has("-ftz"), !args.has("-no-prec-div"),
                  !args.has("-no-prec-sqrt"), !args.has("-no-fmad"),
                  args.has("-fast-math")};
  codegen.restrictKernelPointers = args.has("-restrict");
  codegen.sourceInPtx = args.has("-source-in-ptx");
  codegen.keepDeviceFunctions = args.has("-keep-device-functions");
  codegen.extensibleWholeProgram = args.has("-ewp");
  codegen.inlineRemarks = args.has("-inline-remarks");
  if (!args.get("-jump-table-density").empty())
    codegen.jumpTableDensity =
        std::strtoul(args.get("-jump-table-density").c_str(), nullptr, 10);
  codegen.syntaxOnly = args.has("-syntax-only");
  if (!args.get("-split").empty()) {
    unsigned n = std::strtoul(args.get("-split").c_str(), nullptr, 10);
    codegen.splitThreads =
        n ? n : llvm::hardware_concurrency().compute_thread_count();
  } else {
    codegen.borrowIdleThreads = true;
  }
  return codegen;
}

// -rdc: the unit's device code stays LLVM bitcode, written as one image in
// LLVM's offload binary format with what it was compiled for.
bool compileDeviceRelocatable(const ToolArgs &args, const Target &arch,
                              llvm::raw_ostream &diag, std::string &error) {
  offload::RelocatableDeviceCode code;
  if (!offload::compileDeviceToBitcode(args.cc1, codegenOptions(args), code,
                                       error, &diag))
    return false;
  offload::RelocatableImage image;
  image.unitId = args.get("-unit-id");
  image.source = args.get("-source");
  image.virtualArch = arch;
  for (const std::string &code : args.all("-code"))
    if (std::optional<Target> t = parseTarget(code)) image.codes.push_back(*t);
  image.target = code.target;
  image.bitcode = std::move(code.bitcode);
  return writeFileAtomic(args.get("-o"),
                         offload::packRelocatableImage(image), error);
}

bool compileDevice(const ToolArgs &args, llvm::raw_ostream &diag,
                   std::string &error) {
  Target arch;
  if (!require(args, "-o", error) || !targetOption(args, "-arch", arch, error))
    return false;
  if (args.has("-rdc")) return compileDeviceRelocatable(args, arch, diag, error);
  std::string ptx;
  if (!offload::compileDeviceToPtx(args.cc1, codegenOptions(args), ptx, error,
                                   &diag))
    return false;
  return writeFileAtomic(args.get("-o"), ptx, error);
}

// A device link's fat binary as the C text the toolkit's link.stub includes
// (FATBINFILE), in the form nvcc's fatbinary --embedded-fatbin writes: the
// bytes in .nv_fatbin as fatbinData (read by the assembler from the file,
// where fatbinary writes them out as numbers), and the version-2 wrapper
// __fatDeviceText in .nvFatBinSegment, whose fourth field is link.stub's
// array of the units' relocatable fat binaries (the CUDA runtime links
// their PTX when no linked cubin fits the device). `relocatable` (-r): the
// text the toolkit's prelink.stub includes, a unit's as nvcc's fatbinary
// --device-c writes it: the bytes in __nv_relfatbin, the version-1 wrapper
// named by the module id (__FATIDNAME(__NV_MODULE_ID)).
std::string embeddedFatbinText(const std::string &fatbinFile, std::size_t size,
                               bool relocatable) {
  llvm::SmallString<256> path(fatbinFile);
  llvm::sys::fs::make_absolute(path);
  std::string section = relocatable ? "__nv_relfatbin" : ".nv_fatbin";
  std::string text =
      "#ifndef __SKIP_INTERNAL_FATBINARY_HEADERS\n"
      "#include \"fatbinary_section.h\"\n#endif\n"
      "#define __CUDAFATBINSECTION  \".nvFatBinSegment\"\n"
      "#define __CUDAFATBINDATASECTION  \"" + section + "\"\n"
      "asm(\".section " + section + ", \\\"a\\\"\\n.align 8\\nfatbinData:\\n"
      ".incbin " + lowering::asmFileNameInC(std::string(path)) +
      "\\n.text\\n\");\n"
      "extern \"C\" const unsigned long long fatbinData[" +
      std::to_string((size + 7) / 8) + "];\n";
  if (relocatable)
    return text +
           "extern \"C\" {\n#undef __FATIDNAME_CORE\n#undef __FATIDNAME\n"
           "#define __FATIDNAME_CORE(x) __fatbinwrap##x\n"
           "#define __FATIDNAME(x) __FATIDNAME_CORE(x)\n"
           "extern const __fatBinC_Wrapper_t __FATIDNAME(__NV_MODULE_ID) "
           "__attribute__ ((aligned (8))) __attribute__ ((section "
           "(__CUDAFATBINSECTION)))=\n\t{ 0x466243b1, 1, fatbinData, 0 }; }\n";
  return text +
         "extern \"C\" { static const __fatBinC_Wrapper_t __fatDeviceText "
         "__attribute__ ((aligned (8))) __attribute__ ((section "
         "(__CUDAFATBINSECTION)))=\n\t{ 0x466243b1, 2, fatbinData, "
         "(void**)__cudaPrelinkedFatbins }; }\n";
}

// A unit's fat binary as assembler data in C text, for the lowered unit to
// include (-fatbin-text, the plan with --keep): the bytes themselves, so
// that the host compiler's preprocessed text, which a compiler cache
// hashes, changes with them. The including unit names the section and the
// label (__MYCC_FATBIN_SECTION, __MYCC_FATBIN_LABEL); .quad lines cost the
// host compiler and the assembler far less than an array initialiser.
std::string fatbinAsmText(const std::vector<uint8_t> &bytes) {
  std::string text =
      "/* mycc: a fat binary's bytes (docs/build-systems.md, \"sccache\") */\n"
      "__asm__(\".pushsection \" __MYCC_FATBIN_SECTION "
      "\",\\\"a\\\",@progbits\\n.balign 8\\n\" __MYCC_FATBIN_LABEL "
      "\":\\n\"\n";
  text.reserve(text.size() + bytes.size() * 5 / 2 + 64);
  std::size_t full = bytes.size() / 8 * 8, i = 0;
  while (i < full) {
    text += "\".quad ";
    for (int word = 0; word < 8 && i < full; ++word, i += 8) {
      if (word) text += ',';
      text += "0x" + llvm::utohexstr(llvm::support::endian::read64le(&bytes[i]),
                                     /*LowerCase=*/true);
    }
    text += "\\n\"\n";
  }
  if (i < bytes.size()) {
    text += "\".byte ";
    for (; i < bytes.size(); ++i)
      text += std::to_string(bytes[i]) + (i + 1 < bytes.size() ? "," : "");
    text += "\\n\"\n";
  }
  text += "\".popsection\\n\");\n";
  return text;
}

// -compress-ptx/-compress-elf: zstd-<level> or lz4.
bool compressionScheme(const ToolArgs &args, const char *option,
                       FatbinImage &image, std::string &error) {
  std::string scheme = args.get(option);
  if (scheme.empty()) return true;
  llvm::StringRef levelText = scheme;
  unsigned level = 0;
  if (scheme == "lz4") {
    image.compressAs = FatbinImage::Compression::Lz4;
  } else if (levelText.consume_front("zstd-") &&
             !levelText.getAsInteger(10, level) && level >= 1 && level <= 22) {
    image.compressAs = FatbinImage::Compression::Zstd;
    image.compressLevel = int(level);
  } else {
    error = std::string("-cc1 bundle: ") + option +
            " takes zstd-<1..22> or lz4, not '" + scheme + "'";
    return false;
  }
  return true;
}

// -image sm_90,<file>: nvcc's container order is the order given.
bool bundle(const ToolArgs &args, llvm::raw_ostream &, std::string &error) {
  if (!require(args, "-o", error)) return false;
  if ((!args.get("-compress-ptx").empty() ||
       !args.get("-compress-elf").empty()) &&
      !fatbinCanCompress()) {
    error = "this build of mycc cannot compress fat binaries (built without "
            "liblz4/libzstd); use -no-compress";
    return false;
  }
  std::vector<FatbinImage> images;
  for (const std::string &spec : args.all("-image")) {
    auto [name, file] = llvm::StringRef(spec).split(',');
    std::optional<Target> target = parseTarget(name);
    if (!target || file.empty()) {
      error = "-cc1 bundle: -image needs <target>,<file>, not '" + spec + "'";
      return false;
    }
    FatbinImage image;
    image.kind = target->isVirtual ? ImageKind::Ptx : ImageKind::Elf;
    image.arch = target->arch;
    if (!readFile(file.str(), image.payload, error)) return false;
    if (target->isVirtual) image.options = args.get("-ptx-options");
    image.debug = args.has("-debug");
    image.ident = args.get("-ident");
    if (!compressionScheme(args, target->isVirtual ? "-compress-ptx"
                                                   : "-compress-elf",
                           image, error))
      return false;
    images.push_back(std::move(image));
  }
  // -reloc-ptx: each unit's PTX, as its object stores it, named by the
  // unit's module id, after the linked cubins (nvcc's fatbinary --image2=
  // kind=reloc writes them so).
  for (const std::string &object : args.all("-reloc-ptx-from")) {
    std::vector<offload::RelocatableFatbin> units;
    if (!offload::readRelocatableFatbins(object, units, error)) return false;
    for (offload::RelocatableFatbin &unit : units)
      for (FatbinImage &image : unit.ptx) {
        image.kind = ImageKind::RelocatablePtx;
        image.ident = unit.moduleId;
        images.push_back(std::move(image));
      }
  }
  std::vector<uint8_t> fatbin = writeFatbin(images);
  if (!args.get("-fatbin-text").empty() &&
      !writeFileAtomic(args.get("-fatbin-text"), fatbinAsmText(fatbin), error))
    return false;
  if (!args.get("-embedded-fatbin").empty() &&
      !writeFileAtomic(args.get("-embedded-fatbin"),
                       embeddedFatbinText(args.get("-o"), fatbin.size(),
                                          args.has("-embedded-relocatable")),
                       error))
    return false;
  return writeFileAtomic(
      args.get("-o"),
      llvm::StringRef(reinterpret_cast<const char *>(fatbin.data()),
                      fatbin.size()),
      error);
}

bool readBytes(const std::string &path, std::vector<uint8_t> &bytes,
               std::string &error) {
  std::string text;
  if (!readFile(path, text, error)) return false;
  bytes.assign(text.begin(), text.end());
  return true;
}

// The lowered unit to LLVM IR: the host side's front end, which runs while
// the device side compiles.
bool hostIR(const ToolArgs &args, llvm::raw_ostream &diag, std::string &error) {
  std::string text;
  if (!require(args, "-o", error) || !require(args, "-unit", error) ||
      !readFile(args.get("-unit"), text, error))
    return false;
  auto unit = offload::HostUnit::generate(args.cc1, args.get("-unit"), text,
                                          error, &diag);
  return unit && writeFileAtomic(args.get("-o"), unit->bitcode(), error);
}

// The host IR compiled with its device code: the fat binary, or with -rdc
// the unit's images for the device link.
bool compileHost(const ToolArgs &args, llvm::raw_ostream &diag,
                 std::string &error) {
  std::string ir;
  if (!require(args, "-o", error) || !require(args, "-ir", error) ||
      !readFile(args.get("-ir"), ir, error))
    return false;
  auto unit = offload::HostUnit::load(args.cc1, ir, error, &diag);
  if (!unit) return false;
  std::vector<std::string> rdcImages = args.all("-rdc-image");
  if (!rdcImages.empty() || args.get("-fatbin").empty()) {
    std::vector<std::string> images(rdcImages.size());
    for (size_t i = 0; i < rdcImages.size(); ++i)
      if (!readFile(rdcImages[i], images[i], error)) return false;
    return unit->emitRelocatableObject(images, args.get("-o"), error);
  }
  std::vector<uint8_t> fatbin;
  return readBytes(args.get("-fatbin"), fatbin, error) &&
         unit->emitObject(fatbin, args.get("-o"), error);
}

// The relocatable device code of the inputs, and its units in input order.
struct LinkInputs {
  std::vector<offload::RelocatableImage> images;
  std::vector<std::string> unitIds, sources;
};

bool readLinkInputs(const ToolArgs &args, LinkInputs &in, std::string &error) {
  for (const std::string &input : args.inputs)
    if (!offload::readRelocatableImages(input, in.images, error)) return false;
  for (const auto &image : in.images)
    if (std::find(in.unitIds.begin(), in.unitIds.end(), image.unitId) ==
        in.unitIds.end()) {
      in.unitIds.push_back(image.unitId);
      in.sources.push_back(image.source);
    }
  return true;
}

// Each unit's image for `arch`; a unit compiled without it is an error that
// says what it was compiled for.
bool imagesFor(const LinkInputs &in, const Target &arch,
               std::vector<offload::DeviceBitcodeInput> &units,
               offload::DeviceTarget &target, std::string &error) {
  for (const std::string &id : in.unitIds) {
    const offload::RelocatableImage *found = nullptr, *any = nullptr;
    std::string compiledFor;
    for (const auto &image : in.images)
      if (image.unitId == id) {
        any = &image;
        compiledFor += (compiledFor.empty() ? "" : ", ") +
                       image.virtualArch.str();
        if (image.virtualArch == arch) found = &image;
      }
    if (!found) {
      error = any->file + ": the device code of " + any->source +
              " was compiled for " + compiledFor + ", not for " + arch.str() +
              "; recompile it with -gencode arch=" + arch.str() +
              ",code=... or device-link for its architectures";
      return false;
    }
    units.push_back({found->file, found->source, found->bitcode});
    target = found->target;
  }
  if (units.empty()) {
    error = "no relocatable device code to link for " + arch.str();
    return false;
  }
  return true;
}

std::string commaList(const std::vector<Target> &targets) {
  std::string text;
  for (const Target &t : targets) text += (text.empty() ? "" : ",") + t.str();
  return text;
}

// What a link's existing objects and -l archives (lib<name>.a in the -L
// directories, as nvlink finds them) hold: one "archive <path>" line per
// archive found, one "image <virtual arch> <code>,..." line per image of
// relocatable device code as LLVM bitcode (-dlto), one "relfatbin
// <code>,..." line per object with nvcc's relocatable device code. The planner reads it (Planner.cpp, afterScan).
bool scanDeviceCode(const ToolArgs &args, llvm::raw_ostream &,
                    std::string &error) {
  if (!require(args, "-o", error)) return false;
  std::string out;
  std::vector<std::string> files = args.inputs;
  for (const std::string &lib : args.all("-l"))
    for (const std::string &dir : args.all("-L")) {
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, "lib" + lib + ".a");
      if (!llvm::sys::fs::exists(path)) continue;
      out += "archive " + std::string(path) + "\n";
      files.push_back(std::string(path));
      break;
    }
  for (const std::string &file : files) {
    std::vector<offload::RelocatableFatbin> fatbins;
    if (!offload::readRelocatableFatbins(file, fatbins, error)) return false;
    for (const auto &fatbin : fatbins)
      out += "relfatbin " + commaList(fatbin.codes) + "\n";
    std::vector<offload::RelocatableImage> images;
    if (!offload::readRelocatableImages(file, images, error)) return false;
    for (const auto &image : images)
      out += "image " + image.virtualArch.str() + " " +
             commaList(image.codes) + "\n";
  }
  return writeFileAtomic(args.get("-o"), out, error);
}

bool deviceLink(const ToolArgs &args, llvm::raw_ostream &, std::string &error) {
  Target arch;
  LinkInputs in;
  if (!require(args, "-o", error) ||
      !targetOption(args, "-arch", arch, error) ||
      !readLinkInputs(args, in, error))
    return false;
  std::vector<offload::DeviceBitcodeInput> units;
  offload::DeviceTarget target;
  std::string ptx;
  return imagesFor(in, arch, units, target, error) &&
         offload::linkDeviceToPtx(units, target, codegenOptions(args), ptx,
                                  error) &&
         writeFileAtomic(args.get("-o"), ptx, error);
}

// The host object of the device link: registers the linked fat binary for
// every unit it holds (an object with nothing to register without units).
// nvlink's device link: the toolkit's link.stub, compiled here with the
// linked fat binary's C text (FATBINFILE) and nvlink's list of the units
// (REGISTERLINKBINARYFILE), as nvcc has the host compiler compile it. -r's
// (-module-id): the toolkit's prelink.stub with the module id
// (__NV_MODULE_ID) instead of the list: one more unit of relocatable code.
bool linkStubObject(const ToolArgs &args, llvm::raw_ostream &diag,
                    std::string &error) {
  bool prelink = !args.get("-module-id").empty();
  if (!require(args, "-o", error) || !require(args, "-fatbin-c", error) ||
      (!prelink && !require(args, "-register", error)))
    return false;
  // Absolute: link.stub includes them, and a relative name would be looked
  // up beside link.stub, not in the working directory (--keep-dir kd).
  auto quoted = [](const std::string &file) {
    llvm::SmallString<256> path(file);
    llvm::sys::fs::make_absolute(path);
    std::string out = "\"";
    for (char c : path) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  };
  std::string text =
      "#define FATBINFILE " + quoted(args.get("-fatbin-c")) + "\n" +
      (prelink ? "#define __NV_MODULE_ID " + args.get("-module-id")
               : "#define REGISTERLINKBINARYFILE " + quoted(args.get("-register"))) +
      "\n#define __NV_EXTRA_INITIALIZATION\n#define __NV_EXTRA_FINALIZATION\n"
      "#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__\n"
      "#include " + quoted(args.get("-link-stub")) + "\n";
  auto unit = offload::HostUnit::generate(args.cc1, args.get("-o") + ".cpp",
                                          text, error, &diag);
  return unit && unit->emitRelocatableObject({}, args.get("-o"), error);
}

bool deviceLinkHost(const ToolArgs &args, llvm::raw_ostream &diag,
                    std::string &error) {
  if (!args.get("-link-stub").empty())
    return linkStubObject(args, diag, error);
  LinkInputs in;
  if (!require(args, "-o", error) || !readLinkInputs(args, in, error))
    return false;
  std::string name = "device link of ";
  for (size_t i = 0; i < in.sources.size(); ++i)
    name += (i ? ", " : "") + in.sources[i];
  if (in.sources.empty()) name += "no units";
  auto unit = offload::HostUnit::generate(
      args.cc1, args.get("-o") + ".cpp",
      lowering::deviceLinkUnit(in.unitIds, name), error, &diag);
  if (!unit) return false;
  if (in.unitIds.empty())
    return unit->emitRelocatableObject({}, args.get("-o"), error);
  std::vector<uint8_t> fatbin;
  return require(args, "-fatbin", error) &&
         readBytes(args.get("-fatbin"), fatbin, error) &&
         unit->emitObject(fatbin, args.get("-o"), error);
}

// A dependency rule written to a temporary by a preprocessing job goes to
// its file (atomically: the temporary may be on another file system) or to
// stdout, once the job succeeded.
// A make rule's target and prerequisites (the first rule of `text`, as
// Clang and GCC write it: continuation lines joined, words split at white
// space that no backslash escapes; -MP's phony rules after it ignored).
void parseRule(llvm::StringRef text, std::string &target,
               std::vector<std::string> &prerequisites) {
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      line += ' ';
    } else if (text[i] == '\n') {
      break;
    } else {
      line += text[i];
    }
  }
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      word += line.substr(i, 2);
      ++i;
    } else if (line[i] == ' ' || line[i] == '\t') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += line[i];
    }
  }
  if (!word.empty()) words.push_back(word);
  // The target ends at the first word ending in an unescaped ':'.
  std::size_t first = 0;
  for (; first < words.size(); ++first) {
    if (!target.empty()) target += ' ';
    if (llvm::StringRef(words[first]).ends_with(":")) {
      target += words[first].substr(0, words[first].size() - 1);
      break;
    }
    target += words[first];
  }
  prerequisites.assign(words.begin() + std::min(first + 1, words.size()),
                       words.end());
}

// Puts a dependency rule in place. Several rules (a .cu's device sides,
// then its host side) become one, each prerequisite once, in the order met
// (nvcc's: the source, device-only headers, then the host's); -MP adds an
// empty rule for each header.
bool publish(const ToolArgs &args, llvm::raw_ostream &, std::string &error) {
  if (args.inputs.empty() || !require(args, "-o", error)) {
    if (error.empty()) error = "-cc1 publish: expected a rule to publish";
    return false;
  }
  std::string text;
  if (args.inputs.size() == 1)
    return readFile(args.inputs[0], text, error) &&
           writeFileAtomic(args.get("-o"), text, error);
  std::string target;
  std::vector<std::string> merged;
  std::set<std::string> seen;
  for (const std::string &input : args.inputs) {
    if (!readFile(input, text, error)) return false;
    std::string ruleTarget;
    std::vector<std::string> prerequisites;
    parseRule(text, ruleTarget, prerequisites);
    if (target.empty()) target = ruleTarget;
    for (const std::string &p : prerequisites)
      if (seen.insert(p).second) merged.push_back(p);
  }
  std::string rule = target + ":";
  for (std::size_t i = 0; i < merged.size(); ++i)
    rule += (i ? " \\\n  " : " ") + merged[i];
  rule += "\n";
  if (args.has("-MP"))
    for (std::size_t i = 1; i < merged.size(); ++i)
      rule += "\n" + merged[i] + ":\n";
  return writeFileAtomic(args.get("-o"), rule, error);
}

// -E of a .cu: the sides' preprocessed texts, one after the other (each
// starts with its own line markers), to -o ("-": stdout).
bool join(const ToolArgs &args, llvm::raw_ostream &, std::string &error) {
  if (!require(args, "-o", error)) return false;
  std::string all, text;
  for (const std::string &input : args.inputs) {
    if (!readFile(input, text, error)) return false;
    all += text;
    if (!all.empty() && all.back() != '\n') all += '\n';
  }
  return writeFileAtomic(args.get("-o"), all, error);
}

// The host compiler's object of a unit (-object) with the device code put
// into the section the lowered unit left empty (-device-code-later): the
// fat binary (-fatbin), nvcc's relocatable one (-relfatbin) or -dlto's
// images (-rdc-image, back to back).
bool embedDeviceCode(const ToolArgs &args, llvm::raw_ostream &,
                     std::string &error) {
  if (!require(args, "-o", error) || !require(args, "-object", error))
    return false;
  std::vector<std::string> files = args.all("-rdc-image");
  const char *section = lowering::kOffloadingSection;
  if (files.empty()) {
    bool relocatable = !args.get("-relfatbin").empty();
    files = {relocatable ? args.get("-relfatbin") : args.get("-fatbin")};
    section = relocatable ? lowering::kRelocatableFatbinSection
                          : lowering::kFatbinSection;
    if (files[0].empty() && !require(args, "-fatbin", error)) return false;
  }
  return offload::fillDeviceCode(args.get("-object"), section, files,
                                 args.get("-o"), error);
}

using ToolFn = std::function<bool(const ToolArgs &, llvm::raw_ostream &,
                                  std::string &)>;

const std::map<std::string, ToolFn> &tools() {
  static const std::map<std::string, ToolFn> table = {
      {"preprocess-host", preprocess}, {"preprocess-device", preprocess},
      {"lower-host", lowerHost},
      {"compile-device", compileDevice},   {"bundle", bundle},
      {"host-ir", hostIR},                 {"compile-host", compileHost},
      {"embed-device-code", embedDeviceCode},
      {"scan-device-code", scanDeviceCode}, {"device-link", deviceLink},
      {"device-link-host", deviceLinkHost}, {"publish", publish},
      {"join", join},
  };
  return table;
}

} // namespace

InternalCommand::InternalCommand(const Toolkit &t, const char *tool)
    : argv{t.self, "-cc1", tool} {}

InternalCommand &InternalCommand::value(const char *option,
                                        const std::string &v) {
  argv.insert(argv.end(), {option, v});
  return *this;
}

InternalCommand &InternalCommand::flag(const char *option) {
  argv.push_back(option);
  return *this;
}

InternalCommand &InternalCommand::input(const std::string &path) {
  argv.push_back(path);
  return *this;
}

InternalCommand &InternalCommand::cc1(const std::vector<std::string> &args) {
  argv.push_back("--");
  argv.insert(argv.end(), args.begin(), args.end());
  return *this;
}

namespace {

const char *const kStepTools[][2] = {{"cicc", "compile-device"},
                                     {"cudafe++", "lower-host"},
                                     {"fatbinary", "bundle"}};

const char *toolOfStep(llvm::StringRef program) {
  llvm::StringRef name = llvm::sys::path::filename(program);
  for (const auto &step : kStepTools)
    if (name == step[0]) return step[1];
  return nullptr;
}

const char *stepOfTool(llvm::StringRef tool) {
  for (const auto &step : kStepTools)
    if (tool == step[1]) return step[0];
  return nullptr;
}

// Removes `option <value>` (the last one) from `words`; its value, or "".
std::string takeValued(std::vector<std::string> &words, llvm::StringRef option) {
  for (size_t i = words.size(); i-- > 0;)
    if (words[i] == option && i + 1 < words.size()) {
      std::string value = words[i + 1];
      words.erase(words.begin() + i, words.begin() + i + 2);
      return value;
    }
  return {};
}

} // namespace

bool isNvccStepName(const std::string &program) {
  return toolOfStep(program) != nullptr;
}

std::vector<std::string> spellAsNvccStep(const Toolkit &t,
                                         const std::vector<std::string> &argv,
                                         const std::string &input,
                                         const std::string &moduleIdFile) {
  const char *step = argv.size() >= 3 ? stepOfTool(argv[2]) : nullptr;
  if (!step) return argv;
  std::vector<std::string> out{t.prefix + "/libexec/mycc/" + step};
  if (argv[2] == "bundle") {
    out.insert(out.end(), argv.begin() + 3, argv.end());
    return out;
  }
  auto dashes = std::find(argv.begin() + 3, argv.end(), "--");
  std::vector<std::string> options(argv.begin() + 3, dashes), cc1;
  if (dashes != argv.end()) cc1.assign(dashes + 1, argv.end());
  std::string output = takeValued(options, "-o");
  takeValued(cc1, "-o"); // Clang's own output name, which the tools ignore
  // The input: the last word naming it (-main-file-name may name it too).
  for (size_t i = cc1.size(); i-- > 0;)
    if (cc1[i] == input) {
      cc1.erase(cc1.begin() + i);
      break;
    }
  out.insert(out.end(), options.begin(), options.end());
  out.push_back("--");
  out.insert(out.end(), cc1.begin(), cc1.end());
  if (argv[2] == "compile-device") {
    out.insert(out.end(), {input, "-o", output});
  } else {
    out.insert(out.end(), {"--gen_c_file_name", output});
    if (!moduleIdFile.empty())
      out.insert(out.end(), {"--module_id_file_name", moduleIdFile});
    out.push_back(input);
  }
  return out;
}

std::vector<std::string> internalFormOf(const std::vector<std::string> &argv) {
  const char *tool = argv.empty() ? nullptr : toolOfStep(argv[0]);
  if (!tool) return argv;
  std::vector<std::string> words(argv.begin() + 1, argv.end());
  std::vector<std::string> out{argv[0], "-cc1", tool};
  if (llvm::StringRef(tool) == "bundle") {
    out.insert(out.end(), words.begin(), words.end());
    return out;
  }
  // What cicc and cudafe++ write is named anywhere on their line (a cache
  // moves the names); the input stays last, Clang's input.
  std::string output = llvm::StringRef(tool) == "compile-device"
                           ? takeValued(words, "-o")
                           : takeValued(words, "--gen_c_file_name");
  std::string moduleId = takeValued(words, "--module_id_file_name");
  takeValued(words, "--stub_file_name");
  // A cache adds nvcc's --gen_module_id_file beside --module_id_file_name
  // (writing the file is what the name asks of mycc's step already).
  words.erase(std::remove(words.begin(), words.end(), "--gen_module_id_file"),
              words.end());
  auto dashes = std::find(words.begin(), words.end(), "--");
  out.insert(out.end(), words.begin(), dashes);
  if (!output.empty()) out.insert(out.end(), {"-o", output});
  if (!moduleId.empty()) out.insert(out.end(), {"-module-id-file", moduleId});
  out.insert(out.end(), dashes, words.end());
  return out;
}

bool isInternalCommand(const std::vector<std::string> &argv,
                       const std::string &self) {
  return argv.size() >= 3 && argv[0] == self && argv[1] == "-cc1";
}

void prepareInternalTool(const std::vector<std::string> &stepOrTool) {
  std::vector<std::string> argv = internalFormOf(stepOrTool);
  offload::applyBackendOptions();
  // Clang's device invocations carry backend options (-mllvm); LLVM keeps
  // them process-wide, so they are parsed once.
  static std::once_flag once;
  if (argv.size() < 3 || argv[2] != "compile-device") return;
  std::call_once(once, [&] {
    std::vector<const char *> options{"mycc"};
    for (size_t i = 0; i + 1 < argv.size(); ++i)
      if (argv[i] == "-mllvm") options.push_back(argv[i + 1].c_str());
    if (options.size() > 1)
      llvm::cl::ParseCommandLineOptions(options.size(), options.data());
  });
}

bool runInternalTool(const std::vector<std::string> &argv,
                     llvm::raw_ostream &diagnostics, std::string &error) {
  ToolArgs args;
  if (!parseToolArgs(internalFormOf(argv), args, error)) return false;
  auto it = tools().find(args.tool);
  if (it == tools().end()) {
    error = "-cc1: unknown tool '" + args.tool + "'";
    return false;
  }
  return it->second(args, diagnostics, error);
}

} // namespace mycc::driver
