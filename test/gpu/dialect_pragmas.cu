// nvcc-only pragmas and -Xcudafe options in a build with warnings as errors
// and the host compiler's -Wall (which includes -Wunknown-pragmas): nvcc's
// front end consumes its diagnostic pragmas (by number and by name, at file
// scope, in functions, through _Pragma in macros), nv_exec_check_disable and
// hd_warning_disable, and accepts -Xcudafe options; none of them may produce
// a warning. The legacy spellings without nv_ (diag_suppress, ...) are not
// here: CUDA 13's nvcc hands them to the host compiler, which warns about
// them under -Wall (test/lit/dialect-pragmas.test covers them without -Wall).
// FLAGS: -Werror all-warnings -Xcompiler -Wall
// FLAGS: -Xcudafe --diag_suppress=177,--diag_suppress=declared_but_not_referenced
// FLAGS: -Xcudafe --display_error_number -Xcudafe --diag_warning=550
#include "gpu_test.h"

#pragma nv_diag_suppress 177
#pragma nv_diag_suppress set_but_not_used
#pragma nv_diag_warning 20012
#pragma nv_diag_error 2361
#pragma nv_diag_once 550
#pragma nv_diag_remark 177
#pragma nv_diag_default 177
#pragma nv_diagnostic push
#pragma nv_diag_suppress 20011, 20014
#pragma nv_diagnostic pop

// A pragma written by a macro, as libraries wrap them.
#define SUPPRESS_BOTH_SIDES_WARNING _Pragma("nv_diag_suppress 20011")
SUPPRESS_BOTH_SIDES_WARNING

struct HostOnlyFunctor {
  int operator()(int x) const { return x + 100; }
};
struct DeviceFunctor {
  __device__ int operator()(int x) const { return 2 * x; }
};

// The typical use of nv_exec_check_disable: a __host__ __device__ template
// that is only ever instantiated with functors of its caller's side.
#pragma nv_exec_check_disable
template <class F> __host__ __device__ int apply(const F &f, int x) { return f(x); }

#pragma hd_warning_disable
template <class F> __host__ __device__ int apply_twice(const F &f, int x) {
  return f(f(x));
}

__global__ void kernel(int *out, int n) {
#pragma nv_diagnostic push
#pragma nv_diag_suppress 177
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma nv_diagnostic pop
  if (i < n) out[i] = apply(DeviceFunctor(), i) + apply_twice(DeviceFunctor(), 1);
}

int main() {
  const int n = 256;
  int *d_out;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  kernel<<<(n + 127) / 128, 128>>>(d_out, n);
  CHECK(cudaGetLastError());
  int out[n];
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT(out[i] == 2 * i + 4, "out[%d] = %d, expected %d", i, out[i], 2 * i + 4);
  EXPECT(apply(HostOnlyFunctor(), 1) == 101, "host apply");
  EXPECT(apply_twice(HostOnlyFunctor(), 1) == 201, "host apply_twice");
  CHECK(cudaFree(d_out));
  return finish_test("dialect_pragmas");
}
