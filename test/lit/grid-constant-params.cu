// A const kernel parameter passed by value is a grid constant, as if it were
// declared __grid_constant__: its address (here escaping into inline
// assembly, as a TMA descriptor's does in CUTLASS) is the parameter's own,
// not that of a copy in local memory. CUTLASS writes __grid_constant__ only
// for nvcc (not under __clang__), and its TMA copies faulted on the copy.
// A parameter that is not const is still copied (the kernel may write it).
// RUN: %mycc -arch=sm_90 -ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// nvcc gives the explicitly declared grid constant the same code:
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -arch=sm_90 -ptx %s -o %t.nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s --check-prefix=NVCC < %t.nvcc.ptx %}

struct Desc {
  unsigned long long words[16];
};

#define READ_THROUGH_ADDRESS(d)                                                \
  unsigned long long a;                                                        \
  asm volatile("ld.u64 %0, [%1];" : "=l"(a) : "l"(&d.words[3]));               \
  *out = a;

// CHECK-LABEL: .entry _Z8by_const4DescPy(
// CHECK-NOT: __local_depot
// CHECK: cvta.param.u64
// CHECK: ret;
__global__ void by_const(const Desc d, unsigned long long *out) {
  READ_THROUGH_ADDRESS(d)
}

// CHECK-LABEL: .entry _Z8declared4DescPy(
// CHECK-NOT: __local_depot
// CHECK: cvta.param.u64
// CHECK: ret;
// NVCC-LABEL: .entry _Z8declared4DescPy(
// NVCC-NOT: __local_depot
// NVCC: ret;
__global__ void declared(__grid_constant__ const Desc d, unsigned long long *out) {
  READ_THROUGH_ADDRESS(d)
}

// CHECK-LABEL: .entry _Z8by_value4DescPy(
// CHECK: __local_depot
// CHECK: ret;
__global__ void by_value(Desc d, unsigned long long *out) {
  READ_THROUGH_ADDRESS(d)
}
