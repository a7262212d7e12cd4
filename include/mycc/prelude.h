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

// nvcc defines __CUDACC__ as 1 (`#if __CUDACC__ == 1` compiles with it);
// Clang's wrapper leaves it defined but empty.
#undef __CUDACC__
#define __CUDACC__ 1

// Clang's wrapper defines __USE_FAST_MATH__ and __CUDA_PREC_DIV as 0 for
// CUDA 8's headers (no later toolkit header reads them); nvcc defines
// neither, with or without -use_fast_math, so `#ifdef __USE_FAST_MATH__`
// must not hold.
#undef __USE_FAST_MATH__
#undef __CUDA_PREC_DIV

// nvcc's crt/common_functions.h includes <new> on the device side: device
// code may use new and delete without including it. With Clang, the device
// operators are defined by its cuda_wrappers/new header; a unit that never
// includes <new> left _Znwm/_ZdlPvm unresolved in the PTX, which ptxas
// rejects. Like nvcc, the host side does not get it.
#if defined(__CUDA_ARCH__)
#include <new>
#endif

// nvcc's crt/common_functions.h includes <time.h> on both sides: code that
// calls clock() or uses CLOCKS_PER_SEC with only <cuda_runtime.h> (or
// nothing) included compiles with nvcc.
#include <time.h>

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
// Host isfinite/isnan/isinf/signbit in the global namespace
//===----------------------------------------------------------------------===//
//
// Clang's __clang_cuda_cmath.h declares ::isfinite(float), ::isnan(double),
// ... as device functions; host code calling them unqualified after <cmath>
// (which leaves only std::isfinite for the host) found no viable function.
// CUDA's math_functions.h declares them __host__ __device__, so nvcc's host
// code calls the C library's classification. libstdc++'s <math.h> brings
// the host ones into the global namespace with these using-declarations;
// so does the prelude (a second one, from <math.h>, is allowed).
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

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
// Cooperative groups: thread block clusters
//===----------------------------------------------------------------------===//
//
// cooperative_groups/details/info.h offers cluster_group, this_cluster() and
// the grid's cluster queries only to nvcc, NVRTC, or a compiler that says it
// has the cluster intrinsics by defining _CG_CLUSTER_INTRINSICS_AVAILABLE.
// Clang's headers define every intrinsic they use (__clusterDimIsSpecified,
// __cluster_map_shared_rank, __cluster_barrier_arrive, ...), so mycc says so
// here rather than define __NVCC__ (docs/nvcc-compatibility.md, "__NVCC__
// and the code paths it selects"). The headers still require sm_90 on the
// device side.
#ifndef _CG_CLUSTER_INTRINSICS_AVAILABLE
#define _CG_CLUSTER_INTRINSICS_AVAILABLE 1
#endif

//===----------------------------------------------------------------------===//
// Sparse 2D texture gather
//===----------------------------------------------------------------------===//
//
// texture_indirect_functions.h's tex2Dgather(T *, obj, x, y, bool *isResident,
// comp) fetches "__itex2Dgather_sparse" with the arguments (x, y, comp,
// isResident); Clang's texture header dispatches that operation on `comp`
// with the parameters (x, y, isResident, comp), so every such call failed
// with "no matching function for call to '__run'" (found by the device-API
// differential test). This overload of the header's __tex_fetch_impl (found
// at instantiation through its tag argument, and more specialized than the
// header's variadic one) takes the calls with those argument types and
// passes them on in the order the operation's dispatcher takes; other
// operations with the same argument types (2D layered) go on as before.
#if defined(__CLANG_CUDA_TEXTURE_INTRINSICS_H__) &&                            \
    (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600)
namespace {
namespace __cuda_tex {
template <class __op, class __T>
__device__ static void __tex_fetch_impl(__texture_op_tag, __T *__ptr,
                                        cudaTextureObject_t __handle,
                                        float __x, float __y, int __i,
                                        unsigned char *__ir) {
  using __FetchT = typename __TypeInfoT<__T>::__fetch_t;
  if constexpr (__is_same(__op, __Tag<__tex_op_hash("__itex2Dgather_sparse")>))
    *__ptr = __convert<__T, __FetchT>::__run(
        __tex_fetch_v4<__op>::template __run<__FetchT>(__handle, __x, __y, __ir, __i));
  else
    *__ptr = __convert<__T, __FetchT>::__run(
        __tex_fetch_v4<__op>::template __run<__FetchT>(__handle, __x, __y, __i, __ir));
}
} // namespace __cuda_tex
} // namespace
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
// __managed__
//===----------------------------------------------------------------------===//
//
// CUDA's host_defines.h spells __managed__ as __attribute__((managed)), which
// Clang implements for HIP only: in CUDA it warned "'managed' attribute
// ignored" and the variable became a host variable that kernels may not
// use. Here a managed variable is a __device__ variable with an annotation
// (lib/Offload/Annotations.h) on both sides: the device compile gives it
// `.attribute(.managed)`, the host lowering registers it as managed and
// turns host accesses into accesses of the managed allocation, as nvcc does.
#undef __managed__
#define __managed__ __device__ __attribute__((annotate("mycc.managed")))

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
// Device functions CUDA's headers declare and Clang's do not define
//===----------------------------------------------------------------------===//
//
// nvcc compiles these from its own headers (sm_20_intrinsics.h,
// sm_32_intrinsics.h, sm_90_rt.h) or as builtins; with Clang's headers they
// were "no matching function" errors or calls to undefined functions that
// only ptxas reported. Each is written from the PTX nvcc emits for it.

// __tanhf: the hardware's approximate tanh (sm_75), as nvcc's.
static __inline__ __attribute__((always_inline)) __device__ float
__tanhf(float __x) {
  float __r;
  __asm__("tanh.approx.f32 %0, %1;" : "=f"(__r) : "f"(__x));
  return __r;
}

// Clang's headers define __ldcg, __ldcv, __ldcs and __stwt from C++11 on;
// under -std=c++03 the toolkit's definitions below keep those names.
#if __cplusplus >= 201103L
#define __MYCC_CLANG_CACHE_OPERATORS 1
#endif

#ifdef __MYCC_CLANG_CACHE_OPERATORS
// The unsigned long overloads of the cache-operator loads and stores (Clang
// has the long ones but for __stwt, below); unsigned long is 64 bits on
// mycc's hosts.
static __inline__ __attribute__((always_inline)) __device__ unsigned long
__ldcg(const unsigned long *__p) {
  return static_cast<unsigned long>(
      __ldcg(reinterpret_cast<const unsigned long long *>(__p)));
}
static __inline__ __attribute__((always_inline)) __device__ unsigned long
__ldcs(const unsigned long *__p) {
  return static_cast<unsigned long>(
      __ldcs(reinterpret_cast<const unsigned long long *>(__p)));
}
static __inline__ __attribute__((always_inline)) __device__ unsigned long
__ldcv(const unsigned long *__p) {
  return static_cast<unsigned long>(
      __ldcv(reinterpret_cast<const unsigned long long *>(__p)));
}
static __inline__ __attribute__((always_inline)) __device__ void
__stwt(unsigned long *__p, unsigned long __v) {
  __stwt(reinterpret_cast<unsigned long long *>(__p),
         static_cast<unsigned long long>(__v));
}
#endif

// The cache-operator loads and stores Clang's headers do not define at all
// (__ldca, __ldlu, __stwb, __stcg, __stcs, every overload): the toolkit's own
// definitions, which nvcc compiles, from sm_32_intrinsics.hpp. Clang's
// header keeps that file out (it defines __ldg, __ldcg, __ldcv, __ldcs,
// __stwt and the funnel shifts itself), so it is read once here with those
// names moved aside; the copies under the __mycc_sm32_ names go unused.
#pragma push_macro("__SM_32_INTRINSICS_HPP__")
#undef __SM_32_INTRINSICS_HPP__
#define __ldg __mycc_sm32_ldg
#ifdef __MYCC_CLANG_CACHE_OPERATORS
#define __ldcg __mycc_sm32_ldcg
#define __ldcv __mycc_sm32_ldcv
#define __ldcs __mycc_sm32_ldcs
#define __stwt __mycc_sm32_stwt
#endif
#define __funnelshift_l __mycc_sm32_funnelshift_l
#define __funnelshift_lc __mycc_sm32_funnelshift_lc
#define __funnelshift_r __mycc_sm32_funnelshift_r
#define __funnelshift_rc __mycc_sm32_funnelshift_rc
#include "sm_32_intrinsics.hpp"
#undef __ldg
#undef __ldcg
#undef __ldcv
#undef __ldcs
#undef __stwt
#undef __funnelshift_l
#undef __funnelshift_lc
#undef __funnelshift_r
#undef __funnelshift_rc
#pragma pop_macro("__SM_32_INTRINSICS_HPP__")
#ifdef __MYCC_CLANG_CACHE_OPERATORS
// Clang's __stwt has no long overload either: the toolkit's.
static __inline__ __attribute__((always_inline)) __device__ void
__stwt(long *__p, long __v) {
  __mycc_sm32_stwt(__p, __v);
}
#endif
#undef __MYCC_CLANG_CACHE_OPERATORS

// __isGridConstant(p) (sm_70): whether p points to a __grid_constant__ kernel
// parameter, i.e. into the parameter space. CUDA's sm_20_intrinsics.hpp
// calls this function, which nvcc provides and Clang does not (a call of an
// undefined function that only ptxas reported); nvcc folds it where it can,
// the instruction gives the same answer.
#if defined(__CUDA_ARCH__)
extern "C" __device__ inline unsigned __nv_isGridConstant_impl(const void *__p) {
  unsigned __r;
  __asm__("{ .reg .pred __mycc_p; isspacep.param __mycc_p, %1; "
          "selp.u32 %0, 1, 0, __mycc_p; }"
          : "=r"(__r)
          : "l"(__p));
  return __r;
}
#endif

// cuda_runtime.h's typed conveniences (cudaMalloc(T **, size_t), ...) are
// __host__ templates; nvcc's front end lets device code call them, as the
// device runtime's API (-rdc=true: libcudadevrt; otherwise the header's
// failing stubs). Clang took the host template and left a call of an
// undefined function in the PTX, which nvlink rejected. These device
// overloads forward to the device runtime's functions, as nvcc's code does.
#if defined(__CUDA_ARCH__)
template <class __T>
static __inline__ __device__ cudaError_t cudaMalloc(__T **__p, size_t __n) {
  return ::cudaMalloc((void **)(void *)__p, __n);
}
template <class __T>
static __inline__ __device__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *__attr, __T *__entry) {
  return ::cudaFuncGetAttributes(__attr, (const void *)__entry);
}
template <class __T>
static __inline__ __device__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *__blocks, __T __func,
                                              int __blockSize,
                                              size_t __smem) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      __blocks, (const void *)__func, __blockSize, __smem);
}
template <class __T>
static __inline__ __device__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *__blocks, __T __func, int __blockSize, size_t __smem,
    unsigned int __flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      __blocks, (const void *)__func, __blockSize, __smem, __flags);
}
#endif

// A kernel launch in device code (dynamic parallelism) as nvcc makes it:
// the device runtime's V2 interface (cudaGetParameterBufferV2 with the
// launch's configuration, cudaLaunchDeviceV2). Clang emits the older
// cudaGetParameterBuffer/cudaLaunchDevice pair, with which a launch into
// cudaStreamTailLaunch or cudaStreamFireAndForget silently never ran; mycc's
// device code generation (DeviceCodegen.cpp, useLaunchDeviceV2) sends each
// such launch here, with its arguments in a local buffer, and removes this
// function from units that launch nothing.
#if defined(__CUDA_ARCH__) && (defined(__CUDACC_RDC__) || defined(__CUDACC_EWP__))
__attribute__((used)) static __device__ cudaError_t
__mycc_launch_device(void *__func, const void *__args, size_t __size,
                     dim3 __grid, dim3 __block, unsigned int __smem,
                     cudaStream_t __stream) {
  void *__buffer = cudaGetParameterBufferV2(__func, __grid, __block, __smem);
  if (!__buffer) return cudaErrorLaunchOutOfResources;
  __builtin_memcpy(__buffer, __args, __size);
  return cudaLaunchDeviceV2(__buffer, __stream);
}
#endif

// Over-aligned new and delete (C++17 std::align_val_t) in device code:
// nvcc's allocate with the device runtime's aligned malloc, which the driver
// provides like malloc; Clang's <new> wrapper defines only the plain forms,
// so `new T` of an over-aligned T left calls of undefined operators.
#if defined(__CUDA_ARCH__) && defined(__cpp_aligned_new)
extern "C" __device__ void *__cuda_syscall_aligned_malloc(__SIZE_TYPE__,
                                                         __SIZE_TYPE__);
__device__ inline void *operator new(__SIZE_TYPE__ __size,
                                     std::align_val_t __align) {
  return __cuda_syscall_aligned_malloc(__size ? __size : 1,
                                       static_cast<__SIZE_TYPE__>(__align));
}
__device__ inline void *operator new[](__SIZE_TYPE__ __size,
                                       std::align_val_t __align) {
  return ::operator new(__size, __align);
}
__device__ inline void *operator new(__SIZE_TYPE__ __size,
                                     std::align_val_t __align,
                                     const std::nothrow_t &) noexcept {
  return ::operator new(__size, __align);
}
__device__ inline void *operator new[](__SIZE_TYPE__ __size,
                                       std::align_val_t __align,
                                       const std::nothrow_t &) noexcept {
  return ::operator new(__size, __align);
}
__device__ inline void operator delete(void *__p, std::align_val_t) noexcept {
  ::operator delete(__p);
}
__device__ inline void operator delete[](void *__p, std::align_val_t) noexcept {
  ::operator delete(__p);
}
__device__ inline void operator delete(void *__p, __SIZE_TYPE__,
                                       std::align_val_t) noexcept {
  ::operator delete(__p);
}
__device__ inline void operator delete[](void *__p, __SIZE_TYPE__,
                                         std::align_val_t) noexcept {
  ::operator delete(__p);
}
__device__ inline void operator delete(void *__p, std::align_val_t,
                                       const std::nothrow_t &) noexcept {
  ::operator delete(__p);
}
__device__ inline void operator delete[](void *__p, std::align_val_t,
                                         const std::nothrow_t &) noexcept {
  ::operator delete(__p);
}
#endif

// 128-bit atomicCAS and atomicExch (sm_90) on any trivially copyable type of
// 16 bytes and 16-byte alignment, with the _block and _system scopes:
// atom.cas.b128 / atom.exch.b128, relaxed like the other atomics.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
template <bool __c, typename _T> struct __mycc_enable_if {};
template <typename _T> struct __mycc_enable_if<true, _T> { typedef _T type; };
// The 16 bytes of an atomic's old value as a _T (which need not be default
// constructible).
template <typename _T>
static __inline__ __attribute__((always_inline)) __device__ _T
__mycc_from_words(const unsigned long long *__words) {
  union __U {
    _T __value;
    __device__ __U() {}
  } __u;
  __builtin_memcpy(&__u.__value, __words, 16);
  return __u.__value;
}
#define __MYCC_ATOMIC128(_T)                                                   \
  typename __mycc_enable_if<sizeof(_T) == 16 && __alignof__(_T) >= 16 &&       \
                                __is_trivially_copyable(_T),                   \
                            _T>::type
#define __MYCC_ATOMIC128_CAS(NAME, SCOPE)                                      \
  template <typename _T>                                                       \
  static __inline__ __attribute__((always_inline)) __device__                  \
      __MYCC_ATOMIC128(_T) NAME(_T *__address, _T __compare, _T __val) {       \
    unsigned long long __c[2], __v[2], __r[2];                                 \
    __builtin_memcpy(__c, &__compare, 16);                                     \
    __builtin_memcpy(__v, &__val, 16);                                         \
    __asm__ __volatile__(                                                      \
        "{ .reg .b128 __mycc_d, __mycc_c, __mycc_v; "                          \
        "mov.b128 __mycc_c, {%2, %3}; mov.b128 __mycc_v, {%4, %5}; "           \
        "atom" SCOPE ".cas.b128 __mycc_d, [%6], __mycc_c, __mycc_v; "          \
        "mov.b128 {%0, %1}, __mycc_d; }"                                       \
        : "=l"(__r[0]), "=l"(__r[1])                                           \
        : "l"(__c[0]), "l"(__c[1]), "l"(__v[0]), "l"(__v[1]), "l"(__address)   \
        : "memory");                                                           \
    return __mycc_from_words<_T>(__r);                                         \
  }
#define __MYCC_ATOMIC128_EXCH(NAME, SCOPE)                                     \
  template <typename _T>                                                       \
  static __inline__ __attribute__((always_inline)) __device__                  \
      __MYCC_ATOMIC128(_T) NAME(_T *__address, _T __val) {                     \
    unsigned long long __v[2], __r[2];                                         \
    __builtin_memcpy(__v, &__val, 16);                                         \
    __asm__ __volatile__(                                                      \
        "{ .reg .b128 __mycc_d, __mycc_v; mov.b128 __mycc_v, {%2, %3}; "       \
        "atom" SCOPE ".exch.b128 __mycc_d, [%4], __mycc_v; "                   \
        "mov.b128 {%0, %1}, __mycc_d; }"                                       \
        : "=l"(__r[0]), "=l"(__r[1])                                           \
        : "l"(__v[0]), "l"(__v[1]), "l"(__address)                             \
        : "memory");                                                           \
    return __mycc_from_words<_T>(__r);                                         \
  }
__MYCC_ATOMIC128_CAS(atomicCAS, "")
__MYCC_ATOMIC128_CAS(atomicCAS_block, ".cta")
__MYCC_ATOMIC128_CAS(atomicCAS_system, ".sys")
__MYCC_ATOMIC128_EXCH(atomicExch, "")
__MYCC_ATOMIC128_EXCH(atomicExch_block, ".cta")
__MYCC_ATOMIC128_EXCH(atomicExch_system, ".sys")
#undef __MYCC_ATOMIC128_CAS
#undef __MYCC_ATOMIC128_EXCH
#undef __MYCC_ATOMIC128
#endif

//===----------------------------------------------------------------------===//
// nvcc's atomic builtins with memory order and scope (CUDA 12.8)
//===----------------------------------------------------------------------===//
//
// __nv_atomic_fetch_add(p, v, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE)
// and the rest of the family are builtins of nvcc's front end; the
// constants are in crt/device_functions.h, which Clang's headers replace.
// Clang's __scoped_atomic_* builtins are no substitute: the NVPTX back end
// of LLVM 22 drops their order (an acquire fetch_add becomes a relaxed
// `atom.global.add`). These are written from the PTX nvcc 13 emits for each
// order and scope (test/lit/realcode-nv-atomics.cu compares): thread
// and block scope are `.cta`; consume is acquire; seq_cst is `fence.sc`
// then the acquire form (a store: the relaxed form); a fence is
// `fence.acq_rel` for acq_rel and `fence.sc` otherwise. A compare-exchange
// takes the success order, acquire where that is relaxed and the failure
// order acquire, and the seq_cst form where either is seq_cst (as nvcc:
// release success with acquire failure stays release). Orders and scopes
// that are not constants select at run time.
// (Clang's wrapper reads crt/device_functions.h with __CUDACC__ undefined,
// which leaves the constants out.)
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

namespace __mycc_nv_atomic {
#define __MYCC_NVA static __inline__ __attribute__((always_inline)) __device__

// asm volatile(PRE "." SEM "." SCOPE POST operands), one per PTX scope.
#define __MYCC_NVA_AT(SEM, SCOPE, PRE, POST, ...)                             \
  __asm__ __volatile__(PRE "." SEM "." SCOPE POST __VA_ARGS__)
#define __MYCC_NVA_SCOPED(SEM, PRE, POST, ...)                                \
  switch (__scope) {                                                          \
  case __NV_THREAD_SCOPE_THREAD:                                              \
  case __NV_THREAD_SCOPE_BLOCK:                                               \
    __MYCC_NVA_AT(SEM, "cta", PRE, POST, __VA_ARGS__);                        \
    break;                                                                    \
  case __NV_THREAD_SCOPE_CLUSTER:                                             \
    __MYCC_NVA_AT(SEM, "cluster", PRE, POST, __VA_ARGS__);                    \
    break;                                                                    \
  case __NV_THREAD_SCOPE_DEVICE:                                              \
    __MYCC_NVA_AT(SEM, "gpu", PRE, POST, __VA_ARGS__);                        \
    break;                                                                    \
  default:                                                                    \
    __MYCC_NVA_AT(SEM, "sys", PRE, POST, __VA_ARGS__);                        \
    break;                                                                    \
  }

__MYCC_NVA void fence(int __order, int __scope) {
  if (__order == __NV_ATOMIC_ACQ_REL) {
    __MYCC_NVA_SCOPED("acq_rel", "fence", ";", ::: "memory")
  } else {
    __MYCC_NVA_SCOPED("sc", "fence", ";", ::: "memory")
  }
}

// A read-modify-write (atom) at order __order.
#define __MYCC_NVA_RMW(PRE, POST, ...)                                        \
  switch (__order) {                                                          \
  case __NV_ATOMIC_RELAXED:                                                   \
    __MYCC_NVA_SCOPED("relaxed", PRE, POST, __VA_ARGS__) break;               \
  case __NV_ATOMIC_CONSUME:                                                   \
  case __NV_ATOMIC_ACQUIRE:                                                   \
    __MYCC_NVA_SCOPED("acquire", PRE, POST, __VA_ARGS__) break;               \
  case __NV_ATOMIC_RELEASE:                                                   \
    __MYCC_NVA_SCOPED("release", PRE, POST, __VA_ARGS__) break;               \
  case __NV_ATOMIC_ACQ_REL:                                                   \
    __MYCC_NVA_SCOPED("acq_rel", PRE, POST, __VA_ARGS__) break;               \
  default:                                                                    \
    fence(__NV_ATOMIC_SEQ_CST, __scope);                                      \
    __MYCC_NVA_SCOPED("acquire", PRE, POST, __VA_ARGS__) break;               \
  }

// atom.OP.<sem>.<scope>.TYPE for one C type.
#define __MYCC_NVA_OP(NAME, OP, T, PTXT, C)                                   \
  __MYCC_NVA T NAME(T *__p, T __v, int __order, int __scope) {                \
    T __r;                                                                    \
    __MYCC_NVA_RMW("atom." OP, "." PTXT " %0,[%1],%2;",                       \
                   : "=" C(__r) : "l"(__p), C(__v) : "memory")                \
    return __r;                                                               \
  }
#define __MYCC_NVA_INTEGERS(NAME, OP, S, U)                                   \
  __MYCC_NVA_OP(NAME, OP, int, S "32", "r")                                   \
  __MYCC_NVA_OP(NAME, OP, unsigned int, U "32", "r")                          \
  __MYCC_NVA_OP(NAME, OP, long, S "64", "l")                                  \
  __MYCC_NVA_OP(NAME, OP, unsigned long, U "64", "l")                         \
  __MYCC_NVA_OP(NAME, OP, long long, S "64", "l")                             \
  __MYCC_NVA_OP(NAME, OP, unsigned long long, U "64", "l")
__MYCC_NVA_INTEGERS(add, "add", "s", "u")
__MYCC_NVA_OP(add, "add", float, "f32", "f")
__MYCC_NVA_OP(add, "add", double, "f64", "d")
__MYCC_NVA_INTEGERS(min, "min", "s", "u")
__MYCC_NVA_INTEGERS(max, "max", "s", "u")
__MYCC_NVA_INTEGERS(and_, "and", "b", "b")
__MYCC_NVA_INTEGERS(or_, "or", "b", "b")
__MYCC_NVA_INTEGERS(xor_, "xor", "b", "b")

// Exchange, compare-exchange, load and store move bits: b32 or b64.
template <int __size> struct bits;
template <> struct bits<4> { typedef unsigned int type; };
template <> struct bits<8> { typedef unsigned long long type; };

#define __MYCC_NVA_BITS(T, PTXT, C)                                           \
  __MYCC_NVA_OP(exchange, "exch", T, PTXT, C)                                 \
  __MYCC_NVA T cas(T *__p, T __expected, T __desired, int __order,            \
                   int __scope) {                                             \
    T __r;                                                                    \
    __MYCC_NVA_RMW("atom.cas", "." PTXT " %0,[%1],%2,%3;",                    \
                   : "=" C(__r)                                               \
                   : "l"(__p), C(__expected), C(__desired)                    \
                   : "memory")                                                \
    return __r;                                                               \
  }                                                                           \
  __MYCC_NVA T load(const T *__p, int __order, int __scope) {                 \
    T __r;                                                                    \
    switch (__order) {                                                        \
    case __NV_ATOMIC_RELAXED:                                                 \
      __MYCC_NVA_SCOPED("relaxed", "ld", "." PTXT " %0, [%1];",               \
                        : "=" C(__r) : "l"(__p) : "memory") break;            \
    case __NV_ATOMIC_SEQ_CST:                                                 \
      fence(__NV_ATOMIC_SEQ_CST, __scope);                                    \
      [[fallthrough]];                                                        \
    default:                                                                  \
      __MYCC_NVA_SCOPED("acquire", "ld", "." PTXT " %0, [%1];",               \
                        : "=" C(__r) : "l"(__p) : "memory") break;            \
    }                                                                         \
    return __r;                                                               \
  }                                                                           \
  __MYCC_NVA void store(T *__p, T __v, int __order, int __scope) {            \
    switch (__order) {                                                        \
    case __NV_ATOMIC_RELEASE:                                                 \
      __MYCC_NVA_SCOPED("release", "st", "." PTXT " [%0], %1;",               \
                        : : "l"(__p), C(__v) : "memory") break;               \
    case __NV_ATOMIC_SEQ_CST:                                                 \
      fence(__NV_ATOMIC_SEQ_CST, __scope);                                    \
      [[fallthrough]];                                                        \
    default:                                                                  \
      __MYCC_NVA_SCOPED("relaxed", "st", "." PTXT " [%0], %1;",               \
                        : : "l"(__p), C(__v) : "memory") break;               \
    }                                                                         \
  }
__MYCC_NVA_BITS(unsigned int, "b32", "r")
__MYCC_NVA_BITS(unsigned long long, "b64", "l")

// nvcc's order for a compare-exchange (see above).
__MYCC_NVA int cas_order(int __success, int __failure) {
  if (__success == __NV_ATOMIC_SEQ_CST || __failure == __NV_ATOMIC_SEQ_CST)
    return __NV_ATOMIC_SEQ_CST;
  if (__success == __NV_ATOMIC_RELAXED &&
      (__failure == __NV_ATOMIC_ACQUIRE || __failure == __NV_ATOMIC_CONSUME))
    return __NV_ATOMIC_ACQUIRE;
  return __success;
}

template <class _T> __MYCC_NVA typename bits<sizeof(_T)>::type to_bits(const _T &__v) {
  typename bits<sizeof(_T)>::type __b;
  __builtin_memcpy(&__b, &__v, sizeof(_T));
  return __b;
}
template <class _T, class _B> __MYCC_NVA void from_bits(_T *__out, _B __b) {
  __builtin_memcpy((void *)__out, &__b, sizeof(_T));
}
template <class _T> struct generic_check {
  _Static_assert(sizeof(_T) == 4 || sizeof(_T) == 8,
                 "nv atomic load, store, cas and exchange need a type of 4 or "
                 "8 bytes");
  enum { value = 1 }; // C++03 too, as nvcc's
};
template <class _T> struct integral_check {
  _Static_assert(__is_integral(_T) && (sizeof(_T) == 4 || sizeof(_T) == 8),
                 "non-generic nv atomic load, store, cas and exchange are "
                 "valid only on integral types");
  enum { value = 1 };
};
#define __MYCC_NVA_BITS_OF(T) typename __mycc_nv_atomic::bits<sizeof(T)>::type
#define __MYCC_NVA_AS_BITS(T, P) ((__MYCC_NVA_BITS_OF(T) *)(P))
} // namespace __mycc_nv_atomic

#define __MYCC_NVA_ORDER_IS(O, A, B)                                          \
  ((O) == __NV_ATOMIC_##A || (O) == __NV_ATOMIC_##B)
#define __MYCC_NVA_RMW_API(NAME, FETCH, IMPL, NEG)                            \
  template <class _T, class _U>                                               \
  __MYCC_NVA _T NAME(volatile _T *__p, _U __v, int __order,                   \
                     int __scope = __NV_THREAD_SCOPE_SYSTEM) {                \
    return __mycc_nv_atomic::IMPL((_T *)__p, NEG(_T) __v, __order, __scope);  \
  }                                                                           \
  template <class _T, class _U>                                               \
  __MYCC_NVA void FETCH(volatile _T *__p, _U __v, int __order,                \
                        int __scope = __NV_THREAD_SCOPE_SYSTEM) {             \
    (void)__mycc_nv_atomic::IMPL((_T *)__p, NEG(_T) __v, __order, __scope);   \
  }
#define __MYCC_NVA_PLUS
#define __MYCC_NVA_MINUS -
__MYCC_NVA_RMW_API(__nv_atomic_fetch_add, __nv_atomic_add, add, __MYCC_NVA_PLUS)
__MYCC_NVA_RMW_API(__nv_atomic_fetch_sub, __nv_atomic_sub, add, __MYCC_NVA_MINUS)
__MYCC_NVA_RMW_API(__nv_atomic_fetch_min, __nv_atomic_min, min, __MYCC_NVA_PLUS)
__MYCC_NVA_RMW_API(__nv_atomic_fetch_max, __nv_atomic_max, max, __MYCC_NVA_PLUS)
__MYCC_NVA_RMW_API(__nv_atomic_fetch_and, __nv_atomic_and, and_, __MYCC_NVA_PLUS)
__MYCC_NVA_RMW_API(__nv_atomic_fetch_or, __nv_atomic_or, or_, __MYCC_NVA_PLUS)
__MYCC_NVA_RMW_API(__nv_atomic_fetch_xor, __nv_atomic_xor, xor_, __MYCC_NVA_PLUS)
#undef __MYCC_NVA_RMW_API
#undef __MYCC_NVA_PLUS
#undef __MYCC_NVA_MINUS

template <class _T, class _U>
__MYCC_NVA _T __nv_atomic_exchange_n(volatile _T *__p, _U __v, int __order,
                                     int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  _Static_assert(__mycc_nv_atomic::integral_check<_T>::value, "");
  return (_T)__mycc_nv_atomic::exchange(__MYCC_NVA_AS_BITS(_T, __p),
                                        (__MYCC_NVA_BITS_OF(_T))(_T)__v,
                                        __order, __scope);
}
template <class _T>
__MYCC_NVA void __nv_atomic_exchange(volatile _T *__p, _T *__v, _T *__ret,
                                     int __order,
                                     int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  _Static_assert(__mycc_nv_atomic::generic_check<_T>::value, "");
  __mycc_nv_atomic::from_bits(
      __ret, __mycc_nv_atomic::exchange(__MYCC_NVA_AS_BITS(_T, __p),
                                        __mycc_nv_atomic::to_bits(*__v),
                                        __order, __scope));
}
template <class _T, class _U>
__MYCC_NVA bool
__nv_atomic_compare_exchange_n(volatile _T *__p, _T *__expected, _U __desired,
                               bool, int __success, int __failure,
                               int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  _Static_assert(__mycc_nv_atomic::integral_check<_T>::value, "");
  typedef __MYCC_NVA_BITS_OF(_T) __B;
  __B __e = (__B)*__expected;
  __B __old = __mycc_nv_atomic::cas(
      __MYCC_NVA_AS_BITS(_T, __p), __e, (__B)(_T)__desired,
      __mycc_nv_atomic::cas_order(__success, __failure), __scope);
  if (__old == __e) return true;
  *__expected = (_T)__old;
  return false;
}
template <class _T>
__MYCC_NVA bool
__nv_atomic_compare_exchange(volatile _T *__p, _T *__expected, _T *__desired,
                             bool, int __success, int __failure,
                             int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  _Static_assert(__mycc_nv_atomic::generic_check<_T>::value, "");
  __MYCC_NVA_BITS_OF(_T) __e = __mycc_nv_atomic::to_bits(*__expected);
  __MYCC_NVA_BITS_OF(_T) __old = __mycc_nv_atomic::cas(
      __MYCC_NVA_AS_BITS(_T, __p), __e, __mycc_nv_atomic::to_bits(*__desired),
      __mycc_nv_atomic::cas_order(__success, __failure), __scope);
  if (__old == __e) return true;
  __mycc_nv_atomic::from_bits(__expected, __old);
  return false;
}
#define __MYCC_NVA_LOAD_ORDER                                                 \
  __attribute__((diagnose_if(                                                 \
      __MYCC_NVA_ORDER_IS(__order, RELEASE, ACQ_REL),                         \
      "atomic load's memory order cannot be release or acq_rel", "error")))
template <class _T>
__MYCC_NVA _T __nv_atomic_load_n(const volatile _T *__p, int __order,
                                 int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __MYCC_NVA_LOAD_ORDER {
  _Static_assert(__mycc_nv_atomic::integral_check<_T>::value, "");
  return (_T)__mycc_nv_atomic::load(
      (const __MYCC_NVA_BITS_OF(_T) *)__p, __order, __scope);
}
template <class _T>
__MYCC_NVA void __nv_atomic_load(const volatile _T *__p, _T *__ret, int __order,
                                 int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __MYCC_NVA_LOAD_ORDER {
  _Static_assert(__mycc_nv_atomic::generic_check<_T>::value, "");
  __mycc_nv_atomic::from_bits(
      __ret, __mycc_nv_atomic::load(
                 (const __MYCC_NVA_BITS_OF(_T) *)__p, __order, __scope));
}
#define __MYCC_NVA_STORE_ORDER                                                \
  __attribute__((diagnose_if(                                                 \
      __MYCC_NVA_ORDER_IS(__order, CONSUME, ACQUIRE) ||                       \
          __order == __NV_ATOMIC_ACQ_REL,                                     \
      "atomic store's memory order cannot be consume, acquire or acq_rel",    \
      "error")))
template <class _T, class _U>
__MYCC_NVA void __nv_atomic_store_n(volatile _T *__p, _U __v, int __order,
                                    int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __MYCC_NVA_STORE_ORDER {
  _Static_assert(__mycc_nv_atomic::integral_check<_T>::value, "");
  __mycc_nv_atomic::store(__MYCC_NVA_AS_BITS(_T, __p),
                          (__MYCC_NVA_BITS_OF(_T))(_T)__v, __order, __scope);
}
template <class _T>
__MYCC_NVA void __nv_atomic_store(volatile _T *__p, _T *__v, int __order,
                                  int __scope = __NV_THREAD_SCOPE_SYSTEM)
    __MYCC_NVA_STORE_ORDER {
  _Static_assert(__mycc_nv_atomic::generic_check<_T>::value, "");
  __mycc_nv_atomic::store(__MYCC_NVA_AS_BITS(_T, __p),
                          __mycc_nv_atomic::to_bits(*__v), __order, __scope);
}
__MYCC_NVA void __nv_atomic_thread_fence(int __order,
                                         int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  __mycc_nv_atomic::fence(__order, __scope);
}
#undef __MYCC_NVA_LOAD_ORDER
#undef __MYCC_NVA_STORE_ORDER
#undef __MYCC_NVA_ORDER_IS
#undef __MYCC_NVA_BITS_OF
#undef __MYCC_NVA_AS_BITS
#undef __MYCC_NVA_BITS
#undef __MYCC_NVA_INTEGERS
#undef __MYCC_NVA_OP
#undef __MYCC_NVA_RMW
#undef __MYCC_NVA_SCOPED
#undef __MYCC_NVA_AT
#undef __MYCC_NVA

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
