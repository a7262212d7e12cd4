// A small kernel with a device variable, a constant and a template.
__device__ int launches;
__constant__ float coefficients[4] = {1, 2, 3, 4};

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] * coefficients[0];
}

template <class T> __global__ void fill(T *p, T value) { p[threadIdx.x] = value; }

#define LAUNCH_FILL(p, v) fill<<<1, 32>>>(p, v)

void run(float *x, float *y, int n, cudaStream_t s) {
  saxpy<<<dim3((n + 255) / 256), dim3(256), 0, s>>>(n, 2.0f, x, y);
  LAUNCH_FILL(y, 1.0f);
}
