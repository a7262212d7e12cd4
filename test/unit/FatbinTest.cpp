#include "Fatbin.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace mycc;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<uint8_t>;

// Little-endian field access, written independently of the library's.
uint64_t field(const Bytes &bytes, std::size_t offset, unsigned width) {
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i)
    value |= uint64_t(bytes.at(offset + i)) << (8 * i);
  return value;
}
uint64_t u16(const Bytes &b, std::size_t at) { return field(b, at, 2); }
uint64_t u32(const Bytes &b, std::size_t at) { return field(b, at, 4); }
uint64_t u64(const Bytes &b, std::size_t at) { return field(b, at, 8); }
void put(Bytes &bytes, std::size_t offset, uint64_t value, unsigned width) {
  for (unsigned i = 0; i < width; ++i)
    bytes.at(offset + i) = uint8_t(value >> (8 * i));
}

std::string text(const Bytes &bytes, std::size_t offset, std::size_t length) {
  return std::string(bytes.begin() + offset, bytes.begin() + offset + length);
}

// A small but well-formed ELF64 cubin: the header, each section's bytes in
// order, the section name table, then the section header table. `tail` is
// placed after the table, as an odd-sized last section, so that the file
// size is not a multiple of 8.
std::string makeCubin(uint8_t abiVersion,
                      std::vector<std::pair<std::string, std::string>> sections,
                      const std::string &tail = "odd") {
  sections.push_back({".shstrtab", ""});
  std::string names(1, '\0');
  std::vector<uint32_t> nameOffsets;
  for (auto &section : sections) {
    nameOffsets.push_back(uint32_t(names.size()));
    names += section.first + '\0';
  }
  sections.back().second = names;

  std::string file(64, '\0');
  std::vector<uint64_t> offsets;
  for (auto &section : sections) {
    offsets.push_back(file.size());
    file += section.second;
  }
  while (file.size() % 8)
    file.push_back('\0');
  uint64_t shoff = file.size();
  std::size_t shnum = sections.size() + 2; // null section + sections + tail
  file.resize(shoff + 64 * shnum, '\0');
  uint64_t tailOffset = file.size();
  file += tail;

  Bytes elf(file.begin(), file.end());
  const uint8_t ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, abiVersion};
  std::copy(std::begin(ident), std::end(ident), elf.begin());
  put(elf, 0x10, 2, 2);   // ET_EXEC
  put(elf, 0x12, 190, 2); // EM_CUDA
  put(elf, 0x14, 1, 4);
  put(elf, 0x28, shoff, 8);
  put(elf, 0x34, 64, 2);
  put(elf, 0x3A, 64, 2);
  put(elf, 0x3C, shnum, 2);
  put(elf, 0x3E, sections.size(), 2); // .shstrtab, after the null section
  auto sectionHeader = [&](std::size_t index, uint32_t name, uint64_t offset,
                           uint64_t size) {
    std::size_t at = shoff + 64 * index;
    put(elf, at, name, 4);
    put(elf, at + 4, 1, 4); // SHT_PROGBITS
    put(elf, at + 24, offset, 8);
    put(elf, at + 32, size, 8);
  };
  for (std::size_t i = 0; i < sections.size(); ++i)
    sectionHeader(i + 1, nameOffsets[i], offsets[i], sections[i].second.size());
  sectionHeader(shnum - 1, 0, tailOffset, tail.size());
  return std::string(elf.begin(), elf.end());
}

// 36 bytes, shaped like an sm_100 cubin's .nv.compat (last byte non-zero
// so that its treatment is visible).
const std::string kCompat("\x02\x09\x00\x00\x02\x02\x01\x00\x02\x05\x05\x00"
                          "\x03\x07\x01\x01\x02\x03\x00\x00\x02\x06\x01\x00"
                          "\x04\x0b\x08\x00\x09\x00\x00\x00\x00\x00\x00\x07",
                          36);

// No comments and no indentation: fatbinary blanks the one and strips the
// other, and the comparisons with its output need the PTX unchanged.
const char kPtx80[] = ".version 9.0\n"
                      ".target sm_80\n"
                      ".address_size 64\n"
                      "\n"
                      ".visible .entry k(.param .u64 p)\n"
                      "{\n"
                      ".reg .b64 %rd<2>;\n"
                      "ld.param.u64 %rd1, [p];\n"
                      "ret;\n"
                      "}\n";

FatbinImage elfImage(unsigned sm, std::string cubin,
                     ArchSuffix suffix = ArchSuffix::None) {
  FatbinImage image;
  image.kind = ImageKind::Elf;
  image.arch = {sm, suffix};
  image.payload = std::move(cubin);
  return image;
}

FatbinImage ptxImage(unsigned sm, std::string ptx,
                     ArchSuffix suffix = ArchSuffix::None) {
  FatbinImage image;
  image.kind = ImageKind::Ptx;
  image.arch = {sm, suffix};
  image.payload = std::move(ptx);
  return image;
}

FatbinReadResult read(const Bytes &bytes) {
  // An exact-size heap copy, so that a read past the end is a real overrun
  // for sanitizers rather than a read of vector capacity.
  std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size() + 1]);
  std::copy(bytes.begin(), bytes.end(), copy.get());
  return readFatbin(copy.get(), bytes.size());
}

std::size_t roundUp8(std::size_t n) { return (n + 7) / 8 * 8; }

} // namespace

// --- Writer byte layout ---

// The reference's worked example (nvcc 13.0 -arch=sm_80), first 0x50 bytes;
// fatSize and payloadSize depend on the cubin and are patched in.
TEST(FatbinWriter, ElfEntryMatchesWorkedExample) {
  std::string cubin = makeCubin(8, {{".text.k", std::string(100, '\x5a')}});
  Bytes out = writeFatbin({elfImage(80, cubin)});

  Bytes expected = {
      0x50, 0xED, 0x55, 0xBA, 0x01, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
      0x02, 0x00, 0x01, 0x01, 0x40, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x00,
      0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  std::size_t padded = roundUp8(cubin.size());
  ASSERT_NE(padded, cubin.size()) << "the fixture should need padding";
  put(expected, 0x08, 0x40 + padded, 8);
  put(expected, 0x18, padded, 8);

  ASSERT_EQ(out.size(), 0x50 + padded);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 0x50), expected);
  EXPECT_EQ(text(out, 0x50, cubin.size()), cubin);
  for (std::size_t i = 0x50 + cubin.size(); i < out.size(); ++i)
    EXPECT_EQ(out[i], 0) << "padding at " << i;
}

TEST(FatbinWriter, PtxEntryHasOptionsBlockAndNulTerminator) {
  std::string ptx = kPtx80;
  ptx.resize(roundUp8(ptx.size()), '\n'); // the NUL then needs 8 more bytes
  Bytes out = writeFatbin({ptxImage(80, ptx)});
  const std::size_t entry = 0x10;

  EXPECT_EQ(u16(out, entry + 0x00), 1u);      // PTX
  EXPECT_EQ(u16(out, entry + 0x02), 0x0101u); // entry version
  EXPECT_EQ(u32(out, entry + 0x04), 0x50u);   // header size
  EXPECT_EQ(u64(out, entry + 0x08), ptx.size() + 8);
  EXPECT_EQ(u32(out, entry + 0x10), 0u);      // not compressed
  EXPECT_EQ(u32(out, entry + 0x14), 0x40u);   // options offset
  EXPECT_EQ(u16(out, entry + 0x18), 0u);      // ISA 9.0: minor
  EXPECT_EQ(u16(out, entry + 0x1A), 9u);      // major
  EXPECT_EQ(u32(out, entry + 0x1C), 80u);
  EXPECT_EQ(u32(out, entry + 0x20), 0u);      // no ident
  EXPECT_EQ(u32(out, entry + 0x24), 0u);
  EXPECT_EQ(u64(out, entry + 0x28), 0x11u);
  EXPECT_EQ(u64(out, entry + 0x30), 0u);
  EXPECT_EQ(u64(out, entry + 0x38), 0u);
  // Empty options block: string offset 0x48, length 0, 8 bytes of NUL.
  EXPECT_EQ(u32(out, entry + 0x40), 0x48u);
  EXPECT_EQ(u32(out, entry + 0x44), 0u);
  EXPECT_EQ(u64(out, entry + 0x48), 0u);
  EXPECT_EQ(text(out, entry + 0x50, ptx.size()), ptx);
  EXPECT_EQ(out[entry + 0x50 + ptx.size()], 0);
  EXPECT_EQ(u64(out, 8), out.size() - 16);
}

TEST(FatbinWriter, EntriesFollowEachOtherAtPaddedOffsets) {
  std::string cubin = makeCubin(8, {{".text.k", "abc"}});
  Bytes out = writeFatbin({elfImage(80, cubin), ptxImage(80, kPtx80)});
  std::size_t second = 0x10 + 0x40 + roundUp8(cubin.size());
  EXPECT_EQ(u16(out, 0x10), 2u);
  EXPECT_EQ(u16(out, second), 1u);
  EXPECT_EQ(u32(out, second + 0x04), 0x50u);
  EXPECT_EQ(second % 8, 0u);
  std::size_t end = second + 0x50 + u64(out, second + 0x08);
  EXPECT_EQ(out.size(), end);
  EXPECT_EQ(u64(out, 8), end - 16);
}

TEST(FatbinWriter, EmptyImageListIsAnEmptyContainer) {
  Bytes out = writeFatbin({});
  ASSERT_EQ(out.size(), 16u);
  EXPECT_EQ(u32(out, 0), 0xBA55ED50u);
  EXPECT_EQ(u64(out, 8), 0u);
  FatbinReadResult result = read(out);
  EXPECT_TRUE(result) << result.error;
  EXPECT_TRUE(result.images.empty());
}

TEST(FatbinWriter, FlagsForSuffixesAndDebug) {
  std::string cubin = makeCubin(8, {{".text.k", "x"}});
  Bytes arch = writeFatbin({elfImage(90, cubin, ArchSuffix::ArchSpecific)});
  EXPECT_EQ(u64(arch, 0x10 + 0x28), 0x100011u);
  EXPECT_EQ(u32(arch, 0x10 + 0x1C), 90u); // the suffix is not in the number

  Bytes family = writeFatbin({ptxImage(100, kPtx80, ArchSuffix::FamilySpecific)});
  EXPECT_EQ(u64(family, 0x10 + 0x28), 0x200011u);
  EXPECT_EQ(u32(family, 0x10 + 0x1C), 100u);

  FatbinImage debug = ptxImage(80, kPtx80);
  debug.debug = true;
  EXPECT_EQ(u64(writeFatbin({debug}), 0x10 + 0x28), 0x13u);
}

// sm >= 100: nvcc copies .nv.compat, after one leading NUL, into an options
// block of the recorded section length, and sets 0x1000000.
TEST(FatbinWriter, ElfFrom100OnCarriesNvCompatCopy) {
  std::string cubin = makeCubin(8, {{".text.k", "code"}, {".nv.compat", kCompat}});
  Bytes out = writeFatbin({elfImage(100, cubin, ArchSuffix::FamilySpecific)});
  const std::size_t entry = 0x10;
  EXPECT_EQ(u32(out, entry + 0x04), 0x70u);
  EXPECT_EQ(u32(out, entry + 0x14), 0x40u);
  EXPECT_EQ(u64(out, entry + 0x28), 0x1200011u);
  EXPECT_EQ(u32(out, entry + 0x40), 0x48u);
  EXPECT_EQ(u32(out, entry + 0x44), 36u);
  EXPECT_EQ(text(out, entry + 0x48, 37), std::string(1, '\0') + kCompat);
  EXPECT_EQ(text(out, entry + 0x6D, 3), std::string(3, '\0'));
  EXPECT_EQ(text(out, entry + 0x70, cubin.size()), cubin);

  // Below 100 the section is not copied.
  Bytes sm90 = writeFatbin({elfImage(90, cubin)});
  EXPECT_EQ(u32(sm90, entry + 0x04), 0x40u);
  EXPECT_EQ(u32(sm90, entry + 0x14), 0u);
  EXPECT_EQ(u64(sm90, entry + 0x28), 0x11u);
}

// Same layout as `fatbinary --ident=t.cu --cmdline=-O3` writes.
TEST(FatbinWriter, IdentAndOptionsStrings) {
  FatbinImage image = ptxImage(100, kPtx80, ArchSuffix::FamilySpecific);
  image.ident = "t.cu";
  image.options = "-O3";
  Bytes out = writeFatbin({image});
  const std::size_t entry = 0x10;
  EXPECT_EQ(u32(out, entry + 0x04), 0x58u);
  EXPECT_EQ(u32(out, entry + 0x14), 0x48u);
  EXPECT_EQ(u32(out, entry + 0x20), 0x40u);
  EXPECT_EQ(u32(out, entry + 0x24), 4u);
  EXPECT_EQ(text(out, entry + 0x40, 8), std::string("t.cu\0\0\0\0", 8));
  EXPECT_EQ(u32(out, entry + 0x48), 0x50u);
  EXPECT_EQ(u32(out, entry + 0x4C), 3u);
  EXPECT_EQ(text(out, entry + 0x50, 8), std::string("-O3\0\0\0\0\0", 8));

  // An 8-byte identifier needs a second quad for its NUL.
  image.ident = "kernel.c";
  Bytes longer = writeFatbin({image});
  EXPECT_EQ(u32(longer, entry + 0x04), 0x60u);
  EXPECT_EQ(u32(longer, entry + 0x14), 0x50u);
}

TEST(FatbinWriter, VersionFields) {
  auto versionOf = [](const FatbinImage &image) {
    Bytes out = writeFatbin({image});
    return std::make_pair(u16(out, 0x10 + 0x1A), u16(out, 0x10 + 0x18));
  };
  using Version = std::pair<uint64_t, uint64_t>;
  // ELF: 1.EI_ABIVERSION.
  EXPECT_EQ(versionOf(elfImage(80, makeCubin(8, {}))), Version(1, 8));
  EXPECT_EQ(versionOf(elfImage(80, makeCubin(7, {}))), Version(1, 7));
  // PTX: the .version directive, wherever it is.
  EXPECT_EQ(versionOf(ptxImage(80, "//\n// banner\n  .version 8.5\n.target sm_80\n")),
            Version(8, 5));
  EXPECT_EQ(versionOf(ptxImage(80, ".version 10.12\n")), Version(10, 12));
  EXPECT_EQ(versionOf(ptxImage(80, ".target sm_80\n")), Version(0, 0));
  // Given versions win.
  FatbinImage given = ptxImage(80, kPtx80);
  given.versionMajor = 7;
  given.versionMinor = 3;
  EXPECT_EQ(versionOf(given), Version(7, 3));
}

// --- Round trip ---

TEST(FatbinRoundTrip, EveryFieldSurvives) {
  std::vector<FatbinImage> images;
  images.push_back(elfImage(80, makeCubin(8, {{".text.a", "12345"}})));
  images.push_back(elfImage(90, makeCubin(8, {{".text.b", "x"}}, "tail!"),
                            ArchSuffix::ArchSpecific));
  images.back().ident = "b.cu";
  images.back().debug = true;
  images.push_back(elfImage(
      103, makeCubin(8, {{".nv.compat", kCompat}, {".text.c", "c"}}),
      ArchSuffix::FamilySpecific));
  images.push_back(ptxImage(80, kPtx80));
  images.back().options = "--compile-only  ";
  images.push_back(ptxImage(120, ".version 9.0\n.target sm_120f\n",
                            ArchSuffix::FamilySpecific));
  FatbinImage lto;
  lto.kind = ImageKind::LtoIr;
  lto.arch = {80, ArchSuffix::None};
  lto.payload = std::string("\xed\x43\x4e\x7f\x01\x41\x02\x62", 8);
  lto.versionMajor = 1;
  lto.versionMinor = 65;
  lto.options = "-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 ";
  images.push_back(lto);
  // -reloc-ptx's entry: a unit's PTX named by its module id.
  images.push_back(ptxImage(90, ".version 9.0\n.target sm_90\n"));
  images.back().kind = ImageKind::RelocatablePtx;
  images.back().ident = "_3e704af7_4_h_cu_bfad4959";
  images.back().options = "--compile-only  ";

  Bytes out = writeFatbin(images);
  FatbinReadResult result = read(out);
  ASSERT_TRUE(result) << result.error;
  ASSERT_EQ(result.images.size(), images.size());
  for (std::size_t i = 0; i < images.size(); ++i) {
    const FatbinImage &in = images[i], &back = result.images[i];
    SCOPED_TRACE("image " + std::to_string(i));
    EXPECT_EQ(back.kind, in.kind);
    EXPECT_EQ(back.arch, in.arch);
    EXPECT_EQ(back.payload, in.payload);
    EXPECT_EQ(back.ident, in.ident);
    EXPECT_EQ(back.debug, in.debug);
    EXPECT_EQ(back.compression, FatbinImage::Compression::None);
    EXPECT_EQ(back.storedSize,
              roundUp8(in.payload.size() + (in.kind == ImageKind::Ptx)));
    if (in.kind != ImageKind::Elf) {
      EXPECT_EQ(back.options, in.options);
    }
  }
  EXPECT_EQ(result.images[0].versionMajor, 1);
  EXPECT_EQ(result.images[0].versionMinor, 8);
  EXPECT_EQ(result.images[1].flags, 0x100013u);
  EXPECT_EQ(result.images[2].flags, 0x1200011u);
  // The .nv.compat copy comes back whole: the leading NUL, then the section
  // (one byte more than the recorded length).
  EXPECT_EQ(result.images[2].options, std::string(1, '\0') + kCompat);
  EXPECT_EQ(result.images[3].versionMajor, 9);
  EXPECT_EQ(result.images[3].versionMinor, 0);
  EXPECT_EQ(result.images[5].versionMinor, 65);

  // Writing what was read gives the same bytes.
  EXPECT_EQ(writeFatbin(result.images), out);
}

TEST(FatbinRoundTrip, ContainerSize) {
  Bytes first = writeFatbin({ptxImage(80, kPtx80)});
  Bytes second = writeFatbin({elfImage(90, makeCubin(8, {}))});
  Bytes both = first;
  both.insert(both.end(), second.begin(), second.end());
  EXPECT_EQ(fatbinContainerSize(both.data(), both.size()), first.size());
  EXPECT_EQ(fatbinContainerSize(both.data() + first.size(), second.size()),
            second.size());
  // The reader reads the first container only, like the CUDA runtime.
  FatbinReadResult result = read(both);
  ASSERT_TRUE(result) << result.error;
  ASSERT_EQ(result.images.size(), 1u);
  EXPECT_EQ(result.images[0].kind, ImageKind::Ptx);

  EXPECT_EQ(fatbinContainerSize(first.data(), first.size() - 1), 0u);
  EXPECT_EQ(fatbinContainerSize(first.data(), 15), 0u);
  EXPECT_EQ(fatbinContainerSize(nullptr, 0), 0u);
  Bytes badMagic = first;
  badMagic[0] ^= 1;
  EXPECT_EQ(fatbinContainerSize(badMagic.data(), badMagic.size()), 0u);
}

// --- Reader validation ---

namespace {

// A valid container of two entries (ELF at 0x10, PTX after it) to corrupt.
Bytes sample() {
  return writeFatbin({elfImage(80, makeCubin(8, {{".text.k", "abc"}})),
                      ptxImage(80, kPtx80)});
}

std::string readError(const Bytes &bytes) {
  FatbinReadResult result = read(bytes);
  EXPECT_TRUE(result.images.empty() || result) << "images left on error";
  return result.error;
}

} // namespace

TEST(FatbinReader, RejectsBadContainerHeaders) {
  EXPECT_NE(readFatbin(nullptr, 0).error, "");
  EXPECT_NE(readError(Bytes(8, 0)), "");
  EXPECT_NE(readError(Bytes(64, 0)), "");

  Bytes bytes = sample();
  Bytes magic = bytes;
  magic[3] = 0xBB;
  EXPECT_NE(readError(magic).find("magic"), std::string::npos);

  Bytes version = bytes;
  put(version, 4, 2, 2);
  EXPECT_NE(readError(version).find("version"), std::string::npos);

  for (uint64_t headerSize : {0, 8, 12, 17}) {
    Bytes header = bytes;
    put(header, 6, headerSize, 2);
    EXPECT_NE(readError(header), "") << headerSize;
  }
  for (uint64_t fatSize : {uint64_t(bytes.size()), ~uint64_t(0),
                           ~uint64_t(0) - 15}) {
    Bytes size = bytes;
    put(size, 8, fatSize, 8);
    EXPECT_NE(readError(size).find("past the end"), std::string::npos)
        << fatSize;
  }
}

TEST(FatbinReader, RejectsBadEntryHeaders) {
  Bytes bytes = sample();
  const std::size_t entry = 0x10;
  auto corrupt = [&](std::size_t offset, uint64_t value, unsigned width) {
    Bytes copy = bytes;
    put(copy, entry + offset, value, width);
    return readError(copy);
  };
  // A zero header size never advances: it must be an error, not a loop.
  EXPECT_NE(corrupt(0x04, 0, 4).find("header size 0"), std::string::npos);
  EXPECT_NE(corrupt(0x04, 56, 4), "");
  EXPECT_NE(corrupt(0x04, 0x44, 4), "");        // not a multiple of 8
  EXPECT_NE(corrupt(0x04, 0x7FFFFFF8, 4), "");  // past the end
  EXPECT_NE(corrupt(0x02, 0x0102, 2).find("version"), std::string::npos);
  EXPECT_NE(corrupt(0x00, 4, 2).find("kind"), std::string::npos);
  EXPECT_NE(corrupt(0x00, 0, 2).find("kind"), std::string::npos);
  EXPECT_NE(corrupt(0x1C, 0, 4), "");           // no architecture
  EXPECT_NE(corrupt(0x08, bytes.size(), 8).find("past the end"),
            std::string::npos);
  EXPECT_NE(corrupt(0x08, ~uint64_t(7), 8), ""); // would wrap around
  EXPECT_NE(corrupt(0x28, 0x300011, 8), "");    // both `a` and `f`
  EXPECT_NE(corrupt(0x28, 0xA011, 8), "");      // both LZ4 and zstd
  EXPECT_NE(corrupt(0x24, 1, 4), "");           // ident at offset 0
  Bytes ident = bytes;                          // ident past the 0x40 header
  put(ident, entry + 0x20, 0x40, 4);
  put(ident, entry + 0x24, 4, 4);
  EXPECT_NE(readError(ident).find("identifier"), std::string::npos);
  EXPECT_NE(corrupt(0x14, 0x40, 4), "");        // options outside the header
  EXPECT_NE(corrupt(0x14, 0x3C, 4), "");

  // An all-zero entry header, as in the reference's hang experiment.
  Bytes zero = bytes;
  std::fill(zero.begin() + entry, zero.begin() + entry + 64, 0);
  EXPECT_NE(readError(zero), "");

  // The PTX entry's options block pointing past its header.
  std::size_t ptx = entry + 0x40 + u64(bytes, entry + 0x08);
  Bytes options = bytes;
  put(options, ptx + 0x40, 0x100, 4);
  put(options, ptx + 0x44, 4, 4);
  EXPECT_NE(readError(options).find("options"), std::string::npos);
  put(options, ptx + 0x40, 0x48, 4);
  put(options, ptx + 0x44, 9, 4);
  EXPECT_NE(readError(options).find("options"), std::string::npos);
}

TEST(FatbinReader, PayloadsCanBeLeftOut) {
  // The runtime selects from the headers alone, then reads one payload.
  Bytes bytes = sample();
  FatbinReadResult all = read(bytes);
  ASSERT_TRUE(all) << all.error;
  ASSERT_EQ(all.images.size(), 2u);
  FatbinReadOptions options;
  options.payloads = FatbinReadOptions::Payloads::None;
  FatbinReadResult headers = readFatbin(bytes.data(), bytes.size(), options);
  ASSERT_TRUE(headers) << headers.error;
  ASSERT_EQ(headers.images.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(headers.images[i].kind, all.images[i].kind);
    EXPECT_EQ(headers.images[i].arch.sm, all.images[i].arch.sm);
    EXPECT_EQ(headers.images[i].versionMajor, all.images[i].versionMajor);
    EXPECT_EQ(headers.images[i].options, all.images[i].options);
    EXPECT_EQ(headers.images[i].storedSize, all.images[i].storedSize);
    EXPECT_TRUE(headers.images[i].payload.empty());
  }
  options.payloads = FatbinReadOptions::Payloads::One;
  options.payloadIndex = 1;
  FatbinReadResult one = readFatbin(bytes.data(), bytes.size(), options);
  ASSERT_TRUE(one) << one.error;
  EXPECT_TRUE(one.images[0].payload.empty());
  EXPECT_EQ(one.images[1].payload, all.images[1].payload);
  // Leaving the payloads out checks every header all the same.
  options.payloads = FatbinReadOptions::Payloads::None;
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    Bytes cut(bytes.begin(), bytes.begin() + size);
    EXPECT_NE(readFatbin(cut.data(), cut.size(), options).error, "") << size;
  }
}

TEST(FatbinReader, RejectsEveryTruncation) {
  Bytes bytes = sample();
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    Bytes cut(bytes.begin(), bytes.begin() + size);
    EXPECT_NE(readError(cut), "") << size;
    // Also with a container header that claims only what is there.
    if (size >= 16) {
      put(cut, 8, size - 16, 8);
      FatbinReadResult result = read(cut);
      EXPECT_TRUE(!result || result.images.size() < 2) << size;
    }
  }
}

// Any single corrupted byte must give a result or an error, never a crash or
// a read outside the buffer (run under a sanitizer to see the latter).
TEST(FatbinReader, SurvivesEverySingleByteCorruption) {
  Bytes bytes = sample();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t value : {0x00, 0x01, 0x07, 0x80, 0xFF}) {
      Bytes copy = bytes;
      copy[i] = value;
      FatbinReadResult result = read(copy);
      if (!result) {
        EXPECT_TRUE(result.images.empty());
      }
    }
  }
}

TEST(FatbinReader, CompressedEntriesAreLeftAsStored) {
  // Patch a PTX entry into the reference's zstd example: 0x1DB stream bytes
  // in a 0x1E0 payload, 0x456 bytes once decoded, flags 0x8011.
  std::string stream(0x1DB, '\x5c');
  stream[0] = '\x28';
  Bytes bytes = writeFatbin({ptxImage(80, stream)});
  const std::size_t entry = 0x10;
  ASSERT_EQ(u64(bytes, entry + 0x08), 0x1E0u);
  put(bytes, entry + 0x10, 0x1DB, 4);
  put(bytes, entry + 0x28, 0x8011, 8);
  put(bytes, entry + 0x38, 0x456, 8);
  FatbinReadResult zstd = read(bytes);
  ASSERT_TRUE(zstd) << zstd.error;
  ASSERT_EQ(zstd.images.size(), 1u);
  EXPECT_EQ(zstd.images[0].compression, FatbinImage::Compression::Zstd);
  EXPECT_EQ(zstd.images[0].payload, stream);
  EXPECT_EQ(zstd.images[0].storedSize, 0x1E0u);
  EXPECT_EQ(zstd.images[0].uncompressedSize, 0x456u);

  put(bytes, entry + 0x28, 0x2011, 8);
  FatbinReadResult lz4 = read(bytes);
  ASSERT_TRUE(lz4) << lz4.error;
  EXPECT_EQ(lz4.images[0].compression, FatbinImage::Compression::Lz4);
  EXPECT_EQ(lz4.images[0].payload, stream);

  put(bytes, entry + 0x10, 0x1E1, 4); // longer than the payload area
  EXPECT_NE(readError(bytes), "");
  put(bytes, entry + 0x10, 0, 4);     // compressed, but no size
  EXPECT_NE(readError(bytes), "");
}

TEST(FatbinWriter, CompressesWhenAsked) {
  if (!fatbinCanCompress())
    GTEST_SKIP() << "built without the compression libraries";
  std::string cubin =
      makeCubin(8, {{".text.k", std::string(600, 'k')}, {".nv.compat", kCompat}});
  std::string ptx = std::string(kPtx80) + std::string(900, ' ') + "\n";
  for (auto scheme :
       {FatbinImage::Compression::Zstd, FatbinImage::Compression::Lz4}) {
    SCOPED_TRACE(scheme == FatbinImage::Compression::Zstd ? "zstd" : "lz4");
    FatbinImage elf = elfImage(100, cubin, ArchSuffix::FamilySpecific);
    FatbinImage code = ptxImage(80, ptx);
    code.options = "-O3";
    for (FatbinImage *image : {&elf, &code}) {
      image->compressAs = scheme;
      image->compressLevel = 5;
    }
    Bytes out = writeFatbin({elf, code});
    const std::size_t entry = 0x10;
    uint64_t flag = scheme == FatbinImage::Compression::Zstd ? 0x8000 : 0x2000;
    // The compat copy and the versions come from the plain cubin.
    EXPECT_EQ(u64(out, entry + 0x28), 0x1200011u | flag);
    EXPECT_EQ(text(out, entry + 0x48, 37), std::string(1, '\0') + kCompat);
    EXPECT_EQ(u16(out, entry + 0x1A), 1u);
    EXPECT_EQ(u16(out, entry + 0x18), 8u);
    EXPECT_EQ(u64(out, entry + 0x38), cubin.size());
    EXPECT_LT(u32(out, entry + 0x10), cubin.size());

    FatbinReadResult stored = read(out);
    ASSERT_TRUE(stored) << stored.error;
    ASSERT_EQ(stored.images.size(), 2u);
    EXPECT_EQ(stored.images[0].compression, scheme);
    EXPECT_EQ(stored.images[1].compression, scheme);
    // PTX: its NUL is part of the compressed bytes.
    EXPECT_EQ(stored.images[1].uncompressedSize, ptx.size() + 1);
    EXPECT_EQ(stored.images[1].versionMajor, 9u);
    EXPECT_EQ(stored.images[1].options, "-O3");

    FatbinReadOptions decode;
    decode.decompress = true;
    FatbinReadResult plain = readFatbin(out.data(), out.size(), decode);
    ASSERT_TRUE(plain) << plain.error;
    EXPECT_EQ(plain.images[0].payload, cubin);
    EXPECT_EQ(plain.images[1].payload, ptx);

    // Written back undecoded: the same entries, byte for byte.
    EXPECT_EQ(writeFatbin(stored.images), out);
  }
}

// CUDA 11/12 wrote an empty PTX options block as (offset 0, length 0) in a
// 0x48-byte header.
TEST(FatbinReader, AcceptsOlderEmptyOptionsBlock) {
  Bytes bytes = writeFatbin({ptxImage(80, kPtx80)});
  const std::size_t entry = 0x10;
  // Drop the 8 NUL bytes of the string: header 0x50 -> 0x48.
  bytes.erase(bytes.begin() + entry + 0x48, bytes.begin() + entry + 0x50);
  put(bytes, 8, bytes.size() - 16, 8);
  put(bytes, entry + 0x04, 0x48, 4);
  put(bytes, entry + 0x40, 0, 4);
  FatbinReadResult result = read(bytes);
  ASSERT_TRUE(result) << result.error;
  ASSERT_EQ(result.images.size(), 1u);
  EXPECT_EQ(result.images[0].payload, kPtx80);
  EXPECT_EQ(result.images[0].options, "");
}

TEST(FatbinReader, KeepsPaddingOfUnsizableElf) {
  // Not an ELF file: the padded bytes come back, since the true size is
  // unknown.
  Bytes bytes = writeFatbin({elfImage(80, "not elf")});
  FatbinReadResult result = read(bytes);
  ASSERT_TRUE(result) << result.error;
  EXPECT_EQ(result.images[0].payload, std::string("not elf\0", 8));
  EXPECT_EQ(result.images[0].versionMajor, 1);
  EXPECT_EQ(result.images[0].versionMinor, 0);
}

// --- Agreement with NVIDIA's fatbinary ---

namespace {

// A CUDA tool from $CUDA_PATH/bin, the PATH, or the default install prefix;
// empty if none.
fs::path findCudaTool(const std::string &name) {
  std::vector<fs::path> dirs;
  if (const char *cudaPath = std::getenv("CUDA_PATH"))
    dirs.push_back(fs::path(cudaPath) / "bin");
  if (const char *path = std::getenv("PATH")) {
    std::stringstream entries(path);
    for (std::string dir; std::getline(entries, dir, ':');)
      if (!dir.empty())
        dirs.push_back(dir);
  }
  dirs.push_back("/usr/local/cuda/bin");
  for (const fs::path &dir : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(dir / name, ec))
      return dir / name;
  }
  return {};
}

std::string slurp(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spill(const fs::path &path, const std::string &contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

bool run(const std::string &command) {
  int status = std::system((command + " >/dev/null 2>&1").c_str());
  EXPECT_EQ(status, 0) << command;
  return status == 0;
}

std::string quoted(const fs::path &path) { return "'" + path.string() + "'"; }

class FatbinaryTool : public ::testing::Test {
protected:
  void SetUp() override {
    fatbinary = findCudaTool("fatbinary");
    ptxas = findCudaTool("ptxas");
    if (fatbinary.empty() || ptxas.empty())
      GTEST_SKIP() << "fatbinary/ptxas not found";
    std::string pattern =
        (fs::temp_directory_path() / "mycc-fatbin-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;

    spill(dir / "k80.ptx", kPtx80);
    std::string ptx90a = kPtx80;
    ptx90a.replace(ptx90a.find("sm_80"), 5, "sm_90a");
    spill(dir / "k90a.ptx", ptx90a);
    ASSERT_TRUE(run(quoted(ptxas) + " -arch=sm_80 -o " +
                    quoted(dir / "k80.cubin") + " " + quoted(dir / "k80.ptx")));
    ASSERT_TRUE(run(quoted(ptxas) + " -arch=sm_100f -o " +
                    quoted(dir / "k100f.cubin") + " " +
                    quoted(dir / "k80.ptx")));
  }
  void TearDown() override {
    if (!dir.empty())
      fs::remove_all(dir);
  }

  // Runs fatbinary on the four images below with `options`.
  Bytes fatbinaryOutput(const std::string &options) {
    fs::path out = dir / "out.fatbin";
    fs::remove(out);
    run(quoted(fatbinary) + " -64 " + options + " --create=" + quoted(out) +
        " --image3=kind=elf,sm=80,file=" + quoted(dir / "k80.cubin") +
        " --image3=kind=ptx,sm=80,file=" + quoted(dir / "k80.ptx") +
        " --image3=kind=elf,sm=100f,file=" + quoted(dir / "k100f.cubin") +
        " --image3=kind=ptx,sm=90a,file=" + quoted(dir / "k90a.ptx"));
    std::string bytes = slurp(out);
    return Bytes(bytes.begin(), bytes.end());
  }

  std::vector<FatbinImage> sameImages() {
    return {elfImage(80, slurp(dir / "k80.cubin")),
            ptxImage(80, slurp(dir / "k80.ptx")),
            elfImage(100, slurp(dir / "k100f.cubin"), ArchSuffix::FamilySpecific),
            ptxImage(90, slurp(dir / "k90a.ptx"), ArchSuffix::ArchSpecific)};
  }

  fs::path fatbinary, ptxas, dir;
};

} // namespace

TEST_F(FatbinaryTool, WriterMatchesFatbinaryByteForByte) {
  Bytes theirs = fatbinaryOutput("--compress=false");
  ASSERT_FALSE(theirs.empty());
  EXPECT_EQ(writeFatbin(sameImages()), theirs);
}

TEST_F(FatbinaryTool, ReaderAgreesWithFatbinary) {
  Bytes theirs = fatbinaryOutput("--compress=false");
  FatbinReadResult result = read(theirs);
  ASSERT_TRUE(result) << result.error;
  std::vector<FatbinImage> expected = sameImages();
  ASSERT_EQ(result.images.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE("image " + std::to_string(i));
    EXPECT_EQ(result.images[i].kind, expected[i].kind);
    EXPECT_EQ(result.images[i].arch, expected[i].arch);
    EXPECT_EQ(result.images[i].payload, expected[i].payload);
    EXPECT_EQ(result.images[i].compression, FatbinImage::Compression::None);
  }
  EXPECT_EQ(result.images[0].versionMajor, 1);
  EXPECT_EQ(result.images[0].versionMinor,
            uint8_t(expected[0].payload.at(8))); // EI_ABIVERSION
  EXPECT_EQ(result.images[1].versionMajor, 9);
  EXPECT_EQ(result.images[1].versionMinor, 0);
  EXPECT_EQ(result.images[2].flags, 0x1200011u);
  EXPECT_EQ(result.images[3].flags, 0x100011u);
}

// fatbinary's default: the PTX zstd-compressed (level 5 gives its sizes),
// the cubins as they are. The streams may differ; every field around them
// and the decoded payloads agree.
TEST_F(FatbinaryTool, CompressedPtxAsFatbinaryWritesIt) {
  if (!fatbinCanCompress())
    GTEST_SKIP() << "built without the compression libraries";
  FatbinReadOptions decode;
  decode.decompress = true;
  Bytes theirsBytes = fatbinaryOutput("");
  FatbinReadResult theirs =
      readFatbin(theirsBytes.data(), theirsBytes.size(), decode);
  ASSERT_TRUE(theirs) << theirs.error;
  std::vector<FatbinImage> images = sameImages();
  for (FatbinImage &image : images)
    if (image.kind == ImageKind::Ptx) {
      image.compressAs = FatbinImage::Compression::Zstd;
      image.compressLevel = 5;
    }
  Bytes oursBytes = writeFatbin(images);
  FatbinReadResult ours =
      readFatbin(oursBytes.data(), oursBytes.size(), decode);
  ASSERT_TRUE(ours) << ours.error;
  ASSERT_EQ(ours.images.size(), theirs.images.size());
  for (std::size_t i = 0; i < ours.images.size(); ++i) {
    SCOPED_TRACE("image " + std::to_string(i));
    EXPECT_EQ(ours.images[i].flags, theirs.images[i].flags);
    EXPECT_EQ(ours.images[i].compression, theirs.images[i].compression);
    EXPECT_EQ(ours.images[i].uncompressedSize, theirs.images[i].uncompressedSize);
    EXPECT_EQ(ours.images[i].versionMajor, theirs.images[i].versionMajor);
    EXPECT_EQ(ours.images[i].versionMinor, theirs.images[i].versionMinor);
    EXPECT_EQ(ours.images[i].payload, theirs.images[i].payload);
  }
}

TEST_F(FatbinaryTool, ReaderSeesCompressedEntries) {
  for (auto [options, compression, magic] :
       {std::tuple{"", FatbinImage::Compression::Zstd,
                   std::string("\x28\xb5\x2f\xfd")},
        std::tuple{"--compress-mode=speed", FatbinImage::Compression::Lz4,
                   std::string()}}) {
    SCOPED_TRACE(options);
    FatbinReadResult result = read(fatbinaryOutput(options));
    ASSERT_TRUE(result) << result.error;
    ASSERT_EQ(result.images.size(), 4u);
    // By default fatbinary compresses PTX, not (non-debug) ELF.
    EXPECT_EQ(result.images[0].compression, FatbinImage::Compression::None);
    const FatbinImage &ptx = result.images[1];
    EXPECT_EQ(ptx.compression, compression);
    EXPECT_EQ(ptx.uncompressedSize, sizeof kPtx80); // with its NUL
    EXPECT_LE(ptx.payload.size(), ptx.storedSize);
    EXPECT_EQ(ptx.payload.substr(0, magic.size()), magic);
  }
}
