// What a build of kernels.cu offers the harness: its benchmark cases.
#pragma once

extern "C" {

struct BenchCase {
  const char *name;
  int (*setup)();                     // inputs and the host's reference; a cudaError_t
  int (*launch)();                    // one run on the default stream; a cudaError_t
  int (*verify)(char *why, int len);  // 0 when the last run's output is right
  void (*teardown)();
};

// The library's cases and their number.
const BenchCase *bench_kernel_cases(int *count);
}
