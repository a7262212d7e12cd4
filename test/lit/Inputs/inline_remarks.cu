// -opt-info inline (options-opt-info.test): one call inlined, one not.
__device__ __noinline__ int g(int x) { return x * 3; }
__device__ int f(int x) { return x + 1; }
__global__ void k(int *p) { p[0] = f(p[1]) + g(p[2]); }
