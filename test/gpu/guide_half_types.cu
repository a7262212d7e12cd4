// The reduced-precision types of cuda_fp16.h, cuda_bf16.h and cuda_fp8.h:
// __half, __half2, __nv_bfloat16 and __nv_bfloat162 arithmetic, comparisons,
// conversions and math intrinsics, and fp8 (E4M3, E5M2) conversions, each
// checked against the same computation on the host in float.
#include "gpu_test.h"

#include <cmath>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

constexpr int kN = 256;

__global__ void half_math(const float *in, float *out) {
  int i = threadIdx.x;
  float x = in[i], y = in[(i + 7) % kN];
  __half a = __float2half(x), b = __float2half(y);
  __half2 p = __halves2half2(a, b);
  __half2 q = __hmul2(p, __float2half2_rn(2.0f));
  __nv_bfloat16 c = __float2bfloat16(x), d = __float2bfloat16(y);
  __nv_bfloat162 r = __floats2bfloat162_rn(x, y);
  float *o = out + 10 * i;
  o[0] = __half2float(a + b);
  o[1] = __half2float(__hfma(a, b, a));
  o[2] = __low2float(q) + __high2float(q);
  o[3] = (a < b) ? 1.0f : 0.0f;
  o[4] = __bfloat162float(c * d);
  o[5] = __low2float(__hadd2(r, r));
  o[6] = __half2float(hsqrt(__habs(a)));
  o[7] = __bfloat162float(__hmax(c, d));
  __nv_fp8_e4m3 e4(x);
  __nv_fp8_e5m2 e5(y);
  o[8] = static_cast<float>(e4);
  o[9] = static_cast<float>(e5);
}

int main() {
  float *in, *out;
  CHECK(cudaMalloc(&in, kN * sizeof(float)));
  CHECK(cudaMalloc(&out, 10 * kN * sizeof(float)));
  float hin[kN];
  for (int i = 0; i < kN; ++i) hin[i] = (i - 128) / 16.0f; // exact in all types
  CHECK(cudaMemcpy(in, hin, sizeof(hin), cudaMemcpyHostToDevice));
  half_math<<<1, kN>>>(in, out);
  CHECK(cudaGetLastError());
  static float h[10 * kN];
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    float x = hin[i], y = hin[(i + 7) % kN];
    const float *o = h + 10 * i;
    EXPECT(o[0] == x + y, "half %g + %g = %g", x, y, o[0]);
    EXPECT(std::fabs(o[1] - (x * y + x)) <= std::fabs(x * y + x) / 512 + 1e-3f,
           "half fma(%g, %g, %g) = %g", x, y, x, o[1]);
    EXPECT(o[2] == 2 * x + 2 * y, "half2 2*(%g, %g) sums to %g", x, y, o[2]);
    EXPECT(o[3] == (x < y ? 1.0f : 0.0f), "half %g < %g gave %g", x, y, o[3]);
    EXPECT(std::fabs(o[4] - x * y) <= std::fabs(x * y) / 64,
           "bf16 %g * %g = %g", x, y, o[4]);
    EXPECT(o[5] == 2 * x, "bf162 %g + %g = %g", x, x, o[5]);
    EXPECT(std::fabs(o[6] - std::sqrt(std::fabs(x))) <= 2e-3f * (1 + std::sqrt(std::fabs(x))),
           "hsqrt(|%g|) = %g", x, o[6]);
    EXPECT(o[7] == (x > y ? x : y), "bf16 max(%g, %g) = %g", x, y, o[7]);
    // E4M3 has 3 mantissa bits, E5M2 2: values of 1/16 steps up to 8 round
    // to within a relative 1/16 and 1/8.
    EXPECT(std::fabs(o[8] - x) <= std::fabs(x) / 16 + 1.0f / 512,
           "e4m3(%g) = %g", x, o[8]);
    EXPECT(std::fabs(o[9] - y) <= std::fabs(y) / 8 + 1.0f / 256,
           "e5m2(%g) = %g", y, o[9]);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return finish_test("guide_half_types");
}
