// nvcc's device floating-point options, each compiled beside nvcc: the
// precision of every division, reciprocal, square root and transcendental
// (ptx_ops.py float: kernel by kernel, the same div/rcp/sqrt/sin/ex2/...
// with the same .rn/.full/.approx/.ftz) and, for -fmad=false, no contraction.
// The default is nvcc's too: sqrtf is sqrt.rn.f32 (it was sqrt.approx.f32,
// libdevice's __CUDA_PREC_SQRT left unresolved).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/default.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT < %t/default.ptx
// RUN: %mycc -ptx -arch=sm_90 -use_fast_math %s -o %t/fast.ptx
// RUN: FileCheck %s --check-prefix=FAST < %t/fast.ptx
// RUN: %mycc -ptx -arch=sm_90 -ftz=true %s -o %t/ftz.ptx
// RUN: %mycc -ptx -arch=sm_90 -prec-div=false %s -o %t/div.ptx
// RUN: FileCheck %s --check-prefix=DIV < %t/div.ptx
// RUN: %mycc -ptx -arch=sm_90 -prec-sqrt=false %s -o %t/sqrt.ptx
// RUN: %mycc -ptx -arch=sm_90 -fmad=false %s -o %t/nofma.ptx
// RUN: FileCheck %s --check-prefix=NOFMA < %t/nofma.ptx
// RUN: %mycc -ptx -arch=sm_90 -ftz=true -prec-div=false %s -o %t/ftzdiv.ptx
// RUN: %mycc -ptx -arch=sm_90 -prec-div=true -use_fast_math %s -o %t/fastprec.ptx
// The -dlto path carries the options to the device link.
// RUN: %mycc -dc -dlto -arch=sm_90 -use_fast_math %s -o %t/fast.o
// RUN: %mycc -dlink -dlto -arch=sm_90 -use_fast_math %t/fast.o -o %t/fast_dlink.o -keep -keep-dir %t
// RUN: FileCheck %s --check-prefix=FAST < %t/a_dlink.compute_90.ptx
// The PTX of the fat binary carries the ptxas options for the driver's JIT,
// spaced as nvcc's fatbinary --cmdline.
// RUN: %mycc -c -arch=sm_90 -fmad=false -maxrregcount=40 -Xptxas -O1 %s -o %t/jit.o
// RUN: %mycc-objdump -l %t/jit.o | FileCheck %s --check-prefix=JIT
// JIT: ELF sm_90
// JIT-NOT: ptxas options
// JIT: PTX compute_90 {{.*}} ptxas options '-O1  --fmad false -maxrregcount=40'
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o %t/nv-default.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/default.ptx %t/nv-default.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -use_fast_math %s -o %t/nv-fast.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/fast.ptx %t/nv-fast.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -ftz=true %s -o %t/nv-ftz.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/ftz.ptx %t/nv-ftz.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -prec-div=false %s -o %t/nv-div.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/div.ptx %t/nv-div.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -prec-sqrt=false %s -o %t/nv-sqrt.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/sqrt.ptx %t/nv-sqrt.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -fmad=false %s -o %t/nv-nofma.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/nofma.ptx %t/nv-nofma.ptx %}
// RUN: %if nvcc %{ FileCheck %s --check-prefix=NOFMA < %t/nv-nofma.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -ftz=true -prec-div=false %s -o %t/nv-ftzdiv.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/ftzdiv.ptx %t/nv-ftzdiv.ptx %}
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 -prec-div=true -use_fast_math %s -o %t/nv-fastprec.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py float %t/fastprec.ptx %t/nv-fastprec.ptx %}
#include <cmath>

// Neither compiler defines these, whatever the options (Clang's wrapper
// defines the first two as 0).
#if defined(__USE_FAST_MATH__) || defined(__CUDA_PREC_DIV) ||                  \
    defined(__CUDA_PREC_SQRT) || defined(__CUDA_FTZ)
#error "nvcc defines none of these"
#endif

#define UNARY(NAME, EXPR)                                                      \
  extern "C" __global__ void NAME(float *o, const float *a) {                  \
    float x = a[threadIdx.x];                                                  \
    o[threadIdx.x] = EXPR;                                                     \
  }
#define BINARY(NAME, EXPR)                                                     \
  extern "C" __global__ void NAME(float *o, const float *a, const float *b) { \
    float x = a[threadIdx.x], y = b[threadIdx.x];                              \
    o[threadIdx.x] = EXPR;                                                     \
  }

BINARY(k_div, x / y)
BINARY(k_fdividef, fdividef(x, y))
BINARY(k_intrinsic_div, __fdividef(x, y))
UNARY(k_rcp, 1.0f / x)
UNARY(k_sqrtf, sqrtf(x))
UNARY(k_std_sqrt, std::sqrt(x))
UNARY(k_rsqrtf, rsqrtf(x))
UNARY(k_sinf, sinf(x))
UNARY(k_cosf, cosf(x))
UNARY(k_tanf, tanf(x))
UNARY(k_logf, logf(x))
UNARY(k_log2f, log2f(x))
UNARY(k_log10f, log10f(x))
UNARY(k_expf, expf(x))
UNARY(k_exp2f, exp2f(x))
UNARY(k_exp10f, exp10f(x))
BINARY(k_powf, powf(x, y))
UNARY(k_tanhf, tanhf(x))
UNARY(k_std_exp, std::exp(x))
BINARY(k_hypotf, hypotf(x, y))
UNARY(k_sinf_intrinsic, __sinf(x))
extern "C" __global__ void k_sincosf(float *o, const float *a) {
  float s, c;
  sincosf(a[threadIdx.x], &s, &c);
  o[threadIdx.x] = s * c;
}
extern "C" __global__ void k_double(double *o, const double *a) {
  double x = a[threadIdx.x];
  o[threadIdx.x] = sqrt(x) / x + sin(x);
}
extern "C" __global__ void k_mad(float *o, const float *a, const float *b) {
  o[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x] + o[threadIdx.x];
}

// DEFAULT-LABEL: .entry k_div(
// DEFAULT: div.rn.f32
// DEFAULT-LABEL: .entry k_rcp(
// DEFAULT: rcp.rn.f32
// DEFAULT-LABEL: .entry k_sqrtf(
// DEFAULT: sqrt.rn.f32
// DEFAULT-LABEL: .entry k_mad(
// DEFAULT: fma.rn.f32

// FAST-LABEL: .entry k_div(
// FAST: div.approx.ftz.f32
// FAST-LABEL: .entry k_sqrtf(
// FAST: sqrt.approx.ftz.f32
// FAST-LABEL: .entry k_sinf(
// FAST: sin.approx.ftz.f32
// FAST-LABEL: .entry k_expf(
// FAST: ex2.approx.ftz.f32
// FAST-LABEL: .entry k_tanhf(
// FAST: tanh.approx.f32

// DIV-LABEL: .entry k_div(
// DIV: div.full.f32
// DIV-LABEL: .entry k_rcp(
// DIV: rcp.approx.f32

// NOFMA-LABEL: .entry k_mad(
// NOFMA: mul.rn.f32
// NOFMA: add.rn.f32
// NOFMA-NOT: fma
// NOFMA: ret;
