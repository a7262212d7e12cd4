// Chains of dependent atomicCAS, the building block of every CAS loop
// (float atomicMax, lock-free structures, bf16 atomicAdd before sm_90).
// Each thread performs kSteps compare-and-swaps, each using the value the
// previous one returned, on its own word (distinct) or on one of 1024 words
// shared by all threads (contended). Built by nvcc and by mycc, run with
// bench/atomics/run.sh; prints the median kernel time of ROUNDS launches.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int kSteps = 64;
constexpr int kContended = 1024;

__global__ void cas_chain(unsigned *words, unsigned mask, unsigned *out) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *word = &words[id & mask];
  unsigned seen = 0;
  for (int i = 0; i < kSteps; ++i)
    seen = atomicCAS(word, seen, seen + 1);
  if (seen == 0xffffffffu) out[0] = id; // keeps the chain observable
}

float median_ms(unsigned *words, size_t count, unsigned mask, unsigned *out,
                int blocks, int rounds) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < rounds; ++r) {
    CHECK(cudaMemset(words, 0, count * sizeof(unsigned)));
    CHECK(cudaEventRecord(start));
    cas_chain<<<blocks, 256>>>(words, mask, out);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return times[times.size() / 2];
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 50;
  const int blocks = 1056; // 270336 threads
  const size_t threads = size_t(blocks) * 256;
  unsigned *words, *out;
  CHECK(cudaMalloc(&words, threads * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, sizeof(unsigned)));
  // Distinct words: thread i's own; the mask keeps every index.
  float distinct = median_ms(words, threads, 0xffffffffu, out, blocks, rounds);
  float contended =
      median_ms(words, kContended, kContended - 1, out, blocks, rounds);
  // On its own word a thread's swaps alternate between success (the word
  // was `seen`) and failure (it returned the new value, which the next
  // step then swaps): kSteps / 2 increments.
  std::vector<unsigned> host(threads);
  CHECK(cudaMemset(words, 0, threads * sizeof(unsigned)));
  cas_chain<<<blocks, 256>>>(words, 0xffffffffu, out);
  CHECK(cudaMemcpy(host.data(), words, threads * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < threads; ++i)
    if (host[i] != kSteps / 2) {
      std::fprintf(stderr, "word %zu is %u, not %d\n", i, host[i], kSteps / 2);
      return 1;
    }
  std::printf("distinct_ms=%.4f contended_ms=%.4f\n", distinct, contended);
  return 0;
}
