// A C++ program (compiled by the C++ compiler, not by the CUDA compiler) that
// calls the CUDA runtime itself and uses the shared library (reduce.cu).
#include "check.h"
#include "reduce.h"

#include <vector>

int main() {
  example_require_device("host_main");
  int device = -1;
  EXAMPLE_CHECK(cudaGetDevice(&device));
  std::vector<int> values(100000, 3);
  long long sum = 0;
  EXAMPLE_CHECK(static_cast<cudaError_t>(reduce_sum(values.data(), 100000, &sum)));
  if (sum != 300000) {
    std::fprintf(stderr, "host_main: sum %lld, expected 300000\n", sum);
    return 1;
  }
  std::printf("host_main: PASS (device %d)\n", device);
  return 0;
}
