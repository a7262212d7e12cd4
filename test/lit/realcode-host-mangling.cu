// ggml's kernels are specialised on static device function templates
// (`k_get_rows_kq<float, dequantize_q4_0<float>>`, the dequantizer's type
// depending on the kernel's first parameter). g++ names the host stubs of
// those specialisations otherwise than Clang 22, and the registration table
// named symbols nothing defined (undefined references at the link):
//  - no `Tn <type>` for a non-type template parameter whose type depends on
//    another parameter (Clang 18 and later write it);
//  - no 'L' of internal linkage for a global static function template's
//    specialisation, as the kernel or inside a template argument.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -std=c++17 -arch=sm_90 %s -o %t/mycc
// RUN: %mycc -std=c++17 -arch=sm_90 --host-in-process %s -o %t/in-process
// RUN: nm %t/mycc | FileCheck %s
// g++'s names, as nvcc's build has them:
// CHECK-DAG: {{[tTwW]}} _Z8get_rowsIfXadL_Z7dequantIfEvPKvlRT_EEEvS2_PS3_
// CHECK-DAG: {{[tTwW]}} _Z6scaledIXadL_ZL4halffEEEvPf
// CHECK-DAG: {{[tTwW]}} _Z4copyIXadL_Z7dequantIdEvPKvlRT_EEEvS2_Pd
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -std=c++17 -arch=sm_90 %s -o %t/nvcc %}

template <typename T> static __device__ void dequant(const void *x, long i, T &v) {
  v = T(static_cast<const unsigned char *>(x)[i]);
}

template <typename T, void (*f)(const void *, long, T &)>
static __global__ void get_rows(const void *x, T *out) {
  T v;
  f(x, threadIdx.x, v);
  out[threadIdx.x] = v;
}

static __device__ float half(float x) { return x / 2; }

template <float (*f)(float)> static __global__ void scaled(float *p) {
  p[threadIdx.x] = f(p[threadIdx.x]);
}

template <void (*f)(const void *, long, double &)>
__global__ void copy(const void *x, double *out) {
  f(x, threadIdx.x, out[threadIdx.x]);
}

int main() {
  get_rows<float, dequant<float>><<<1, 32>>>(nullptr, nullptr);
  scaled<half><<<1, 32>>>(nullptr);
  copy<dequant<double>><<<1, 32>>>(nullptr, nullptr);
  return 0;
}
