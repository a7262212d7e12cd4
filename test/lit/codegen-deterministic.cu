// The same source gives the same PTX. Clang emits the device variables only
// host code uses in the order of a pointer-keyed set, different from run to
// run; mycc places them by name. A library's `__device__ constexpr` tag
// objects (declared in a system header, as CCCL's thrust::seq or
// cuda::std::in_place) that only host code uses are not emitted at all, as
// with nvcc: mycc registers no system-header variable for host access.
// RUN: %mycc -ptx -arch=sm_90 -isystem %inputs/system-tags %s -o %t.1.ptx
// RUN: %mycc -ptx -arch=sm_90 -isystem %inputs/system-tags %s -o %t.2.ptx
// RUN: %mycc -ptx -arch=sm_90 -isystem %inputs/system-tags %s -o %t.3.ptx
// RUN: %mycc -ptx -arch=sm_90 -isystem %inputs/system-tags %s -o %t.4.ptx
// RUN: cmp %t.1.ptx %t.2.ptx
// RUN: cmp %t.1.ptx %t.3.ptx
// RUN: cmp %t.1.ptx %t.4.ptx
// RUN: FileCheck %s < %t.1.ptx
#include <tags.h>

static __device__ int counter_h, counter_c, counter_f, counter_a, counter_e, counter_b, counter_g, counter_d;

int read_counters(int *out) {
  int sum = lib::id_of(lib::seq) + lib::id_of(lib::par) + lib::id_of(lib::in_place) +
            lib::id_of(lib::unexpect) + lib::id_of(lib::next) + lib::id_of(lib::prev) +
            lib::id_of(lib::advance) + lib::id_of(lib::distance) + lib::id_of(lib::iter_move) +
            lib::id_of(lib::iter_swap) + lib::id_of(lib::begin) + lib::id_of(lib::end);
  cudaMemcpyFromSymbol(out + 0, counter_a, 4);
  cudaMemcpyFromSymbol(out + 1, counter_b, 4);
  cudaMemcpyFromSymbol(out + 2, counter_c, 4);
  cudaMemcpyFromSymbol(out + 3, counter_d, 4);
  cudaMemcpyFromSymbol(out + 4, counter_e, 4);
  cudaMemcpyFromSymbol(out + 5, counter_f, 4);
  cudaMemcpyFromSymbol(out + 6, counter_g, 4);
  cudaMemcpyFromSymbol(out + 7, counter_h, 4);
  return sum;
}

__global__ void first_tag(int *out) { out[0] = lib::id_of(lib::seq); }

// Host-used device variables stay visible to the runtime, by name.
// CHECK: .visible .global .align 4 .u32 _ZL9counter_a;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_b;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_c;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_d;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_e;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_f;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_g;
// CHECK-NEXT: .visible .global .align 4 .u32 _ZL9counter_h;
// The one tag device code uses, internal; no other tag.
// CHECK-NOT: _ZN3libL{{[0-9]+}}
// CHECK: {{^}}.global .align 4 .b8 _ZN3libL3seqE[4] = {1};
// CHECK-NOT: .b8 _ZN3libL
