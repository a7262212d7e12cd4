// The GPU-free parts of the mycc runtime: reading a module's fat binary,
// explaining the image selection, MYCC_FORCE_PTX's container, environment
// parsing. No CUDA call is made here.
#include "RuntimeInternal.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace mycc;
using namespace mycc::rt;

namespace {

const std::string kH100 = "NVIDIA H100 80GB HBM3";

// A 64-byte ELF64 header that looks like a CUDA cubin (EM_CUDA, ABI v8).
std::string fakeCubin(unsigned sm) {
  std::string elf(64, '\0');
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 8};
  std::memcpy(&elf[0], ident, sizeof ident);
  elf[16] = 2;          // ET_EXEC
  elf[18] = char(190);  // EM_CUDA
  elf[20] = 1;          // EV_CURRENT
  elf[48] = char(sm);   // e_flags low byte: SM, as the V2 layout has it
  elf[52] = 64;         // e_ehsize
  return elf;
}

std::string fakePtx(unsigned sm) {
  return ".version 9.0\n.target sm_" + std::to_string(sm) +
         "\n.address_size 64\n";
}

FatbinImage cubin(unsigned sm, ArchSuffix suffix = ArchSuffix::None) {
  FatbinImage image;
  image.kind = ImageKind::Elf;
  image.arch = GpuArch{sm, suffix};
  image.payload = fakeCubin(sm);
  image.versionMajor = 1;
  image.versionMinor = 8;
  return image;
}

FatbinImage ptx(unsigned sm, ArchSuffix suffix = ArchSuffix::None) {
  FatbinImage image;
  image.kind = ImageKind::Ptx;
  image.arch = GpuArch{sm, suffix};
  image.payload = fakePtx(sm);
  image.versionMajor = 9;
  image.versionMinor = 0;
  return image;
}

// Bytes kept 8-byte aligned, like the .nv_fatbin section.
struct AlignedBytes {
  std::vector<unsigned long long> words;
  std::size_t size = 0;
  explicit AlignedBytes(const std::vector<uint8_t> &bytes)
      : words((bytes.size() + 7) / 8), size(bytes.size()) {
    if (!bytes.empty())
      std::memcpy(words.data(), bytes.data(), bytes.size());
  }
  const uint8_t *data() const {
    return reinterpret_cast<const uint8_t *>(words.data());
  }
};

// Writes the images, reads them back through a wrapper like the runtime does.
ModuleInfo module(const std::vector<FatbinImage> &images,
                  const std::string &name = "vector_add.cu") {
  AlignedBytes bytes(writeFatbin(images));
  FatbinWrapper wrapper{kWrapperMagic, 1, bytes.words.data(), nullptr};
  std::size_t size = 0;
  std::string error;
  const uint8_t *container = wrapperContainer(&wrapper, size, error);
  EXPECT_NE(container, nullptr) << error;
  if (!container)
    return ModuleInfo{};
  EXPECT_EQ(size, bytes.size);
  FatbinReadResult read = readFatbin(container, size);
  EXPECT_TRUE(read) << read.error;
  return describeModule(name, read);
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(RuntimeEnv, LogTopics) {
  EXPECT_TRUE(logTopicEnabled("select", "select"));
  EXPECT_TRUE(logTopicEnabled("launch,select", "select"));
  EXPECT_TRUE(logTopicEnabled(" launch , select ", "select"));
  EXPECT_TRUE(logTopicEnabled("select,", "select"));
  EXPECT_FALSE(logTopicEnabled(nullptr, "select"));
  EXPECT_FALSE(logTopicEnabled("", "select"));
  EXPECT_FALSE(logTopicEnabled("selection", "select"));
  EXPECT_FALSE(logTopicEnabled("sel", "select"));
  EXPECT_FALSE(logTopicEnabled("launch,,", "select"));
}

TEST(RuntimeEnv, Flags) {
  EXPECT_TRUE(envFlagSet("1"));
  EXPECT_TRUE(envFlagSet("yes"));
  EXPECT_FALSE(envFlagSet("0"));
  EXPECT_FALSE(envFlagSet(""));
  EXPECT_FALSE(envFlagSet(nullptr));
}

TEST(RuntimeWrapper, RejectsMalformedWrappers) {
  AlignedBytes bytes(writeFatbin({cubin(90)}));
  std::size_t size = 1;
  std::string error;

  EXPECT_EQ(wrapperContainer(nullptr, size, error), nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_FALSE(error.empty());

  FatbinWrapper badMagic{0x12345678, 1, bytes.words.data(), nullptr};
  error.clear();
  EXPECT_EQ(wrapperContainer(&badMagic, size, error), nullptr);
  EXPECT_TRUE(contains(error, "0x12345678")) << error;

  FatbinWrapper badVersion{kWrapperMagic, 7, bytes.words.data(), nullptr};
  error.clear();
  EXPECT_EQ(wrapperContainer(&badVersion, size, error), nullptr);
  EXPECT_TRUE(contains(error, "version 7")) << error;

  FatbinWrapper noData{kWrapperMagic, 1, nullptr, nullptr};
  error.clear();
  EXPECT_EQ(wrapperContainer(&noData, size, error), nullptr);
  EXPECT_FALSE(error.empty());

  std::vector<unsigned long long> garbage(8, 0x0123456789abcdefULL);
  FatbinWrapper notContainer{kWrapperMagic, 1, garbage.data(), nullptr};
  error.clear();
  EXPECT_EQ(wrapperContainer(&notContainer, size, error), nullptr);
  EXPECT_FALSE(error.empty());

  FatbinWrapper good{kWrapperMagic, 1, bytes.words.data(), nullptr};
  error.clear();
  EXPECT_EQ(wrapperContainer(&good, size, error), bytes.data());
  EXPECT_EQ(size, bytes.size);
  EXPECT_TRUE(error.empty());
}

TEST(RuntimeModule, DescribesImages) {
  ModuleInfo info = module({cubin(80), cubin(90), ptx(90)});
  ASSERT_EQ(info.images.size(), 3u);
  EXPECT_EQ(info.sourceName, "vector_add.cu");
  EXPECT_TRUE(info.readError.empty());
  EXPECT_EQ(imageLabel(info.images[0]), "sm_80 cubin");
  EXPECT_EQ(imageLabel(info.images[1]), "sm_90 cubin");
  EXPECT_EQ(imageLabel(info.images[2]), "compute_90 PTX");
}

TEST(RuntimeModule, KeepsReadErrors) {
  FatbinReadResult bad;
  bad.error = "truncated entry";
  ModuleInfo info = describeModule("k.cu", bad);
  EXPECT_EQ(info.readError, "truncated entry");
  EXPECT_TRUE(info.images.empty());
}

TEST(RuntimeExplain, ExactCubin) {
  ModuleInfo info = module({cubin(80), cubin(90), ptx(90)});
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::Cubin);
  EXPECT_EQ(ex.selection.index, 1u);
  EXPECT_TRUE(ex.error.empty());
  const std::string prefix =
      "mycc: select: module vector_add.cu on device 0 (NVIDIA H100 80GB "
      "HBM3, sm_90): images sm_80 cubin, sm_90 cubin, compute_90 PTX -> "
      "sm_90 cubin";
  EXPECT_EQ(ex.logLine.substr(0, prefix.size()), prefix) << ex.logLine;
  // The selection library's reason follows in parentheses, without a period.
  EXPECT_EQ(ex.logLine.back(), ')') << ex.logLine;
  EXPECT_EQ(ex.logLine.find('\n'), std::string::npos);
}

TEST(RuntimeExplain, CompatibleCubinOfTheSameMajor) {
  ModuleInfo info = module({cubin(80), ptx(80)});
  Explanation ex = explainSelection(info, 1, "NVIDIA A10", 86);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::Cubin);
  EXPECT_EQ(ex.selection.index, 0u);
  EXPECT_TRUE(contains(ex.logLine, "on device 1 (NVIDIA A10, sm_86)"))
      << ex.logLine;
  EXPECT_TRUE(contains(ex.logLine, "-> sm_80 cubin (")) << ex.logLine;
}

TEST(RuntimeExplain, PtxJit) {
  ModuleInfo info = module({cubin(80), ptx(80)});
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::PtxJit);
  EXPECT_EQ(ex.selection.index, 1u);
  EXPECT_TRUE(ex.error.empty());
  EXPECT_TRUE(contains(ex.logLine, "images sm_80 cubin, compute_80 PTX -> "
                                   "compute_80 PTX, JIT-compiled for sm_90 ("))
      << ex.logLine;
}

TEST(RuntimeExplain, NoFitNewerDevice) {
  ModuleInfo info = module({cubin(80)});
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::None);
  EXPECT_EQ(ex.error,
            "mycc: error: no image in vector_add.cu runs on device 0 (NVIDIA "
            "H100 80GB HBM3, sm_90): it carries sm_80 (cubin). Rebuild with "
            "-gencode arch=compute_90,code=sm_90, or add PTX with -gencode "
            "arch=compute_80,code=compute_80.");
  EXPECT_TRUE(contains(ex.logLine, "images sm_80 cubin -> none")) << ex.logLine;
}

TEST(RuntimeExplain, NoFitOlderDevice) {
  ModuleInfo info = module({cubin(90), ptx(90)}, "k.cu");
  Explanation ex = explainSelection(info, 2, "NVIDIA A100-SXM4-40GB", 80);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::None);
  EXPECT_EQ(ex.error,
            "mycc: error: no image in k.cu runs on device 2 (NVIDIA "
            "A100-SXM4-40GB, sm_80): it carries sm_90 (cubin), compute_90 "
            "(PTX). Rebuild with -gencode arch=compute_80,code=sm_80.");
}

TEST(RuntimeExplain, NoFitPtxTooNew) {
  ModuleInfo info = module({cubin(80), ptx(100)});
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::None);
  EXPECT_TRUE(contains(ex.error, "it carries sm_80 (cubin), compute_100 "
                                 "(PTX). Rebuild with"))
      << ex.error;
  EXPECT_TRUE(contains(ex.error, "arch=compute_80,code=compute_80.")) << ex.error;
}

TEST(RuntimeExplain, EmptyModule) {
  ModuleInfo info = module({});
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::None);
  EXPECT_TRUE(contains(ex.logLine, "images none -> none")) << ex.logLine;
  EXPECT_EQ(ex.error,
            "mycc: error: no image in vector_add.cu runs on device 0 (NVIDIA "
            "H100 80GB HBM3, sm_90): it carries no cubin and no PTX. Rebuild "
            "with -gencode arch=compute_90,code=sm_90.");
}

TEST(RuntimeExplain, UnknownDeviceName) {
  ModuleInfo info = module({cubin(90)});
  Explanation ex = explainSelection(info, 0, "", 90);
  EXPECT_TRUE(contains(ex.logLine, "on device 0 (unknown GPU, sm_90)"))
      << ex.logLine;
}

TEST(RuntimeExplain, ArchSpecificCubin) {
  ModuleInfo info = module({ptx(90), cubin(90, ArchSuffix::ArchSpecific),
                            ptx(90, ArchSuffix::ArchSpecific)});
  ASSERT_EQ(info.images.size(), 3u);
  EXPECT_EQ(imageLabel(info.images[1]), "sm_90a cubin");
  EXPECT_EQ(imageLabel(info.images[2]), "compute_90a PTX");

  Explanation onH100 = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(onH100.selection.kind, Selection::Kind::Cubin);
  EXPECT_EQ(onH100.selection.index, 1u);
  EXPECT_TRUE(contains(onH100.logLine, "-> sm_90a cubin (")) << onH100.logLine;

  // On a newer GPU only the plain compute_90 PTX can run.
  Explanation onB200 = explainSelection(info, 0, "NVIDIA B200", 100);
  EXPECT_EQ(onB200.selection.kind, Selection::Kind::PtxJit);
  EXPECT_EQ(onB200.selection.index, 0u);
}

TEST(RuntimeExplain, ForcedPtx) {
  ModuleInfo info = module({cubin(90), ptx(80)});
  info.cubinsRemoved = true;
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::PtxJit);
  EXPECT_EQ(ex.selection.index, 1u);
  EXPECT_TRUE(contains(ex.logLine,
                       "images sm_90 cubin (removed by MYCC_FORCE_PTX), "
                       "compute_80 PTX -> compute_80 PTX, JIT-compiled for "
                       "sm_90 ("))
      << ex.logLine;
}

TEST(RuntimeExplain, ForcedPtxThatCannotRun) {
  ModuleInfo info = module({cubin(90), ptx(100)});
  info.cubinsRemoved = true;
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::None);
  EXPECT_TRUE(contains(ex.error, "it carries sm_90 (cubin, removed by "
                                 "MYCC_FORCE_PTX), compute_100 (PTX)."))
      << ex.error;
  EXPECT_TRUE(contains(ex.error, "Or unset MYCC_FORCE_PTX.")) << ex.error;
}

// The driver's variables, honoured as for a program nvcc built.
TEST(RuntimeExplain, DriverJitVariables) {
  JitEnvironment none = jitEnvironment(nullptr, nullptr, nullptr);
  EXPECT_TRUE(none.forcedBy.empty());
  EXPECT_FALSE(none.ptxJitDisabled);
  JitEnvironment cuda = jitEnvironment(nullptr, "1", "1");
  EXPECT_EQ(cuda.forcedBy, "CUDA_FORCE_PTX_JIT");
  EXPECT_TRUE(cuda.strictForce);
  EXPECT_TRUE(cuda.ptxJitDisabled);
  JitEnvironment both = jitEnvironment("1", "1", "0");
  EXPECT_EQ(both.forcedBy, "MYCC_FORCE_PTX");
  EXPECT_FALSE(both.strictForce);
  EXPECT_FALSE(both.ptxJitDisabled);

  ModuleInfo forced = module({cubin(90), ptx(80)});
  forced.cubinsRemoved = true;
  forced.forcedBy = "CUDA_FORCE_PTX_JIT";
  Explanation ex = explainSelection(forced, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::PtxJit);
  EXPECT_TRUE(contains(ex.logLine, "sm_90 cubin (removed by CUDA_FORCE_PTX_JIT)"))
      << ex.logLine;

  // CUDA_DISABLE_PTX_JIT: the PTX that would run is not compiled, and the
  // error says which variable to unset.
  ModuleInfo disabled = module({cubin(80), ptx(80)});
  disabled.ptxJitDisabled = true;
  Explanation noJit = explainSelection(disabled, 0, kH100, 90);
  EXPECT_EQ(noJit.selection.kind, Selection::Kind::None);
  EXPECT_TRUE(contains(noJit.error, "Or unset CUDA_DISABLE_PTX_JIT."))
      << noJit.error;
  EXPECT_TRUE(contains(noJit.logLine, "PTX JIT compilation is disabled"))
      << noJit.logLine;
  EXPECT_EQ(explainSelection(disabled, 0, "NVIDIA A100", 80).selection.kind,
            Selection::Kind::Cubin);
}

TEST(RuntimeExplain, LtoIrIsListedButNeverSelected) {
  FatbinImage lto;
  lto.kind = ImageKind::LtoIr;
  lto.arch = GpuArch{90, ArchSuffix::None};
  lto.payload = std::string("BC\xC0\xDE", 4) + std::string(28, '\0');
  lto.versionMajor = 1;
  lto.versionMinor = 65;
  ModuleInfo info = module({lto});
  ASSERT_EQ(info.images.size(), 1u);
  EXPECT_EQ(imageLabel(info.images[0]), "lto_90 LTO-IR");
  Explanation ex = explainSelection(info, 0, kH100, 90);
  EXPECT_EQ(ex.selection.kind, Selection::Kind::None);
  EXPECT_TRUE(contains(ex.logLine, "images lto_90 LTO-IR -> none"))
      << ex.logLine;
  EXPECT_TRUE(contains(ex.error, "it carries no cubin and no PTX.")) << ex.error;
}

TEST(RuntimeLoaded, AgreesWithCubinSelection) {
  ModuleInfo info = module({cubin(80), cubin(90), ptx(90)});
  Selection s = selectForModule(info, 90);
  ASSERT_EQ(s.kind, Selection::Kind::Cubin);
  EXPECT_EQ(describeLoaded(info, s, 0, 90, 90, 90),
            "mycc: select: module vector_add.cu on device 0: loaded "
            "binaryVersion 90 ptxVersion 90, as selected");
  std::string differs = describeLoaded(info, s, 0, 90, 80, 80);
  EXPECT_TRUE(contains(differs, "loaded binaryVersion 80 ptxVersion 80; "
                                "differs from the selection: sm_90 cubin "
                                "would give binaryVersion 90"))
      << differs;
}

TEST(RuntimeLoaded, AgreesWithPtxSelection) {
  ModuleInfo info = module({cubin(80), ptx(80)});
  Selection s = selectForModule(info, 90);
  ASSERT_EQ(s.kind, Selection::Kind::PtxJit);
  EXPECT_TRUE(contains(describeLoaded(info, s, 3, 90, 90, 80),
                       "on device 3: loaded binaryVersion 90 ptxVersion 80, "
                       "as selected"));
  std::string differs = describeLoaded(info, s, 3, 90, 80, 80);
  EXPECT_TRUE(contains(differs, "differs from the selection: compute_80 PTX "
                                "would give binaryVersion 90 ptxVersion 80"))
      << differs;
}

// withoutCubins's container, read back (the error says why it failed).
FatbinReadResult withoutCubinsReadBack(const std::vector<FatbinImage> &images) {
  std::string why;
  std::vector<uint8_t> out = withoutCubins(images, why);
  if (out.empty()) {
    FatbinReadResult failed;
    failed.error = "withoutCubins: " + why;
    return failed;
  }
  AlignedBytes bytes(out);
  return readFatbin(bytes.data(), bytes.size);
}

TEST(RuntimeForcePtx, RemovesCubins) {
  std::vector<FatbinImage> images = {cubin(80), cubin(90), ptx(80)};
  std::string why;
  std::vector<uint8_t> out = withoutCubins(images, why);
  ASSERT_FALSE(out.empty()) << why;
  AlignedBytes bytes(out);
  FatbinReadResult read = readFatbin(bytes.data(), bytes.size);
  ASSERT_TRUE(read) << read.error;
  ASSERT_EQ(read.images.size(), 1u);
  EXPECT_EQ(read.images[0].kind, ImageKind::Ptx);
  EXPECT_EQ(read.images[0].arch, (GpuArch{80, ArchSuffix::None}));
  EXPECT_EQ(read.images[0].payload, fakePtx(80));

  // The copy goes through a wrapper like the one the runtime builds.
  FatbinWrapper wrapper{kWrapperMagic, 1, bytes.words.data(), nullptr};
  std::size_t size = 0;
  std::string error;
  EXPECT_EQ(wrapperContainer(&wrapper, size, error), bytes.data()) << error;
  EXPECT_EQ(size, bytes.size);
}

TEST(RuntimeForcePtx, ReadBackImagesCanBeRewritten) {
  // The runtime feeds the reader's output to the writer.
  AlignedBytes original(writeFatbin({cubin(90), ptx(90), ptx(80)}));
  FatbinReadResult read = readFatbin(original.data(), original.size);
  ASSERT_TRUE(read) << read.error;
  std::string why;
  AlignedBytes stripped(withoutCubins(read.images, why));
  ASSERT_NE(stripped.size, 0u) << why;
  FatbinReadResult again = readFatbin(stripped.data(), stripped.size);
  ASSERT_TRUE(again) << again.error;
  ModuleInfo info = describeModule("k.cu", again);
  ASSERT_EQ(info.images.size(), 2u);
  EXPECT_EQ(imageLabel(info.images[0]), "compute_90 PTX");
  EXPECT_EQ(imageLabel(info.images[1]), "compute_80 PTX");
  EXPECT_EQ(again.images[0].payload, fakePtx(90));
}

TEST(RuntimeForcePtx, NeedsPtx) {
  std::string why;
  EXPECT_TRUE(withoutCubins({cubin(80), cubin(90)}, why).empty());
  EXPECT_EQ(why, "it carries no PTX");
  why.clear();
  EXPECT_TRUE(withoutCubins({ptx(80)}, why).empty());
  EXPECT_EQ(why, "it carries no cubin");
}

TEST(RuntimeForcePtx, KeepsCompressedPtxAsStored) {
  // PTX as read from a container that stores it compressed (the runtime's
  // writer cannot compress): copied stream and sizes unchanged.
  FatbinImage packed = ptx(80);
  packed.compression = FatbinImage::Compression::Zstd;
  packed.payload = std::string("\x28\xb5\x2f\xfd not decoded here", 24);
  packed.uncompressedSize = 4321;
  packed.versionMajor = 8;
  packed.versionMinor = 8;
  packed.options = "-O3";
  FatbinReadResult read = withoutCubinsReadBack({cubin(90), packed});
  ASSERT_TRUE(read) << read.error;
  ASSERT_EQ(read.images.size(), 1u);
  EXPECT_EQ(read.images[0].kind, ImageKind::Ptx);
  EXPECT_EQ(read.images[0].compression, FatbinImage::Compression::Zstd);
  EXPECT_EQ(read.images[0].payload, packed.payload);
  EXPECT_EQ(read.images[0].uncompressedSize, 4321u);
  EXPECT_EQ(read.images[0].versionMajor, 8u);
  EXPECT_EQ(read.images[0].options, "-O3");
}

TEST(RuntimeJit, NoteGoesIntoTheReason) {
  ModuleInfo info = module({ptx(80)});
  Explanation ex =
      explainSelection(info, 0, kH100, 90, "JIT cache hit, 0.4 ms");
  EXPECT_EQ(ex.selection.kind, Selection::Kind::PtxJit);
  EXPECT_TRUE(contains(ex.logLine, "-> compute_80 PTX, JIT-compiled for "
                                   "sm_90 (no cubin for 9.x; "))
      << ex.logLine;
  const std::string tail = "; JIT cache hit, 0.4 ms)";
  ASSERT_GE(ex.logLine.size(), tail.size());
  EXPECT_EQ(ex.logLine.substr(ex.logLine.size() - tail.size()), tail)
      << ex.logLine;
  // Without a note the line is as before.
  EXPECT_EQ(explainSelection(info, 0, kH100, 90, "").logLine,
            explainSelection(info, 0, kH100, 90).logLine);
}

TEST(RuntimeJit, Milliseconds) {
  EXPECT_EQ(millisecondsText(0.04), "0.0 ms");
  EXPECT_EQ(millisecondsText(0.44), "0.4 ms");
  EXPECT_EQ(millisecondsText(9.9), "9.9 ms");
  EXPECT_EQ(millisecondsText(12.4), "12 ms");
  EXPECT_EQ(millisecondsText(190.2), "190 ms");
}

TEST(RuntimeJit, PrependedCubinComesFirstAndOriginalsFollowUnchanged) {
  std::vector<uint8_t> original = writeFatbin({cubin(80), ptx(80)});
  AlignedBytes bytes(original);
  FatbinImage jit = cubin(90);
  jit.payload = fakeCubin(90) + std::string(40, 'x'); // odd size: padding
  jit.versionMajor = jit.versionMinor = 0;            // derived by the writer
  std::vector<uint8_t> out = prependImages({jit}, bytes.data(), bytes.size);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.size() % 8, 0u);

  // A valid container, exactly as large as its header says.
  AlignedBytes joined(out);
  EXPECT_EQ(fatbinContainerSize(joined.data(), joined.size), out.size());
  FatbinReadResult read = readFatbin(joined.data(), joined.size);
  ASSERT_TRUE(read) << read.error;
  ASSERT_EQ(read.images.size(), 3u);
  EXPECT_EQ(read.images[0].kind, ImageKind::Elf);
  EXPECT_EQ(read.images[0].arch, (GpuArch{90, ArchSuffix::None}));
  EXPECT_EQ(read.images[1].arch, (GpuArch{80, ArchSuffix::None}));
  EXPECT_EQ(read.images[1].kind, ImageKind::Elf);
  EXPECT_EQ(read.images[2].kind, ImageKind::Ptx);
  EXPECT_EQ(read.images[2].payload, fakePtx(80));

  // The original entries are copied byte for byte at the end.
  std::vector<uint8_t> tail(out.end() - (original.size() - 16), out.end());
  EXPECT_EQ(tail, std::vector<uint8_t>(original.begin() + 16, original.end()));

  // What the runtime selects from it on an H100: the new cubin.
  ModuleInfo info = describeModule("k.cu", read);
  Selection s = selectForModule(info, 90);
  EXPECT_EQ(s.kind, Selection::Kind::Cubin);
  EXPECT_EQ(s.index, 0u);
  // And an A100 still takes its own cubin.
  EXPECT_EQ(selectForModule(info, 80).index, 1u);
}

TEST(RuntimeJit, PrependKeepsCompressedEntries) {
  // An entry the writer cannot produce (marked LZ4-compressed) survives.
  std::vector<uint8_t> original = writeFatbin({ptx(80)});
  // Entry flags at 0x28 of the entry (container header is 16 bytes); the
  // compressed size at 0x10 must be non-zero and within the payload.
  original[16 + 0x28 + 1] |= 0x20; // flag 0x2000: LZ4
  original[16 + 0x10] = 8;
  AlignedBytes bytes(original);
  FatbinReadResult before = readFatbin(bytes.data(), bytes.size);
  ASSERT_TRUE(before) << before.error;
  ASSERT_EQ(before.images[0].compression, FatbinImage::Compression::Lz4);

  AlignedBytes joined(prependImages({cubin(90)}, bytes.data(), bytes.size));
  FatbinReadResult read = readFatbin(joined.data(), joined.size);
  ASSERT_TRUE(read) << read.error;
  ASSERT_EQ(read.images.size(), 2u);
  EXPECT_EQ(read.images[1].compression, FatbinImage::Compression::Lz4);
  EXPECT_EQ(read.images[1].payload, before.images[0].payload);
}

TEST(RuntimeJit, PrependSeveralAndRejectGarbage) {
  AlignedBytes bytes(writeFatbin({ptx(80)}));
  AlignedBytes joined(
      prependImages({cubin(90), cubin(86)}, bytes.data(), bytes.size));
  FatbinReadResult read = readFatbin(joined.data(), joined.size);
  ASSERT_TRUE(read) << read.error;
  ASSERT_EQ(read.images.size(), 3u);
  EXPECT_EQ(read.images[1].arch.sm, 86u);

  std::vector<uint8_t> garbage(64, 0xAB);
  EXPECT_TRUE(
      prependImages({cubin(90)}, garbage.data(), garbage.size()).empty());
  EXPECT_TRUE(prependImages({cubin(90)}, nullptr, 0).empty());
}
