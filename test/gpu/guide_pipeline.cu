// Asynchronous data copies as the Programming Guide teaches them: a
// cuda::barrier kept in __shared__ completing a block-wide
// cuda::memcpy_async, and a multi-stage cuda::pipeline whose shared state is
// a __shared__ cuda::pipeline_shared_state, copying tiles ahead of their use
// ("with staging"). Compiling the second crashed mycc once.
#include "gpu_test.h"

#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

namespace cg = cooperative_groups;

constexpr int kThreads = 128;

__global__ void barrier_copy(const int *in, int *out) {
  __shared__ int tile[kThreads];
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&ready, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * kThreads, sizeof(tile),
                     ready);
  ready.arrive_and_wait();
  out[blockIdx.x * kThreads + threadIdx.x] = tile[kThreads - 1 - threadIdx.x];
}

// Each block copies `tiles` tiles of blockDim.x ints into a ring of
// `Stages` buffers in dynamic shared memory, Stages tiles ahead of the
// computation, and writes each tile doubled.
template <int Stages>
__global__ void staged_copy(const int *in, int *out, int tiles) {
  extern __shared__ int ring[];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int width = blockDim.x;
  const int *src = in + blockIdx.x * tiles * width;
  int *dst = out + blockIdx.x * tiles * width;
  for (int s = 0; s < Stages && s < tiles; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, ring + s * width, src + s * width,
                       cuda::aligned_size_t<4>(sizeof(int) * width), pipe);
    pipe.producer_commit();
  }
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    dst[t * width + threadIdx.x] = 2 * ring[(t % Stages) * width + threadIdx.x];
    block.sync();
    pipe.consumer_release();
    int next = t + Stages;
    if (next < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, ring + (next % Stages) * width,
                         src + next * width,
                         cuda::aligned_size_t<4>(sizeof(int) * width), pipe);
      pipe.producer_commit();
    }
  }
}

int main() {
  constexpr int kBlocks = 8, kTiles = 10, kStages = 3;
  constexpr int kCount = kBlocks * kTiles * kThreads;
  int *in, *out;
  CHECK(cudaMalloc(&in, kCount * sizeof(int)));
  CHECK(cudaMalloc(&out, kCount * sizeof(int)));
  static int host[kCount], result[kCount];
  for (int i = 0; i < kCount; ++i) host[i] = i * 3 + 1;
  CHECK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));

  barrier_copy<<<kBlocks, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(result, out, kBlocks * kThreads * sizeof(int),
                   cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < kThreads; ++t)
      EXPECT(result[b * kThreads + t] == host[b * kThreads + kThreads - 1 - t],
             "barrier copy: block %d thread %d read %d", b, t,
             result[b * kThreads + t]);

  CHECK(cudaMemset(out, 0, kCount * sizeof(int)));
  staged_copy<kStages><<<kBlocks, kThreads, kStages * kThreads * sizeof(int)>>>(
      in, out, kTiles);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kCount; ++i)
    EXPECT(result[i] == 2 * host[i], "staged copy: element %d is %d, not %d", i,
           result[i], 2 * host[i]);

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return finish_test("guide_pipeline");
}
