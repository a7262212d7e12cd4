// -ewp: a __device__ function only a kernel calls (options-ewp.test).
__device__ int helper(int x) { return x * 3 + 1; }
__global__ void kernel(int *p) { *p = helper(*p); }
