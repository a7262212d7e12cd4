// ggml's kernels take __restrict__ pointers, in templates and not. g++
// keeps a parameter's __restrict__ in decltype and compares it with the
// function's own type, which has none: the stub's cast that names its own
// kernel failed ("invalid static_cast from <unresolved overloaded function
// type>"), and Clang (--host-in-process) rejected the conversion of the
// parameter's address to void * that drops the qualifier.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -std=c++17 -arch=sm_90 -Xcompiler=-Werror,-Wall,-Wextra,-Wcast-qual %s -o %t/mycc
// RUN: %mycc -std=c++17 -arch=sm_90 --host-in-process %s -o %t/in-process
// RUN: %mycc -std=c++17 -arch=sm_90 -cuda %s -o %t/lowered.ii
// RUN: FileCheck %s < %t/lowered.ii
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -std=c++17 -arch=sm_90 %s -o %t/nvcc %}

template <typename T_dst, typename T_wire>
static __global__ void allreduce(const T_dst *send, T_dst *recv,
                                 T_wire *__restrict__ mine,
                                 const T_wire *__restrict__ other, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) recv[i] = send[i] + T_dst(mine[i]) + T_dst(other[i]);
}

__global__ void scale(float *__restrict__ p, const float f) { p[threadIdx.x] *= f; }

// CHECK: template <class T> struct __mycc_unrestrict { typedef T type; };
// CHECK: static_cast<void (*)(decltype(send), decltype(recv), typename __mycc_unrestrict<decltype(mine)>::type, typename __mycc_unrestrict<decltype(other)>::type, decltype(count))>
// CHECK: static_cast<void (*)(__mycc_unrestrict<decltype(p)>::type, decltype(f))>

int main() {
  allreduce<float, double><<<1, 32>>>(nullptr, nullptr, nullptr, nullptr, 0);
  scale<<<1, 32>>>(nullptr, 2.0f);
  return 0;
}
