// A pragma nobody knows still draws -Wunknown-pragmas, beside nvcc's own.
#pragma nv_diag_suppress 177
#pragma no_such_pragma
__global__ void kernel(int *p) { p[threadIdx.x] = 1; }
