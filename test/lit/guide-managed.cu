// __managed__ variables: `.attribute(.managed)` in the PTX, as nvcc's; on the
// host a pointer cudart sets, registered as managed (flag 2), and every host
// access rewritten to go through it after the module is loaded, while device
// code keeps the shadow. The rewritten unit compiles with the host compiler.
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %mycc -cuda -arch=sm_90 %s -o %t.ii
// RUN: FileCheck %s < %t.ii
// RUN: %mycc -c -arch=sm_90 %s -o %t.o
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 --extended-lambda %s -o - | FileCheck %s --check-prefix=PTX %}

__managed__ int counter;
__managed__ float table[4] = {1, 2, 3, 4};

__host__ __device__ int twice() { return 2 * counter; }
__global__ void bump() {
  counter += 1;
  table[0] = 5;
  auto inner = [] __device__ () { return counter; };
  table[1] = inner();
}
int main() {
  counter = 3;
  int *p = &counter;
  auto host = [] { return table[2]; };
  return *p + twice() + static_cast<int>(host());
}

// nvcc keeps them internal to the module in whole-program mode.
// PTX-DAG: {{(.visible )?}}.global .attribute(.managed) .align 4 .u32 counter;
// PTX-DAG: {{(.visible )?}}.global .attribute(.managed) .align 4 .b8 table[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};

// CHECK: static char __mycc_managed_ready;
// CHECK-NEXT: static void __mycc_managed_init(void);
// CHECK: int counter; static __typeof__(counter) *__mycc_managed_0 = 0;
// CHECK: float table[4] = {1, 2, 3, 4}; static __typeof__(table) *__mycc_managed_1 = 0;
// A __host__ __device__ function runs on the host too.
// CHECK: return 2 * (*(::__mycc_managed_ready ? (void)0 : ::__mycc_managed_init(), ::__mycc_managed_0));
// CHECK: (*(::__mycc_managed_ready ? (void)0 : ::__mycc_managed_init(), ::__mycc_managed_0)) = 3;
// CHECK: int *p = &(*(::__mycc_managed_ready ? (void)0 : ::__mycc_managed_init(), ::__mycc_managed_0));
// CHECK: return (*(::__mycc_managed_ready ? (void)0 : ::__mycc_managed_init(), ::__mycc_managed_1))[2];
// CHECK: {const_cast<void *>(static_cast<const volatile void *>(&::__mycc_managed_0)), "counter", sizeof(::counter), 2},
// CHECK: {const_cast<void *>(static_cast<const volatile void *>(&::__mycc_managed_1)), "table", sizeof(::table), 2},
// CHECK: static void __mycc_managed_init(void) {
// CHECK-NEXT: __mycc_init_managed(&__mycc_module);
