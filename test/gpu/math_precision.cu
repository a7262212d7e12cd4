// Single-precision division, reciprocal and square root are IEEE
// round-to-nearest by default, as with nvcc (-prec-div=true,
// -prec-sqrt=true): bit for bit the host's results. sqrtf was
// sqrt.approx.f32 (off by an ulp for many inputs) before libdevice's
// __CUDA_PREC_SQRT was resolved. Denormals are kept (-ftz=false).
#include <cmath>
#include <cstring>
#include "gpu_test.h"

__global__ void ops(const float *x, const float *y, float *q, float *r,
                    float *s, float *d, float tiny, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  q[i] = x[i] / y[i];
  r[i] = 1.0f / x[i];
  s[i] = sqrtf(x[i]);
  d[i] = x[i] * tiny; // a denormal result
}

static unsigned bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

int main() {
  const int n = 1 << 20;
  float *x, *y, *q, *r, *s, *d;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  CHECK(cudaMallocManaged(&q, n * sizeof(float)));
  CHECK(cudaMallocManaged(&r, n * sizeof(float)));
  CHECK(cudaMallocManaged(&s, n * sizeof(float)));
  CHECK(cudaMallocManaged(&d, n * sizeof(float)));
  unsigned seed = 12345;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = 1.0f + (seed >> 8) * (1.0f / (1 << 24)) * 1000.0f;
    seed = seed * 1664525u + 1013904223u;
    y[i] = 0.5f + (seed >> 8) * (1.0f / (1 << 24)) * 7.0f;
  }
  const float tiny = 1e-42f; // denormal: every product below is one too
  ops<<<n / 256, 256>>>(x, y, q, r, s, d, tiny, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int badQ = 0, badR = 0, badS = 0, badD = 0;
  for (int i = 0; i < n; ++i) {
    volatile float hx = x[i], hy = y[i];
    badQ += bits(q[i]) != bits(hx / hy);
    badR += bits(r[i]) != bits(1.0f / hx);
    badS += bits(s[i]) != bits(std::sqrt(hx));
    volatile float ht = tiny;
    badD += bits(d[i]) != bits(hx * ht);
  }
  EXPECT(badQ == 0, "%d of %d divisions differ from IEEE", badQ, n);
  EXPECT(badR == 0, "%d of %d reciprocals differ from IEEE", badR, n);
  EXPECT(badS == 0, "%d of %d square roots differ from IEEE", badS, n);
  EXPECT(badD == 0, "%d denormal products differ (flushed to zero?)", badD);
  return finish_test("math_precision");
}
