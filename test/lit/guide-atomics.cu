// Atomics as nvcc compiles them (issue: the guide's atomic functions).
//  - atomicAdd on float2/float4 (sm_90) stays when its result is unused:
//    Clang's header wrote it as non-volatile asm, which LLVM deleted.
//  - atomicCAS is a relaxed device-scope compare-and-swap, as nvcc's
//    `atom.global.cas`: Clang's builtin made it sequentially consistent at
//    system scope (fence.sc.sys; atom.acquire.sys).
//  - two __ldcg loads of one address are not merged across a store.
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=NVCC %}

__global__ void add_vectors_unused(float2 *p, float4 *q) {
  atomicAdd(p, make_float2(1, 2));
  atomicAdd_block(p + 1, make_float2(3, 4));
  atomicAdd_system(p + 2, make_float2(5, 6));
  atomicAdd(q, make_float4(1, 2, 3, 4));
  atomicAdd_block(q + 1, make_float4(1, 2, 3, 4));
  atomicAdd_system(q + 2, make_float4(1, 2, 3, 4));
}
// CHECK-LABEL: .entry _Z18add_vectors_unusedP6float2P6float4(
// CHECK: atom.add.v2.f32
// CHECK: atom.cta.add.v2.f32
// CHECK: atom.sys.add.v2.f32
// CHECK: atom.add.v4.f32
// CHECK: atom.cta.add.v4.f32
// CHECK: atom.sys.add.v4.f32
// CHECK: ret;
// NVCC-LABEL: .entry _Z18add_vectors_unusedP6float2P6float4(
// NVCC: atom.global.add.v2.f32
// NVCC: atom.global.cta.add.v2.f32
// NVCC: atom.global.sys.add.v2.f32
// NVCC: atom.global.add.v4.f32
// NVCC: atom.global.cta.add.v4.f32
// NVCC: atom.global.sys.add.v4.f32
// NVCC: ret;

// The same atomic twice with the same operands is two atomics.
__global__ void add_twice(float2 *p, float2 *out) {
  float2 a = atomicAdd(p, make_float2(1, 1));
  float2 b = atomicAdd(p, make_float2(1, 1));
  out[0] = make_float2(a.x + b.x, a.y + b.y);
}
// CHECK-LABEL: .entry _Z9add_twiceP6float2S0_(
// CHECK: atom.add.v2.f32
// CHECK: atom.add.v2.f32
// NVCC-LABEL: .entry _Z9add_twiceP6float2S0_(
// NVCC: atom.global.add.v2.f32
// NVCC: atom.global.add.v2.f32

__global__ void cas(int *p, unsigned *u, unsigned long long *q,
                    unsigned short *s) {
  int r = atomicCAS(p, 1, 2);
  r += atomicCAS(u, 3u, 4u);
  r += (int)atomicCAS(q, 5ull, 6ull);
  r += atomicCAS_block(p + 1, 7, 8);
  r += atomicCAS_system(p + 2, 9, 10);
  r += atomicCAS(s, (unsigned short)11, (unsigned short)12);
  p[3] = r;
}
// A 16-bit CAS is one atom.cas.b16, not a loop of 32-bit ones (LLVM's).
// CHECK-LABEL: .entry _Z3casPiPjPyPt(
// CHECK-NOT: fence
// CHECK: atom.relaxed.gpu.global.cas.b32 {{.*}}, 1, 2;
// CHECK-NOT: fence
// CHECK: atom.relaxed.gpu.global.cas.b32 {{.*}}, 3, 4;
// CHECK-NOT: fence
// CHECK: atom.relaxed.gpu.global.cas.b64 {{.*}}, 5, 6;
// CHECK-NOT: fence
// CHECK: atom.cta.cas.b32 {{.*}}, 7, 8;
// CHECK-NOT: fence
// CHECK: atom.sys.cas.b32 {{.*}}, 9, 10;
// CHECK-NOT: fence
// CHECK: atom.cas.b16
// CHECK-NOT: {{fence|bra|atom}}
// CHECK: ret;
// NVCC-LABEL: .entry _Z3casPiPjPyPt(
// NVCC-NOT: fence
// NVCC: atom.global.cas.b32
// NVCC: atom.global.cas.b32
// NVCC: atom.global.cas.b64
// NVCC: atom.global.cta.cas.b32
// NVCC: atom.global.sys.cas.b32
// NVCC: atom.global.cas.b16
// NVCC-NOT: fence
// NVCC: ret;

__global__ void loads_across_store(int *p, int *q) {
  int a = __ldcg(p);
  q[0] = 5; // may be *p
  int b = __ldcg(p);
  int c = __ldcs(p);
  q[1] = 6;
  int d = __ldcs(p);
  q[2] = a + b + c + d;
}
// CHECK-LABEL: .entry _Z18loads_across_storePiS_(
// CHECK: ld.global.cg.s32
// CHECK: st.global
// CHECK: ld.global.cg.s32
// CHECK: ld.global.cs.s32
// CHECK: st.global
// CHECK: ld.global.cs.s32
// NVCC-LABEL: .entry _Z18loads_across_storePiS_(
// NVCC: ld.global.cg.s32
// NVCC: st.global
// NVCC: ld.global.cg.s32
// NVCC: ld.global.cs.s32
// NVCC: st.global
// NVCC: ld.global.cs.s32
