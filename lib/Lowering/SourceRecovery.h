// Source that nvcc's front end accepts and Clang rejects, rewritten where
// Clang reports it and parsed again (device side and host lowering alike).
// Three kinds:
//
// 1. Inline assembly naming PTX's special registers with one `%`:
//
//   asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
//
// nvcc passes a `%` that does not begin an operand through; Clang reads
// `%g` as an operand modifier and rejects the string ("invalid % escape in
// inline assembly string"). Where Clang says so, every `%` of that string
// literal (and of the literals concatenated after it) that begins no
// operand (`%0`, `%l1`, `%[name]`, `%%`, `%=`, `%{`, `%|`, `%}`) is doubled,
// which is what nvcc emits.
//
// 2. Function-scope __shared__ variables of a class type whose default
// constructor or destructor is not empty, e.g.
//
//   __shared__ cuda::barrier<cuda::thread_scope_block> bar;
//
// nvcc accepts them with warning #20054-D ("dynamic initialization is not
// supported for a function-scope static __shared__ variable within a
// __device__/__global__ function") and runs no constructor and no destructor:
// the storage is uninitialised and the program initialises it (for a barrier:
// init(&bar, n) by one thread). Clang rejects them ("initialization is not
// supported for __shared__ variables") on both sides, and no option relaxes
// that for __shared__ (-fgpu-allow-device-init covers __device__/__constant__
// variables of HIP only).
//
// mycc parses the unit as it is; when Clang reports that error, each such
// declaration is rewritten on its own line(s) into storage without a
// constructor and a name for the object in it,
//
//   union __mycc_shared_t_bar { T value; ctor() {} ~dtor() {} };
//   __shared__ __mycc_shared_t_bar __mycc_shared_bar;
//   constexpr auto &bar = __mycc_shared_bar.value;
//
// (the empty constructor and destructor of a union do not construct or
// destroy its member, and Clang accepts them for __shared__), and the unit is
// parsed again from the rewritten files. `bar` names the same object at the
// same address with the same type; the constexpr reference refers to storage
// of static duration, so lambdas refer to it without capturing it, as they
// would the variable. The rewrite applies to a declaration of one variable
// without an initializer and outside a macro; anything else keeps Clang's
// error (nvcc rejects namespace-scope ones and written initializers, too).
//
// 3. A __host__ __device__ function that is not inline, not a template and
// not static, naming a host function (the device side only):
//
//   void log_value(int);
//   __host__ __device__ int clamp_logged(int v) { log_value(v); ... }
//
// nvcc warns (#20011-D, "calling a __host__ function ... from a __host__
// __device__ function is not allowed") and compiles the call as unreachable.
// Clang defers that error for inline functions and templates until device
// code uses them (mycc's ExecChecks then gives nvcc's warning), but reports
// it at once for such a function, which it knows to be emitted. Where it
// does, the definition is declared `inline` on the device side (with -rdc
// `inline __attribute__((used))`, so that other units still link to it)
// and the unit parsed again. The word goes on a line of its own, followed
// by a #line directive and the start of the line in spaces, so that every
// diagnostic keeps its line and column.
#pragma once

#include "Frontend.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace mycc::lowering {

class SourceRecovery {
public:
  SourceRecovery();
  ~SourceRecovery();

  // First parse: holds back `ci`'s diagnostics (until finish()) and watches
  // for Clang's error. Call before running the action.
  void watch(clang::CompilerInstance &ci);

  // The consumer for a parse (the first, and the second after a rewrite):
  // add it to the action's consumers ahead of those that need a valid unit.
  // With `warn` (the device side, where nvcc's front end warns) it reports
  // nvcc's warning #20054 for a function-scope __shared__ variable whose
  // class (or array element class) has a non-trivial destructor, as nvcc
  // does, at the declaration; `#pragma nv_diag_suppress|remark|warning|error|
  // default static_var_with_dynamic_init` (or 20054) and `#pragma
  // nv_diagnostic push|pop` apply. The host side leaves it to the device side.
  std::unique_ptr<clang::ASTConsumer> createConsumer(clang::CompilerInstance &ci,
                                                     bool warn);

  // After the first parse. True: declarations were rewritten, the first
  // parse's diagnostics are dropped (but for nvcc's warnings about the
  // rewritten declarations, reported here at their original place), and
  // `files` holds the rewritten files (by the names the first parse opened
  // them with) for a second parse. False: nothing to retry; the held
  // diagnostics are delivered.
  bool finish(std::vector<frontend::InMemoryFile> &files);

  // Whether a warning finish() reported was an error (nv_diag_error, -Werror).
  bool failed() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace mycc::lowering
