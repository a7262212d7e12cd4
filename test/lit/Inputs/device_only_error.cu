// Used by diagnostics.test: an error only the device side sees.
__global__ void kernel(int *p) {
#ifdef __CUDA_ARCH__
  p[0] = device_only_undefined;
#endif
}
