// Which compiler a build system sees (__NVCC__, __MYCC__) and which code path
// CCCL takes (its _CCCL_CUDA_COMPILER(...) test, from any Thrust header).
#include <thrust/version.h>
#if defined(__NVCC__)
COMPILER-NVCC __CUDACC_VER_MAJOR__
#endif
#if defined(__MYCC__)
COMPILER-MYCC __MYCC_VER_MAJOR__ __MYCC_VER_MINOR__ __MYCC_VER_PATCH__
#endif
#if _CCCL_CUDA_COMPILER(NVCC)
CCCL-PATH nvcc
#elif _CCCL_CUDA_COMPILER(CLANG)
CCCL-PATH clang
#else
CCCL-PATH other
#endif
