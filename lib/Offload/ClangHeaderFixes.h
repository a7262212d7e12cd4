// Corrections to Clang's CUDA wrapper headers (__clang_cuda_*.h, Clang 22),
// applied to each device compile, where they silently differ from nvcc's
// headers. docs/nvcc-compatibility.md ("Clang's CUDA headers") has the
// reduced cases and the header patch proposed for LLVM.
//
//  - Inline assembly with a memory operand (`[...]`) that is neither
//    `volatile` nor clobbers "memory": LLVM treats such a statement as a pure
//    function of its operands. atomicAdd on float2/float4 (sm_90, with the
//    _block and _system variants) vanished when its result was unused, and
//    two __ldcg/__ldcs loads of one address were merged across a store to
//    it. Each such statement becomes volatile, which also orders it against
//    other memory accesses, as nvcc orders its own headers' assembly.
//  - atomicCAS on 32- and 64-bit words (the device-scope __nvvm_atom_cas_gen_*
//    builtins) is a sequentially consistent compare-and-swap at system scope
//    (fence.sc.sys; atom.acquire.sys), where nvcc's is relaxed at device
//    scope (atom.global.cas). The wrappers' cmpxchg instructions become
//    relaxed at device scope, the 16-bit one nvcc's atom.cas.b16 (LLVM
//    would loop over 32-bit CAS); the _block and _system variants already
//    are relaxed at their scopes.
//  - __nv_associate_access_property returns its pointer unchanged, dropping
//    the L2 policy of cuda::annotated_ptr: its calls are marked for
//    CacheHints.h, which gives the accesses nvcc's cache hints.
//  - __vsub4 and __vsubss4 are PTX's vsub4, __vcmpne4 and __vcmpeq4 PTX's
//    vset4, which ptxas expands into about twice the code of CUDA's integer
//    operations for them (sm_50 on): the statements become integer
//    operations on the packed bytes.
//  - __any, __all and __ballot are plain functions, where nvcc's headers
//    declare them deprecated on compute_70 and above: each call gets nvcc's
//    warning (ptxas then rejects the PTX, as nvcc's).
#pragma once

#include "FrontEndPass.h"

#include <memory>
#include <string>
#include <vector>


namespace mycc::offload {

class ClangHeaderFixes : public FrontEndPass {
public:
  // The consumer to run ahead of CodeGen: it edits the headers' functions
  // as they are parsed, before any code is generated from them. It records
  // into this object, which must outlive it.
  std::unique_ptr<clang::ASTConsumer> createConsumer() override;

  // Relaxes the compare-and-swap wrappers' atomics and marks the access
  // property associations in the front end's (unoptimised) module.
  void finishModule(llvm::Module &module) const override;

  // Symbols of the wrappers around the device-scope CAS builtins.
  std::vector<std::string> casWrappers;
  // Symbol of __nv_associate_access_property, where the unit has one.
  std::string associateAccessProperty;
};

} // namespace mycc::offload
