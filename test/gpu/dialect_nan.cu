// nan(tag) and nanf(tag) in device code. nvcc's device versions read the tag
// as a decimal, octal (0...) or hexadecimal (0x...) number and put it in the
// NaN's payload, as the C library does on the host: nan("") is the default
// quiet NaN and nan("123") carries 123. Tags are tested as literals (which
// the compiler may fold) and as strings read at run time.
#include "gpu_test.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#define NTAGS 6
static const char *const kTags[NTAGS] = {"", "123", "0x10", "010", "0XfF", "junk"};

struct Results {
  double d[2 * NTAGS];
  float f[2 * NTAGS];
  double via_std;
  float via_stdf;
  double from_hd;
};

__host__ __device__ double quiet_nan_of(const char *tag) { return nan(tag); }

// Literal tags first, then the same tags from device memory.
__global__ void nan_kernel(const char *tags, int stride, Results *r) {
  r->d[0] = nan("");
  r->d[1] = nan("123");
  r->d[2] = nan("0x10");
  r->d[3] = nan("010");
  r->d[4] = nan("0XfF");
  r->d[5] = nan("junk");
  r->f[0] = nanf("");
  r->f[1] = nanf("123");
  r->f[2] = nanf("0x10");
  r->f[3] = nanf("010");
  r->f[4] = nanf("0XfF");
  r->f[5] = nanf("junk");
  for (int k = 0; k < NTAGS; ++k) {
    r->d[NTAGS + k] = nan(tags + k * stride);
    r->f[NTAGS + k] = nanf(tags + k * stride);
  }
  r->via_std = std::nan("42");
  r->via_stdf = std::nanf("42");
  r->from_hd = quiet_nan_of("7");
}

static uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
static uint32_t bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

int main() {
  const int stride = 8;
  char tags[NTAGS * stride];
  std::memset(tags, 0, sizeof tags);
  for (int k = 0; k < NTAGS; ++k) std::strcpy(tags + k * stride, kTags[k]);

  char *d_tags;
  Results *d_r;
  CHECK(cudaMalloc(&d_tags, sizeof tags));
  CHECK(cudaMalloc(&d_r, sizeof(Results)));
  CHECK(cudaMemcpy(d_tags, tags, sizeof tags, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_r, 0, sizeof(Results)));
  nan_kernel<<<1, 1>>>(d_tags, stride, d_r);
  CHECK(cudaGetLastError());
  Results r;
  CHECK(cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost));

  // The payloads nvcc documents by example, spelled out for the plain ones,
  // and the host C library's result for every tag.
  EXPECT(bits(r.d[0]) == 0x7ff8000000000000ull, "nan(\"\") is 0x%016llx",
         (unsigned long long)bits(r.d[0]));
  EXPECT(bits(r.d[1]) == (0x7ff8000000000000ull | 123), "nan(\"123\") is 0x%016llx",
         (unsigned long long)bits(r.d[1]));
  EXPECT(bits(r.f[0]) == 0x7fc00000u, "nanf(\"\") is 0x%08x", bits(r.f[0]));
  EXPECT(bits(r.f[1]) == (0x7fc00000u | 123), "nanf(\"123\") is 0x%08x", bits(r.f[1]));
  for (int k = 0; k < 2 * NTAGS; ++k) {
    const char *tag = kTags[k % NTAGS];
    const char *how = k < NTAGS ? "literal" : "run-time";
    EXPECT(std::isnan(r.d[k]) && bits(r.d[k]) == bits(std::nan(tag)),
           "nan(\"%s\") (%s tag) is 0x%016llx, the host's 0x%016llx", tag, how,
           (unsigned long long)bits(r.d[k]), (unsigned long long)bits(std::nan(tag)));
    EXPECT(std::isnan(r.f[k]) && bits(r.f[k]) == bits(std::nanf(tag)),
           "nanf(\"%s\") (%s tag) is 0x%08x, the host's 0x%08x", tag, how, bits(r.f[k]),
           bits(std::nanf(tag)));
  }
  EXPECT(bits(r.via_std) == bits(std::nan("42")), "std::nan(\"42\") is 0x%016llx",
         (unsigned long long)bits(r.via_std));
  EXPECT(bits(r.via_stdf) == bits(std::nanf("42")), "std::nanf(\"42\") is 0x%08x",
         bits(r.via_stdf));
  EXPECT(bits(r.from_hd) == bits(quiet_nan_of("7")),
         "nan(\"7\") in a __host__ __device__ function is 0x%016llx on the device, 0x%016llx "
         "on the host",
         (unsigned long long)bits(r.from_hd), (unsigned long long)bits(quiet_nan_of("7")));

  CHECK(cudaFree(d_tags));
  CHECK(cudaFree(d_r));
  return finish_test("dialect_nan");
}
