// Device assert(): a kernel whose assertion holds runs normally; one whose
// assertion fails prints nvcc's message (file, line, function, condition)
// and the launch ends with cudaErrorAssert, after which the context is
// unusable, so that check comes last. (__trap is left out: its error is
// indistinguishable from other launch failures.)
// EXPECT-OUTPUT: before the failing assertion
#include "gpu_test.h"

#include <cassert>

__global__ void checked(const int *values, int *out) {
  int v = values[threadIdx.x];
  assert(v >= 0);
  out[threadIdx.x] = v * 2;
}

int main() {
  int *values, *out;
  CHECK(cudaMalloc(&values, 32 * sizeof(int)));
  CHECK(cudaMalloc(&out, 32 * sizeof(int)));
  int hv[32];
  for (int i = 0; i < 32; ++i) hv[i] = i;
  CHECK(cudaMemcpy(values, hv, sizeof(hv), cudaMemcpyHostToDevice));
  checked<<<1, 32>>>(values, out);
  CHECK(cudaDeviceSynchronize());
  int ho[32];
  CHECK(cudaMemcpy(ho, out, sizeof(ho), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) EXPECT(ho[i] == 2 * i, "out[%d] = %d", i, ho[i]);

  hv[5] = -1;
  CHECK(cudaMemcpy(values, hv, sizeof(hv), cudaMemcpyHostToDevice));
  std::printf("before the failing assertion\n");
  std::fflush(stdout);
  checked<<<1, 32>>>(values, out);
  cudaError_t err = cudaDeviceSynchronize();
  EXPECT(err == cudaErrorAssert, "a failed assertion gave %s",
         cudaGetErrorName(err));
  return finish_test("guide_assert");
}
