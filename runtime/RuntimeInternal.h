// Private to the mycc runtime: the parts of it that need no
// GPU and call no CUDA function (reading a module's fat binary, explaining the
// image selection, MYCC_FORCE_PTX's container, environment parsing), so that
// the unit tests can exercise them on any machine.
#pragma once

#include "Fatbin.h"
#include "Selection.h"
#include "Targets.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mycc::rt {

// __fatBinC_Wrapper_t: what a module's descriptor points at.
struct FatbinWrapper {
  int32_t magic;
  int32_t version;
  const unsigned long long *data;
  void *filenameOrFatbins;
};
constexpr int32_t kWrapperMagic = 0x466243B1;

// The fat binary container a wrapper points at: its address and size, or
// nullptr with `error` set when the wrapper or the container header is not
// valid. Reads only the wrapper and the container header.
const uint8_t *wrapperContainer(const void *wrapper, std::size_t &size,
                                std::string &error);

// One image of a module, as far as messages and selection care.
struct ModuleImage {
  Target target;
  ImageKind kind = ImageKind::Elf;
};

struct ModuleInfo {
  std::string sourceName;          // the .cu file, for messages
  std::vector<ModuleImage> images; // in container order
  std::string readError;           // set when the fat binary was unreadable
  bool cubinsRemoved = false;      // a PTX-only copy was registered
  // The variable that asked for that (JitEnvironment::forcedBy), for messages.
  std::string forcedBy = "MYCC_FORCE_PTX";
  bool ptxJitDisabled = false; // CUDA_DISABLE_PTX_JIT: cubins only
};

ModuleInfo describeModule(std::string sourceName, const FatbinReadResult &read);

// "sm_80 cubin", "compute_90 PTX", "lto_80 LTO-IR".
std::string imageLabel(const ModuleImage &image);

// The runtime's choice for a device of compute capability `sm` (e.g. 90):
// mycc::selectImage over the images the CUDA runtime was given (without the
// cubins when they were removed, never LTO-IR). `index` refers to
// `info.images`.
Selection selectForModule(const ModuleInfo &info, unsigned sm);

struct Explanation {
  Selection selection; // as selectForModule
  std::string logLine; // "mycc: select: module ...", no newline
  std::string error;   // "mycc: error: no image ...", empty when one fits
};

// `jitNote`, when not empty, is added to the reason in the log line ("JIT
// cache hit, 0.4 ms").
Explanation explainSelection(const ModuleInfo &info, int device,
                             const std::string &deviceName, unsigned sm,
                             const std::string &jitNote = {});

// The line printed after the first launch: what the driver really loaded
// (cudaFuncAttributes binaryVersion / ptxVersion), compared with `selection`.
std::string describeLoaded(const ModuleInfo &info, const Selection &selection,
                           int device, unsigned sm, int binaryVersion,
                           int ptxVersion);

// MYCC_LOG is a comma-separated list of topics ("select").
bool logTopicEnabled(const char *value, std::string_view topic);
// MYCC_FORCE_PTX: set, not empty and not "0".
bool envFlagSet(const char *value);

// What the environment says about PTX JIT compilation, with the CUDA
// driver's variables honoured as for a program nvcc built:
//  - CUDA_FORCE_PTX_JIT=1 as MYCC_FORCE_PTX (cubins removed, PTX
//    JIT-compiled through mycc's cache); unlike MYCC_FORCE_PTX, a module
//    without PTX then does not load (the driver ignores its cubins too);
//  - CUDA_DISABLE_PTX_JIT=1: only cubins are chosen; a device no cubin fits
//    gets no image, where the runtime would otherwise compile PTX itself.
struct JitEnvironment {
  std::string forcedBy;     // "MYCC_FORCE_PTX", "CUDA_FORCE_PTX_JIT" or empty
  bool strictForce = false; // forced by CUDA_FORCE_PTX_JIT
  bool ptxJitDisabled = false;
};
JitEnvironment jitEnvironment(const char *myccForcePtx,
                              const char *cudaForcePtxJit,
                              const char *cudaDisablePtxJit);

// MYCC_FORCE_PTX / CUDA_FORCE_PTX_JIT: a container holding the images of
// `images` that are not cubins (compressed ones kept as stored). Empty, with
// `why` set, when that is not possible (no PTX).
std::vector<uint8_t> withoutCubins(const std::vector<FatbinImage> &images,
                                   std::string &why);
// withoutCubins's `why` for a module without PTX.
inline constexpr std::string_view kCarriesNoPtx = "it carries no PTX";

// The JIT cache's container: the entries of `first` (written by
// mycc::writeFatbin), then the entries of the container at `container`,
// copied byte for byte (compressed ones included). Empty when `container` is
// not a valid container or the writer fails.
std::vector<uint8_t> prependImages(const std::vector<FatbinImage> &first,
                                   const uint8_t *container, std::size_t size);

// "0.4 ms", "12 ms", "190 ms".
std::string millisecondsText(double ms);

} // namespace mycc::rt
