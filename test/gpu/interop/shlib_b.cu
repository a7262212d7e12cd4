// Part of the shared library of shlib_a.cu.
__device__ int shlib_offset = 5;
__device__ int shlib_twice(int x) { return 2 * x; }
