// mycc's host-side header for the host-compiler pipeline (docs/design.md,
// "The host half"): the host compiler (g++, or whatever -ccbin names)
// preprocesses every .cu with `-include mycc/host.h` where nvcc passes
// `-include cuda_runtime.h`. The text it writes is read twice: by Clang,
// which parses it in CUDA host mode to lower it, and by the host compiler,
// which compiles the lowered text. Everything here serves the first reader
// without changing what the second compiles. Not meant for user code.
#ifndef MYCC_HOST_H
#define MYCC_HOST_H
#pragma GCC system_header

// CUDA's headers declare C library functions a second time as
// __host__ __device__ (clock, memcpy, sin, __assert_fail, ...). nvcc's front
// end takes that as one function; Clang rejects a __host__ __device__
// redeclaration of a __host__ function ("cannot overload"). Declared inside
// this region, the C library's own declarations are implicitly
// __host__ __device__ too, so both agree. The host compiler ignores the
// pragma; the lowering removes it from what the host compiler reads.
#ifdef __cplusplus
// A builtin of nvcc's front end, which the device bodies of CUDA's texture
// and surface functions call (texture_indirect_functions.h); Clang's parse
// needs a declaration. Those bodies are left out of what the host compiler
// compiles.
template <class... __T>
__attribute__((device)) void __nv_tex_surf_handler(const char *, __T...);
#endif

#ifdef __cplusplus
// nvcc's atomic builtins with memory order and scope (CUDA 12.8), which
// device code calls; the device side defines them (mycc/prelude.h), Clang's
// host parse needs declarations. 4 is __NV_THREAD_SCOPE_SYSTEM.
#define __MYCC_NVA_DECL template <class __T, class __U> __attribute__((device))
__MYCC_NVA_DECL __T __nv_atomic_fetch_add(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_fetch_sub(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_fetch_min(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_fetch_max(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_fetch_and(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_fetch_or(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_fetch_xor(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_add(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_sub(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_min(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_max(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_and(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_or(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_xor(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_exchange_n(volatile __T *, __U, int, int = 4);
__MYCC_NVA_DECL bool __nv_atomic_compare_exchange_n(volatile __T *, __T *, __U,
                                                    bool, int, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_store_n(volatile __T *, __U, int, int = 4);
#undef __MYCC_NVA_DECL
#define __MYCC_NVA_DECL template <class __T> __attribute__((device))
__MYCC_NVA_DECL void __nv_atomic_exchange(volatile __T *, __T *, __T *, int,
                                          int = 4);
__MYCC_NVA_DECL bool __nv_atomic_compare_exchange(volatile __T *, __T *, __T *,
                                                  bool, int, int, int = 4);
__MYCC_NVA_DECL __T __nv_atomic_load_n(const volatile __T *, int, int = 4);
__MYCC_NVA_DECL void __nv_atomic_load(const volatile __T *, __T *, int,
                                      int = 4);
__MYCC_NVA_DECL void __nv_atomic_store(volatile __T *, __T *, int, int = 4);
#undef __MYCC_NVA_DECL
__attribute__((device)) void __nv_atomic_thread_fence(int, int = 4);
#endif

#if defined(__cplusplus) && defined(__has_builtin) && !defined(__clang__)
#if __has_builtin(__builtin_bswap128)
// GCC's 128-bit byte swap (GCC 11), which CCCL's cuda::std::byteswap calls
// in host code where __has_builtin says the host compiler has it; Clang has
// no such builtin, and its parse needs a declaration. g++ takes this as a
// compatible redeclaration and keeps its builtin. (GCC's other builtins
// that Clang lacks take any type: __builtin_clear_padding,
// __builtin_is_corresponding_member; no declaration can stand for them.)
unsigned __int128 __builtin_bswap128(unsigned __int128);
#endif
#endif

#pragma clang force_cuda_host_device begin
#include <cuda_runtime.h>
#pragma clang force_cuda_host_device end

#ifdef __cplusplus
// Placement new in device code (CUB, Thrust): nvcc's front end lets device
// code call libstdc++'s host-only inline definition; for Clang a device
// declaration does. The host compiler sees a redeclaration.
// libstdc++ declares them throw() before C++11.
#if __cplusplus >= 201103L
#define __MYCC_PLACEMENT_NOEXCEPT noexcept
#else
#define __MYCC_PLACEMENT_NOEXCEPT throw()
#endif
__attribute__((device)) void *operator new(__SIZE_TYPE__, void *)
    __MYCC_PLACEMENT_NOEXCEPT;
__attribute__((device)) void *operator new[](__SIZE_TYPE__, void *)
    __MYCC_PLACEMENT_NOEXCEPT;
#undef __MYCC_PLACEMENT_NOEXCEPT
#endif

// nvcc spells __managed__ as __attribute__((managed)), which Clang knows
// only for HIP; mycc's lowering recognises this spelling (the one the
// device side's prelude uses) and registers the variable.
#undef __managed__
#define __managed__ __attribute__((device, annotate("mycc.managed")))

// __maxnreg__ is a device-only property, as __launch_bounds__ is; Clang
// does not know CUDA's spelling of it.
#undef __maxnreg__
#define __maxnreg__(N)

// Builtins of nvcc's front end that CCCL queries under --extended-lambda;
// nvcc's own host compile defines them the same way.
#define __nv_is_extended_device_lambda_closure_type(X) false
#define __nv_is_extended_host_device_lambda_closure_type(X) false
#define __nv_is_extended_device_lambda_with_preserved_return_type(X) false

// g++ before 13 numbers a function's lambdas in one sequence, not per
// signature as Clang does; the lowering then names the host compiler's
// stubs of kernels specialised on lambdas with g++'s numbers.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
enum { __mycc_host_lambda_numbers_per_function = 1 };
#endif

// g++ names some kernel stubs otherwise than Clang (the 'L' of a global
// static function template's specialisations, Clang's `Tn` of a dependent
// non-type template parameter); the lowering names the stubs as g++ does.
#if defined(__GNUC__) && !defined(__clang__)
enum { __mycc_host_gcc_mangling = 1 };
#endif

// A unit that calls no CUDA runtime function itself still links the CUDA
// runtime, which mycc's runtime needs (include/mycc/prelude.h says why).
#ifdef __cplusplus
static cudaError_t (*const __mycc_cudart_anchor)(void)
    __attribute__((used)) = &cudaGetLastError;
#endif

#endif // MYCC_HOST_H
