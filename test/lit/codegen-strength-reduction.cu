// NVPTX's straight-line strength reduction (SLSR) computes b + i*s from the
// value before it, b + (i-1)*s: a chain of adds, as in nvcc's PTX. In a
// function with a block of 1,000 or more of its candidates (adds,
// multiplications, GEPs) mycc's code generator leaves SLSR out
// (lib/Offload/StrengthReduction.cpp): LLVM 22's search for a basis is
// quadratic there (seconds in ggml's flash-attention kernels). ptxas makes
// the same number of instructions of both (IMAD).
// RUN: %mycc -arch=sm_90 -ptx %s -o - | FileCheck %s

// CHECK-LABEL: .entry _Z4sumsILi8EEvPiii(
// CHECK: mad.lo.s32 {{%r[0-9]+}}, [[S:%r[0-9]+]], 3,
// CHECK-NOT: mad.lo
// CHECK-COUNT-7: add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[S]];
// CHECK-NOT: mad.lo
// CHECK: ret;
// CHECK-LABEL: .entry _Z4sumsILi400EEvPiii(
// CHECK: mad.lo.s32 {{%r[0-9]+}}, [[S2:%r[0-9]+]], 5,
// CHECK: mad.lo.s32 {{%r[0-9]+}}, [[S2]], 401,
// CHECK: mad.lo.s32 {{%r[0-9]+}}, [[S2]], 402,
// CHECK: ret;
template <int N>
__global__ void sums(int *out, int b, int s) {
#pragma unroll
  for (int i = 0; i < N; ++i) out[i] = b + (i + 3) * s;
}
template __global__ void sums<8>(int *, int, int);
template __global__ void sums<400>(int *, int, int);
