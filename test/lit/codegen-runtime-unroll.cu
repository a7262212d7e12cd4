// Loops with a run-time trip count are unrolled where nvcc unrolls them
// (lib/Offload/Unrolling.cpp), so that several loads are in flight:
// - a block-stride loop, whose trip count takes a division by a parameter
//   (LLVM alone leaves it rolled: the count is too costly for its budget);
// - a loop converting bf16 values, each conversion inline assembly that
//   Clang marks convergent (LLVM alone never unrolls it with a remainder);
// - but a loop around inline assembly a warp executes together (shfl)
//   keeps it convergent, and rolled.
// RUN: %mycc -arch=sm_90 -ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -arch=sm_90 -ptx %s -o - | FileCheck %s --check-prefix=NVCC %}
#include <cuda_bf16.h>

// CHECK-LABEL: .entry _Z10stride_sumPfPKfii(
// CHECK-COUNT-4: ld.global
// CHECK-LABEL: .entry _Z8bf16_sumPfPK13__nv_bfloat16i(
// CHECK-COUNT-4: ld.global
// CHECK-LABEL: .entry _Z11shuffle_sumPfPKfi(
// CHECK: ld.global
// CHECK-NOT: ld.global
// CHECK: ret;
// NVCC-LABEL: .entry _Z10stride_sumPfPKfii(
// NVCC-COUNT-4: ld.global
// NVCC-LABEL: .entry _Z8bf16_sumPfPK13__nv_bfloat16i(
// NVCC-COUNT-4: ld.global

__global__ void stride_sum(float *out, const float *x, int n, int stride) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += stride) s += x[i];
  out[threadIdx.x] = s;
}

__global__ void bf16_sum(float *out, const __nv_bfloat16 *x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += __bfloat162float(x[i]);
  out[threadIdx.x] = s;
}

__global__ void shuffle_sum(float *out, const float *x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    float w;
    asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 31, -1;" : "=f"(w) : "f"(x[i]));
    s += w;
  }
  out[threadIdx.x] = s;
}
