// A 32-bit shared address cast to a pointer in device code, as
// compute-sanitizer's MemoryTracker patches do; and the same cast in host
// code, where g++ warns (-Wint-to-pointer-cast) under nvcc as under mycc.
#include <cstdint>
__device__ __noinline__ void *shared_address(uint32_t dst) { return (void *)dst; }
__global__ void kernel(void **out, uint32_t a) { *out = shared_address(a); }
void *host_address(uint32_t a) { return (void *)a; }
