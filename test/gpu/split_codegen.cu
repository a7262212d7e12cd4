// A device module large enough that mycc splits its code generation into
// parts without -split-compile (over 20,000 LLVM instructions): ten kernels,
// each a fully unrolled loop of sinf over a __shared__ buffer of its own,
// reading a __device__ variable and a __constant__ table they share, and
// calling a function of their own (functions that call each other stay in
// one part). Each kernel's results against the host's.
#include <cmath>
#include "gpu_test.h"

__device__ float scale = 0.5f;
__constant__ float offsets[4] = {0.25f, -0.5f, 1.0f, 0.125f};

template <int N> __device__ __noinline__ float bias() { return offsets[N % 4] * N; }

template <int N> __global__ void wave(const float *in, float *out) {
  __shared__ float buffer[256];
  buffer[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float acc = bias<N>();
#pragma unroll
  for (int i = 0; i < 24; ++i)
    acc += sinf(buffer[(threadIdx.x + i * N) % 256] * scale + i);
  out[N * 256 + threadIdx.x] = acc;
}

template <int N> static void launch(const float *in, float *out) {
  wave<N><<<1, 256>>>(in, out);
}

static float host(const float *in, int n, int t) {
  const float offsets[4] = {0.25f, -0.5f, 1.0f, 0.125f};
  double acc = offsets[n % 4] * n;
  for (int i = 0; i < 24; ++i) acc += std::sin((double)in[(t + i * n) % 256] * 0.5 + i);
  return (float)acc;
}

int main() {
  float *in, *out;
  CHECK(cudaMallocManaged(&in, 256 * sizeof(float)));
  CHECK(cudaMallocManaged(&out, 11 * 256 * sizeof(float)));
  for (int t = 0; t < 256; ++t) in[t] = 0.01f * t - 1.0f;
  launch<1>(in, out); launch<2>(in, out); launch<3>(in, out); launch<4>(in, out);
  launch<5>(in, out); launch<6>(in, out); launch<7>(in, out); launch<8>(in, out);
  launch<9>(in, out); launch<10>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int n = 1; n <= 10; ++n)
    for (int t = 0; t < 256; ++t) {
      float want = host(in, n, t), got = out[n * 256 + t];
      EXPECT(std::fabs(got - want) <= 1e-4f * (1 + std::fabs(want)),
             "wave<%d> thread %d: %f, host %f", n, t, got, want);
    }
  return finish_test("split_codegen");
}
