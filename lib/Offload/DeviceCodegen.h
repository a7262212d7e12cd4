// Device code generation: one virtual arch of a .cu file to PTX, in-process.
// Clang's front end produces LLVM IR; mycc runs the LLVM optimisation
// pipeline itself and LLVM's NVPTX backend emits the PTX.
#pragma once

#include "Frontend.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace mycc::offload {

struct DeviceCodegenOptions {
  unsigned optLevel = 3; // nvcc optimises device code by default
  // The GPU the PTX's `.target` must name when it is not the one clang
  // compiled for: "sm_100f" for a family target, which Clang cannot name
  // (frontend::clangGpuName). Empty: clang's GPU.
  std::string ptxTarget;
  // -split-compile: threads for code generation (SplitCodegen.h); 1: one.
  unsigned splitThreads = 1;
  // Without -split-compile: a large module's code generation also uses the
  // job slots idle when it starts (support::IdleSlots).
  bool borrowIdleThreads = false;
  // -ftz, -prec-div, -prec-sqrt, -fmad, -use_fast_math (DeviceMath.h).
  frontend::DeviceMath math;
  // -restrict: every pointer parameter of a kernel is __restrict__.
  bool restrictKernelPointers = false;
  // -src-in-ptx: source lines as comments in the PTX (SourceInPtx.h).
  bool sourceInPtx = false;
  // -keep-device-functions: whole-program device code keeps __device__
  // functions no kernel calls (by default they are dropped, as by nvcc).
  bool keepDeviceFunctions = false;
  // -ewp: relocatable (-fgpu-rdc) and yet a whole program: __device__
  // functions internal as without -rdc; calls into libcudadevrt stay.
  bool extensibleWholeProgram = false;
  // -jtd: the case density (percent) from which the code generator makes a
  // switch a jump table (brx.idx). 101, nvcc's default: never, and no
  // switch becomes a table of values in memory either (nvcc's cicc makes
  // neither; LLVM makes both by default).
  unsigned jumpTableDensity = 101;
  // -opt-info inline: the inliner's remarks, printed as nvcc prints them
  // ("remark: file:line:col: message").
  bool inlineRemarks = false;
  // -fdevice-syntax-only: the front end checks the source; the PTX has no
  // code (its header only), as nvcc's.
  bool syntaxOnly = false;
};

// The GPU a device compile targets, as the NVPTX backend needs it.
struct DeviceTarget {
  std::string cpu;      // "sm_90a"
  std::string features; // "+ptx88,..."
};

// One virtual arch of a unit of relocatable device code (-rdc=true): LLVM
// bitcode after LLVM's pre-link pipeline, linked later by linkDeviceToPtx.
struct RelocatableDeviceCode {
  std::string bitcode;
  DeviceTarget target;
};

// Sets the LLVM options device code generation needs, which LLVM keeps
// process-wide: the NVPTX backend's 32-bit pointers to shared, constant and
// local memory, the data layout frontend::Invocations::device gives Clang
// (nvcc's PTX addresses shared memory the same way, and ptxas schedules those
// addresses better); and loop unrolling closer to nvcc's (DeviceCodegen.cpp
// says why). Idempotent; code generation calls it, a multi-threaded caller
// should call it before its threads start.
void applyBackendOptions();

// `cc1` comes from frontend::Invocations::device. Source diagnostics go to
// `diagnostics` (stderr by default); on failure `error` is empty when they
// say it all, else it names the internal step that failed.
bool compileDeviceToPtx(const std::vector<std::string> &cc1,
                        const DeviceCodegenOptions &options, std::string &ptx,
                        std::string &error,
                        llvm::raw_ostream *diagnostics = nullptr);

// -rdc=true: the front end and LLVM's pre-link pipeline; the result goes
// into the unit's object.
bool compileDeviceToBitcode(const std::vector<std::string> &cc1,
                            const DeviceCodegenOptions &options,
                            RelocatableDeviceCode &out, std::string &error,
                            llvm::raw_ostream *diagnostics = nullptr);

struct DeviceBitcodeInput {
  std::string name;   // where it came from, "a.o" or "libx.a(a.o)"
  std::string source; // the unit's .cu, for messages
  std::string bitcode;
};

// The device link of one virtual arch: links the units' bitcode, keeps
// kernels and variables visible (the host reaches them by name), optimises
// the whole program with LLVM's link-time pipeline and emits PTX. An
// undefined device symbol is an error naming it and the units using it.
bool linkDeviceToPtx(const std::vector<DeviceBitcodeInput> &units,
                     const DeviceTarget &target,
                     const DeviceCodegenOptions &options, std::string &ptx,
                     std::string &error);

} // namespace mycc::offload
