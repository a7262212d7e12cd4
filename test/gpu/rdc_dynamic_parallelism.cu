// Dynamic parallelism (-rdc=true, libcudadevrt through nvlink): kernels
// launching grids from the device, as the Programming Guide teaches them.
//  - every block of `parent` launches a child grid that writes its slice;
//  - a tail launch (cudaStreamTailLaunch) runs after its parent grid ends and
//    sees all of its writes; a fire-and-forget launch runs on its own;
//  - device-side cudaGetLastError after a launch, cudaMalloc/cudaFree and
//    cudaGetDevice work (they are libcudadevrt's, not the stubs the headers
//    define without __CUDACC_RDC__).
// FLAGS: -rdc=true
#include "gpu_test.h"

// rdc_ewp_dynamic_parallelism.cu builds this program with -ewp.
#ifndef RDC_DYNPAR_TEST_NAME
#define RDC_DYNPAR_TEST_NAME "rdc_dynamic_parallelism"
#endif

constexpr int kBlocks = 8, kThreads = 64;

__global__ void child(int *out, int base) {
  out[base + threadIdx.x] = base + threadIdx.x;
}

__global__ void parent(int *out, int *status) {
  if (threadIdx.x == 0) {
    child<<<1, kThreads>>>(out, blockIdx.x * kThreads);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(status, 1);
  }
}

__global__ void sum_after(const int *out, int *result) {
  int s = 0;
  for (int i = 0; i < kBlocks * kThreads; ++i) s += out[i];
  *result = s;
}

__global__ void writer_then_tail(int *out, int *result) {
  out[kBlocks * kThreads + threadIdx.x] = 1;
  if (threadIdx.x == 0)
    sum_after<<<1, 1, 0, cudaStreamTailLaunch>>>(out, result);
}

__global__ void set_flag(int *flag) { *flag = 7; }

__global__ void fire_and_forget(int *flag) {
  set_flag<<<1, 1, 0, cudaStreamFireAndForget>>>(flag);
}

__global__ void device_api(int *status) {
  int *p = nullptr;
  if (cudaMalloc(&p, 16 * sizeof(int)) != cudaSuccess || !p) {
    atomicAdd(status, 100);
    return;
  }
  for (int i = 0; i < 16; ++i) p[i] = i;
  int s = 0;
  for (int i = 0; i < 16; ++i) s += p[i];
  if (s != 120) atomicAdd(status, 1000);
  if (cudaFree(p) != cudaSuccess) atomicAdd(status, 10000);
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0)
    atomicAdd(status, 100000);
}

int main() {
  const int n = kBlocks * kThreads + kThreads;
  int *out, *status, *result, *flag;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&status, sizeof(int)));
  CHECK(cudaMalloc(&result, sizeof(int)));
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMemset(out, 0, n * sizeof(int)));
  CHECK(cudaMemset(status, 0, sizeof(int)));
  CHECK(cudaMemset(result, 0, sizeof(int)));
  CHECK(cudaMemset(flag, 0, sizeof(int)));

  parent<<<kBlocks, 32>>>(out, status);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  writer_then_tail<<<1, kThreads>>>(out, result);
  fire_and_forget<<<1, 1>>>(flag);
  device_api<<<1, 1>>>(status);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int host[kBlocks * kThreads + kThreads], st = -1, sum = -1, fl = -1;
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&st, status, sizeof st, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&sum, result, sizeof sum, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&fl, flag, sizeof fl, cudaMemcpyDeviceToHost));
  int bad = 0, expect = 0;
  for (int i = 0; i < kBlocks * kThreads; ++i) {
    bad += host[i] != i;
    expect += i;
  }
  EXPECT(bad == 0, "%d child-grid elements wrong", bad);
  EXPECT(st == 0, "device-side API status %d", st);
  EXPECT(sum == expect, "tail launch saw sum %d, expected %d", sum, expect);
  EXPECT(fl == 7, "fire-and-forget flag %d", fl);
  return finish_test(RDC_DYNPAR_TEST_NAME);
}
