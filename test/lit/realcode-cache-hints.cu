// The cache-operator loads and stores, every overload CUDA's
// sm_32_intrinsics.h declares: __ldca, __ldlu, __stwb, __stcg and __stcs
// were undeclared (Clang's headers have the other five families), now the
// toolkit's own definitions; each family compiled beside nvcc's PTX.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/mycc.ptx
// RUN: FileCheck %s < %t/mycc.ptx
// RUN: %mycc -c -arch=sm_90 %s -o %t/mycc.o
// RUN: %mycc -c -arch=sm_90 --host-in-process %s -o %t/mycc-in-process.o
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o %t/nvcc.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py memory %t/mycc.ptx %t/nvcc.ptx %}
#include <cuda_runtime.h>

#define EACH_TYPE(X)                                                           \
  X(long) X(unsigned long) X(char) X(signed char) X(short) X(int)              \
  X(long long) X(char2) X(char4) X(short2) X(short4) X(int2) X(int4)           \
  X(longlong2) X(unsigned char) X(unsigned short) X(unsigned int)              \
  X(unsigned long long) X(uchar2) X(uchar4) X(ushort2) X(ushort4) X(uint2)     \
  X(uint4) X(ulonglong2) X(float) X(double) X(float2) X(float4) X(double2)

// One 16-byte slot per type.
#define LOAD(T)                                                                \
  *(T *)(out + 16 * __COUNTER__) = LOADER((const T *)(in + 16 * __COUNTER__));
#define STORE(T)                                                               \
  STORER((T *)(out + 16 * __COUNTER__), *(const T *)(in + 16 * __COUNTER__));

#define LOADER __ldca
__global__ void ldca_all(const char *in, char *out) { EACH_TYPE(LOAD) }
#undef LOADER
#define LOADER __ldlu
__global__ void ldlu_all(const char *in, char *out) { EACH_TYPE(LOAD) }
#undef LOADER
#define LOADER __ldcg
__global__ void ldcg_all(const char *in, char *out) { EACH_TYPE(LOAD) }
#undef LOADER
#define LOADER __ldcs
__global__ void ldcs_all(const char *in, char *out) { EACH_TYPE(LOAD) }
#undef LOADER
#define LOADER __ldcv
__global__ void ldcv_all(const char *in, char *out) { EACH_TYPE(LOAD) }
#undef LOADER
#define STORER __stwb
__global__ void stwb_all(const char *in, char *out) { EACH_TYPE(STORE) }
#undef STORER
#define STORER __stcg
__global__ void stcg_all(const char *in, char *out) { EACH_TYPE(STORE) }
#undef STORER
#define STORER __stcs
__global__ void stcs_all(const char *in, char *out) { EACH_TYPE(STORE) }
#undef STORER
#define STORER __stwt
__global__ void stwt_all(const char *in, char *out) { EACH_TYPE(STORE) }
#undef STORER

// Thirty overloads, thirty accesses with the operator.
// CHECK-LABEL: .entry _Z8ldca_allPKcPc(
// CHECK-COUNT-30: ld.global.ca.
// CHECK-LABEL: .entry _Z8ldlu_allPKcPc(
// CHECK-COUNT-30: ld.global.lu.
// CHECK-LABEL: .entry _Z8ldcg_allPKcPc(
// CHECK-COUNT-30: ld.global.cg.
// CHECK-LABEL: .entry _Z8ldcs_allPKcPc(
// CHECK-COUNT-30: ld.global.cs.
// CHECK-LABEL: .entry _Z8ldcv_allPKcPc(
// CHECK-COUNT-30: ld.global.cv.
// CHECK-LABEL: .entry _Z8stwb_allPKcPc(
// CHECK-COUNT-30: st.global.wb.
// CHECK-LABEL: .entry _Z8stcg_allPKcPc(
// CHECK-COUNT-30: st.global.cg.
// CHECK-LABEL: .entry _Z8stcs_allPKcPc(
// CHECK-COUNT-30: st.global.cs.
// CHECK-LABEL: .entry _Z8stwt_allPKcPc(
// CHECK-COUNT-30: st.global.wt.
