// Used by diagnostics.test: an error in code both sides compile.
__global__ void kernel(int *p) { p[0] = 1; }

int helper();

__device__ __host__ int both(int x) {
  return undefined_value + x;
}
