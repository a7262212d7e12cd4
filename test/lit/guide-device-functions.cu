// Device functions CUDA's headers declare that Clang's headers lacked, each
// compiled to the instruction nvcc emits: 128-bit atomicCAS/atomicExch
// (sm_90, all scopes), __tanhf, the unsigned long cache-operator loads and
// stores, __isGridConstant, and over-aligned new/delete (the device
// runtime's aligned malloc). The PTX must assemble.
// RUN: %mycc -ptx -arch=sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=NVCC %}
#include <new>

struct alignas(16) Pair {
  unsigned long long first, second;
};

__global__ void wide_atomics(Pair *p, Pair compare, Pair value, Pair *out) {
  out[0] = atomicCAS(p, compare, value);
  out[1] = atomicCAS_block(p + 1, compare, value);
  out[2] = atomicCAS_system(p + 2, compare, value);
  out[3] = atomicExch(p + 3, value);
  out[4] = atomicExch_block(p + 4, value);
  out[5] = atomicExch_system(p + 5, value);
}
// CHECK-LABEL: .entry _Z12wide_atomicsP4PairS_S_S0_(
// CHECK: atom.cas.b128
// CHECK: atom.cta.cas.b128
// CHECK: atom.sys.cas.b128
// CHECK: atom.exch.b128
// CHECK: atom.cta.exch.b128
// CHECK: atom.sys.exch.b128
// NVCC-LABEL: .entry _Z12wide_atomicsP4PairS_S_S0_(
// NVCC: atom.global.cas.b128
// NVCC: atom.global.cta.cas.b128
// NVCC: atom.global.sys.cas.b128
// NVCC: atom.global.exch.b128
// NVCC: atom.global.cta.exch.b128
// NVCC: atom.global.sys.exch.b128

__global__ void fast_tanh(float *f) { f[0] = __tanhf(f[1]); }
// CHECK-LABEL: .entry _Z9fast_tanhPf(
// CHECK: tanh.approx.f32
// NVCC-LABEL: .entry _Z9fast_tanhPf(
// NVCC: tanh.approx.f32

__global__ void unsigned_long(unsigned long *p, unsigned long *q) {
  q[0] = __ldcg(p) + __ldcs(p + 1) + __ldcv(p + 2);
  __stwt(q + 1, 5ul);
}
// CHECK-LABEL: .entry _Z13unsigned_longPmS_(
// CHECK-DAG: ld.global.cg.u64
// CHECK-DAG: ld.global.cs.u64
// CHECK-DAG: ld.global.cv.u64
// CHECK: st.global.wt.u64
// NVCC-LABEL: .entry _Z13unsigned_longPmS_(
// NVCC-DAG: ld.global.cg.u64
// NVCC-DAG: ld.global.cs.u64
// NVCC-DAG: ld.global.cv.u64
// NVCC: st.global.wt.u64

// nvcc folds the answer for a __grid_constant__ parameter (1); mycc asks
// the hardware. Either way no call of an undefined function remains.
__global__ void grid_constant(const __grid_constant__ Pair p, unsigned *out) {
  out[0] = __isGridConstant(&p);
}
// CHECK-LABEL: .entry _Z13grid_constant4PairPj(
// CHECK-NOT: call
// CHECK: isspacep.param
// CHECK: ret;
// NVCC-LABEL: .entry _Z13grid_constant4PairPj(
// NVCC-NOT: call
// NVCC: ret;

struct alignas(64) Line {
  float x[16];
};
__global__ void aligned_new(float **out) {
  Line *line = new Line;
  line->x[0] = 1;
  out[0] = line->x;
  delete line;
}
// CHECK-LABEL: .entry _Z11aligned_newPPf(
// CHECK: call.uni (retval0), __cuda_syscall_aligned_malloc,
// CHECK: call.uni free,
// NVCC-LABEL: .entry _Z11aligned_newPPf(
// NVCC: __cuda_syscall_aligned_malloc
// NVCC: free
