// L2 cache hints of cuda::annotated_ptr (and cuda::associate_access_property)
// as nvcc compiles them: each load and store through a pointer the CUDA
// headers associate with an access property (__nv_associate_access_property,
// sm_80 and newer) becomes `ld.global.L2::cache_hint` /
// `st.global.L2::cache_hint` with the property's 64-bit policy as the hint
// operand. Clang's header defines __nv_associate_access_property to return
// the pointer unchanged, so the persisting and streaming policies the
// Programming Guide's L2 section teaches were silently lost.
//
// Two steps, because the association must survive LLVM's optimisation
// pipeline (inlining, SROA, address arithmetic) to reach the accesses:
//  - markAccessProperties, on the front end's module: the body of Clang's
//    __nv_associate_access_property calls an opaque marker,
//    `__mycc_associate_access_property(ptr, i64 policy) -> ptr`, which the
//    optimiser keeps between the pointer and its accesses;
//  - lowerCacheHints, on the optimised module right before PTX emission
//    (after the device link for relocatable code): loads and stores of
//    1- to 8-byte scalars and of 2- or 4-element vectors through the
//    marker's result, or through address arithmetic on it, become the hinted
//    instructions; every other use gets the plain pointer back, and the
//    marker goes.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
}

namespace mycc::offload {

// The marker's name: a device link must not take it for an undefined symbol.
inline constexpr llvm::StringRef kAccessPropertyMarker =
    "__mycc_associate_access_property";

// `associate` is the symbol of Clang's __nv_associate_access_property in
// `module` (ClangHeaderFixes finds it); nothing happens if it is not there.
void markAccessProperties(llvm::Module &module, llvm::StringRef associate);

void lowerCacheHints(llvm::Module &module);

} // namespace mycc::offload
