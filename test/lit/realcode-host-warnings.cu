// What the host compiler reads of a unit must compile under the warning
// flags real projects give it (CCCL's own build: -Xcompiler=-Werror,-Wall,
// -Wextra,-Wcast-qual, nvcc's -Wreorder): a kernel stub passes a `const`
// parameter's address without a C-style cast (-Wcast-qual), and a device
// constructor loses its member initializers with its body (which called a
// device function whose body is left out: "used but never defined").
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -c -std=c++17 -arch=sm_90 -Wreorder -Xcompiler=-Werror,-Wall,-Wextra,-Wcast-qual,-Wno-unused-function %s -o %t/mycc.o
// RUN: %mycc -std=c++17 -arch=sm_90 -cuda %s -o %t/lowered.ii
// RUN: FileCheck %s < %t/lowered.ii
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -c -std=c++17 -arch=sm_90 -Wreorder -Xcompiler=-Werror,-Wall,-Wextra,-Wcast-qual,-Wno-unused-function %s -o %t/nvcc.o %}

template <typename = void> static inline __device__ bool leader(unsigned mask) {
  return (__activemask() & mask) == mask;
}

struct Base {
  int rank;
};
struct Squad : Base {
  bool isLeader = false;
  __device__ Squad(Base base)
      : Base(base) {
    isLeader = leader(~0u);
  }
};

__global__ void kernel(const long n, const Base base, bool *out) {
  Squad squad(base);
  out[n] = squad.isLeader;
}
// CHECK: Squad(Base base)
// CHECK-NEXT: ;
// CHECK: const_cast<void *>(static_cast<const volatile void *>(&n))
