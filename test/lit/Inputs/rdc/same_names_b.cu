// The same internal names as same_names_a.cu: an extern __shared__ array and
// a static __constant__ that host code fills (cudaMemcpyToSymbol).
extern __shared__ float smem[];
static __constant__ float coef[4];
__global__ void kernel_b(float *out) {
  smem[threadIdx.x] = coef[threadIdx.x % 4];
  __syncthreads();
  out[threadIdx.x] = smem[0];
}
void set_b(const float *v) { cudaMemcpyToSymbol(coef, v, sizeof coef); }
