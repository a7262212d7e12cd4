// The examples' CUDA program: a kernel of its own, the static library
// (scale.cu) and the shared library (reduce.cu). Prints PASS and exits 0 when
// every result is right.
#include "check.h"
#include "reduce.h"
#include "scale.h"

#include <vector>

__global__ void iota_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = static_cast<float>(i);
}

int main() {
  example_require_device("main");
  const int n = 1 << 16;
  float *x = nullptr, *y = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&x, n * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&y, n * sizeof(float)));
  iota_kernel<<<(n + 255) / 256, 256>>>(x, n);
  EXAMPLE_CHECK(cudaGetLastError());
  EXAMPLE_CHECK(static_cast<cudaError_t>(scale_on_device(y, x, 3.0f, n)));
  std::vector<float> host(n);
  EXAMPLE_CHECK(cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (host[i] != 3.0f * i) {
      std::fprintf(stderr, "main: y[%d] = %g, expected %g\n", i, host[i], 3.0f * i);
      return 1;
    }
  std::vector<int> values(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = i % 1000 - 300;
    expected += values[i];
  }
  long long sum = 0;
  EXAMPLE_CHECK(static_cast<cudaError_t>(reduce_sum(values.data(), n, &sum)));
  if (sum != expected) {
    std::fprintf(stderr, "main: sum %lld, expected %lld\n", sum, expected);
    return 1;
  }
  EXAMPLE_CHECK(cudaFree(x));
  EXAMPLE_CHECK(cudaFree(y));
  std::printf("main: PASS (scale and sum of %d elements)\n", n);
  return 0;
}
