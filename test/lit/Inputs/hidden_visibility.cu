// Kernels and a device variable of a shared library (hidden-visibility.test).
__device__ int dev_counter;
__global__ void plain_kernel(int *p) { *p = 1; }
template <class T> __global__ void tkernel(T *p) { *p = 2; }
namespace __attribute__((visibility("default"))) shown { __global__ void shown_kernel(int *p) { *p = 3; } }
__attribute__((visibility("default"))) __global__ void own_default(int *p) { *p = 4; }
int launch(int *p) { plain_kernel<<<1, 1>>>(p); tkernel<<<1, 1>>>(p); shown::shown_kernel<<<1,1>>>(p); own_default<<<1,1>>>(p); return 0; }
