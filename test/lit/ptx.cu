// PTX from the in-process NVPTX backend: target, entries, variables.
// RUN: %mycc -ptx -arch=sm_80 %s -o - | FileCheck %s --check-prefix=SM80
// RUN: %mycc -ptx -arch=sm_90a %s -o - | FileCheck %s --check-prefix=SM90A
// RUN: %mycc -ptx -gencode arch=compute_90,code=compute_90 %s -o %t.ptx && FileCheck %s --check-prefix=SM90 < %t.ptx

// SM80: .version
// SM80: .target sm_80
// SM80: .address_size 64
// SM80-DAG: .visible .global .align 4 .u32 counter;
// SM80-DAG: .visible .const .align 4 .b8 table[16]
// SM80-DAG: .visible .entry _Z5scalePfi(
// SM80-DAG: .visible .entry _Z4fillIiEvPT_S0_(
// SM80-DAG: .visible .entry _ZN2ns6nestedEv(
// __CUDA_ARCH__ is 800 on this side.
// SM80-DAG: .visible .entry _Z10arch_valuePi(
// SM80: st.global.b32 {{.*}}, 800;

// SM90A: .target sm_90a
// SM90: .target sm_90{{$}}
// SM90: st.global.b32 {{.*}}, 900;

__device__ int counter;
__constant__ int table[4] = {1, 2, 3, 4};

__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= table[i % 4];
  atomicAdd(&counter, 1);
}

template <class T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
template __global__ void fill<int>(int *, int);

namespace ns {
__global__ void nested() {}
}

__global__ void arch_value(int *out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#endif
}
