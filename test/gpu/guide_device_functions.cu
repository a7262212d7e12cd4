// Device functions of CUDA's headers that Clang's lacked: 128-bit
// atomicCAS/atomicExch (sm_90) as a lock-free pair counter under contention,
// __tanhf against tanhf, __isGridConstant on a __grid_constant__ parameter
// and on a global pointer, and new/delete of an over-aligned type.
#include "gpu_test.h"

#include <cmath>
#include <cstring>
#include <new>

struct alignas(16) Pair {
  unsigned long long count, sum;
};

__global__ void wide_counter(Pair *pair, Pair *swapped, int *ran) {
#if __CUDA_ARCH__ >= 900
  if (blockIdx.x == 0 && threadIdx.x == 0) *ran = 1;
  unsigned long long id = blockIdx.x * blockDim.x + threadIdx.x;
  Pair seen = *pair;
  for (;;) {
    Pair next{seen.count + 1, seen.sum + id};
    Pair old = atomicCAS(pair, seen, next);
    if (old.count == seen.count && old.sum == seen.sum) break;
    seen = old;
  }
  Pair mine{id, ~id};
  Pair previous = atomicExch_block(&swapped[blockIdx.x], mine);
  // Every value a block's slot held is some thread's (id, ~id), or zero.
  if (previous.count != 0 && previous.sum != ~previous.count)
    atomicAdd(reinterpret_cast<unsigned long long *>(ran) + 1, 1ull);
#endif
}

__global__ void tanh_and_params(const __grid_constant__ Pair p, float *x,
                                unsigned *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __tanhf(x[i]);
  if (i == 0) {
    flags[0] = __isGridConstant(&p);
    flags[1] = __isGridConstant(x);
  }
}

struct alignas(256) Line {
  float v[64];
};

__global__ void aligned_objects(unsigned long long *misaligned,
                                float *sums) {
  Line *line = new Line;
  if (!line) return;
  if (reinterpret_cast<unsigned long long>(line) % alignof(Line))
    atomicAdd(misaligned, 1ull);
  for (int i = 0; i < 64; ++i) line->v[i] = threadIdx.x + i;
  float s = 0;
  for (int i = 0; i < 64; ++i) s += line->v[i];
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
  delete line;
}

int main() {
  constexpr int kBlocks = 132, kThreads = 128;
  Pair *pair, *swapped;
  int *ran;
  CHECK(cudaMalloc(&pair, sizeof(Pair)));
  CHECK(cudaMalloc(&swapped, kBlocks * sizeof(Pair)));
  CHECK(cudaMalloc(&ran, 4 * sizeof(int)));
  CHECK(cudaMemset(pair, 0, sizeof(Pair)));
  CHECK(cudaMemset(swapped, 0, kBlocks * sizeof(Pair)));
  CHECK(cudaMemset(ran, 0, 4 * sizeof(int)));
  wide_counter<<<kBlocks, kThreads>>>(pair, swapped, ran);
  CHECK(cudaGetLastError());
  Pair h;
  int hran[4];
  CHECK(cudaMemcpy(&h, pair, sizeof(h), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hran, ran, sizeof(hran), cudaMemcpyDeviceToHost));
  if (hran[0]) {
    unsigned long long n = kBlocks * kThreads;
    EXPECT(h.count == n && h.sum == n * (n - 1) / 2,
           "128-bit CAS counter %llu / %llu", h.count, h.sum);
    unsigned long long torn;
    std::memcpy(&torn, &hran[2], sizeof(torn));
    EXPECT(torn == 0, "%llu torn 128-bit exchanges", torn);
  } else {
    std::printf("note: 128-bit atomics not built (virtual arch below sm_90)\n");
  }

  constexpr int kValues = 1024;
  float *x;
  unsigned *flags;
  CHECK(cudaMalloc(&x, kValues * sizeof(float)));
  CHECK(cudaMalloc(&flags, 2 * sizeof(unsigned)));
  float hx[kValues];
  for (int i = 0; i < kValues; ++i) hx[i] = (i - kValues / 2) / 64.0f;
  CHECK(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
  tanh_and_params<<<kValues / 256, 256>>>(Pair{1, 2}, x, flags, kValues);
  CHECK(cudaGetLastError());
  float ht[kValues];
  unsigned hflags[2];
  CHECK(cudaMemcpy(ht, x, sizeof(ht), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hflags, flags, sizeof(hflags), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kValues; ++i)
    EXPECT(std::fabs(ht[i] - std::tanh(hx[i])) < 2e-3f,
           "__tanhf(%g) = %g, tanh = %g", hx[i], ht[i], std::tanh(hx[i]));
  EXPECT(hflags[0] == 1, "__isGridConstant(&grid constant) = %u", hflags[0]);
  EXPECT(hflags[1] == 0, "__isGridConstant(global pointer) = %u", hflags[1]);

  unsigned long long *misaligned;
  float *sums;
  CHECK(cudaMalloc(&misaligned, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&sums, 4 * 64 * sizeof(float)));
  CHECK(cudaMemset(misaligned, 0, sizeof(unsigned long long)));
  aligned_objects<<<4, 64>>>(misaligned, sums);
  CHECK(cudaGetLastError());
  unsigned long long hm;
  float hs[4 * 64];
  CHECK(cudaMemcpy(&hm, misaligned, sizeof(hm), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs, sums, sizeof(hs), cudaMemcpyDeviceToHost));
  EXPECT(hm == 0, "%llu objects not 256-byte aligned", hm);
  for (int i = 0; i < 4 * 64; ++i) {
    float want = 64.0f * (i % 64) + 63.0f * 64.0f / 2.0f;
    EXPECT(hs[i] == want, "thread %d summed %g, not %g", i, hs[i], want);
  }

  CHECK(cudaFree(pair));
  CHECK(cudaFree(swapped));
  CHECK(cudaFree(ran));
  CHECK(cudaFree(x));
  CHECK(cudaFree(flags));
  CHECK(cudaFree(misaligned));
  CHECK(cudaFree(sums));
  return finish_test("guide_device_functions");
}
