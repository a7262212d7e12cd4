// The sparse 2D gather (tex2Dgather with an isResident flag) compiles to
// nvcc's tld4 of the requested component with a residency predicate. Clang's
// texture header takes that operation's arguments in another order than the
// CUDA header passes them, and mycc failed with "no matching function for call
// to '__run'" (found by the device-API differential test); mycc's prelude
// passes them in the right order. The layered 2D fetch, which has the same
// argument types, is unchanged.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/mycc.ptx
// RUN: FileCheck %s < %t/mycc.ptx
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o %t/nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s < %t/nvcc.ptx %}

// CHECK-LABEL: .entry gather_b
// CHECK: tld4.b.2d.v4.f32.f32 {{.*}}|%p
extern "C" __global__ void gather_b(cudaTextureObject_t t, float4 *o, bool *r) {
  bool resident;
  o[0] = tex2Dgather<float4>(t, 1.5f, 2.5f, &resident, 2);
  r[0] = resident;
}

// CHECK-LABEL: .entry gather_r
// CHECK: tld4.r.2d.v4.s32.f32 {{.*}}|%p
extern "C" __global__ void gather_r(cudaTextureObject_t t, int4 *o, bool *r) {
  bool resident;
  tex2Dgather(o, t, 0.5f, 0.5f, &resident, 0);
  r[0] = resident;
}

// CHECK-LABEL: .entry gather_any
// CHECK-DAG: tld4.r.2d.v4.u32.f32
// CHECK-DAG: tld4.g.2d.v4.u32.f32
// CHECK-DAG: tld4.b.2d.v4.u32.f32
// CHECK-DAG: tld4.a.2d.v4.u32.f32
extern "C" __global__ void gather_any(cudaTextureObject_t t, uint4 *o, bool *r, int comp) {
  bool resident;
  o[0] = tex2Dgather<uint4>(t, 0.5f, 0.5f, &resident, comp);
  r[0] = resident;
}

// CHECK-LABEL: .entry layered
// CHECK: tex.a2d.v4.f32.f32 {{.*}}|%p
extern "C" __global__ void layered(cudaTextureObject_t t, float *o, bool *r, int layer) {
  bool resident;
  o[0] = tex2DLayered<float>(t, 0.5f, 0.5f, layer, &resident);
  r[0] = resident;
}
