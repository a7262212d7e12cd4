// Shared memory is addressed with 32-bit registers, as in nvcc's PTX: ptxas
// schedules 32-bit shared addresses better (with 64-bit ones it computed
// CUB's radix-sort histogram one address at a time, 1.38x slower at one block
// per SM). Constant and local memory likewise; generic pointers, and so
// sizeof(T *), stay 64-bit.
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=NVCC %}

__constant__ unsigned table[64];

__global__ void histogram(const unsigned *keys, unsigned *out, int shift) {
  __shared__ unsigned counts[256];
  extern __shared__ unsigned spill[];
  counts[threadIdx.x] = 0;
  spill[threadIdx.x] = table[threadIdx.x % 64];
  __syncthreads();
  atomicAdd(&counts[(keys[blockIdx.x * blockDim.x + threadIdx.x] >> shift) & 255], 1u);
  __syncthreads();
  unsigned *generic = &counts[threadIdx.x];
  static_assert(sizeof(generic) == 8, "generic pointers are 64-bit");
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      *generic + spill[threadIdx.x ^ 1] + unsigned(__cvta_generic_to_shared(generic));
}

// CHECK-LABEL: .entry _Z9histogramPKjPji(
// CHECK-NOT: {{cvta(.to)?.shared.u64}}
// CHECK: st.shared.b32 [{{%r[0-9]+}}]
// CHECK: atom.shared.add.u32 {{%r[0-9]+}}, [{{%r[0-9]+}}], 1;
// CHECK: ld.shared.b32 {{%r[0-9]+}}, [{{%r[0-9]+}}]
// CHECK-NOT: {{cvta(.to)?.shared.u64}}
// CHECK: ret;

// NVCC-LABEL: .entry _Z9histogramPKjPji(
// NVCC: st.shared.u32 [%r{{[0-9]+}}]
// NVCC: atom.shared.add.u32 %r{{[0-9]+}}, [%r{{[0-9]+}}], 1;
// NVCC: ret;
