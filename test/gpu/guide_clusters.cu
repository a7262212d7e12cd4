// Thread block clusters declared at compile time with __cluster_dims__ and
// launched with a plain <<<>>>: the kernel must run in clusters of that
// shape (cluster size, rank, distributed shared memory through
// __cluster_map_shared_rank, the cluster barrier), and the runtime must
// report the required cluster width. __maxnreg__ must bound the register
// count of a kernel that needs more without it.
#include "gpu_test.h"

// Clusters exist from sm_90 on. Built for an older virtual arch (PTX
// JIT-compiled for a newer GPU) the kernels say they did nothing.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTERS 1
#define PAIRS __cluster_dims__(2, 1, 1)
#else
#define CLUSTERS 0
#define PAIRS
#endif

constexpr int kBlocks = 16;
constexpr int kThreads = 64;

// out[block] = {dims specified, cluster size, rank, partner's value}
__global__ void PAIRS pairs(unsigned *out, int *ran) {
#if CLUSTERS
  __shared__ unsigned mine;
  if (threadIdx.x == 0) mine = 1000 + blockIdx.x;
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
  unsigned rank = __clusterRelativeBlockRank();
  unsigned partner = rank ^ 1;
  auto *theirs =
      static_cast<unsigned *>(__cluster_map_shared_rank(&mine, partner));
  if (threadIdx.x == 0) {
    out[4 * blockIdx.x + 0] = __clusterDimIsSpecified();
    out[4 * blockIdx.x + 1] = __clusterSizeInBlocks();
    out[4 * blockIdx.x + 2] = rank;
    out[4 * blockIdx.x + 3] = *theirs;
    if (blockIdx.x == 0) *ran = 1;
  }
  // No block may leave while its partner still reads its shared memory.
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
#endif
}

// 40 values live across a barrier: more than 32 registers unless bounded.
constexpr int kLive = 40;
__device__ void sum_pairs(const float *in, float *out) {
  float v[kLive];
#pragma unroll
  for (int i = 0; i < kLive; ++i) v[i] = in[i * kThreads + threadIdx.x];
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int i = 0; i < kLive; ++i) s += v[i] * v[kLive - 1 - i];
  out[threadIdx.x] = s;
}
__global__ void __maxnreg__(32) bounded(const float *in, float *out) {
  sum_pairs(in, out);
}
__global__ void unbounded(const float *in, float *out) {
  sum_pairs(in, out);
}

int main() {
  unsigned *out;
  int *ran;
  CHECK(cudaMalloc(&out, 4 * kBlocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&ran, sizeof(int)));
  CHECK(cudaMemset(out, 0xff, 4 * kBlocks * sizeof(unsigned)));
  CHECK(cudaMemset(ran, 0, sizeof(int)));
  pairs<<<kBlocks, kThreads>>>(out, ran);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  unsigned h[4 * kBlocks];
  int hran = 0;
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hran, ran, sizeof(int), cudaMemcpyDeviceToHost));
  if (hran) {
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, pairs));
    EXPECT(attributes.requiredClusterWidth == 2 &&
               attributes.requiredClusterHeight == 1 &&
               attributes.requiredClusterDepth == 1,
           "required cluster %dx%dx%d", attributes.requiredClusterWidth,
           attributes.requiredClusterHeight, attributes.requiredClusterDepth);
    for (int b = 0; b < kBlocks; ++b) {
      EXPECT(h[4 * b] == 1, "block %d: cluster dims not specified", b);
      EXPECT(h[4 * b + 1] == 2, "block %d: cluster of %u blocks", b,
             h[4 * b + 1]);
      EXPECT(h[4 * b + 2] == static_cast<unsigned>(b % 2), "block %d: rank %u",
             b, h[4 * b + 2]);
      EXPECT(h[4 * b + 3] == 1000u + (b ^ 1),
             "block %d read %u from its partner's shared memory", b,
             h[4 * b + 3]);
    }
  } else {
    std::printf("note: clusters not built (virtual arch below sm_90)\n");
  }

  float *in, *sums;
  CHECK(cudaMalloc(&in, kLive * kThreads * sizeof(float)));
  CHECK(cudaMalloc(&sums, 2 * kThreads * sizeof(float)));
  float hin[kLive * kThreads];
  for (int i = 0; i < kLive * kThreads; ++i) hin[i] = (i % 13) * 0.25f;
  CHECK(cudaMemcpy(in, hin, sizeof(hin), cudaMemcpyHostToDevice));
  bounded<<<1, kThreads>>>(in, sums);
  unbounded<<<1, kThreads>>>(in, sums + kThreads);
  CHECK(cudaGetLastError());
  float hsums[2 * kThreads];
  CHECK(cudaMemcpy(hsums, sums, sizeof(hsums), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; ++t) {
    float want = 0;
    for (int i = 0; i < kLive; ++i)
      want += hin[i * kThreads + t] * hin[(kLive - 1 - i) * kThreads + t];
    EXPECT(hsums[t] == want && hsums[kThreads + t] == want,
           "thread %d: %g / %g, expected %g", t, hsums[t], hsums[kThreads + t],
           want);
  }
  cudaFuncAttributes limited, free;
  CHECK(cudaFuncGetAttributes(&limited, bounded));
  CHECK(cudaFuncGetAttributes(&free, unbounded));
  EXPECT(limited.numRegs <= 32, "__maxnreg__(32) kernel uses %d registers",
         limited.numRegs);
  EXPECT(free.numRegs > 32,
         "the unbounded kernel uses %d registers: the test shows nothing",
         free.numRegs);

  CHECK(cudaFree(out));
  CHECK(cudaFree(ran));
  CHECK(cudaFree(in));
  CHECK(cudaFree(sums));
  return finish_test("guide_clusters");
}
