// nvcc's min/max overloads (crt/math_functions.hpp) in host code: mixed
// signed/unsigned integer pairs, long and size_t, float/double pairs, and the
// umin/llmax/... helpers. nvcc declares them __host__ __device__; the same
// calls are made in a kernel and in host code, and both must give nvcc's
// results: a mixed signed/unsigned pair compares as unsigned, float pairs go
// through fminf/fmaxf (a NaN loses), float/double pairs through fmin/fmax.
#include "gpu_test.h"

#include <cmath>
#include <cstddef>
#include <cstring>

struct Inputs {
  unsigned u;
  int i;
  long l;
  unsigned long ul;
  long long ll;
  unsigned long long ull;
  size_t sa, sb;
  float f, fnan;
  double d;
};

struct Results {
  unsigned u[10];
  int i[2];
  long l[2];
  unsigned long ul[8];
  long long ll[4];
  unsigned long long ull[8];
  float f[4];
  double d[6];
};

// Called from the kernel and from main: each side resolves min/max to its own
// overloads.
__host__ __device__ void compute(const Inputs &in, Results &r) {
  r.u[0] = max(in.u, in.i);  // (unsigned, int)
  r.u[1] = min(in.u, in.i);
  r.u[2] = max(in.i, in.u);  // (int, unsigned)
  r.u[3] = min(in.i, in.u);
  r.u[4] = max(in.u, 2u);    // (unsigned, unsigned)
  r.u[5] = min(in.u, 2u);
  r.u[6] = umax(in.u, 9u);
  r.u[7] = umin(in.u, 9u);
  r.u[8] = max(in.u, 7);     // a literal int
  r.u[9] = min(3, in.u);
  r.i[0] = max(in.i, -7);    // (int, int)
  r.i[1] = min(in.i, -7);
  r.l[0] = max(in.l, -2L);   // (long, long)
  r.l[1] = min(in.l, -2L);
  r.ul[0] = max(in.l, in.ul); // (long, unsigned long): unsigned
  r.ul[1] = min(in.l, in.ul);
  r.ul[2] = max(in.ul, in.l); // (unsigned long, long)
  r.ul[3] = min(in.ul, in.l);
  r.ul[4] = max(in.sa, in.sb); // size_t is unsigned long
  r.ul[5] = min(in.sa, in.sb);
  r.ul[6] = max(in.ul, in.sa);
  r.ul[7] = min(in.ul, in.sa);
  r.ll[0] = max(in.ll, -1LL);
  r.ll[1] = min(in.ll, -1LL);
  r.ll[2] = llmax(in.ll, 5LL);
  r.ll[3] = llmin(in.ll, 5LL);
  r.ull[0] = max(in.ll, in.ull); // (long long, unsigned long long)
  r.ull[1] = min(in.ll, in.ull);
  r.ull[2] = max(in.ull, in.ll);
  r.ull[3] = min(in.ull, in.ll);
  r.ull[4] = max(in.ull, 1ULL);
  r.ull[5] = min(in.ull, 1ULL);
  r.ull[6] = ullmax(in.ull, 100ULL);
  r.ull[7] = ullmin(in.ull, 100ULL);
  r.f[0] = max(in.f, 0.25f);
  r.f[1] = min(in.f, 0.25f);
  r.f[2] = max(in.fnan, in.f);   // fmaxf: the number wins over a NaN
  r.f[3] = min(in.f, in.fnan);
  r.d[0] = max(in.d, 1.0);
  r.d[1] = min(in.d, 1.0);
  r.d[2] = max(in.f, in.d);      // (float, double): double
  r.d[3] = min(in.f, in.d);
  r.d[4] = max(in.d, in.f);      // (double, float)
  r.d[5] = min(in.d, in.f);
}

__global__ void compute_kernel(const Inputs *in, Results *r) { compute(*in, *r); }

// The overloads' result types, as nvcc declares them.
template <class A, class B> struct Same { static constexpr bool value = false; };
template <class A> struct Same<A, A> { static constexpr bool value = true; };
static_assert(Same<decltype(max(1u, 1)), unsigned>::value, "max(unsigned, int)");
static_assert(Same<decltype(min(1L, 1UL)), unsigned long>::value, "min(long, unsigned long)");
static_assert(Same<decltype(max(size_t(1), size_t(2))), unsigned long>::value, "max(size_t, size_t)");
static_assert(Same<decltype(min(1.0f, 1.0)), double>::value, "min(float, double)");
static_assert(Same<decltype(max(1LL, 1ULL)), unsigned long long>::value, "max(long long, unsigned long long)");

// Host-only code written against nvcc: a clamp on size_t.
static size_t clamp_size(size_t v, size_t lo, size_t hi) { return max(lo, min(v, hi)); }

// The expected values, spelled out with the conversions nvcc applies.
template <class T> static T ref_max(T a, T b) { return a > b ? a : b; }
template <class T> static T ref_min(T a, T b) { return a < b ? a : b; }

static void check(const char *side, const Inputs &in, const Results &r) {
  const unsigned ui = static_cast<unsigned>(in.i);
  const unsigned long ull_ = static_cast<unsigned long>(in.l);
  const unsigned long long ulll = static_cast<unsigned long long>(in.ll);
  const unsigned u[10] = {ref_max(in.u, ui), ref_min(in.u, ui), ref_max(ui, in.u),
                          ref_min(ui, in.u), ref_max(in.u, 2u), ref_min(in.u, 2u),
                          ref_max(in.u, 9u), ref_min(in.u, 9u), ref_max(in.u, 7u),
                          ref_min(3u, in.u)};
  for (int k = 0; k < 10; ++k)
    EXPECT(r.u[k] == u[k], "%s: unsigned result %d is %u, expected %u", side, k, r.u[k], u[k]);
  EXPECT(r.i[0] == ref_max(in.i, -7) && r.i[1] == ref_min(in.i, -7), "%s: int: %d %d", side,
         r.i[0], r.i[1]);
  EXPECT(r.l[0] == ref_max(in.l, -2L) && r.l[1] == ref_min(in.l, -2L), "%s: long: %ld %ld",
         side, r.l[0], r.l[1]);
  const unsigned long ul[8] = {ref_max(ull_, in.ul),   ref_min(ull_, in.ul),
                               ref_max(in.ul, ull_),   ref_min(in.ul, ull_),
                               ref_max(in.sa, in.sb),  ref_min(in.sa, in.sb),
                               ref_max(in.ul, in.sa),  ref_min(in.ul, in.sa)};
  for (int k = 0; k < 8; ++k)
    EXPECT(r.ul[k] == ul[k], "%s: unsigned long result %d is %lu, expected %lu", side, k,
           r.ul[k], ul[k]);
  const long long ll[4] = {ref_max(in.ll, -1LL), ref_min(in.ll, -1LL), ref_max(in.ll, 5LL),
                           ref_min(in.ll, 5LL)};
  for (int k = 0; k < 4; ++k)
    EXPECT(r.ll[k] == ll[k], "%s: long long result %d is %lld, expected %lld", side, k,
           r.ll[k], ll[k]);
  const unsigned long long ull[8] = {ref_max(ulll, in.ull),  ref_min(ulll, in.ull),
                                     ref_max(in.ull, ulll),  ref_min(in.ull, ulll),
                                     ref_max(in.ull, 1ULL),  ref_min(in.ull, 1ULL),
                                     ref_max(in.ull, 100ULL), ref_min(in.ull, 100ULL)};
  for (int k = 0; k < 8; ++k)
    EXPECT(r.ull[k] == ull[k], "%s: unsigned long long result %d is %llu, expected %llu",
           side, k, r.ull[k], ull[k]);
  const float f[4] = {ref_max(in.f, 0.25f), ref_min(in.f, 0.25f), in.f, in.f};
  for (int k = 0; k < 4; ++k)
    EXPECT(r.f[k] == f[k], "%s: float result %d is %g, expected %g", side, k, r.f[k], f[k]);
  const double fd = in.f;
  const double d[6] = {ref_max(in.d, 1.0), ref_min(in.d, 1.0), ref_max(fd, in.d),
                       ref_min(fd, in.d),  ref_max(in.d, fd),  ref_min(in.d, fd)};
  for (int k = 0; k < 6; ++k)
    EXPECT(r.d[k] == d[k], "%s: double result %d is %.17g, expected %.17g", side, k, r.d[k],
           d[k]);
}

int main() {
  Inputs in;
  in.u = 5;
  in.i = -3;  // as unsigned: 4294967293, above every u
  in.l = -4;  // as unsigned long: above every ul
  in.ul = 6;
  in.ll = -9;
  in.ull = 11;
  in.sa = 7;
  in.sb = 9;
  in.f = 0.5f;
  in.fnan = std::nanf("");
  in.d = 0.75;

  Results host;
  std::memset(&host, 0, sizeof host);
  compute(in, host);
  check("host", in, host);

  Inputs *d_in;
  Results *d_r;
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_r, sizeof(Results)));
  CHECK(cudaMemset(d_r, 0, sizeof(Results)));
  CHECK(cudaMemcpy(d_in, &in, sizeof in, cudaMemcpyHostToDevice));
  compute_kernel<<<1, 1>>>(d_in, d_r);
  CHECK(cudaGetLastError());
  Results device;
  CHECK(cudaMemcpy(&device, d_r, sizeof device, cudaMemcpyDeviceToHost));
  check("device", in, device);
  EXPECT(std::memcmp(&host, &device, sizeof host) == 0, "host and device results differ");

  EXPECT(clamp_size(3, 5, 10) == 5 && clamp_size(12, 5, 10) == 10 && clamp_size(7, 5, 10) == 7,
         "clamp_size");
  EXPECT(max(3, 4) == 4 && min(3, 4) == 3, "max/min(int, int)");

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_r));
  return finish_test("dialect_minmax");
}
