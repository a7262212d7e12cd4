// Suffixed targets in PTX: the `.target` directive, its PTX ISA version, and
// the macros nvcc 13 defines for `a` and `f` compiles (measured with
// `nvcc --dryrun`: compute_90a gets __CUDA_ARCH_SPECIFIC__=900,
// __CUDA_ARCH_FAMILY_SPECIFIC__=900 and __CUDA_ARCH_FEAT_SM90_ALL;
// compute_100f gets __CUDA_ARCH_FAMILY_SPECIFIC__=1000 alone).
// The kernel `macros` stores each value: p[0] __CUDA_ARCH__, p[1]
// __CUDA_ARCH_SPECIFIC__, p[2] __CUDA_ARCH_FAMILY_SPECIFIC__, p[3] the
// __CUDA_ARCH_FEAT_SM*_ALL defined (XY * 1000 + its value), p[4] the length
// of __CUDA_ARCH_LIST__, p[5] and p[6] its first and last values; -1 for
// undefined.

// RUN: %mycc -ptx -arch=sm_100f %s -o - | FileCheck %s --check-prefix=F100
// F100: .version 8.8
// F100: .target sm_100f{{$}}
// F100-DAG: st.global.b32 [%rd{{[0-9]+}}], 1000;
// F100-DAG: st.global.b32 [%rd{{[0-9]+}}+4], -1;
// F100-DAG: st.global.b32 [%rd{{[0-9]+}}+8], 1000;
// F100-DAG: st.global.b32 [%rd{{[0-9]+}}+12], -1;
// F100-DAG: st.global.b32 [%rd{{[0-9]+}}+16], 1;
// F100-DAG: st.global.b32 [%rd{{[0-9]+}}+20], 1000;
// The family-only instruction the macro enables is in the PTX...
// F100: tcgen05.fence::before_thread_sync
// ...and ptxas accepts it because the PTX names the family.
// RUN: %mycc -cubin -arch=sm_100f %s -o %t.sm_100f.cubin
// RUN: %mycc -cubin -gencode arch=compute_100f,code=sm_103 %s -o %t.sm_103f.cubin

// RUN: %mycc -ptx -gencode arch=compute_120f,code=compute_120f %s -o - | FileCheck %s --check-prefix=F120
// F120: .version 8.8
// F120: .target sm_120f{{$}}
// F120-DAG: st.global.b32 [%rd{{[0-9]+}}], 1200;
// F120-DAG: st.global.b32 [%rd{{[0-9]+}}+4], -1;
// F120-DAG: st.global.b32 [%rd{{[0-9]+}}+8], 1200;
// F120-DAG: st.global.b32 [%rd{{[0-9]+}}+12], -1;
// F120-NOT: tcgen05

// sm_110f needs PTX ISA 9.0, as sm_110 does.
// RUN: %mycc -ptx -arch=sm_110f %s -o - | FileCheck %s --check-prefix=F110
// F110: .version 9.0
// F110: .target sm_110f{{$}}
// F110-DAG: st.global.b32 [%rd{{[0-9]+}}+8], 1100;

// The FEAT macro comes from clang, once: -Werror catches a redefinition.
// RUN: %mycc -ptx -Werror -arch=sm_90a %s -o - | FileCheck %s --check-prefix=A90
// A90: .target sm_90a{{$}}
// A90-DAG: st.global.b32 [%rd{{[0-9]+}}], 900;
// A90-DAG: st.global.b32 [%rd{{[0-9]+}}+4], 900;
// A90-DAG: st.global.b32 [%rd{{[0-9]+}}+8], 900;
// A90-DAG: st.global.b32 [%rd{{[0-9]+}}+12], 90001;
// A90-NOT: tcgen05

// RUN: %mycc -ptx -Werror -arch=sm_103a %s -o - | FileCheck %s --check-prefix=A103
// A103: .target sm_103a{{$}}
// A103-DAG: st.global.b32 [%rd{{[0-9]+}}], 1030;
// A103-DAG: st.global.b32 [%rd{{[0-9]+}}+4], 1030;
// A103-DAG: st.global.b32 [%rd{{[0-9]+}}+8], 1030;
// A103-DAG: st.global.b32 [%rd{{[0-9]+}}+12], 103001;

// sm_100a is a member of the sm_100 family too.
// RUN: %mycc -ptx -arch=sm_100a %s -o - | FileCheck %s --check-prefix=A100
// A100: .target sm_100a{{$}}
// A100-DAG: st.global.b32 [%rd{{[0-9]+}}+4], 1000;
// A100-DAG: st.global.b32 [%rd{{[0-9]+}}+8], 1000;
// A100-DAG: st.global.b32 [%rd{{[0-9]+}}+12], 100001;
// A100: tcgen05.fence::before_thread_sync

// A plain target: none of them.
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=PLAIN
// PLAIN: .target sm_90{{$}}
// PLAIN-DAG: st.global.b32 [%rd{{[0-9]+}}], 900;
// PLAIN-DAG: st.global.b32 [%rd{{[0-9]+}}+4], -1;
// PLAIN-DAG: st.global.b32 [%rd{{[0-9]+}}+8], -1;
// PLAIN-DAG: st.global.b32 [%rd{{[0-9]+}}+12], -1;

// __CUDA_ARCH_LIST__ with several targets: sorted, once each, no suffix
// (nvcc: 800,900). -ptx writes the compute_90a PTX, the one with a cubin.
// RUN: %mycc -ptx -arch=sm_90a -gencode arch=compute_80,code=compute_80 %s -o - | FileCheck %s --check-prefix=LIST
// LIST: .target sm_90a{{$}}
// LIST-DAG: st.global.b32 [%rd{{[0-9]+}}+16], 2;
// LIST-DAG: st.global.b32 [%rd{{[0-9]+}}+20], 800;
// LIST-DAG: st.global.b32 [%rd{{[0-9]+}}+24], 900;

// -arch=all-major: 750,800,900,1000,1100,1200 on every side (nvcc --dryrun).
// RUN: rm -rf %t.keep && mkdir -p %t.keep
// RUN: %mycc -fatbin -arch=all-major --keep --keep-dir %t.keep %s -o %t.fatbin
// RUN: FileCheck %s --check-prefix=MAJOR < %t.keep/targets-family.compute_75.ptx
// RUN: FileCheck %s --check-prefix=MAJOR < %t.keep/targets-family.compute_120.ptx
// MAJOR-DAG: st.global.b32 [%rd{{[0-9]+}}+16], 6;
// MAJOR-DAG: st.global.b32 [%rd{{[0-9]+}}+20], 750;
// MAJOR-DAG: st.global.b32 [%rd{{[0-9]+}}+24], 1200;

__global__ void macros(int *p) {
#ifdef __CUDA_ARCH__
  p[0] = __CUDA_ARCH__;
#endif
#ifdef __CUDA_ARCH_SPECIFIC__
  p[1] = __CUDA_ARCH_SPECIFIC__;
#else
  p[1] = -1;
#endif
#ifdef __CUDA_ARCH_FAMILY_SPECIFIC__
  p[2] = __CUDA_ARCH_FAMILY_SPECIFIC__;
#else
  p[2] = -1;
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  p[3] = 90 * 1000 + __CUDA_ARCH_FEAT_SM90_ALL;
#elif defined(__CUDA_ARCH_FEAT_SM100_ALL)
  p[3] = 100 * 1000 + __CUDA_ARCH_FEAT_SM100_ALL;
#elif defined(__CUDA_ARCH_FEAT_SM103_ALL)
  p[3] = 103 * 1000 + __CUDA_ARCH_FEAT_SM103_ALL;
#else
  p[3] = -1;
#endif
  constexpr int list[] = {__CUDA_ARCH_LIST__};
  constexpr int n = sizeof(list) / sizeof(list[0]);
  p[4] = n;
  p[5] = list[0];
  p[6] = list[n - 1];
}

// Code for the sm_100 family only, as CUDA's own headers guard it.
__global__ void family_only() {
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000
  asm volatile("tcgen05.fence::before_thread_sync;");
#endif
}
