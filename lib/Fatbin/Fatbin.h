// NVIDIA's fat binary container: writer and reader. The layout is documented
// in docs/fatbin.md. No LLVM and no CUDA dependency: the driver writes it and
// the runtime reads it.
#pragma once

#include "Targets.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mycc {

// RelocatablePtx: the PTX of a unit of relocatable device code, named by
// its module id, which nvcc's -reloc-ptx puts into a device link's fat
// binary beside the linked cubins (for the driver to JIT-link).
enum class ImageKind : uint16_t { Ptx = 1, Elf = 2, LtoIr = 8, RelocatablePtx = 64 };

struct FatbinImage {
  ImageKind kind = ImageKind::Elf;
  GpuArch arch;           // suffix recorded through the entry flags
  std::string payload;    // cubin bytes or PTX text (without trailing NUL)
  uint16_t versionMajor = 0; // ELF: 1; PTX: ISA major (from .version)
  uint16_t versionMinor = 0; // ELF: EI_ABIVERSION; PTX: ISA minor
  std::string options;    // PTX: ptxas options for the driver's JIT
  std::string ident;      // optional identifier (source file name)
  bool debug = false;
  enum class Compression { None, Lz4, Zstd };
  // Writer: store the payload compressed this way (zstd at `compressLevel`;
  // LZ4 as a raw block), as nvcc 13's fatbinary does. Only a build with the
  // compression libraries compresses (fatbinCanCompress); the runtime's copy
  // stores the payload plain.
  Compression compressAs = Compression::None;
  int compressLevel = 0;
  // Filled in by the reader. An image read compressed and not decoded is
  // written back as stored (the stream, `uncompressedSize`, the versions read).
  uint64_t flags = 0;
  Compression compression = Compression::None;
  uint64_t storedSize = 0; // payload bytes as stored in the container
  uint64_t uncompressedSize = 0; // compressed entries: size once decoded
  // Set once `payload` holds the decoded bytes of a compressed entry
  // (readFatbin with `decompress`, or decompressImage); `compression` still
  // says how the entry was stored.
  bool decompressed = false;
};

// Builds one container holding every image, in the given order. Versions of
// ELF and PTX entries are derived from the payload when left at 0.
std::vector<uint8_t> writeFatbin(const std::vector<FatbinImage> &images);

struct FatbinReadResult {
  std::vector<FatbinImage> images;
  std::string error; // empty on success
  explicit operator bool() const { return error.empty(); }
};

// Reads one container (the first at `data`). Compressed payloads are left as
// stored and marked in `compression`.
FatbinReadResult readFatbin(const uint8_t *data, std::size_t size);

struct FatbinReadOptions {
  // Decode LZ4 and zstd payloads (decompressImage). A payload that does not
  // decode makes the whole read fail, as a malformed entry does, except an
  // LTO-IR entry flagged 0x10000 (nvcc's encoded IR), which stays as stored
  // with `decompressed` false.
  bool decompress = false;
  // Which payloads are copied into `payload`: every one, none, or only the
  // image at `payloadIndex`. Every entry header is read and checked either
  // way; a payload left out stays empty (`storedSize` still says how large
  // it is) and is not decoded. The runtime selects an image from the headers
  // alone and then reads only the one it hands the JIT compiler.
  enum class Payloads { All, None, One };
  Payloads payloads = Payloads::All;
  std::size_t payloadIndex = 0;
};

FatbinReadResult readFatbin(const uint8_t *data, std::size_t size,
                            const FatbinReadOptions &options);

// Whether this build of the reader can decode compressed payloads: the
// tools' and the driver's build links liblz4 and libzstd
// (MYCC_FATBIN_DECOMPRESS); the runtime's copy is built without them and
// loads the system's libzstd.so.1 and liblz4.so.1 when it first needs one
// (MYCC_FATBIN_DLOPEN_CODECS), so programs link no compression library.
bool fatbinCanDecompress();

// Whether the writer compresses images that ask for it (compressAs): the
// build that links the compression libraries.
bool fatbinCanCompress();

// Decodes a compressed payload as read by readFatbin: an LZ4 raw block
// (LZ4_decompress_safe) or a zstd frame (ZSTD_decompress), which must decode
// to exactly `uncompressedSize` bytes. PTX loses its trailing NULs, as an
// uncompressed PTX payload does. Does nothing for an uncompressed or already
// decoded image. Returns false with `error` set, leaving the image as it was,
// when the stream is corrupt or this build cannot decode.
bool decompressImage(FatbinImage &image, std::string &error);

// Size of the container at `data` (header + entries), or 0 if it is not one.
std::size_t fatbinContainerSize(const uint8_t *data, std::size_t size);

} // namespace mycc
