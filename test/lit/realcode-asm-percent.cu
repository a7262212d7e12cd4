// Inline PTX naming special registers with one `%` (%globaltimer, %laneid,
// a register declared in the asm): nvcc passes a `%` that begins no operand
// through; Clang rejected the string ("invalid % escape in inline assembly
// string"). mycc doubles those `%` where Clang reports one and parses again
// (lib/Lowering/SourceRecovery.h), on the device side and in the host
// lowering, so the PTX is nvcc's. Operands and modifiers keep their meaning.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/mycc.ptx
// RUN: FileCheck %s < %t/mycc.ptx
// RUN: %mycc -c -arch=sm_90 %s -o %t/mycc.o
// RUN: %mycc -c -arch=sm_90 --host-in-process %s -o %t/mycc-in-process.o
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o %t/nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s < %t/nvcc.ptx %}
#define SMID_ASM "mov.u32 %0, %smid;"

__device__ unsigned lane() {
  unsigned l;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(l));
  return l;
}

__global__ void registers(unsigned long long *p, unsigned *q) {
  unsigned long long t;
  unsigned s, w, m, x;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  asm volatile("{ .reg .u32 %tmp; mov.u32 %tmp, %nsmid; mov.u32 %0, %tmp; }"
               : "=r"(s));
  asm volatile(SMID_ASM : "=r"(w));
  // Split over literals, %% kept, operands by number (nvcc has no named ones).
  asm volatile("mov.u32 %0, "
               "%%lanemask_lt;"
               : "=r"(m));
  asm volatile("mov.u32 %0, %warpid;" : "=r"(x));
  p[0] = t;
  q[0] = s + w + m + x + lane();
}
// CHECK-LABEL: .entry _Z9registersPyPj(
// CHECK: mov.u64 %rd{{[0-9]+}}, %globaltimer;
// CHECK: { .reg .u32 %tmp; mov.u32 %tmp, %nsmid; mov.u32 %r{{[0-9]+}}, %tmp; }
// CHECK: mov.u32 %r{{[0-9]+}}, %smid;
// CHECK: mov.u32 %r{{[0-9]+}}, %lanemask_lt;
// CHECK: mov.u32 %r{{[0-9]+}}, %warpid;
// CHECK: mov.u32 %r{{[0-9]+}}, %laneid;
