// Relocatable device code (-rdc=true) in host objects, and what a device link
// reads back.
//
// A unit compiled with -rdc=true carries, per virtual arch, its device code
// as LLVM bitcode (after LLVM's pre-link pipeline) in the object's
// `.llvm.offloading` section, in LLVM's offload binary format (the one
// Clang's own offload driver uses). The section is marked SHF_EXCLUDE, so a
// final link drops it. The device link (-dlink, or a link of such objects)
// joins the units' bitcode per virtual arch and generates code for the whole
// program (DeviceCodegen.h: linkDeviceToPtx).
#pragma once

#include "DeviceCodegen.h"
#include "Fatbin.h"
#include "Targets.h"

#include <string>
#include <vector>

namespace mycc::offload {

// One virtual arch of one unit.
struct RelocatableImage {
  std::string unitId;       // the unit's -cuid; names its link symbol
  std::string source;       // the .cu, for messages
  Target virtualArch;       // compute_80
  std::vector<Target> codes; // what the unit was compiled for from it
  DeviceTarget target;
  std::string bitcode;
  std::string file; // where it was read from (set by readRelocatableImages)
};

// The bytes of one image in LLVM's offload binary format.
std::string packRelocatableImage(const RelocatableImage &image);

// Appends every mycc image of an object file or a static archive (all its
// members) to `out`; a file without any adds nothing. False, with a one-line
// `error`, when the file cannot be read or an image is malformed.
bool readRelocatableImages(const std::string &path,
                           std::vector<RelocatableImage> &out,
                           std::string &error);

// nvcc's relocatable device code (-rdc=true without -dlto, from mycc or
// nvcc): the relocatable fat binaries in an object's __nv_relfatbin section,
// which nvlink links. What one object or archive member carries.
struct RelocatableFatbin {
  std::string file;          // "a.o" or "libx.a(a.o)"
  std::vector<Target> codes; // sm_XY cubins and compute_XY PTX it holds
  std::string moduleId;      // its __nv_module_id ("" if it has none)
  std::vector<FatbinImage> ptx; // its PTX entries, as stored (-reloc-ptx)
};

// Appends one entry per object (per archive member) of `path` that has a
// __nv_relfatbin section. False, with a one-line `error`, when the file
// cannot be read or a fat binary in it is malformed.
bool readRelocatableFatbins(const std::string &path,
                            std::vector<RelocatableFatbin> &out,
                            std::string &error);

} // namespace mycc::offload
