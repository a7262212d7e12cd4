// __vsub4 and __vsubss4 (four bytes of a word: a - b, wrapping; signed and
// saturated) as integer operations, as CUDA's header computes them, not
// Clang's header's PTX vsub4, which sm_50 and later GPUs have no instruction
// for (ptxas expands it into about twice the code). ggml's q4_0 tile loader
// calls __vsubss4(q & 0x0F0F0F0F, 0x08080808): with the operations in the
// IR, the optimiser sees that no byte saturates there and leaves an add and
// a xor. The same for PTX's vset4 in __vcmpne4 and __vcmpeq4.
// test/gpu/simd_byte_intrinsics.cu checks the results on a GPU.
// RUN: %mycc -arch=sm_90 -ptx %s -o - | FileCheck %s --implicit-check-not=vsub4 --implicit-check-not=vset4

// CHECK-LABEL: .entry _Z4wrapPjjj(
// CHECK: sub.s32
// CHECK-LABEL: .entry _Z9saturatedPjjj(
// CHECK: sub.s32
// CHECK: mul.lo.s32 {{.*}}, 255;
__global__ void wrap(unsigned *out, unsigned a, unsigned b) { *out = __vsub4(a, b); }
__global__ void saturated(unsigned *out, unsigned a, unsigned b) { *out = __vsubss4(a, b); }

// CHECK-LABEL: .entry _Z4q4_0Pjj(
// CHECK: and.b32 [[Q:%r[0-9]+]], {{%r[0-9]+}}, 252645135;
// CHECK-NEXT: add.s32 [[S:%r[0-9]+]], [[Q]], 2021161080;
// CHECK-NEXT: xor.b32 {{%r[0-9]+}}, [[S]], -2139062144;
// CHECK: ret;
__global__ void q4_0(unsigned *out, unsigned q) { *out = __vsubss4(q & 0x0F0F0F0F, 0x08080808); }

// __vcmpne4 and __vcmpeq4: 0xff in each byte where a and b differ (are
// equal), from PTX's vset4 in Clang's header. ggml's form compares with 0.
// CHECK-LABEL: .entry _Z9not_equalPjjj(
// CHECK: xor.b32
// CHECK: and.b32 {{.*}}, 2139062143;
// CHECK-LABEL: .entry _Z5equalPjjj(
// CHECK: xor.b32
// CHECK-LABEL: .entry _Z5signsPjj(
// CHECK: and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 134480385;
// CHECK: ret;
__global__ void not_equal(unsigned *out, unsigned a, unsigned b) { *out = __vcmpne4(a, b); }
__global__ void equal(unsigned *out, unsigned a, unsigned b) { *out = __vcmpeq4(a, b); }
__global__ void signs(unsigned *out, unsigned s) { *out = __vcmpne4(s & 0x08040201, 0); }
