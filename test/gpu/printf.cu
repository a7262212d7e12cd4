// Device printf. The runner checks that every EXPECT-OUTPUT line below occurs
// as a whole line of the program's output (in any order).
// EXPECT-OUTPUT: single: i=42 u=4000000000 ll=-1234567890123 x=beef c=Z s=hello
// EXPECT-OUTPUT: single: f=3.50 e=1.250000e-03 g=0.1 pct=100%
// EXPECT-OUTPUT: block 0: sum=8128 first=0 last=127
// EXPECT-OUTPUT: block 1: sum=24512 first=128 last=255
// EXPECT-OUTPUT: after sync: value=7
#include <cstdio>
#include "gpu_test.h"

__device__ const char* greeting() { return "hello"; }

// One thread prints a line with many conversion kinds.
__global__ void single_thread() {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    unsigned u = 4000000000u;
    long long ll = -1234567890123LL;
    printf("single: i=%d u=%u ll=%lld x=%x c=%c s=%s\n", 42, u, ll, 0xbeef, 'Z', greeting());
    printf("single: f=%.2f e=%e g=%g pct=%d%%\n", 3.5f, 1.25e-3, 0.1, 100);
  }
}

// Thread 0 of each block prints its block's sum after a block-wide sync.
__global__ void per_block() {
  __shared__ int vals[128];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  vals[threadIdx.x] = gid;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < blockDim.x; ++i) s += vals[i];
    printf("block %d: sum=%d first=%d last=%d\n", blockIdx.x, s, vals[0], vals[blockDim.x - 1]);
  }
}

__global__ void after_sync(const int* v) { printf("after sync: value=%d\n", *v); }

int main() {
  single_thread<<<1, 32>>>();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  per_block<<<2, 128>>>();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int* d;
  CHECK(cudaMalloc(&d, sizeof(int)));
  const int seven = 7;
  CHECK(cudaMemcpy(d, &seven, sizeof(int), cudaMemcpyHostToDevice));
  after_sync<<<1, 1>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  std::fflush(stdout);
  std::printf("PASS printf\n");
  return 0;
}
