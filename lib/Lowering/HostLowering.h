// Host lowering: rewrites the preprocessed host translation unit of a .cu file
// into plain host C++ that any CUDA host compile can build without device
// support:
//  - each __global__ function becomes a host stub with the same signature that
//    launches the kernel through the mycc runtime (templates stay templates);
//  - each k<<<g, b, smem, stream>>>(args) becomes a push of the launch
//    configuration followed by an ordinary call of the stub, so overload
//    resolution and template deduction stay the compiler's job;
//  - each __device__/__constant__ variable becomes a host shadow;
//  - a registration table is appended. Kernels are named in it by their
//    mangled symbol, so specialisations on lambda or local types need no
//    printable name.
#pragma once

#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}

namespace mycc::lowering {

struct LoweredUnit {
  std::string text;      // the rewritten unit
  unsigned kernels = 0;  // registered kernel instantiations
  unsigned variables = 0; // registered device variables
};

// Parses the preprocessed unit that `instance` is set up for (a host-side
// CUDA invocation) and rewrites it. `sourceName` is the original .cu, used in
// runtime messages. Diagnostics go through the instance; returns false when
// the unit has errors.
struct LoweringOptions {
  // Relocatable device code (-rdc=true): shadows of device variables keep
  // their linkage (another unit may declare them extern), `extern`
  // declarations become host declarations, and the table names the device
  // link's image (kLinkedImagePrefix + unitId) instead of an own fat binary.
  // `unitId` is the unit's Clang -cuid, which must be set on `instance`.
  bool rdc = false;
  std::string unitId;
  // With rdc, the registration is nvcc's (kModuleIdPrefix + unitId names the
  // unit's module: its relocatable fat binary `relfatbin` in __nv_relfatbin,
  // its __fatbinwrap<id>, its __nv_module_id string, and a constructor
  // calling __cudaRegisterLinkedBinary<id>, which nvlink's registration
  // (the toolkit's link.stub) defines), unless `deviceLto`: the device link
  // of LLVM bitcode, mycc's own (kLinkedImagePrefix).
  bool deviceLto = false;
  std::string relfatbin;
  // nvcc's front-end warnings: -Wdefault-stream-launch (a launch without a
  // stream, #20198) and -Wmissing-launch-bounds (a kernel without
  // __launch_bounds__, #20238), in nvcc's words.
  enum class Warning { Off, Warn, Error };
  Warning defaultStreamLaunch = Warning::Off;
  Warning missingLaunchBounds = Warning::Off;
  // The unit was preprocessed by the host compiler, which compiles what the
  // lowering writes (docs/design.md, "The host half"): Clang reads it in its
  // own spelling (HostCompilerText.h) and with CUDA's redeclarations of C
  // library functions accepted; device-only function bodies are left out
  // (the host compiler could not compile them); the device code is
  // embedded by the assembler (.incbin of `fatbin`, or with -rdc of each of
  // `rdcImages`, which must exist when the host compiler runs). Neither
  // given: the unit refers to a fat binary it does not define (-cuda).
  bool forHostCompiler = false;
  // Whole-program mode (not rdc): the host stubs of __global__ function
  // templates get internal linkage (`static`), as nvcc 13's default
  // -static-global-template-stub=true makes them. A unit then launches its
  // own module's kernel: with weak stubs the linker keeps one unit's stub,
  // which launches that unit's copy (wrong when the kernel reads a
  // unit-local __constant__ or static __device__ variable).
  bool staticTemplateStubs = false;
  // nvcc 13's -device-entity-has-hidden-visibility=true: kernels' stubs and
  // device variables' shadows of external linkage and no visibility of their
  // own (or of an enclosing namespace) get visibility("hidden").
  bool hiddenDeviceEntities = false;
  std::string fatbin;
  // In place of `fatbin` (or with rdc `relfatbin`): the bundle's C text of
  // the fat binary's bytes (a file beside the lowered unit), which the unit
  // includes, so that the host compiler's preprocessed text carries them,
  // as nvcc's carries its .fatbin.c (the plan with --keep, which compiler
  // caches run).
  std::string fatbinText;
  std::vector<std::string> rdcImages;
  // In place of the files above: the device code's section is left empty
  // (its symbols and the wrapper as with them), and the embed-device-code
  // job puts the bytes into the host compiler's object (fillDeviceCode,
  // lib/Offload/EmbedDeviceCode.h), so that the host compiler runs beside
  // the device side instead of after it.
  bool deviceCodeLater = false;
};

// The sections of the host object that hold a unit's device code: its fat
// binary, nvcc's relocatable fat binary (-rdc=true), or -dlto's images back
// to back in LLVM's offloading section.
constexpr const char *kFatbinSection = ".nv_fatbin";
constexpr const char *kRelocatableFatbinSection = "__nv_relfatbin";
constexpr const char *kOffloadingSection = ".llvm.offloading";

bool lowerHostUnit(clang::CompilerInstance &instance,
                   const std::string &sourceName,
                   const LoweringOptions &options, LoweredUnit &out);

// `path` as the quoted file name of an assembler directive (.incbin) in
// file-scope asm, that is inside a C string literal: \"path\", its quotes
// and backslashes escaped for the assembler and for C.
std::string asmFileNameInC(const std::string &path);

// The name of the symbol the rewritten unit expects the host object to define:
// the fat binary wrapper (__fatBinC_Wrapper_t).
constexpr const char *kFatbinWrapperSymbol = "__mycc_fatbin_wrapper";

// With -rdc=true, the symbol (prefix + unit id) of the device link's image
// (struct __mycc_linked_image) the unit's table refers to. The device link
// defines one per unit it linked; a unit linked without it fails to link with
// this name undefined.
// nvcc's module id of a unit of relocatable device code: this + its unit id.
constexpr const char *kModuleIdPrefix = "_mycc_";

constexpr const char *kLinkedImagePrefix = "__mycc_device_link_of_unit_";

// With -rdc=true, a symbol (prefix + unit id) each unit's host object defines
// and the device link's object refers to: a host link then takes every
// object whose device code the device link took (archive members included),
// so that every unit of the linked image registers itself.
constexpr const char *kUnitSymbolPrefix = "__mycc_rdc_unit_";

// The host unit of a device link: one struct __mycc_linked_image naming the
// linked fat binary (kFatbinWrapperSymbol, defined by the host object) and
// the number of units, under the link symbol of each unit in `unitIds`
// (aliases of one object: the runtime groups the units by its address).
// `name` says what was linked, for the runtime's messages.
std::string deviceLinkUnit(const std::vector<std::string> &unitIds,
                           const std::string &name);

} // namespace mycc::lowering
