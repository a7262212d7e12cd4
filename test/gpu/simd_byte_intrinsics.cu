// The SIMD intrinsics on four bytes of a word that mycc computes with
// integer operations instead of Clang's header's PTX vsub4 and vset4
// (ClangHeaderFixes): __vsub4 (wrapping), __vsubss4 (signed, saturated),
// __vcmpne4 and __vcmpeq4, against the host, on every pair of byte values
// and on random words; and ggml's forms, __vsubss4(q & 0x0F0F0F0F,
// 0x08080808) and __vcmpne4(signs & 0x08040201, 0), which the optimiser folds.
#include <cstdint>
#include "gpu_test.h"

__global__ void subtract(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[6 * i + 0] = __vsub4(a[i], b[i]);
  out[6 * i + 1] = __vsubss4(a[i], b[i]);
  out[6 * i + 2] = __vsubss4(a[i] & 0x0F0F0F0F, 0x08080808);
  out[6 * i + 3] = __vcmpne4(a[i], b[i]);
  out[6 * i + 4] = __vcmpeq4(a[i], b[i]);
  out[6 * i + 5] = __vcmpne4(a[i] & 0x08040201, 0);
}

static unsigned compare(unsigned a, unsigned b, bool equal) {
  unsigned r = 0;
  for (int k = 0; k < 4; ++k)
    if ((((a >> (8 * k)) & 0xff) == ((b >> (8 * k)) & 0xff)) == equal) r |= 0xffu << (8 * k);
  return r;
}

static unsigned ref(unsigned a, unsigned b, bool saturated) {
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) {
    int x = (int8_t)(a >> (8 * k)), y = (int8_t)(b >> (8 * k));
    int d = saturated ? (x - y < -128 ? -128 : x - y > 127 ? 127 : x - y)
                      : (int)(((a >> (8 * k)) - (b >> (8 * k))) & 0xff);
    r |= (unsigned)(d & 0xff) << (8 * k);
  }
  return r;
}

int main() {
  const int n = 65536 + 65536;
  unsigned *a, *b, *out;
  CHECK(cudaMallocManaged(&a, n * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&b, n * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&out, 6 * n * sizeof(unsigned)));
  uint32_t seed = 12345;
  for (int i = 0; i < n; ++i) {
    if (i < 65536) { // every pair of bytes, in each byte position
      unsigned x = i & 0xff, y = i >> 8;
      a[i] = x | (y << 8) | (x << 16) | ((x ^ 0x80) << 24);
      b[i] = y | (x << 8) | ((y ^ 0x80) << 16) | (y << 24);
    } else {
      seed = seed * 1664525u + 1013904223u; a[i] = seed;
      seed = seed * 1664525u + 1013904223u; b[i] = seed;
    }
  }
  subtract<<<(n + 255) / 256, 256>>>(a, b, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    const unsigned *o = out + 6 * i;
    EXPECT(o[0] == ref(a[i], b[i], false), "__vsub4(%08x, %08x) = %08x", a[i], b[i], o[0]);
    EXPECT(o[1] == ref(a[i], b[i], true), "__vsubss4(%08x, %08x) = %08x", a[i], b[i], o[1]);
    EXPECT(o[2] == ref(a[i] & 0x0F0F0F0F, 0x08080808, true), "__vsubss4 q4_0 form of %08x = %08x", a[i], o[2]);
    EXPECT(o[3] == compare(a[i], b[i], false), "__vcmpne4(%08x, %08x) = %08x", a[i], b[i], o[3]);
    EXPECT(o[4] == compare(a[i], b[i], true), "__vcmpeq4(%08x, %08x) = %08x", a[i], b[i], o[4]);
    EXPECT(o[5] == compare(a[i] & 0x08040201, 0, false), "__vcmpne4 signs form of %08x = %08x", a[i], o[5]);
  }
  return finish_test("simd_byte_intrinsics");
}
