// nvcc's diagnostic pragmas in their legacy spellings (without nv_), which
// CUDA 13's nvcc no longer acts on: at file scope it hands them to the host
// compiler (which warns under -Wall), in a device function it warns
// "unrecognized #pragma in device code" (#20199). mycc accepts them silently.
#pragma diag_suppress 177
#pragma diag_suppress = declared_but_not_referenced
#pragma diag_warning 550
#pragma diag_error 20012
#pragma diag_remark 177
#pragma diag_once 177
#pragma diag_default 177

__global__ void kernel(int *p) { p[threadIdx.x] = 1; }
