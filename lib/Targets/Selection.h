// CUDA's binary-compatibility rules: which image of a fat binary runs on a
// device of a given compute capability. One implementation shared by the
// runtime (its choice and its explanation) and the tools. No CUDA dependency.
#pragma once

#include "Targets.h"

#include <cstddef>
#include <string>
#include <vector>

namespace mycc {

// One image of a fat binary, as far as selection cares.
struct ImageDesc {
  Target target; // sm_XY (cubin) or compute_XY (PTX)
};

struct Selection {
  enum class Kind { Cubin, PtxJit, None };
  Kind kind = Kind::None;
  std::size_t index = 0; // into the image list, valid unless kind == None
  std::string reason;    // one sentence: why this image, or why none fits
};

struct SelectionPolicy {
  bool forcePtx = false; // MYCC_FORCE_PTX: ignore cubins when PTX can run
  bool noPtx = false;    // CUDA_DISABLE_PTX_JIT: never JIT-compile PTX
};

// Picks the image for a device of compute capability `deviceSm` (e.g. 90 for
// 9.0), following CUDA's rules:
//  - a cubin sm_XY runs on CC X.z with z >= Y, same major;
//  - an `a` cubin runs only on exactly that CC; an `f` cubin within its family;
//  - else the highest PTX whose arch <= the device's is JIT-compiled
//    (`a` PTX only on exactly that CC, `f` PTX within the family).
// Among fitting cubins the highest arch wins.
Selection selectImage(unsigned deviceSm, const std::vector<ImageDesc> &images,
                      const SelectionPolicy &policy = {});

// The -gencode option that would make a program run on `deviceSm`, e.g.
// "-gencode arch=compute_90,code=sm_90".
std::string suggestGencode(unsigned deviceSm);

} // namespace mycc
