// Separate compilation with a static library: rdc_library_part.cu is compiled
// with -dc into an archive; this unit's kernel calls a device function the
// archive defines, and a host function of the archive launches the archive's
// own kernel, which reads a device variable this unit defines. The device
// link takes the archive's relocatable device code.
// FLAGS: -rdc=true
// STATIC-LIB: rdc_library_part.cu
#include "gpu_test.h"

__device__ int offset = 7;            // used by the library's kernel
extern __device__ int square(int x);  // defined in the library

__global__ void squares(int *out) { out[threadIdx.x] = square(threadIdx.x); }

void library_fill(int *out, int n); // the library's host function

int main() {
  int *d = nullptr;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  squares<<<1, 64>>>(d);
  CHECK(cudaGetLastError());
  int h[64];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i)
    EXPECT(h[i] == i * i, "square(%d) = %d", i, h[i]);
  library_fill(d, 64);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i)
    EXPECT(h[i] == i * i + 7, "library kernel gave %d at %d", h[i], i);
  CHECK(cudaFree(d));
  return finish_test("rdc_library");
}
