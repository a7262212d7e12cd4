// -std=c++03, which nvcc accepts: the prelude and the host side build in
// C++03. They did not: Clang's headers define the cache-operator loads and
// __stwt only from C++11 on (the toolkit's definitions take their names
// here), nvcc's __nv_atomic_* builtins used constexpr, auto and
// static_assert, placement new was declared noexcept, and the stubs passed
// Clang's __nullptr to g++.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -std=c++03 -arch=sm_90 %s -o %t/mycc
// RUN: %mycc -std=c++03 -arch=sm_90 --host-in-process %s -o %t/in-process
// RUN: %mycc -std=c++03 -arch=sm_90 -E -Xcompiler -dM -x cu /dev/null | FileCheck %s --check-prefix=MACROS
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -std=c++03 -arch=sm_90 %s -o %t/nvcc %}
// MACROS: #define __cplusplus 199711L

#include <new>

struct Pair {
  int a, b;
};

__global__ void kernel(const int *in, int *out, unsigned long *wide, Pair *pairs) {
  int v = __ldcg(in) + __ldcs(in) + __ldcv(in) + __ldg(in) + __ldca(in);
  __stwt(wide, 1ul);
  __stcg(out + 1, v);
  __nv_atomic_fetch_add(out, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  int expected = 0;
  __nv_atomic_compare_exchange(out + 2, &expected, &v, false, __NV_ATOMIC_ACQUIRE,
                               __NV_ATOMIC_RELAXED);
  new (pairs) Pair();
}

template <class T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }

int main() {
  kernel<<<1, 1>>>(0, 0, 0, 0);
  fill<<<1, 32>>>((float *)0, 1.0f);
  return 0;
}
