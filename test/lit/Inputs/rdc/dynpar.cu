// Dynamic parallelism: a kernel launches a grid and a tail launch, and calls
// the device runtime's API (cudaMalloc through cuda_runtime.h's template).
__global__ void child(int *out) { out[threadIdx.x] = threadIdx.x; }
__global__ void tail(int *out) { out[0] += 1; }
__global__ void parent(int *out) {
  child<<<1, 32>>>(out);
  tail<<<1, 1, 0, cudaStreamTailLaunch>>>(out);
  int *scratch = nullptr;
  if (cudaMalloc(&scratch, 16) == cudaSuccess) cudaFree(scratch);
  if (cudaGetLastError() != cudaSuccess) out[0] = -1;
}
void launch_parent(int *out) { parent<<<1, 1>>>(out); }
