// Shared helpers for the GPU end-to-end tests in this directory. Every test
// program checks its CUDA calls and results the same way and ends with the
// same PASS/FAIL report; this header holds that boilerplate once so that each
// test file contains only what it tests. Include it with
// `#include "gpu_test.h"` (it also brings in <cstdio>, <cstdlib> and
// <cuda_runtime.h>). It is not a test itself: run-gpu-tests.sh only picks up
// *.cu files.
#ifndef MYCC_TEST_GPU_GPU_TEST_H
#define MYCC_TEST_GPU_GPU_TEST_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Runs a CUDA runtime call; if it fails, prints `file:line: CUDA error NAME:
// description` and exits with status 1.
#define CHECK(call)                                                           \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::printf("%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,           \
                  cudaGetErrorName(err_), cudaGetErrorString(err_));          \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

// Number of failed checks. EXPECT counts into it; a test may also increment
// it itself. Tests that never fail a check (or only use CHECK) leave it unused.
[[maybe_unused]] static int g_failures = 0;

// Counts a failed check without stopping the test. The first 20 failures are
// printed as `file:line: check failed: COND: <printf-style message>`.
#define EXPECT(cond, ...)                                                     \
  do {                                                                        \
    if (!(cond)) {                                                            \
      if (g_failures < 20) {                                                  \
        std::printf("%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);  \
        std::printf(__VA_ARGS__);                                             \
        std::printf("\n");                                                    \
      }                                                                       \
      ++g_failures;                                                           \
    }                                                                         \
  } while (0)

// Ends a test: prints `FAIL <name>: N check(s) failed` and returns 1 when
// g_failures is not zero, otherwise prints `PASS <name>` (the line the runner
// looks for) and returns 0. Use as `return finish_test("name");` in main.
static inline int finish_test(const char* name) {
  if (g_failures) {
    std::printf("FAIL %s: %d check(s) failed\n", name, g_failures);
    return 1;
  }
  std::printf("PASS %s\n", name);
  return 0;
}

#endif  // MYCC_TEST_GPU_GPU_TEST_H
