// Stream capture of several kernel launches and memcpys into a CUDA graph,
// instantiated once and launched three times with different host input.
#include <cstdio>
#include "gpu_test.h"

__global__ void times_two(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2.0f;
}

__global__ void add_scalar(float* p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}

template <int Shift>
__global__ void combine(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + a[(i + Shift) % n];
}

int main() {
  const int n = 1 << 16;
  const size_t bytes = n * sizeof(float);
  float *h_in, *h_out, *d_a, *d_b;
  CHECK(cudaMallocHost(&h_in, bytes));
  CHECK(cudaMallocHost(&h_out, bytes));
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));

  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s, &st));
  if (st != cudaStreamCaptureStatusActive) {
    std::printf("stream is not capturing (status %d)\n", static_cast<int>(st));
    ++g_failures;
  }
  CHECK(cudaMemcpyAsync(d_a, h_in, bytes, cudaMemcpyHostToDevice, s));
  times_two<<<blocks, threads, 0, s>>>(d_a, n);
  add_scalar<<<blocks, threads, 0, s>>>(d_a, 3.0f, n);
  combine<1><<<blocks, threads, 0, s>>>(d_a, d_b, n);
  CHECK(cudaMemcpyAsync(h_out, d_b, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGetLastError());

  size_t num_nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &num_nodes));
  if (num_nodes != 5) {
    std::printf("captured graph has %zu nodes, want 5\n", num_nodes);
    ++g_failures;
  }

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  for (int iter = 0; iter < 3; ++iter) {
    for (int i = 0; i < n; ++i) h_in[i] = static_cast<float>((i % 97) + iter * 1000);
    for (int i = 0; i < n; ++i) h_out[i] = -1.0f;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      float a0 = 2.0f * h_in[i] + 3.0f;
      float a1 = 2.0f * h_in[(i + 1) % n] + 3.0f;
      float want = a0 + a1;
      if (h_out[i] != want) {
        if (!bad) std::printf("launch %d: element %d is %f, want %f\n", iter, i, h_out[i], want);
        ++bad;
      }
    }
    if (bad) ++g_failures;
  }

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(h_in));
  CHECK(cudaFreeHost(h_out));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  return finish_test("graph_capture");
}
