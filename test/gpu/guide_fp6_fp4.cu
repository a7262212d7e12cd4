// The narrow floating-point types of cuda_fp6.h and cuda_fp4.h (e2m3 and
// e3m2 fp6, e2m1 fp4): conversions from float with round-to-nearest-even
// and saturation, back to float, the packed x2 conversions and the class
// constructors, computed on the device and compared bit for bit with the
// same header functions run on the host, plus values the formats define.
#include "gpu_test.h"

#include <cuda_fp4.h>
#include <cuda_fp6.h>

#include <cmath>
#include <cstring>

constexpr int kN = 40;

struct Result {
  unsigned char fp4, fp6a, fp6b;          // storage: e2m1, e2m3, e3m2
  unsigned char fp4ctor, fp6actor, fp6bctor; // the classes' constructors
  float back4, back6a, back6b;            // decoded again
  unsigned char pair4;                    // fp4x2 of (x, -x)
  unsigned short pair6;                   // fp6x2 (e2m3) of (x, -x)
};

__host__ __device__ Result convert(float x) {
  Result r;
  r.fp4 = __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
  r.fp6a = __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest);
  r.fp6b = __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest);
  __nv_fp4_e2m1 c4(x);
  __nv_fp6_e2m3 c6a(x);
  __nv_fp6_e3m2 c6b(x);
  r.fp4ctor = c4.__x;
  r.fp6actor = c6a.__x;
  r.fp6bctor = c6b.__x;
  r.back4 = float(c4);
  r.back6a = float(c6a);
  r.back6b = float(c6b);
  r.pair4 = __nv_cvt_float2_to_fp4x2(make_float2(x, -x), __NV_E2M1, cudaRoundNearest);
  r.pair6 = __nv_cvt_float2_to_fp6x2(make_float2(x, -x), __NV_E2M3, cudaRoundNearest);
  return r;
}

__global__ void convert_all(const float *in, Result *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = convert(in[i]);
}

int main() {
  float in[kN] = {0.0f, -0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f,
                  2.0f, 2.5f, 2.6f, 3.0f, 3.5f, 4.0f, 5.0f, 6.0f, 7.0f, 7.5f,
                  8.0f, 12.0f, 16.0f, 28.0f, 100.0f, 1e30f, -1.0f, -2.5f,
                  -6.0f, -7.0f, -1e30f, 0.125f, 0.0625f, 0.1f, 0.3f, 3.25f,
                  5.5f, 0.875f, 0.4375f, NAN, INFINITY};
  float *d_in;
  Result *d_out;
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_out, kN * sizeof(Result)));
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  convert_all<<<1, 64>>>(d_in, d_out, kN);
  CHECK(cudaGetLastError());
  Result dev[kN];
  CHECK(cudaMemcpy(dev, d_out, sizeof dev, cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    Result h = convert(in[i]);
    EXPECT(dev[i].fp4 == h.fp4 && dev[i].fp6a == h.fp6a && dev[i].fp6b == h.fp6b,
           "x=%g: device %02x %02x %02x, host %02x %02x %02x", in[i], dev[i].fp4,
           dev[i].fp6a, dev[i].fp6b, h.fp4, h.fp6a, h.fp6b);
    EXPECT(dev[i].fp4ctor == h.fp4 && dev[i].fp6actor == h.fp6a &&
               dev[i].fp6bctor == h.fp6b,
           "x=%g: constructors differ from the conversions", in[i]);
    EXPECT(std::memcmp(&dev[i].back4, &h.back4, 3 * sizeof(float)) == 0,
           "x=%g: decoded %g %g %g, host %g %g %g", in[i], dev[i].back4,
           dev[i].back6a, dev[i].back6b, h.back4, h.back6a, h.back6b);
    EXPECT(dev[i].pair4 == h.pair4 && dev[i].pair6 == h.pair6,
           "x=%g: packed %02x %04x, host %02x %04x", in[i], dev[i].pair4,
           dev[i].pair6, h.pair4, h.pair6);
  }
  // What the formats define: e2m1 holds 0, 0.5, 1, 1.5, 2, 3, 4, 6; ties go
  // to the even code; out-of-range values saturate to 6.
  struct { int index; float fp4; } known[] = {
      {10, 2.0f}, {11, 3.0f}, {13, 4.0f}, {15, 4.0f}, {17, 6.0f}, {23, 6.0f},
      {24, 6.0f}, {26, -2.0f}, {28, -6.0f}, {4, 1.0f}, {2, 0.0f}};
  for (auto k : known)
    EXPECT(dev[k.index].back4 == k.fp4, "fp4(%g) = %g, expected %g",
           in[k.index], dev[k.index].back4, k.fp4);
  // e2m3 has 3 mantissa bits up to 7.5; e3m2 reaches 28.
  EXPECT(dev[18].back6a == 7.5f, "e2m3(7.5) = %g", dev[18].back6a);
  EXPECT(dev[22].back6b == 28.0f, "e3m2(28) = %g", dev[22].back6b);
  EXPECT(dev[23].back6b == 28.0f, "e3m2(100) = %g (saturates)", dev[23].back6b);
  return finish_test("guide_fp6_fp4");
}
