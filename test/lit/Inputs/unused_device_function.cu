// A __device__ function no kernel calls, one a kernel calls, and a kernel.
__device__ int unused_helper(int x) { return x * 3; }
__device__ int used_helper(int x) { return x + 1; }
__global__ void kernel(int *p) { *p = used_helper(*p); }
