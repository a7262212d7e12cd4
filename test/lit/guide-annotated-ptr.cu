// cuda::annotated_ptr keeps its L2 policy: loads and stores through it are
// ld.global.L2::cache_hint / st.global.L2::cache_hint with the property's
// policy, as in nvcc's PTX (Clang's __nv_associate_access_property dropped
// it: plain ld.global/st.global). Scalars, doubles, float4 (a 16-byte copy)
// and a run-time cuda::access_property.
// RUN: %mycc -ptx -arch=sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=NVCC %}
#include <cuda/annotated_ptr>

__global__ void persisting_streaming(int *p, int n) {
  cuda::annotated_ptr<int, cuda::access_property::persisting> kept(p);
  cuda::annotated_ptr<int, cuda::access_property::streaming> passing(p + n);
  kept[threadIdx.x] = passing[threadIdx.x] + 1;
}
// The policies are nvcc's constants: streaming 0x12F0000000000000 for the
// load, persisting 0x14F0000000000000 for the store.
// CHECK-LABEL: .entry _Z20persisting_streamingPii(
// CHECK: mov.b64 [[STREAM:%rd[0-9]+]], 1364590687093260288;
// CHECK: ld.global.L2::cache_hint.b32 {{%r[0-9]+}}, [{{.*}}], [[STREAM]];
// CHECK: mov.b64 [[PERSIST:%rd[0-9]+]], 1508705875169116160;
// CHECK: st.global.L2::cache_hint.b32 [{{.*}}], {{%r[0-9]+}}, [[PERSIST]];
// CHECK-NOT: ld.global.b32
// CHECK: ret;
// NVCC-LABEL: .entry _Z20persisting_streamingPii(
// NVCC: ld.global.L2::cache_hint.u32
// NVCC: st.global.L2::cache_hint.u32
// NVCC: ret;

__global__ void vectors(float4 *p, double *d, cuda::access_property property) {
  cuda::annotated_ptr<float4, cuda::access_property> a(p, property);
  cuda::annotated_ptr<double, cuda::access_property::normal> b(d);
  a[threadIdx.x] = a[threadIdx.x + 1];
  b[threadIdx.x] += 1.0;
}
// CHECK-LABEL: .entry _Z7vectorsP6float4PdN4cuda3__415access_propertyE(
// CHECK: ld.global.L2::cache_hint.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [{{.*}}], [[RUNTIME:%rd[0-9]+]];
// CHECK: st.global.L2::cache_hint.v4.b32 [{{.*}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[RUNTIME]];
// CHECK: ld.global.L2::cache_hint.f64
// CHECK: st.global.L2::cache_hint.f64
// CHECK: ret;
// NVCC-LABEL: .entry _Z7vectorsP6float4PdN4cuda3__415access_propertyE(
// NVCC: ld.global.L2::cache_hint.v4.u32
// NVCC: st.global.L2::cache_hint.v4.u32
// NVCC: ld.global.L2::cache_hint.f64
// NVCC: st.global.L2::cache_hint.f64
// NVCC: ret;
