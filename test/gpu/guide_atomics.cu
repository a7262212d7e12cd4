// Atomic functions whose results are discarded or looped on, as the
// Programming Guide's atomics section uses them: vector atomicAdd (sm_90)
// with unused results (each one must happen), compare-and-swap loops (a
// float maximum, a counter, a 16-bit counter) under contention, and
// __ldcg/__ldcs loads that must see a store made between them.
#include "gpu_test.h"

constexpr int kBlocks = 264;
constexpr int kThreads = 256;
constexpr int kTotal = kBlocks * kThreads;

// Vector atomics exist from sm_90 on; built for an older virtual arch (PTX
// JIT-compiled for a newer GPU) the kernel says it did nothing.
__global__ void vector_adds(float2 *v2, float4 *v4, int *ran) {
#if __CUDA_ARCH__ >= 900
  if (blockIdx.x == 0 && threadIdx.x == 0) *ran = 1;
  atomicAdd(&v2[0], make_float2(1.0f, 2.0f));
  atomicAdd_block(&v2[1 + blockIdx.x], make_float2(1.0f, 0.5f));
  atomicAdd_system(&v2[1 + kBlocks], make_float2(0.25f, 1.0f));
  atomicAdd(&v4[0], make_float4(1.0f, 2.0f, 3.0f, 4.0f));
  atomicAdd_block(&v4[1 + blockIdx.x], make_float4(1.0f, 1.0f, 1.0f, 1.0f));
  atomicAdd_system(&v4[1 + kBlocks], make_float4(0.5f, 0.5f, 0.5f, 0.5f));
#endif
}

// The Guide's pattern for an atomic the hardware lacks: a CAS loop.
__device__ float atomic_max_float(float *address, float value) {
  int *word = reinterpret_cast<int *>(address);
  int old = *word;
  while (__int_as_float(old) < value) {
    int assumed = old;
    old = atomicCAS(word, assumed, __float_as_int(value));
    if (old == assumed) break;
  }
  return __int_as_float(old);
}

__global__ void cas_loops(float *max, unsigned long long *count64,
                          unsigned *count32, unsigned short *count16,
                          int *block_counts) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  atomic_max_float(max, static_cast<float>((id * 7919) % kTotal) * 0.5f);
  unsigned long long old64 = *count64, seen64;
  do {
    seen64 = old64;
    old64 = atomicCAS(count64, seen64, seen64 + 3);
  } while (old64 != seen64);
  unsigned old32 = *count32, seen32;
  do {
    seen32 = old32;
    old32 = atomicCAS(count32, seen32, seen32 + 1);
  } while (old32 != seen32);
  if (threadIdx.x < 64) { // 16-bit words do not overflow
    unsigned short old16 = count16[blockIdx.x], seen16;
    do {
      seen16 = old16;
      old16 = atomicCAS(&count16[blockIdx.x], seen16,
                        static_cast<unsigned short>(seen16 + 1));
    } while (old16 != seen16);
  }
  int oldb = block_counts[blockIdx.x], seenb;
  do {
    seenb = oldb;
    oldb = atomicCAS_block(&block_counts[blockIdx.x], seenb, seenb + 1);
  } while (oldb != seenb);
}

// `alias` is `p`: the second load of each kind must see the store.
__global__ void loads_see_stores(int *p, int *alias, int *out) {
  int a = __ldcg(p);
  alias[0] = a + 10;
  int b = __ldcg(p);
  int c = __ldcs(p);
  alias[0] = c + 100;
  int d = __ldcs(p);
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = d;
}

int main() {
  float2 *v2;
  float4 *v4;
  int *ran;
  CHECK(cudaMalloc(&ran, sizeof(int)));
  CHECK(cudaMemset(ran, 0, sizeof(int)));
  CHECK(cudaMalloc(&v2, sizeof(float2) * (kBlocks + 2)));
  CHECK(cudaMalloc(&v4, sizeof(float4) * (kBlocks + 2)));
  CHECK(cudaMemset(v2, 0, sizeof(float2) * (kBlocks + 2)));
  CHECK(cudaMemset(v4, 0, sizeof(float4) * (kBlocks + 2)));
  vector_adds<<<kBlocks, kThreads>>>(v2, v4, ran);
  CHECK(cudaGetLastError());
  int hran = 0;
  CHECK(cudaMemcpy(&hran, ran, sizeof(int), cudaMemcpyDeviceToHost));
  if (!hran)
    std::printf("note: vector atomics not built (virtual arch below sm_90)\n");
  float2 h2[kBlocks + 2];
  float4 h4[kBlocks + 2];
  CHECK(cudaMemcpy(h2, v2, sizeof(h2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h4, v4, sizeof(h4), cudaMemcpyDeviceToHost));
  if (hran) {
    EXPECT(h2[0].x == kTotal && h2[0].y == 2.0f * kTotal, "float2 sum %g %g",
           h2[0].x, h2[0].y);
    EXPECT(h4[0].x == kTotal && h4[0].y == 2.0f * kTotal &&
               h4[0].z == 3.0f * kTotal && h4[0].w == 4.0f * kTotal,
           "float4 sum %g %g %g %g", h4[0].x, h4[0].y, h4[0].z, h4[0].w);
    for (int b = 0; b < kBlocks; ++b) {
      EXPECT(h2[1 + b].x == kThreads && h2[1 + b].y == 0.5f * kThreads,
             "float2 block %d: %g %g", b, h2[1 + b].x, h2[1 + b].y);
      EXPECT(h4[1 + b].x == kThreads && h4[1 + b].w == kThreads,
             "float4 block %d: %g %g", b, h4[1 + b].x, h4[1 + b].w);
    }
    EXPECT(h2[1 + kBlocks].x == 0.25f * kTotal && h2[1 + kBlocks].y == kTotal,
           "float2 system %g %g", h2[1 + kBlocks].x, h2[1 + kBlocks].y);
    EXPECT(h4[1 + kBlocks].x == 0.5f * kTotal, "float4 system %g",
           h4[1 + kBlocks].x);
  }

  float *max;
  unsigned long long *count64;
  unsigned *count32;
  unsigned short *count16;
  int *block_counts;
  CHECK(cudaMalloc(&max, sizeof(float)));
  CHECK(cudaMalloc(&count64, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&count32, sizeof(unsigned)));
  CHECK(cudaMalloc(&count16, sizeof(unsigned short) * kBlocks));
  CHECK(cudaMalloc(&block_counts, sizeof(int) * kBlocks));
  CHECK(cudaMemset(max, 0, sizeof(float)));
  CHECK(cudaMemset(count64, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(count32, 0, sizeof(unsigned)));
  CHECK(cudaMemset(count16, 0, sizeof(unsigned short) * kBlocks));
  CHECK(cudaMemset(block_counts, 0, sizeof(int) * kBlocks));
  cas_loops<<<kBlocks, kThreads>>>(max, count64, count32, count16, block_counts);
  CHECK(cudaGetLastError());
  float hmax;
  unsigned long long h64;
  unsigned h32;
  unsigned short h16[kBlocks];
  int hb[kBlocks];
  CHECK(cudaMemcpy(&hmax, max, sizeof(hmax), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h64, count64, sizeof(h64), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h32, count32, sizeof(h32), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h16, count16, sizeof(h16), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb, block_counts, sizeof(hb), cudaMemcpyDeviceToHost));
  float want = 0;
  for (int id = 0; id < kTotal; ++id) {
    float v = static_cast<float>((id * 7919) % kTotal) * 0.5f;
    if (v > want) want = v;
  }
  EXPECT(hmax == want, "CAS float max %g, expected %g", hmax, want);
  EXPECT(h64 == 3ull * kTotal, "64-bit CAS counter %llu", h64);
  EXPECT(h32 == static_cast<unsigned>(kTotal), "32-bit CAS counter %u", h32);
  for (int b = 0; b < kBlocks; ++b) {
    EXPECT(h16[b] == 64, "16-bit CAS counter of block %d: %u", b, h16[b]);
    EXPECT(hb[b] == kThreads, "block-scope CAS counter of block %d: %d", b,
           hb[b]);
  }

  int *p, *out;
  CHECK(cudaMalloc(&p, sizeof(int)));
  CHECK(cudaMalloc(&out, 4 * sizeof(int)));
  int one = 1;
  CHECK(cudaMemcpy(p, &one, sizeof(int), cudaMemcpyHostToDevice));
  loads_see_stores<<<1, 1>>>(p, p, out);
  CHECK(cudaGetLastError());
  int hout[4];
  CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
  EXPECT(hout[0] == 1 && hout[1] == 11 && hout[2] == 11 && hout[3] == 111,
         "__ldcg/__ldcs saw %d %d %d %d, expected 1 11 11 111", hout[0],
         hout[1], hout[2], hout[3]);

  CHECK(cudaFree(ran));
  CHECK(cudaFree(v2));
  CHECK(cudaFree(v4));
  CHECK(cudaFree(max));
  CHECK(cudaFree(count64));
  CHECK(cudaFree(count32));
  CHECK(cudaFree(count16));
  CHECK(cudaFree(block_counts));
  CHECK(cudaFree(p));
  CHECK(cudaFree(out));
  return finish_test("guide_atomics");
}
