// Two translation units linked into one program (whole-program compilation,
// no -rdc). Each unit has its own `static __global__ void fill(int*)` and its
// own `static __device__ int tag`, with different values; each is launched
// from a host function in its own unit.
// MULTI-FILE: two_units_b.cu
#include <cstdio>
#include "gpu_test.h"

static __device__ int tag = 100;

static __global__ void fill(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tag + 1;
}

// A non-static kernel with a name unique to this unit.
__global__ void fill_unique_a(int* out) { out[threadIdx.x] = -1; }

void fill_a(int* d, int n) {
  fill<<<n / 64, 64>>>(d);
  CHECK(cudaGetLastError());
}

int read_tag_a() {
  int v = 0;
  CHECK(cudaMemcpyFromSymbol(&v, tag, sizeof(v)));
  return v;
}

// Defined in two_units_b.cu.
void fill_b(int* d, int n);
int read_tag_b();
void fill_unique_b_launch(int* d);

static int check(const char* what, int* d, int n, int want) {
  int* h = new int[n];
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (h[i] != want) {
      if (!bad) std::printf("%s: element %d is %d, want %d\n", what, i, h[i], want);
      ++bad;
    }
  }
  delete[] h;
  return bad ? 1 : 0;
}

int main() {
  const int n = 256;
  int *da, *db;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&db, n * sizeof(int)));
  CHECK(cudaMemset(da, 0, n * sizeof(int)));
  CHECK(cudaMemset(db, 0, n * sizeof(int)));

  fill_a(da, n);
  fill_b(db, n);
  CHECK(cudaDeviceSynchronize());
  g_failures += check("fill from unit a", da, n, 101);
  g_failures += check("fill from unit b", db, n, 202);

  // Interleave again in the other order.
  fill_b(da, n);
  fill_a(db, n);
  g_failures += check("fill from unit b (2nd)", da, n, 202);
  g_failures += check("fill from unit a (2nd)", db, n, 101);

  fill_unique_a<<<1, 32>>>(da);
  CHECK(cudaGetLastError());
  g_failures += check("fill_unique_a", da, 32, -1);
  fill_unique_b_launch(db);
  g_failures += check("fill_unique_b", db, 32, -2);

  const int ta = read_tag_a(), tb = read_tag_b();
  if (ta != 100 || tb != 200) {
    std::printf("static __device__ tag: unit a %d (want 100), unit b %d (want 200)\n", ta, tb);
    ++g_failures;
  }

  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  return finish_test("two_units_a");
}
