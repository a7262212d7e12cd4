#include "Fatbin.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string_view>
#include <tuple>

// The myccFatbin library (driver, tools) links the compression libraries and
// sets MYCC_FATBIN_DECOMPRESS; the runtime compiles this file with
// MYCC_FATBIN_DLOPEN_CODECS instead (decoding only, through the system's
// shared libraries, loaded when first needed).
#ifdef MYCC_FATBIN_DECOMPRESS
#include <lz4.h>
#include <zstd.h>
#elif defined(MYCC_FATBIN_DLOPEN_CODECS)
#include <dlfcn.h>
#endif

namespace mycc {
namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint16_t kContainerVersion = 1;
constexpr uint16_t kContainerHeaderSize = 16;
constexpr uint16_t kEntryVersion = 0x0101;
constexpr uint32_t kEntryFixedSize = 64;

// Entry flags (docs/fatbin.md).
constexpr uint64_t kFlag64Bit = 0x1;
constexpr uint64_t kFlagDebug = 0x2;
constexpr uint64_t kFlagHostLinux = 0x10;
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
// Set by nvcc on LTO-IR entries, whose payload is then no plain LZ4 block or
// zstd frame (a zstd-flagged one lacks the frame magic): left as stored.
constexpr uint64_t kFlagEncodedIr = 0x10000;
constexpr uint64_t kFlagArchSpecific = 0x100000;
constexpr uint64_t kFlagFamilySpecific = 0x200000;
constexpr uint64_t kFlagCompatCopy = 0x1000000;

// Offsets inside the fixed 64-byte entry header.
enum EntryField : uint32_t {
  kKind = 0x00,
  kVersion = 0x02,
  kHeaderSize = 0x04,
  kPayloadSize = 0x08,
  kCompressedSize = 0x10,
  kOptionsOffset = 0x14,
  kMinorVersion = 0x18,
  kMajorVersion = 0x1A,
  kArch = 0x1C,
  kIdentOffset = 0x20,
  kIdentLength = 0x24,
  kFlags = 0x28,
  kUncompressedSize = 0x38,
};

uint64_t roundUp8(uint64_t n) { return (n + 7) & ~uint64_t(7); }

// Little-endian accessors, independent of the host's byte order.
uint64_t load(const uint8_t *p, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i)
    value |= uint64_t(p[i]) << (8 * i);
  return value;
}
uint16_t load16(const uint8_t *p) { return uint16_t(load(p, 2)); }
uint32_t load32(const uint8_t *p) { return uint32_t(load(p, 4)); }
uint64_t load64(const uint8_t *p) { return load(p, 8); }

void store(std::vector<uint8_t> &out, std::size_t at, uint64_t value,
           unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out[at + i] = uint8_t(value >> (8 * i));
}

// True when [offset, offset + length) lies inside [0, size).
bool inBounds(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

// --- Just enough ELF64 to size a cubin and find one of its sections. ---

bool isElf64(const uint8_t *data, std::size_t size) {
  return size >= 64 && std::memcmp(data, "\x7f" "ELF", 4) == 0 &&
         data[4] == 2 /* ELFCLASS64 */ && data[5] == 1 /* little endian */;
}

struct ElfTables {
  uint64_t shoff = 0, shentsize = 0, shnum = 0, shstrndx = 0;
  uint64_t phoff = 0, phentsize = 0, phnum = 0;
};

// The section and program header tables, if both lie inside the file.
std::optional<ElfTables> elfTables(const uint8_t *data, std::size_t size) {
  if (!isElf64(data, size))
    return std::nullopt;
  ElfTables t;
  t.phoff = load64(data + 0x20);
  t.shoff = load64(data + 0x28);
  t.phentsize = load16(data + 0x36);
  t.phnum = load16(data + 0x38);
  t.shentsize = load16(data + 0x3A);
  t.shnum = load16(data + 0x3C);
  t.shstrndx = load16(data + 0x3E);
  if ((t.shnum && t.shentsize < 64) || (t.phnum && t.phentsize < 56) ||
      !inBounds(t.shoff, t.shnum * t.shentsize, size) ||
      !inBounds(t.phoff, t.phnum * t.phentsize, size))
    return std::nullopt;
  return t;
}

// The byte size of the ELF file at the start of `data` (its tables and the
// contents of its sections), or 0 if that cannot be told. The container does
// not record the unpadded size of an uncompressed entry; this recovers it.
uint64_t elfFileSize(const uint8_t *data, std::size_t size) {
  std::optional<ElfTables> t = elfTables(data, size);
  if (!t || (t->shnum == 0 && t->phnum == 0))
    return 0;
  uint64_t end = std::max<uint64_t>({64, t->shoff + t->shnum * t->shentsize,
                                     t->phoff + t->phnum * t->phentsize});
  for (uint64_t i = 0; i < t->shnum; ++i) {
    const uint8_t *sh = data + t->shoff + i * t->shentsize;
    constexpr uint32_t kNoBits = 8;
    uint64_t offset = load64(sh + 24), length = load64(sh + 32);
    if (load32(sh + 4) == kNoBits)
      continue;
    if (!inBounds(offset, length, size))
      return 0;
    end = std::max(end, offset + length);
  }
  return end;
}

std::optional<std::string> elfSection(const std::string &file,
                                      std::string_view name) {
  auto *data = reinterpret_cast<const uint8_t *>(file.data());
  std::optional<ElfTables> t = elfTables(data, file.size());
  if (!t || t->shstrndx >= t->shnum)
    return std::nullopt;
  auto header = [&](uint64_t i) { return data + t->shoff + i * t->shentsize; };
  uint64_t namesOffset = load64(header(t->shstrndx) + 24);
  uint64_t namesSize = load64(header(t->shstrndx) + 32);
  if (!inBounds(namesOffset, namesSize, file.size()))
    return std::nullopt;
  for (uint64_t i = 0; i < t->shnum; ++i) {
    const uint8_t *sh = header(i);
    uint64_t nameAt = load32(sh);
    if (!inBounds(nameAt, name.size() + 1, namesSize) ||
        std::memcmp(data + namesOffset + nameAt, name.data(), name.size()) ||
        data[namesOffset + nameAt + name.size()] != 0)
      continue;
    uint64_t offset = load64(sh + 24), length = load64(sh + 32);
    if (!inBounds(offset, length, file.size()))
      return std::nullopt;
    return file.substr(offset, length);
  }
  return std::nullopt;
}

// --- Writer ---

// The ISA version of the `.version X.Y` directive, as {major, minor}.
std::optional<std::pair<uint16_t, uint16_t>> ptxIsaVersion(
    std::string_view ptx) {
  constexpr std::string_view directive = ".version";
  while (!ptx.empty()) {
    std::size_t eol = ptx.find('\n');
    std::string_view line = ptx.substr(0, eol);
    ptx = eol == std::string_view::npos ? std::string_view() : ptx.substr(eol + 1);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (line.substr(0, directive.size()) != directive)
      continue;
    line.remove_prefix(directive.size());
    unsigned major = 0, minor = 0;
    char dot = 0;
    std::string text(line);
    if (std::sscanf(text.c_str(), " %u%c%u", &major, &dot, &minor) == 3 &&
        dot == '.' && major <= 0xFFFF && minor <= 0xFFFF)
      return std::make_pair(uint16_t(major), uint16_t(minor));
    return std::nullopt;
  }
  return std::nullopt;
}

// A string in the variable part of an entry header: its bytes, then zeros so
// that the string plus at least one NUL fills a multiple of 8 bytes.
void appendPadded(std::vector<uint8_t> &header, const std::string &bytes,
                  uint64_t recordedLength) {
  std::size_t at = header.size();
  header.resize(at + roundUp8(recordedLength + 1), 0);
  std::memcpy(header.data() + at, bytes.data(), bytes.size());
}

// An options block: u32 offset of the string (from the entry start), u32 its
// recorded length, then the padded string.
void appendOptionsBlock(std::vector<uint8_t> &header, const std::string &bytes,
                        uint64_t recordedLength) {
  std::size_t at = header.size();
  header.resize(at + 8);
  store(header, at, at + 8, 4);
  store(header, at + 4, recordedLength, 4);
  appendPadded(header, bytes, recordedLength);
}

// The payload as a compressed stream, or nullopt where this build cannot
// compress (or the library fails, which leaves the entry plain).
std::optional<std::string> compressPayload(const std::string &payload,
                                           FatbinImage::Compression scheme,
                                           int level) {
#ifdef MYCC_FATBIN_DECOMPRESS
  std::string stream;
  if (scheme == FatbinImage::Compression::Zstd) {
    stream.resize(ZSTD_compressBound(payload.size()));
    // ZSTD_compress writes a single-segment frame with its content size and
    // no checksum: what nvcc's fatbinary writes.
    std::size_t n = ZSTD_compress(stream.data(), stream.size(), payload.data(),
                                  payload.size(), level);
    if (ZSTD_isError(n))
      return std::nullopt;
    stream.resize(n);
    return stream;
  }
  if (scheme == FatbinImage::Compression::Lz4 && payload.size() < INT_MAX) {
    stream.resize(LZ4_compressBound(int(payload.size())));
    int n = LZ4_compress_default(payload.data(), stream.data(),
                                 int(payload.size()), int(stream.size()));
    if (n <= 0)
      return std::nullopt;
    stream.resize(n);
    return stream;
  }
#else
  (void)payload, (void)scheme, (void)level;
#endif
  return std::nullopt;
}

void appendEntry(std::vector<uint8_t> &out, const FatbinImage &image) {
  std::string payload = image.payload;
  uint16_t major = image.versionMajor, minor = image.versionMinor;
  bool deriveVersion = major == 0 && minor == 0;
  // An entry read compressed and not decoded goes back as stored.
  const bool stored = image.compression != FatbinImage::Compression::None &&
                      !image.decompressed;
  uint64_t flags = kFlag64Bit | kFlagHostLinux;
  if (image.debug)
    flags |= kFlagDebug;
  if (image.arch.suffix == ArchSuffix::ArchSpecific)
    flags |= kFlagArchSpecific;
  else if (image.arch.suffix == ArchSuffix::FamilySpecific)
    flags |= kFlagFamilySpecific;

  std::vector<uint8_t> header(kEntryFixedSize, 0);
  if (!image.ident.empty()) {
    store(header, kIdentOffset, header.size(), 4);
    store(header, kIdentLength, image.ident.size(), 4);
    appendPadded(header, image.ident, image.ident.size());
  }

  switch (image.kind) {
  case ImageKind::Ptx:
  case ImageKind::RelocatablePtx:
    if (deriveVersion && !stored) {
      if (auto isa = ptxIsaVersion(payload))
        std::tie(major, minor) = *isa;
    }
    // The driver reads PTX as a C string.
    if (!stored)
      payload.push_back('\0');
    [[fallthrough]];
  case ImageKind::LtoIr:
    // A PTX entry needs the block even when empty: without it the CUDA 13
    // runtime crashes. nvcc writes one for LTO-IR and relocatable PTX too.
    store(header, kOptionsOffset, header.size(), 4);
    appendOptionsBlock(header, image.options, image.options.size());
    break;
  case ImageKind::Elf: {
    if (stored) {
      // The compat copy as read (its leading NUL, then the section).
      if ((image.flags & kFlagCompatCopy) && !image.options.empty()) {
        store(header, kOptionsOffset, header.size(), 4);
        appendOptionsBlock(header, image.options, image.options.size() - 1);
        flags |= kFlagCompatCopy;
      }
      break;
    }
    auto *data = reinterpret_cast<const uint8_t *>(payload.data());
    if (deriveVersion) {
      major = 1;
      if (isElf64(data, payload.size()))
        minor = data[8]; // EI_ABIVERSION
    }
    // nvcc copies .nv.compat of sm >= 100 cubins into the options block,
    // after one extra leading NUL, and marks the entry.
    if (image.arch.sm >= 100) {
      if (auto compat = elfSection(payload, ".nv.compat")) {
        store(header, kOptionsOffset, header.size(), 4);
        appendOptionsBlock(header, std::string(1, '\0') + *compat,
                           compat->size());
        flags |= kFlagCompatCopy;
      }
    }
    break;
  }
  }

  // Compressed: the stream's exact size and the plain payload's (the PTX's
  // terminating NUL included) are recorded beside the padded size.
  FatbinImage::Compression scheme = FatbinImage::Compression::None;
  uint64_t plainSize = 0;
  if (stored) {
    scheme = image.compression;
    plainSize = image.uncompressedSize;
  } else if (image.compressAs != FatbinImage::Compression::None) {
    if (std::optional<std::string> stream =
            compressPayload(payload, image.compressAs, image.compressLevel)) {
      scheme = image.compressAs;
      plainSize = payload.size();
      payload = std::move(*stream);
    }
  }
  if (scheme != FatbinImage::Compression::None) {
    flags |= scheme == FatbinImage::Compression::Lz4 ? kFlagLz4 : kFlagZstd;
    store(header, kCompressedSize, payload.size(), 4);
    store(header, kUncompressedSize, plainSize, 8);
  }

  store(header, kKind, uint16_t(image.kind), 2);
  store(header, kVersion, kEntryVersion, 2);
  store(header, kHeaderSize, header.size(), 4);
  store(header, kPayloadSize, roundUp8(payload.size()), 8);
  store(header, kMinorVersion, minor, 2);
  store(header, kMajorVersion, major, 2);
  store(header, kArch, image.arch.sm, 4);
  store(header, kFlags, flags, 8);

  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), payload.begin(), payload.end());
  out.resize(roundUp8(out.size()), 0);
}

// --- Reader ---

std::string hexText(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", (unsigned long long)value);
  return text;
}

struct ContainerHeader {
  uint16_t headerSize = 0;
  uint64_t fatSize = 0;
};

std::optional<ContainerHeader> readContainerHeader(const uint8_t *data,
                                                   std::size_t size,
                                                   std::string &error) {
  if (!data || size < kContainerHeaderSize) {
    error = "too small for a fat binary header (" + std::to_string(size) +
            " bytes)";
    return std::nullopt;
  }
  if (load32(data) != kFatbinMagic) {
    error = "bad magic (not a fat binary)";
    return std::nullopt;
  }
  ContainerHeader header;
  uint16_t version = load16(data + 4);
  header.headerSize = load16(data + 6);
  header.fatSize = load64(data + 8);
  if (version != kContainerVersion) {
    error = "unsupported container version " + std::to_string(version);
    return std::nullopt;
  }
  if (header.headerSize < kContainerHeaderSize || header.headerSize % 8) {
    error = "bad container header size " + std::to_string(header.headerSize);
    return std::nullopt;
  }
  if (!inBounds(header.headerSize, header.fatSize, size)) {
    error = "container of " + std::to_string(header.fatSize) +
            " bytes runs past the end of the data (" + std::to_string(size) +
            " bytes)";
    return std::nullopt;
  }
  return header;
}

// One string of the variable header part, checked to lie inside it.
bool readHeaderString(const uint8_t *entry, uint32_t headerSize,
                      uint64_t offset, uint64_t length, std::string &out) {
  if (length == 0)
    return true; // older toolkits write (offset 0, length 0) for ""
  if (offset < kEntryFixedSize || !inBounds(offset, length, headerSize))
    return false;
  out.assign(reinterpret_cast<const char *>(entry + offset), length);
  return true;
}

// Reads the entry at `entry`, which has `room` bytes up to the container's
// end, and its payload when `withPayload`. Returns the entry's total size, or
// 0 with `error` set.
uint64_t readEntry(const uint8_t *entry, uint64_t room, bool withPayload,
                   FatbinImage &image, std::string &error) {
  if (room < kEntryFixedSize) {
    error = "truncated entry header";
    return 0;
  }
  uint16_t kind = load16(entry + kKind);
  uint16_t version = load16(entry + kVersion);
  uint32_t headerSize = load32(entry + kHeaderSize);
  uint64_t payloadSize = load64(entry + kPayloadSize);
  uint32_t compressedSize = load32(entry + kCompressedSize);
  uint32_t optionsOffset = load32(entry + kOptionsOffset);
  uint32_t arch = load32(entry + kArch);
  uint64_t flags = load64(entry + kFlags);

  if (version != kEntryVersion) {
    error = "unsupported entry version " + hexText(version);
    return 0;
  }
  // A zero header size would never advance; the CUDA runtime hangs on it.
  if (headerSize < kEntryFixedSize || headerSize % 8) {
    error = "bad entry header size " + std::to_string(headerSize);
    return 0;
  }
  if (!inBounds(headerSize, payloadSize, room)) {
    error = "entry runs past the end of the container";
    return 0;
  }
  if (kind != uint16_t(ImageKind::Ptx) && kind != uint16_t(ImageKind::Elf) &&
      kind != uint16_t(ImageKind::LtoIr) &&
      kind != uint16_t(ImageKind::RelocatablePtx)) {
    error = "unsupported entry kind " + std::to_string(kind);
    return 0;
  }
  if (arch == 0) {
    error = "entry without an architecture";
    return 0;
  }
  if ((flags & kFlagArchSpecific) && (flags & kFlagFamilySpecific)) {
    error = "entry marked both arch- and family-specific";
    return 0;
  }
  if ((flags & kFlagLz4) && (flags & kFlagZstd)) {
    error = "entry marked both LZ4- and zstd-compressed";
    return 0;
  }

  image.kind = ImageKind(kind);
  image.arch.sm = arch;
  image.arch.suffix = (flags & kFlagArchSpecific)     ? ArchSuffix::ArchSpecific
                      : (flags & kFlagFamilySpecific) ? ArchSuffix::FamilySpecific
                                                      : ArchSuffix::None;
  image.versionMajor = load16(entry + kMajorVersion);
  image.versionMinor = load16(entry + kMinorVersion);
  image.debug = flags & kFlagDebug;
  image.flags = flags;
  image.storedSize = payloadSize;

  if (!readHeaderString(entry, headerSize, load32(entry + kIdentOffset),
                        load32(entry + kIdentLength), image.ident)) {
    error = "identifier outside the entry header";
    return 0;
  }
  if (optionsOffset != 0) {
    // A cubin's .nv.compat copy is one NUL longer than its recorded length
    // (appendEntry); it is read whole, so that it can be written back.
    uint64_t extra = kind == uint16_t(ImageKind::Elf) &&
                             (flags & kFlagCompatCopy) &&
                             inBounds(optionsOffset, 8, headerSize) &&
                             load32(entry + optionsOffset + 4) != 0
                         ? 1
                         : 0;
    if (optionsOffset < kEntryFixedSize ||
        !inBounds(optionsOffset, 8, headerSize) ||
        !readHeaderString(entry, headerSize, load32(entry + optionsOffset),
                          load32(entry + optionsOffset + 4) + extra,
                          image.options)) {
      error = "options block outside the entry header";
      return 0;
    }
  }

  const uint8_t *payload = entry + headerSize;
  uint64_t payloadBytes = payloadSize;
  if (flags & (kFlagLz4 | kFlagZstd)) {
    // Left as stored: the exact stream, for a decoder to expand.
    image.compression = (flags & kFlagLz4) ? FatbinImage::Compression::Lz4
                                           : FatbinImage::Compression::Zstd;
    image.uncompressedSize = load64(entry + kUncompressedSize);
    if (compressedSize == 0 || compressedSize > payloadSize) {
      error = "bad compressed size " + std::to_string(compressedSize);
      return 0;
    }
    payloadBytes = compressedSize;
  } else if (!withPayload) {
    // Not a byte of the payload is read.
  } else if (image.kind == ImageKind::Ptx ||
             image.kind == ImageKind::RelocatablePtx) {
    while (payloadBytes && payload[payloadBytes - 1] == 0)
      --payloadBytes; // the NUL terminator and the padding
  } else if (image.kind == ImageKind::Elf) {
    if (uint64_t elfSize = elfFileSize(payload, payloadSize))
      payloadBytes = elfSize; // drop the padding
  }
  if (withPayload)
    image.payload.assign(reinterpret_cast<const char *>(payload), payloadBytes);
  return headerSize + payloadSize;
}

} // namespace

std::vector<uint8_t> writeFatbin(const std::vector<FatbinImage> &images) {
  std::vector<uint8_t> out(kContainerHeaderSize, 0);
  for (const FatbinImage &image : images)
    appendEntry(out, image);
  store(out, 0, kFatbinMagic, 4);
  store(out, 4, kContainerVersion, 2);
  store(out, 6, kContainerHeaderSize, 2);
  store(out, 8, out.size() - kContainerHeaderSize, 8);
  return out;
}

FatbinReadResult readFatbin(const uint8_t *data, std::size_t size) {
  return readFatbin(data, size, FatbinReadOptions());
}

FatbinReadResult readFatbin(const uint8_t *data, std::size_t size,
                            const FatbinReadOptions &options) {
  FatbinReadResult result;
  std::optional<ContainerHeader> container =
      readContainerHeader(data, size, result.error);
  if (!container)
    return result;
  uint64_t offset = container->headerSize;
  uint64_t end = container->headerSize + container->fatSize;
  while (offset < end) {
    FatbinImage image;
    std::size_t index = result.images.size();
    bool withPayload =
        options.payloads == FatbinReadOptions::Payloads::All ||
        (options.payloads == FatbinReadOptions::Payloads::One && index == options.payloadIndex);
    uint64_t entrySize = readEntry(data + offset, end - offset, withPayload,
                                   image, result.error);
    if (entrySize == 0) {
      result.error = "entry " + std::to_string(result.images.size()) +
                     " at offset " + hexText(offset) + ": " + result.error;
      result.images.clear();
      return result;
    }
    if (withPayload && options.decompress && !(image.flags & kFlagEncodedIr) &&
        !decompressImage(image, result.error)) {
      result.error = "entry " + std::to_string(result.images.size()) +
                     " at offset " + hexText(offset) + ": " + result.error;
      result.images.clear();
      return result;
    }
    result.images.push_back(std::move(image));
    offset += entrySize;
  }
  return result;
}

#if defined(MYCC_FATBIN_DECOMPRESS) || defined(MYCC_FATBIN_DLOPEN_CODECS)
#define MYCC_FATBIN_CAN_DECODE 1
namespace {
// The decoders: the linked libraries', or (the runtime's build) those of the
// system's libzstd.so.1 and liblz4.so.1, loaded once, on first use; a
// missing library leaves its functions null.
struct Codecs {
  std::size_t (*zstdDecompress)(void *, std::size_t, const void *,
                                std::size_t) = nullptr;
  unsigned (*zstdIsError)(std::size_t) = nullptr;
  const char *(*zstdErrorName)(std::size_t) = nullptr;
  unsigned long long (*zstdContentSize)(const void *, std::size_t) = nullptr;
  int (*lz4Decompress)(const char *, char *, int, int) = nullptr;

  static const Codecs &get() {
    static const Codecs codecs = load();
    return codecs;
  }
  static Codecs load() {
    Codecs c;
#ifdef MYCC_FATBIN_DECOMPRESS
    c.zstdDecompress = ZSTD_decompress;
    c.zstdIsError = ZSTD_isError;
    c.zstdErrorName = ZSTD_getErrorName;
    c.zstdContentSize = ZSTD_getFrameContentSize;
    c.lz4Decompress = LZ4_decompress_safe;
#else
    if (void *zstd = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL)) {
      c.zstdDecompress = reinterpret_cast<decltype(c.zstdDecompress)>(
          dlsym(zstd, "ZSTD_decompress"));
      c.zstdIsError =
          reinterpret_cast<decltype(c.zstdIsError)>(dlsym(zstd, "ZSTD_isError"));
      c.zstdErrorName = reinterpret_cast<decltype(c.zstdErrorName)>(
          dlsym(zstd, "ZSTD_getErrorName"));
      c.zstdContentSize = reinterpret_cast<decltype(c.zstdContentSize)>(
          dlsym(zstd, "ZSTD_getFrameContentSize"));
      if (!c.zstdIsError || !c.zstdErrorName || !c.zstdContentSize)
        c.zstdDecompress = nullptr;
    }
    if (void *lz4 = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL))
      c.lz4Decompress = reinterpret_cast<decltype(c.lz4Decompress)>(
          dlsym(lz4, "LZ4_decompress_safe"));
#endif
    return c;
  }
};
constexpr unsigned long long kZstdContentSizeUnknown = 0ULL - 1;
constexpr unsigned long long kZstdContentSizeError = 0ULL - 2;
} // namespace
#endif

bool fatbinCanDecompress() {
#ifdef MYCC_FATBIN_CAN_DECODE
  return Codecs::get().zstdDecompress && Codecs::get().lz4Decompress;
#else
  return false;
#endif
}

bool fatbinCanCompress() {
#ifdef MYCC_FATBIN_DECOMPRESS
  return true;
#else
  return false;
#endif
}

bool decompressImage(FatbinImage &image, std::string &error) {
  using Compression = FatbinImage::Compression;
  if (image.compression == Compression::None || image.decompressed)
    return true;
  const char *scheme = image.compression == Compression::Lz4 ? "LZ4" : "zstd";
#ifndef MYCC_FATBIN_CAN_DECODE
  error =
      std::string(scheme) + "-compressed payload: this build cannot decompress";
  return false;
#else
  const Codecs &codecs = Codecs::get();
  if (image.compression == Compression::Lz4 ? !codecs.lz4Decompress
                                            : !codecs.zstdDecompress) {
    error = std::string(scheme) + "-compressed payload: " +
            (image.compression == Compression::Lz4 ? "liblz4.so.1"
                                                   : "libzstd.so.1") +
            " cannot be loaded";
    return false;
  }
  const std::string &stream = image.payload;
  const uint64_t expected = image.uncompressedSize;
  if (image.flags & kFlagEncodedIr) {
    error = std::string("the ") + scheme + "-flagged payload is encoded " +
            "(flag 0x10000), not a plain compressed stream";
    return false;
  }
  auto fail = [&](const std::string &why) {
    error = std::string("cannot decompress the ") + scheme + " payload (" +
            std::to_string(stream.size()) + " bytes, " +
            std::to_string(expected) + " expected once decoded): " + why;
    return false;
  };
  // Every check that needs no memory comes before the buffer is made: the
  // header's decoded size is a claim (a 41 KB object claiming 3.9 GB made the
  // reader allocate it). An LZ4 block expands at most about 255 times;
  // zstd's format allows more (long runs), but PTX and cubins compress 3 to
  // 20 times (measured on nvcc's and mycc's outputs), so a claim beyond
  // kMaxZstdRatio times the stream is refused as corrupt, which bounds what
  // a hostile file can make any reader (the runtime's included) allocate.
  constexpr uint64_t kMaxDecoded = uint64_t(1) << 32;
  constexpr uint64_t kMaxZstdRatio = 1024, kZstdSlack = uint64_t(1) << 20;
  if (expected == 0)
    return fail("no decoded size recorded");
  if (expected > kMaxDecoded)
    return fail("decoded size too large");
  if (image.compression == Compression::Lz4) {
    if (stream.size() > unsigned(INT_MAX) || expected > unsigned(INT_MAX) ||
        expected > (uint64_t(stream.size()) + 1) * 256)
      return fail("sizes out of range for an LZ4 block");
  } else {
    unsigned long long content =
        codecs.zstdContentSize(stream.data(), stream.size());
    if (content == kZstdContentSizeError)
      return fail("not a zstd frame");
    if (content != kZstdContentSizeUnknown && content != expected)
      return fail("the frame declares " + std::to_string(content) + " bytes");
    if (expected > uint64_t(stream.size()) * kMaxZstdRatio + kZstdSlack)
      return fail("more than " + std::to_string(kMaxZstdRatio) +
                  " times the compressed size: corrupt or hostile");
  }
  std::string decoded;
  try {
    decoded.resize(expected);
  } catch (const std::bad_alloc &) {
    return fail("out of memory");
  }
  if (image.compression == Compression::Lz4) {
    int n = codecs.lz4Decompress(stream.data(), decoded.data(),
                                 int(stream.size()), int(expected));
    if (n < 0)
      return fail("corrupt LZ4 block");
    if (uint64_t(n) != expected)
      return fail("the block decodes to " + std::to_string(n) + " bytes");
  } else {
    std::size_t n = codecs.zstdDecompress(decoded.data(), decoded.size(),
                                          stream.data(), stream.size());
    if (codecs.zstdIsError(n))
      return fail(codecs.zstdErrorName(n));
    if (n != expected)
      return fail("the frame decodes to " + std::to_string(n) + " bytes");
  }
  if (image.kind == ImageKind::Ptx || image.kind == ImageKind::RelocatablePtx) {
    while (!decoded.empty() && decoded.back() == 0)
      decoded.pop_back(); // the NUL terminator, as for a stored PTX
  }
  image.payload = std::move(decoded);
  image.decompressed = true;
  return true;
#endif
}

std::size_t fatbinContainerSize(const uint8_t *data, std::size_t size) {
  std::string error;
  std::optional<ContainerHeader> container =
      readContainerHeader(data, size, error);
  return container ? container->headerSize + container->fatSize : 0;
}

} // namespace mycc
