// Single-precision division and square root as nvcc's -prec-div, -prec-sqrt
// and -use_fast_math make them:
//  - libdevice's sqrtf asks __nvvm_reflect("__CUDA_PREC_SQRT"), resolved by
//    resolveMathReflect on the front end's module, before the pipeline
//    (whose NVVMReflect resolves only __CUDA_FTZ and __CUDA_ARCH and
//    answers 0 otherwise, which made every sqrtf sqrt.approx.f32 where nvcc
//    writes sqrt.rn.f32);
//  - lowerDivisionAndSqrt, on the optimised module before code generation
//    (so that constant divisions are folded first): with -prec-sqrt=false
//    llvm.sqrt.f32 becomes approximate (afn); with -prec-div=false x / y
//    becomes div.full.f32 (llvm.nvvm.div.full[.ftz]) and 1 / x
//    rcp.approx.f32 (afn), as nvcc writes them, and with -use_fast_math
//    every division is approximate (afn: div.approx.f32).
// The NVPTX backend's own switches for this (-nvptx-prec-divf32, ...) are
// process-wide; these work per module.
#pragma once

#include "Frontend.h"

namespace llvm {
class Module;
}

namespace mycc::offload {

void resolveMathReflect(llvm::Module &module, const frontend::DeviceMath &math);
void lowerDivisionAndSqrt(llvm::Module &module,
                          const frontend::DeviceMath &math);

} // namespace mycc::offload
