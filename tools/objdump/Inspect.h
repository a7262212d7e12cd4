// Finding the fat binaries of a file: an executable, object or shared library
// (through LLVM's Object library), a static archive, a .fatbin file or a bare
// cubin. Each container becomes one Container, with cuobjdump's name for each
// of its images.
#pragma once

#include "Fatbin.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mycc::objdump {

struct Container {
  std::string member;       // archive member, empty outside archives
  std::string section;      // ".nv_fatbin", "__nv_relfatbin"; empty for a file
  uint64_t offset = 0;      // of the container in its section (or file)
  uint64_t size = 0;        // container header + entries
  bool relocatable = false; // from __nv_relfatbin (-rdc code, before dlink)
  bool cubinFile = false;   // the input is one cubin, not a fat binary
  std::vector<FatbinImage> images;
  std::vector<std::string> names; // cuobjdump's file name per image
};

struct InspectOptions {
  // cuobjdump's default: the .nv_fatbin section of each object when it has
  // one, else its __nv_relfatbin. With allFatbin (cuobjdump -all): both.
  bool allFatbin = false;
  bool decompress = false; // decode LZ4/zstd payloads
};

struct InspectResult {
  std::vector<Container> containers;
  std::string error; // one line, empty on success
};

InspectResult inspectFile(const std::string &path,
                          const InspectOptions &options);
// The same for a file's contents; `base` is the stem image names start with.
InspectResult inspectBytes(std::string_view contents, const std::string &base,
                           const InspectOptions &options);

// The name cuobjdump gives an image: "<base>.<n>.sm_90a.cubin" with n
// counting that kind's images through the whole file, or
// "<ident stem>.sm_90.ptx" for an entry with an identifier. As with
// cuobjdump, an `f` cubin's name has no suffix ("sm_120.cubin").
std::string imageFileName(const std::string &base, const FatbinImage &image,
                          unsigned number);

// "sm_90a" for a cubin, "compute_90" for PTX, "lto_80" for LTO-IR.
std::string targetName(const FatbinImage &image);
// "ELF", "PTX", "LTO-IR".
std::string kindName(ImageKind kind);

} // namespace mycc::objdump
