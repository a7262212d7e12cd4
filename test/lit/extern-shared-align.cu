// Every `extern __shared__` array is at least 16-byte aligned, as nvcc
// declares it: the dynamic area starts after the static shared variables,
// rounded up to this alignment, and code reads it with 16-byte accesses
// whatever its element type (ggml's flash attention: `extern __shared__
// float2 meta[]`, with Clang's 8 a "misaligned address" on the H100).
// RUN: %mycc -arch=sm_90 -ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %mycc -arch=sm_90 -rdc=true -ptx %s -o %t.rdc.ptx
// RUN: FileCheck %s < %t.rdc.ptx
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -arch=sm_90 -ptx %s -o %t.nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s < %t.nvcc.ptx %}
// CHECK-DAG: .extern .shared .align 16 .b8 bytes[];
// CHECK-DAG: .extern .shared .align 16 .b8 pairs[];
// CHECK-DAG: .extern .shared .align 32 .b8 wide[];

__global__ void with_bytes(int *out) {
  extern __shared__ char bytes[];
  __shared__ int fixed[3];
  fixed[threadIdx.x % 3] = 1;
  out[0] = bytes[threadIdx.x] + fixed[0];
}

__global__ void with_pairs(float *out) {
  extern __shared__ float2 pairs[];
  out[0] = pairs[threadIdx.x].x;
}

__global__ void with_wide(int *out) {
  extern __shared__ __align__(32) int wide[];
  out[0] = wide[threadIdx.x];
}
