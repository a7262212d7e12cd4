// Memory accesses in nvcc's forms (lib/Offload/MemoryAccesses.cpp), the
// code-quality points of tensor-core kernels:
// - a 16-byte copy between 16-byte aligned addresses is one ld.global.v4 and
//   one st.shared.v4 / st.global.v4, not two 8-byte accesses each; the
//   destination `&tiles[row][0]` is known 16-byte aligned only from the
//   `extern __shared__` array's alignment (16, as nvcc declares it:
//   extern-shared-align.cu) and its 48-byte rows;
// - WMMA fragments load and store with the shared-space instructions when
//   their address is in shared memory, with the global-space ones from a
//   kernel's pointer parameter, instead of generic ones after cvta;
// - in a loop, fragment addresses at constant offsets from one base keep the
//   offsets in the instructions ([base+offset], lib/Offload/LiveRanges.cpp)
//   instead of one register each computed before the loop.
// RUN: %mycc -arch=sm_90 -ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %mycc -arch=sm_90 -rdc=true -ptx %s -o %t.rdc.ptx
// RUN: FileCheck %s < %t.rdc.ptx
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -arch=sm_90 -ptx %s -o - | FileCheck %s --check-prefix=NVCC %}
#include <mma.h>
using namespace nvcuda;

// The staging copy of the usual WMMA GEMM: int4 pieces of global memory into
// an `extern __shared__` array of halves with skewed rows.
__global__ void stage_and_multiply(const half *a, const half *b, float *c, int k) {
  extern __shared__ half tiles[][16 + 8];
  for (int i = threadIdx.x; i < 2 * 16 * 2; i += blockDim.x) {
    int row = i / 2, piece = i % 2;
    const half *from = row < 16 ? a + row * k : b + (row - 16) * k;
    *((int4 *)&tiles[row][0] + piece) = *((const int4 *)from + piece);
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, &tiles[0][0], 16 + 8);
  wmma::load_matrix_sync(fb, &tiles[16][0], 16 + 8);
  wmma::mma_sync(acc, fa, fb, acc);
  float *out = reinterpret_cast<float *>(&tiles[0][0]);
  wmma::store_matrix_sync(out, acc, 16, wmma::mem_row_major);
  __syncthreads();
  c[threadIdx.x] = out[threadIdx.x];
}

// Fragments straight from and to global memory.
__global__ void from_global(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

// A K loop over fragments of one warp's rows.
__global__ void k_loop(float *c, int steps) {
  extern __shared__ half rows[][4 * 16 + 8];
  const int warpRow = threadIdx.y * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int s = 0; s < steps; ++s) {
    for (int kk = 0; kk < 4; ++kk) {
      wmma::load_matrix_sync(fa, &rows[warpRow][kk * 16], 4 * 16 + 8);
      wmma::load_matrix_sync(fb, &rows[64 + warpRow][kk * 16], 4 * 16 + 8);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    __syncthreads();
  }
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

// A float4 assigned.
__global__ void copy_float4(const float4 *in, float4 *out) { out[threadIdx.x] = in[threadIdx.x]; }

// CHECK-LABEL: .entry _Z18stage_and_multiplyPK6__halfS1_Pfi(
// CHECK-NOT: ld.global.b64
// CHECK: ld.global.v4.b32 {{{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+}}}, [{{%rd[0-9]+}}];
// CHECK-NEXT: st.shared.v4.b32 [{{%r[0-9]+}}], {{{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+}}};
// CHECK-NOT: cvta.shared
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.shared.f16
// CHECK: wmma.load.b.sync.aligned.col.m16n16k16.shared.f16
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.shared.f32
// CHECK: ret;
// CHECK-LABEL: .entry _Z11from_globalPK6__halfS1_Pf(
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.global.f16
// CHECK: wmma.load.b.sync.aligned.col.m16n16k16.global.f16
// CHECK: wmma.store.d.sync.aligned.row.m16n16k16.global.f32
// CHECK: ret;
// CHECK-LABEL: .entry _Z6k_loopPfi(
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {{.*}}, {{\[}}[[BASE:%r[0-9]+]]{{\]}}, %r
// CHECK-NEXT: wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {{.*}}, {{\[}}[[BASE]]+9216{{\]}}, %r
// CHECK: wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {{.*}}, {{\[}}[[BASE]]+32{{\]}}, %r
// CHECK-NEXT: wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {{.*}}, {{\[}}[[BASE]]+9248{{\]}}, %r
// CHECK: ret;
// CHECK-LABEL: .entry _Z11copy_float4PK6float4PS_(
// CHECK-NOT: ld.global.b64
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK: ret;

// NVCC-LABEL: .entry _Z18stage_and_multiplyPK6__halfS1_Pfi(
// NVCC: ld.global.v4.u32
// NVCC-NEXT: st.shared.v4.u32
// NVCC: wmma.load.a.sync.aligned.row.m16n16k16.shared.f16
// NVCC: wmma.load.b.sync.aligned.col.m16n16k16.shared.f16
// NVCC: wmma.store.d.sync.aligned.row.m16n16k16.shared.f32
// NVCC-LABEL: .entry _Z11from_globalPK6__halfS1_Pf(
// NVCC: wmma.load.a.sync.aligned.row.m16n16k16.global.f16
// NVCC: wmma.load.b.sync.aligned.col.m16n16k16.global.f16
// NVCC: wmma.store.d.sync.aligned.row.m16n16k16.global.f32
// NVCC-LABEL: .entry _Z11copy_float4PK6float4PS_(
// NVCC: ld.global.v4.u32
// NVCC: st.global.v4.u32
