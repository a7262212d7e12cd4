// An unroll request LLVM cannot honour: a run-time trip count in a loop with
// a barrier (convergent, so no run-time unrolling).
__global__ void accumulate(int *out, const int *in, int n) {
  __shared__ int tile[256];
  int sum = 0;
#pragma unroll
  for (int i = 0; i < n; ++i) {
    tile[threadIdx.x] = in[i * blockDim.x + threadIdx.x];
    __syncthreads();
    sum += tile[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[threadIdx.x] = sum;
}
