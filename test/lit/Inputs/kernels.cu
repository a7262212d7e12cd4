// Used by link.test.
__global__ void fill(int *p, int value) { *p = value; }

int fill_on_gpu(int value) {
  int *d = nullptr, h = -1;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess) return -1;
  fill<<<1, 1>>>(d, value);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}
