// Error checking shared by the build-system examples (examples/cmake, make,
// meson). Every example program checks its own result and exits non-zero on
// any error; with no CUDA device it says so and exits with 77, so that a
// caller can tell "nothing to run on" from a failure.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define EXAMPLE_CHECK(call)                                                   \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                   cudaGetErrorString(err_));                                 \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

// Exits with 77 when the machine has no usable CUDA device.
inline void example_require_device(const char *program) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("%s: no CUDA device (%s)\n", program,
                err != cudaSuccess ? cudaGetErrorString(err) : "none found");
    std::exit(77);
  }
}
