// Predefined macros as nvcc 13 has them on both sides (compared with
// `nvcc -E -Xcompiler -dM` of nvcc's host and device preprocessing), and
// GNU `typeof` under -std=c++17, which nvcc's front end takes in host and
// device code: the lowering writes it as __typeof__ for g++, which rejects
// `typeof` in ISO mode. Built by both host pipelines, and by nvcc as a
// check of this file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -std=c++17 -arch=sm_90 %s -o %t/mycc
// RUN: %mycc -std=c++17 -arch=sm_90 --host-in-process %s -o %t/mycc-in-process
// RUN: %mycc -std=c++17 -arch=sm_90 -cuda %s -o %t/lowered.ii
// RUN: FileCheck %s --check-prefix=LOWERED < %t/lowered.ii
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -std=c++17 -arch=sm_90 %s -o %t/nvcc %}

#if __CUDACC__ != 1
#error "__CUDACC__ is not 1"
#endif
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) ||       \
    !defined(__CUDACC_VER_BUILD__)
#error "no __CUDACC_VER_*__"
#endif
#if __CUDA_API_VER_MAJOR__ != __CUDACC_VER_MAJOR__ ||                          \
    __CUDA_API_VER_MINOR__ != __CUDACC_VER_MINOR__
#error "__CUDA_API_VER_*__ differ from __CUDACC_VER_*__"
#endif
#if __CUDACC_DEVICE_ATOMIC_BUILTINS__ != 1
#error "__CUDACC_DEVICE_ATOMIC_BUILTINS__ is not 1"
#endif
#if __CUDA_ARCH_LIST__ != 900
#error "__CUDA_ARCH_LIST__ is not 900"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 900
#error "__CUDA_ARCH__ is not 900"
#endif
#if !defined(__CUDA_ARCH__) && __NVCC_DIAG_PRAGMA_SUPPORT__ != 1 &&            \
    !defined(__clang__)
#error "__NVCC_DIAG_PRAGMA_SUPPORT__ is not 1 for the host compiler"
#endif

__host__ __device__ int twice(int x) {
  typeof(x) y = x;
  return 2 * y;
}

__global__ void kernel(int *p) {
  typeof(p) q = p;
  __typeof__(*q) v = twice(1);
  *q = v;
}

int main() {
  int x = 1;
  typeof(x) y = twice(x);
  return y == 2 ? 0 : 1;
}
// LOWERED-NOT: {{[^_]}}typeof(
// LOWERED: int twice(int x) {
// LOWERED-NEXT: __typeof__(x) y = x;
// LOWERED: __typeof__(x) y = twice(x);
