// Uses a device function and a device variable another unit defines.
extern __device__ int scale(int x);
extern __device__ int bias;
static __global__ void kernel(int *out) { out[threadIdx.x] = scale(threadIdx.x) + bias; }
void launch_use(int *out) { kernel<<<1, 32>>>(out); }
