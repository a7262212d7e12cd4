// Host code calling nvcc's mixed-type min/max overloads (no GPU needed).
#include <cstddef>
#include <cstdio>
#include <cmath>

int main() {
  unsigned u = 5;
  int i = -3;
  long l = -4;
  unsigned long ul = 6;
  size_t a = 7, b = 9;
  long long ll = -9;
  unsigned long long ull = 11;
  float f = 0.5f;
  double d = 0.75;
  std::printf("max(unsigned, int) = %u\n", max(u, i));
  std::printf("min(unsigned, int) = %u\n", min(u, i));
  std::printf("max(int, unsigned) = %u\n", max(i, u));
  std::printf("min(int, int) = %d\n", min(i, -7));
  std::printf("max(long, unsigned long) = %lu\n", max(l, ul));
  std::printf("min(long, unsigned long) = %lu\n", min(l, ul));
  std::printf("min(size_t, size_t) = %zu\n", min(a, b));
  std::printf("max(size_t, size_t) = %zu\n", max(a, b));
  std::printf("max(long long, unsigned long long) = %llu\n", max(ll, ull));
  std::printf("min(long long, long long) = %lld\n", min(ll, 2LL));
  std::printf("umax = %u, llmin = %lld, ullmax = %llu\n", umax(u, 9u), llmin(ll, 0LL),
              ullmax(ull, 3ULL));
  std::printf("max(float, double) = %g\n", max(f, d));
  std::printf("min(float, float) = %g\n", min(f, 0.25f));
  std::printf("min(float, nan) = %g\n", min(f, std::nanf("")));
  return 0;
}
