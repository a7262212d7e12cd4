// ...and called from a kernel in another (needs -rdc=true and a device link).
#include "../../common/check.h"

#include <vector>

extern __device__ int rdc_square(int x);

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = rdc_square(i);
}

int main() {
  example_require_device("rdc_app");
  const int n = 1000;
  int *out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&out, n * sizeof(int)));
  squares<<<(n + 127) / 128, 128>>>(out, n);
  EXAMPLE_CHECK(cudaGetLastError());
  std::vector<int> host(n);
  EXAMPLE_CHECK(cudaMemcpy(host.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (host[i] != i * i) {
      std::fprintf(stderr, "rdc_app: out[%d] = %d, expected %d\n", i, host[i], i * i);
      return 1;
    }
  EXAMPLE_CHECK(cudaFree(out));
  std::printf("rdc_app: PASS\n");
  return 0;
}
