// The part of CMake's CMakeCUDACompilerId.cu (Modules/CMakeCUDACompilerId.cu.in,
// Modules/Compiler/NVIDIA-DetermineCompiler.cmake) that identifies the
// compiler: the strings land in host globals of the linked program.
#ifndef __CUDACC__
#error "A C or C++ compiler has been selected for CUDA"
#endif
#if defined(__NVCC__)
#define COMPILER_ID "NVIDIA"
#if defined(__CUDACC_VER_MAJOR__)
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
#define COMPILER_VERSION                                                       \
  STRINGIFY(__CUDACC_VER_MAJOR__) "." STRINGIFY(__CUDACC_VER_MINOR__) "."      \
      STRINGIFY(__CUDACC_VER_BUILD__)
#endif
#if defined(__clang__)
#define SIMULATE_ID "Clang"
#endif
#elif defined(__clang__)
#define COMPILER_ID "Clang"
#endif
#ifndef COMPILER_VERSION
#define COMPILER_VERSION "none"
#endif
#ifndef SIMULATE_ID
#define SIMULATE_ID "none"
#endif

char const *info_compiler = "INFO" ":" "compiler[" COMPILER_ID "]";
char const *info_version = "INFO" ":" "compiler_version[" COMPILER_VERSION "]";
char const *info_simulate = "INFO" ":" "simulate[" SIMULATE_ID "]";

__global__ void kernel() {}

int main(int argc, char *argv[]) {
  int require = 0;
  require += info_compiler[argc];
  require += info_version[argc];
  require += info_simulate[argc];
  (void)argv;
  return require;
}
