// A volatile local variable whose address never leaves the function stays in
// registers, as nvcc keeps it: no local memory, no reload per access. It
// matters for libcu++'s cuda::atomic_ref::wait, which reads the reference's
// pointer through a volatile access on every poll (mycc kept the pointer in
// local memory and reloaded it each time; nvcc keeps it in a register). A
// volatile local whose address escapes stays in memory, in both.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/mycc.ptx
// RUN: FileCheck %s < %t/mycc.ptx
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o %t/nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s < %t/nvcc.ptx %}
#include <cuda/atomic>

// CHECK-LABEL: .entry wait_flag(
// CHECK-NOT: .local
// CHECK: ld.acquire.gpu.b32
// CHECK: ret;
extern "C" __global__ void wait_flag(int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(*flag);
  ref.wait(0, cuda::std::memory_order_acquire);
  out[0] = 1;
}

// CHECK-LABEL: .entry counter(
// CHECK-NOT: .local
// CHECK: ret;
extern "C" __global__ void counter(int *out, int n) {
  volatile int i;
  for (i = 0; i < n; i = i + 1) {
  }
  out[0] = i;
}

// CHECK-LABEL: .entry escaping(
// CHECK: .local
// CHECK: st.local.{{[bu]}}32
// CHECK: ld.local
// CHECK: ret;
extern "C" __global__ void escaping(unsigned long long *out, int v) {
  volatile int x = v;
  out[0] = reinterpret_cast<unsigned long long>(&x);
  out[1] = x;
}
