// Measures the mycc runtime's JIT cache (docs/runtime.md, "JIT cache"): a
// module with KERNELS kernels, each an unrolled integer hash of ROUNDS
// rounds, so that JIT-compiling its PTX takes a while. Prints how long the
// process took until its first launch had finished, then runs every kernel
// and checks every result against the host.
//
//   START_NS=$(date +%s%N) ./jit_bench
//
// START_NS (CLOCK_REALTIME in ns, taken by the shell just before the
// program starts) makes "start_to_first_launch_ms" include the process start
// and the module registration; without it only main() is counted.
// JIT_BENCH_ATTRIBUTES_FIRST=1 calls cudaFuncGetAttributes on kernel 0 before
// its first launch, which makes cudart load the module early (before the
// runtime's first-launch work). Build with -DKERNELS=1 -DROUNDS=1 for a
// one-kernel module of a few lines of PTX. Not built by CMake.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>
#include <vector>

#ifndef KERNELS
#define KERNELS 32
#endif
#ifndef ROUNDS
#define ROUNDS 64
#endif

#define CHECK(call)                                                           \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                 \
                   cudaGetErrorString(err_));                                 \
      return 1;                                                               \
    }                                                                         \
  } while (0)

template <unsigned K> __host__ __device__ unsigned mix(unsigned x) {
#pragma unroll
  for (unsigned r = 0; r < ROUNDS; ++r) {
    x ^= x >> (5 + (K + r) % 11);
    x *= 0x9E3779B1u + 2u * (K + r);
    x += (K * 0x85EBCA6Bu) ^ r;
    x ^= x << (3 + r % 7);
  }
  return x;
}

template <unsigned K>
__global__ void kern(unsigned *out, const unsigned *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = mix<K>(in[i]);
}

static double nowMs(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const int n = 1 << 16;

template <unsigned K> static int launchAndCheck(unsigned *dout, unsigned *din,
                                                const std::vector<unsigned> &in,
                                                std::vector<unsigned> &out) {
  kern<K><<<(n + 255) / 256, 256>>>(dout, din, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != mix<K>(in[i])) {
      std::fprintf(stderr, "kernel %u: out[%d] = %u, expected %u\n", K, i,
                   out[i], mix<K>(in[i]));
      return 1;
    }
  return 0;
}

template <unsigned... Ks>
static int checkAll(std::integer_sequence<unsigned, Ks...>, unsigned *dout,
                    unsigned *din, const std::vector<unsigned> &in,
                    std::vector<unsigned> &out) {
  int failures = 0;
  ((failures += launchAndCheck<Ks>(dout, din, in, out)), ...);
  return failures;
}

int main() {
  const double mainStart = nowMs(CLOCK_MONOTONIC);
  std::vector<unsigned> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = 2654435761u * unsigned(i) + 12345u;
  unsigned *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(unsigned))); // creates the context
  CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned),
                   cudaMemcpyHostToDevice));
  const char *early = std::getenv("JIT_BENCH_ATTRIBUTES_FIRST");
  if (early && *early && *early != '0') {
    cudaFuncAttributes before;
    CHECK(cudaFuncGetAttributes(&before, kern<0>)); // loads the module
  }
  const double beforeLaunch = nowMs(CLOCK_MONOTONIC);
  kern<0><<<(n + 255) / 256, 256>>>(dout, din, n); // loads the module
  // (unless JIT_BENCH_ATTRIBUTES_FIRST did)
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double afterLaunch = nowMs(CLOCK_MONOTONIC);
  const double afterLaunchReal = nowMs(CLOCK_REALTIME);

  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kern<0>));
  int failures = checkAll(std::make_integer_sequence<unsigned, KERNELS>(),
                          dout, din, in, out);

  double sinceStart = afterLaunch - mainStart;
  const char *startNs = std::getenv("START_NS");
  if (startNs && *startNs)
    sinceStart = afterLaunchReal - std::strtod(startNs, nullptr) / 1e6;
  std::printf("jit_bench: kernels %d, start_to_first_launch_ms %.1f, "
              "context_ms %.1f, first_launch_ms %.1f, binaryVersion %d, "
              "ptxVersion %d, check %s\n",
              KERNELS, sinceStart, beforeLaunch - mainStart,
              afterLaunch - beforeLaunch, attr.binaryVersion, attr.ptxVersion,
              failures ? "FAILED" : "ok");
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return failures ? 1 : 0;
}
