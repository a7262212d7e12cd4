// A type-trait keyword that libstdc++ names a struct template
// (`struct __make_signed` in <type_traits>): Clang's parser turns the
// keyword back into a name there, and `__has_builtin(__make_signed)` is
// false after it. CCCL's main branch asks exactly that; with the host side
// preprocessed in a job of its own (--host-in-process) the answer was "yes"
// and the parse of the preprocessed text rejected the builtin's use
// ("unknown type name '__make_signed'"). Reduced from CCCL's make_signed.h.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -c -std=c++17 -arch=sm_90 --host-in-process %s -o %t/in-process.o
// RUN: %mycc -c -std=c++17 -arch=sm_90 %s -o %t/default.o
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -c -std=c++17 -arch=sm_90 %s -o %t/nvcc.o %}
#include <type_traits>

#if defined(__has_builtin)
#if __has_builtin(__make_signed)
#define SIGNED_OF(T) __make_signed(T)
#endif
#endif
#ifndef SIGNED_OF
#define SIGNED_OF(T) typename std::make_signed<T>::type
#endif

template <class T> struct signed_of {
  using type = SIGNED_OF(T);
};
static_assert(std::is_same<signed_of<unsigned>::type, int>::value, "");

__global__ void kernel(signed_of<unsigned>::type *p) { *p = -1; }
