// Separate compilation (-rdc=true): device functions and variables defined in
// one unit and used from another, and the same names in both units.
//  - scale() and `counter` are defined in rdc_extern_b.cu and used here;
//  - `table` (__constant__) is defined here and filled from rdc_extern_b.cu;
//  - each unit has its own `static __global__ void fill` and its own
//    `static __device__ int tag` with different values;
//  - both units instantiate the template kernel `twice<int>`.
// FLAGS: -rdc=true
// MULTI-FILE: rdc_extern_b.cu
#include "gpu_test.h"

// rdc_lto.cu builds this program with -dlto under its own name.
#ifndef RDC_EXTERN_TEST_NAME
#define RDC_EXTERN_TEST_NAME "rdc_extern"
#endif

extern __device__ float scale(float x);
extern __device__ int counter;
__constant__ int table[4];

static __device__ int tag = 100;

static __global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = scale(static_cast<float>(i)) + tag + table[i % 4];
    atomicAdd(&counter, 1);
  }
}

template <typename T> __global__ void twice(T *p) { p[threadIdx.x] *= 2; }

// rdc_extern_b.cu
void fill_b(float *out, int n);
void set_table_b();
int counter_from_b();
void twice_b(int *p);

int main() {
  const int n = 1000;
  float *d = nullptr;
  CHECK(cudaMalloc(&d, 2 * n * sizeof(float)));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  set_table_b();
  fill<<<(n + 255) / 256, 256>>>(d, n);
  CHECK(cudaGetLastError());
  fill_b(d + n, n);
  CHECK(cudaDeviceSynchronize());
  static float h[2 * n];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float a = 2.0f * i + 100 + 10 * (i % 4);
    float b = 2.0f * i + 200;
    EXPECT(h[i] == a, "unit a: out[%d] = %g, expected %g", i, h[i], a);
    EXPECT(h[n + i] == b, "unit b: out[%d] = %g, expected %g", i, h[n + i], b);
  }
  int c = 0;
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  EXPECT(c == 2 * n, "counter read here = %d, expected %d", c, 2 * n);
  EXPECT(counter_from_b() == 2 * n, "counter read in unit b = %d",
         counter_from_b());
  void *addr = nullptr;
  CHECK(cudaGetSymbolAddress(&addr, counter));
  EXPECT(addr != nullptr, "no address for counter");

  int *p = nullptr;
  CHECK(cudaMalloc(&p, 32 * sizeof(int)));
  int ones[32];
  for (int &v : ones) v = 1;
  CHECK(cudaMemcpy(p, ones, sizeof ones, cudaMemcpyHostToDevice));
  twice<<<1, 32>>>(p);
  twice_b(p);
  CHECK(cudaMemcpy(ones, p, sizeof ones, cudaMemcpyDeviceToHost));
  for (int v : ones) EXPECT(v == 4, "twice<int> twice gave %d", v);
  CHECK(cudaFree(p));
  CHECK(cudaFree(d));
  return finish_test(RDC_EXTERN_TEST_NAME);
}
