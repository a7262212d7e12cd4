// Digits of keys ((key >> shift) & mask) and the shared-memory counters they
// address are used again after a barrier, as in a radix sort's ranking.
// LLVM would keep every digit address live across the barrier; mycc
// recomputes them there from the keys, in the form (key & (mask << shift))
// >> shift, which ptxas does not merge back with the first one
// (lib/Offload/LiveRanges.cpp).
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s

__global__ void rank_keys(const unsigned *keys, unsigned *out, int shift, int bits) {
  __shared__ unsigned counts[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) counts[i] = 0;
  __syncthreads();
  const unsigned mask = (1u << bits) - 1;
  unsigned k[8], r[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) k[i] = keys[(blockIdx.x * 8 + i) * blockDim.x + threadIdx.x];
#pragma unroll
  for (int i = 0; i < 8; ++i) r[i] = atomicAdd(&counts[(k[i] >> shift) & mask], 1u);
  __syncthreads();
  if (out) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
      out[(blockIdx.x * 8 + i) * blockDim.x + threadIdx.x] = r[i] + counts[(k[i] >> shift) & mask] + k[i];
  }
}

// CHECK-LABEL: .entry _Z9rank_keysPKjPjii(
// CHECK: ld.param.b32 [[SHIFT:%r[0-9]+]], [_Z9rank_keysPKjPjii_param_2];
// CHECK: bar.sync
// CHECK: not.b32 [[MASK:%r[0-9]+]],
// Before the barrier, as written: one atomic per digit.
// CHECK: shr.u32 [[D0:%r[0-9]+]], [[KEY0:%r[0-9]+]], [[SHIFT]];
// CHECK-NEXT: and.b32 {{%r[0-9]+}}, [[D0]], [[MASK]];
// CHECK-COUNT-8: atom.shared.add.u32
// CHECK: bar.sync
// After it, every digit recomputed from its key in the other form.
// CHECK: shl.b32 [[FIELD:%r[0-9]+]], [[MASK]], [[SHIFT]];
// CHECK-NEXT: and.b32 [[T0:%r[0-9]+]], [[KEY0]], [[FIELD]];
// CHECK-NEXT: shr.u32 {{%r[0-9]+}}, [[T0]], [[SHIFT]];
// CHECK-NEXT: shl.b32 [[OFF0:%r[0-9]+]], {{%r[0-9]+}}, 2;
// CHECK-NEXT: add.s32 [[ADDR0:%r[0-9]+]], {{%r[0-9]+}}, [[OFF0]];
// CHECK-NEXT: ld.shared.b32 {{%r[0-9]+}}, [[[ADDR0]]];
// CHECK-COUNT-7: and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[FIELD]];
// CHECK-NOT: and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, [[MASK]];
// CHECK: ret;
