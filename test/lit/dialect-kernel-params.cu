// Large kernel parameters (CUDA 12.1+: up to 32764 bytes). Like nvcc, mycc
// reads a by-value parameter in place in the parameter space (ld.param, or
// cvta.param where a generic pointer is needed) unless the kernel writes it;
// a kernel that writes it gets its own local copy, copied a word at a time
// (LLVM's backend alone copies it byte by byte, and copies the parameter
// whenever its address goes to a device function it has no attributes for).
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s
// The GPU test program compiles (test/gpu/dialect_large_params.cu; the lit
// test dialect-large-params.test compiles it with nvcc).
// RUN: %mycc -c -arch=sm_90 %S/../gpu/dialect_large_params.cu -o %t.o
// RUN: %mycc -ptx -arch=sm_90 %S/../gpu/dialect_large_params.cu -o - | FileCheck %s --check-prefix=PROGRAM

struct Big {  // 32004 bytes
  float w[8000];
  int n;
};

struct alignas(16) Big16 {
  float4 v[1024];
};

// Data-dependent indices: read in place.
// CHECK-LABEL: .entry _Z8read_dyn3BigPKiPf(
// CHECK-NOT: __local_depot
// CHECK: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK-NOT: __local_depot
// CHECK: ret;
__global__ void read_dyn(const Big p, const int* idx, float* out) {
  int t = threadIdx.x;
  out[t] = p.w[idx[t]] + p.w[idx[t + 1]] + p.n;
}

template <class T>
__device__ __noinline__ float element(const T& p, int k) { return p.w[k]; }

// The address goes to a device function LLVM infers no attributes for (a
// template): the parameter stays in place, the callee gets cvta.param's
// generic pointer.
// CHECK-LABEL: .entry _Z9read_call3BigPKiPf(
// CHECK-NOT: __local_depot
// CHECK: cvta.param.u64
// CHECK-NOT: {{__local_depot|st.local}}
// CHECK: ret;
__global__ void read_call(const Big p, const int* idx, float* out) {
  out[threadIdx.x] = element(p, idx[threadIdx.x]);
}

// The address is inspected as an integer (an alignment test).
// CHECK-LABEL: .entry _Z9read_addr3BigPKiPf(
// CHECK-NOT: __local_depot
// CHECK: cvta.param.u64
// CHECK-NOT: {{__local_depot|st.local}}
// CHECK: ret;
__global__ void read_addr(const Big p, const int* idx, float* out) {
  const float* e = &p.w[idx[threadIdx.x]];
  out[threadIdx.x] = (reinterpret_cast<unsigned long>(e) & 15) == 0 ? e[0] : 2 * e[0];
}

// __grid_constant__ is left as it is: in place.
// CHECK-LABEL: .entry _Z13read_constant3BigPKiPf(
// CHECK-NOT: {{__local_depot|st.local}}
// CHECK: ret;
__global__ void read_constant(const __grid_constant__ Big p, const int* idx, float* out) {
  out[threadIdx.x] = element(p, idx[threadIdx.x]);
}

// Written at a data-dependent index: a local copy, 4 bytes (the parameter's
// alignment) at a time.
// CHECK-LABEL: .entry _Z6writes3BigPKiPf(
// CHECK-NOT: {{ld.param.b8|st.local.b8}}
// CHECK: .local .align 4 .b8 __local_depot{{[0-9]+}}[32004];
// CHECK: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}
// CHECK: st.local.b32 [%r{{[0-9]+}}
// CHECK: ld.local.b32
// CHECK-NOT: {{ld.param.b8|st.local.b8}}
// CHECK: ret;
__global__ void writes(Big p, const int* idx, float* out) {
  int t = threadIdx.x;
  p.w[idx[t]] += 1.0f;
  out[t] = p.w[idx[t + 1]];
}

template <class T>
__device__ __noinline__ void bump(T& p, int k) { p.w[k] += 1.0f; }

// Written by a device function: copied too.
// CHECK-LABEL: .entry _Z10write_call3BigPKiPf(
// CHECK: .local .align 4 .b8 __local_depot{{[0-9]+}}[32004];
// CHECK: st.local.b32
// CHECK: call.uni _Z4bumpI3BigEvRT_i,
// CHECK-NOT: st.local.b8
// CHECK: ret;
__global__ void write_call(Big p, const int* idx, float* out) {
  bump(p, idx[threadIdx.x]);
  out[threadIdx.x] = p.w[idx[threadIdx.x + 1]];
}

// A 16-byte aligned parameter is copied 16 bytes at a time.
// CHECK-LABEL: .entry _Z13write_aligned5Big16PKiPf(
// CHECK: .local .align 16 .b8 __local_depot{{[0-9]+}}[16384];
// CHECK: ld.param.v4.b32
// CHECK: st.local.v4.b32
// CHECK: ret;
__global__ void write_aligned(Big16 p, const int* idx, float* out) {
  int t = threadIdx.x;
  p.v[idx[t]].w += 1.0f;
  out[t] = p.v[idx[t + 1]].w;
}

// A local copy the source makes (`Big local = p`) is copied by words too.
// CHECK-LABEL: .entry _Z10local_copy3BigPKiPf(
// CHECK: .local .align 4 .b8 __local_depot{{[0-9]+}}[32004];
// CHECK: ld.param.b32
// CHECK: st.local.b32
// CHECK-NOT: st.local.b8
// CHECK: ret;
__global__ void local_copy(const Big p, const int* idx, float* out) {
  Big local = p;
  local.w[idx[threadIdx.x]] = 0.0f;
  out[threadIdx.x] = local.w[idx[threadIdx.x + 1]];
}

// The address compared with an unrelated pointer: copied (LLVM 22's address
// space inference crashes on the comparison with the parameter in place), as
// nvcc copies it. Comparisons within the parameter keep it in place.
// CHECK-LABEL: .entry _Z8cmp_addr3BigPKfPi(
// CHECK: __local_depot{{[0-9]+}}[32004];
// CHECK: ret;
__global__ void cmp_addr(const Big p, const float* q, int* out) {
  out[threadIdx.x] = &p.w[threadIdx.x] == q;
}
// CHECK-LABEL: .entry _Z8cmp_loop3BigPfi(
// CHECK-NOT: __local_depot
// CHECK: ret;
__global__ void cmp_loop(const Big p, float* out, int n) {
  float acc = 0;
  for (const float* e = p.w; e != p.w + n; ++e) acc += *e;
  out[threadIdx.x] = acc;
}

// The test program: the read-only kernels keep the parameter in place, the
// writing ones copy it by words.
// PROGRAM-LABEL: .entry _Z9read_call3BigPKiPf(
// PROGRAM-NOT: __local_depot
// PROGRAM: cvta.param.u64
// PROGRAM-LABEL: .entry _Z9read_addr3BigPKiPfPi(
// PROGRAM-NOT: __local_depot
// PROGRAM: cvta.param.u64
// PROGRAM-LABEL: .entry _Z13write_private3BigPKiPfS2_S2_(
// PROGRAM: __local_depot{{[0-9]+}}[32004];
// PROGRAM: st.local.b32
// PROGRAM-LABEL: .entry _Z13write_aligned5Big16PKiPf(
// PROGRAM: st.local.v4.b32
// PROGRAM-LABEL: .entry _Z8read_max3MaxPii(
// PROGRAM-NEXT: .param .align 4 .b8 _Z8read_max3MaxPii_param_0[32752],
// PROGRAM-NOT: __local_depot
// PROGRAM: ret;
