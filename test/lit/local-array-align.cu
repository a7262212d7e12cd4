// A local variable kept in local memory is aligned as nvcc aligns it: to the
// largest power of two, up to 16, that divides its size. ggml's flash
// attention copies `const half2 zero[4]` (type alignment 4) with 8-byte
// accesses in a function that Clang does not inline; at alignment 4 that
// faulted on the H100 ("misaligned address", local memory).
// RUN: %mycc -arch=sm_90 -ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -arch=sm_90 -ptx %s -o %t.nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s < %t.nvcc.ptx %}
#include <cuda_fp16.h>

// Reads a number of words only known at run time: the variable stays in
// memory, the callee is not specialised.
__device__ __noinline__ void use(const void *p, int *o) {
  for (int i = 0; i < o[0]; ++i) o[i + 1] = static_cast<const int *>(p)[i];
}

// CHECK-LABEL: .entry _Z6halvesPi(
// CHECK: .local .align 16 .b8 __local_depot{{[0-9]+}}[16];
__global__ void halves(int *o) {
  half2 h[4];
  for (int i = 0; i < 4; ++i) h[i] = __floats2half2_rn(o[i], o[i + 4]);
  use(h, o);
}

// CHECK-LABEL: .entry _Z5bytesPi(
// CHECK: .local .align 8 .b8 __local_depot{{[0-9]+}}[24];
__global__ void bytes(int *o) {
  char buf[24];
  buf[threadIdx.x % 24] = 1;
  use(buf, o);
}

// CHECK-LABEL: .entry _Z6shortsPi(
// CHECK: .local .align 4 .b8 __local_depot{{[0-9]+}}[4];
__global__ void shorts(int *o) {
  short s[2];
  s[threadIdx.x % 2] = 1;
  use(s, o);
}
