// mycc's prelude: the driver includes this header into every CUDA unit it
// compiles, on the host side (preprocessing) and on each device side, right
// after Clang's CUDA runtime wrapper and before the user's -include files,
// as nvcc's front end includes cuda_runtime.h first. It supplies what nvcc's
// headers or nvcc's compiler provide and Clang's CUDA headers do not, with
// nvcc's semantics (docs/nvcc-compatibility.md). It is not meant to be
// included by user code.
#ifndef MYCC_PRELUDE_H
#define MYCC_PRELUDE_H
// A system header, as the CUDA headers it completes: user warning flags
// (-Wall -Wextra -Werror) do not apply to it.
#pragma GCC system_header

#if defined(__cplusplus) && defined(__CUDA__)

// nvcc's crt/common_functions.h includes <new> on the device side: device
// code may use new and delete without including it. With Clang, the device
// operators are defined by its cuda_wrappers/new header; a unit that never
// includes <new> left _Znwm/_ZdlPvm unresolved in the PTX, which ptxas
// rejects. Like nvcc, the host side does not get it.
#if defined(__CUDA_ARCH__)
#include <new>
#endif

//===----------------------------------------------------------------------===//
// Host min/max (crt/math_functions.hpp)
//===----------------------------------------------------------------------===//
//
// nvcc defines the min/max overloads of crt/math_functions.hpp as
// __host__ __device__, and the int/umin/llmin/ullmin/... helpers as
// __host__ __device__ when compiling for the host. Clang's wrapper makes all
// of them device-only, so host code calling max(unsigned, int) or
// min(size_t, size_t) finds no viable function. The same overloads are
// declared here for the host, with the same conversions: a mixed signed/
// unsigned pair compares as unsigned, float/double pairs as double through
// fmin/fmax. Clang overloads __host__ against __device__, so the device
// versions stay as they are and each side resolves to its own.

#define __MYCC_HOST_HELPER inline __host__
#define __MYCC_HOST_MINMAX static inline __host__

__MYCC_HOST_HELPER int min(const int __a, const int __b) {
  return __a < __b ? __a : __b;
}
__MYCC_HOST_HELPER unsigned int umin(const unsigned int __a,
                                     const unsigned int __b) {
  return __a < __b ? __a : __b;
}
__MYCC_HOST_HELPER long long int llmin(const long long int __a,
                                       const long long int __b) {
  return __a < __b ? __a : __b;
}
__MYCC_HOST_HELPER unsigned long long int
ullmin(const unsigned long long int __a, const unsigned long long int __b) {
  return __a < __b ? __a : __b;
}
__MYCC_HOST_HELPER int max(const int __a, const int __b) {
  return __a > __b ? __a : __b;
}
__MYCC_HOST_HELPER unsigned int umax(const unsigned int __a,
                                     const unsigned int __b) {
  return __a > __b ? __a : __b;
}
__MYCC_HOST_HELPER long long int llmax(const long long int __a,
                                       const long long int __b) {
  return __a > __b ? __a : __b;
}
__MYCC_HOST_HELPER unsigned long long int
ullmax(const unsigned long long int __a, const unsigned long long int __b) {
  return __a > __b ? __a : __b;
}

// One min and one max per pair of parameter types A, B: both converted to T,
// compared with MINF/MAXF (umin, llmin, fminf, ...), the result returned as R.
#define __MYCC_HOST_MINMAX_PAIR(R, A, B, T, MINF, MAXF)                        \
  __MYCC_HOST_MINMAX R min(const A __a, const B __b) {                         \
    return static_cast<R>(MINF(static_cast<T>(__a), static_cast<T>(__b)));     \
  }                                                                            \
  __MYCC_HOST_MINMAX R max(const A __a, const B __b) {                         \
    return static_cast<R>(MAXF(static_cast<T>(__a), static_cast<T>(__b)));     \
  }

#define __MYCC_U unsigned int
#define __MYCC_L long int
#define __MYCC_UL unsigned long int
#define __MYCC_LL long long int
#define __MYCC_ULL unsigned long long int
__MYCC_HOST_MINMAX_PAIR(__MYCC_U, __MYCC_U, __MYCC_U, __MYCC_U, umin, umax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_U, int, __MYCC_U, __MYCC_U, umin, umax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_U, __MYCC_U, int, __MYCC_U, umin, umax)
// long is 64 bits on the LP64 hosts mycc targets: nvcc's 64-bit helpers
// (it picks the 32-bit ones only where long has the size of int).
__MYCC_HOST_MINMAX_PAIR(__MYCC_L, __MYCC_L, __MYCC_L, __MYCC_LL, llmin, llmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_UL, __MYCC_UL, __MYCC_UL, __MYCC_ULL, ullmin,
                        ullmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_UL, __MYCC_L, __MYCC_UL, __MYCC_ULL, ullmin,
                        ullmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_UL, __MYCC_UL, __MYCC_L, __MYCC_ULL, ullmin,
                        ullmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_LL, __MYCC_LL, __MYCC_LL, __MYCC_LL, llmin,
                        llmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_ULL, __MYCC_ULL, __MYCC_ULL, __MYCC_ULL, ullmin,
                        ullmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_ULL, __MYCC_LL, __MYCC_ULL, __MYCC_ULL, ullmin,
                        ullmax)
__MYCC_HOST_MINMAX_PAIR(__MYCC_ULL, __MYCC_ULL, __MYCC_LL, __MYCC_ULL, ullmin,
                        ullmax)
// The host C library's fminf/fmin/fmaxf/fmax, which nvcc's host code calls.
__MYCC_HOST_MINMAX_PAIR(float, float, float, float, __builtin_fminf,
                        __builtin_fmaxf)
__MYCC_HOST_MINMAX_PAIR(double, double, double, double, __builtin_fmin,
                        __builtin_fmax)
__MYCC_HOST_MINMAX_PAIR(double, float, double, double, __builtin_fmin,
                        __builtin_fmax)
__MYCC_HOST_MINMAX_PAIR(double, double, float, double, __builtin_fmin,
                        __builtin_fmax)
#undef __MYCC_U
#undef __MYCC_L
#undef __MYCC_UL
#undef __MYCC_LL
#undef __MYCC_ULL
#undef __MYCC_HOST_MINMAX_PAIR
#undef __MYCC_HOST_MINMAX
#undef __MYCC_HOST_HELPER

//===----------------------------------------------------------------------===//
// Device nan/nanf
//===----------------------------------------------------------------------===//
//
// Clang's __clang_cuda_math_forward_declares.h declares device
// `static double nan(const char *)` and `static float nanf(const char *)`,
// but no Clang header defines them: a kernel calling nan("") left an
// unresolved _ZL3nanPKc that ptxas rejects. nvcc's device nan/nanf are
// libdevice's: the tag is read as a decimal, octal (0...) or hexadecimal
// (0x...) number that becomes the NaN's payload (nan("") is 0x7ff8000000000000,
// nan("123") 0x7ff800000000007b), which __nv_nan/__nv_nanf compute.

static __inline__ __attribute__((always_inline)) __device__ double
nan(const char *__tagp) {
  return __nv_nan(reinterpret_cast<const signed char *>(__tagp));
}
static __inline__ __attribute__((always_inline)) __device__ float
nanf(const char *__tagp) {
  return __nv_nanf(reinterpret_cast<const signed char *>(__tagp));
}

//===----------------------------------------------------------------------===//
// Pure and deleted virtual functions on the device
//===----------------------------------------------------------------------===//
//
// Clang fills a pure virtual function's vtable slot with __cxa_pure_virtual
// (a deleted one's with __cxa_deleted_virtual), which has no device
// definition: ptxas fails with "Cannot take address of function
// __cxa_pure_virtual" once such a vtable is emitted. nvcc leaves these slots
// null, so a call through one (from a constructor or destructor of the
// abstract class) jumps to address 0 and the kernel does not return; here it
// traps and the launch fails (cudaErrorLaunchFailure). Inline: a unit defines
// them (as weak symbols) only where one of its vtables refers to them.
#if defined(__CUDA_ARCH__)
extern "C" __device__ inline __attribute__((noreturn)) void
__cxa_pure_virtual(void) {
  __trap();
}
extern "C" __device__ inline __attribute__((noreturn)) void
__cxa_deleted_virtual(void) {
  __trap();
}
#endif

//===----------------------------------------------------------------------===//
// __maxnreg__
//===----------------------------------------------------------------------===//
//
// CUDA's host_defines.h spells __maxnreg__(N) as __attribute__((maxnreg(N))),
// which Clang does not know: it warned "unknown attribute 'maxnreg' ignored"
// and the kernel lost nvcc's `.maxnreg N`. On the device side it becomes an
// annotation that mycc's device compile reads back and turns into
// `.maxnreg` (lib/Offload/KernelAttributes.h, which also names the
// annotation); the host side has no use for it, as for __launch_bounds__.
#undef __maxnreg__
#if defined(__CUDA_ARCH__)
#define __maxnreg__(N) __attribute__((annotate("mycc.maxnreg", N)))
#else
#define __maxnreg__(N)
#endif

//===----------------------------------------------------------------------===//
// __prof_trigger
//===----------------------------------------------------------------------===//
//
// Clang's __clang_cuda_device_functions.h defines __prof_trigger(x) as a
// macro around `pmevent %0` with an immediate operand, so a counter that is
// not a constant expression failed in the back end. nvcc's is a function
// of an int: a constant counter gives one `pmevent N`, any other value
// selects among the 16 performance-monitor events at run time (values
// outside 0..15 trigger none).
#undef __prof_trigger
#define __MYCC_PMEVENT(N)                                                      \
  case N:                                                                      \
    __asm__ __volatile__("pmevent %0;" ::"n"(N) : "memory");                   \
    break;
static __inline__ __attribute__((always_inline)) __device__ void
__prof_trigger(int __counter) {
  switch (__counter) {
    __MYCC_PMEVENT(0) __MYCC_PMEVENT(1) __MYCC_PMEVENT(2) __MYCC_PMEVENT(3)
    __MYCC_PMEVENT(4) __MYCC_PMEVENT(5) __MYCC_PMEVENT(6) __MYCC_PMEVENT(7)
    __MYCC_PMEVENT(8) __MYCC_PMEVENT(9) __MYCC_PMEVENT(10) __MYCC_PMEVENT(11)
    __MYCC_PMEVENT(12) __MYCC_PMEVENT(13) __MYCC_PMEVENT(14) __MYCC_PMEVENT(15)
  default:
    break;
  }
}
#undef __MYCC_PMEVENT

//===----------------------------------------------------------------------===//
// The CUDA runtime, linked for mycc's runtime
//===----------------------------------------------------------------------===//
//
// Every unit registers its kernels through mycc's runtime (libmycc_rt.a),
// which calls the CUDA runtime. Build systems that link by themselves put the
// libraries in their own order: CMake links `... -lcudart_static -lrt
// -lpthread -ldl ... -lmycc_rt` (docs/build-systems.md), and a static
// archive is only searched for what is undefined when the linker reaches it.
// A unit that calls no CUDA runtime function itself (CMake's own test
// programs, `int main() {}`) would then leave mycc's runtime without the CUDA
// runtime. So each unit refers to it here, on the host side: the CUDA runtime
// is linked for every unit, as mycc's runtime needs it anyway.
#if !defined(__CUDA_ARCH__)
static cudaError_t (*const __mycc_cudart_anchor)(void)
    __attribute__((used)) = &cudaGetLastError;
#endif

#endif // __cplusplus && __CUDA__
#endif // MYCC_PRELUDE_H
