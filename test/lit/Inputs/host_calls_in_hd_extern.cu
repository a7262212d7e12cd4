// __host__ __device__ functions that are not inline, not templates and not
// static, naming host functions: nvcc warns (#20011-D) and compiles them.
#include <cstdio>

void log_value(int v) { std::printf("logged %d\n", v); }

__host__ __device__ int clamp_logged(int v) { if (v < 0) log_value(v); return v < 0 ? 0 : v; }

#define HD __host__ __device__
HD int twice_logged(int v) {
  log_value(v);
  return 2 * v;
}

struct Counter {
  int n = 0;
  HD void bump();
};
HD void Counter::bump() { ++n; log_value(n); }

#ifdef USED_ON_DEVICE
__global__ void kernel(int *out) { out[0] = clamp_logged(out[0]); }
#endif

int main() {
  Counter c;
  c.bump();
  int a = clamp_logged(-3);
  int b = twice_logged(4);
  std::printf("%d %d\n", a, b);
}
