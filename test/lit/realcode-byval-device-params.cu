// Aggregates passed by value to device functions that are not inlined, such
// as the generic cooperative_groups::thread_group: LLVM 22's NVPTX back end,
// with the 32-bit local pointers mycc uses (-nvptx-short-ptr, for CUB's
// speed), aborted with "Copy one register into another with a different
// width" on a read of such a parameter outside the function's first block,
// and on its address passed on. mycc passes those parameters as aggregate
// values (the same PTX parameter), whose local copy SROA turns back into
// registers (lib/Offload/KernelParams.cpp); the reduced case is in
// docs/nvcc-compatibility.md.
// With -keep-device-functions the functions keep external linkage, so their
// signatures stay and the address of `p` escapes (the case that aborted);
// by default they are internal, as with nvcc, and LLVM passes `sum` the two
// fields instead (no local copy; nvcc 13.0's PTX has none either).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 -keep-device-functions %s -o %t/mycc.ptx
// RUN: FileCheck %s < %t/mycc.ptx
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/mycc-internal.ptx
// RUN: FileCheck %s --check-prefix=INTERNAL < %t/mycc-internal.ptx
// RUN: %mycc -ptx -arch=sm_90 -G %s -o %t/mycc-debug.ptx
// RUN: %mycc -c -arch=sm_90 %s -o %t/mycc.o
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -c -arch=sm_90 %s -o %t/nvcc.o %}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __noinline__ int rank_after_sync(cg::thread_group g, int v) {
  g.sync();
  return v + g.thread_rank();
}

struct Pair {
  int a, b;
};
__device__ __noinline__ int sum(const Pair *p) { return p->a + p->b; }
__device__ __noinline__ int address_passed_on(Pair p) { return sum(&p); }

__global__ void kernel(int *out) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  out[threadIdx.x] = rank_after_sync(tile, 1) +
                     address_passed_on(Pair{out[0], out[1]});
}
// The group's fields are read from the parameter space into registers.
// CHECK-LABEL: .func {{.*}}_Z15rank_after_syncN18cooperative_groups4__v112thread_groupEi(
// CHECK-NOT: .local
// CHECK: ld.param.b64
// CHECK: bar.warp.sync
// CHECK: ret;
// The address escapes: a local copy, as nvcc makes.
// CHECK-LABEL: .func {{.*}}_Z17address_passed_on4Pair(
// CHECK: .local
// CHECK: cvta.local
// CHECK: ret;
// INTERNAL-LABEL: .func {{.*}}_Z17address_passed_on4Pair(
// INTERNAL-NOT: .local
// INTERNAL: ret;
