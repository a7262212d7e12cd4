// A legacy pragma in device code: nvcc warns (#20199), mycc is silent.
__global__ void kernel(int *p) {
#pragma diag_suppress 177
  p[threadIdx.x] = 1;
#pragma diag_default 177
}
