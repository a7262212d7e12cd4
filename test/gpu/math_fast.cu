// -use_fast_math as nvcc's: denormals flushed to zero, sinf/expf/... the
// approximate intrinsics (results identical to __sinf/__expf/..., compared
// on the host: a difference taken in the kernel may be contracted into an
// fma), division and square root approximate.
// FLAGS: -use_fast_math
#include <cmath>
#include <cstring>
#include "gpu_test.h"

__global__ void ops(const float *x, float *out, float tiny, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  out[0 * n + i] = sinf(v);
  out[1 * n + i] = expf(v);
  out[2 * n + i] = logf(v);
  out[3 * n + i] = powf(v, 1.5f);
  out[4 * n + i] = tanf(v);
  out[5 * n + i] = __sinf(v);
  out[6 * n + i] = __expf(v);
  out[7 * n + i] = __logf(v);
  out[8 * n + i] = __powf(v, 1.5f);
  out[9 * n + i] = __tanf(v);
  out[10 * n + i] = v * tiny; // denormal for v < 1.17: flushed
  out[11 * n + i] = sqrtf(v);
}

int main() {
  const int n = 4096;
  float *x, *out;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&out, 12 * n * sizeof(float)));
  for (int i = 0; i < n; ++i) x[i] = 0.01f + i * (3.0f / n);
  const float tiny = 1e-38f;
  ops<<<n / 256, 256>>>(x, out, tiny, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int notIntrinsic = 0, notFlushed = 0, farOff = 0, denormals = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 5; ++k)
      notIntrinsic += std::memcmp(&out[k * n + i], &out[(k + 5) * n + i],
                                  sizeof(float)) != 0;
    volatile float product = x[i] * tiny; // on the host, IEEE
    if (std::fpclassify(product) == FP_SUBNORMAL) {
      ++denormals;
      notFlushed += out[10 * n + i] != 0.0f;
    }
    farOff += std::fabs(out[0 * n + i] - std::sin(x[i])) > 1e-4f ||
              std::fabs(out[11 * n + i] - std::sqrt(x[i])) >
                  1e-5f * std::sqrt(x[i]);
  }
  EXPECT(notIntrinsic == 0, "%d results differ from the intrinsics", notIntrinsic);
  EXPECT(denormals > 1000, "only %d denormal products", denormals);
  EXPECT(notFlushed == 0, "%d of %d denormal products not flushed", notFlushed, denormals);
  EXPECT(farOff == 0, "%d results off by more than the intrinsics' error", farOff);
  return finish_test("math_fast");
}
