// -default-stream per-thread as nvcc's: a launch and a copy that name no
// stream go to the per-thread default stream. A capture begun on
// cudaStreamPerThread records them (on the legacy stream they would end the
// capture with an error).
// FLAGS: -default-stream per-thread
#include "gpu_test.h"

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main() {
  int *d, h[32] = {0};
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaStreamBeginCapture(cudaStreamPerThread,
                               cudaStreamCaptureModeThreadLocal));
  fill<<<1, 32>>>(d, 7);
  cudaError_t launched = cudaGetLastError();
  cudaError_t copied = cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaGraph_t graph = nullptr;
  cudaError_t ended = cudaStreamEndCapture(cudaStreamPerThread, &graph);
  EXPECT(launched == cudaSuccess, "launch: %s", cudaGetErrorString(launched));
  EXPECT(copied == cudaSuccess, "copy: %s", cudaGetErrorString(copied));
  EXPECT(ended == cudaSuccess, "end capture: %s", cudaGetErrorString(ended));
  if (ended == cudaSuccess) {
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    EXPECT(nodes == 2, "captured %zu nodes, expected the launch and the copy", nodes);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, cudaStreamPerThread));
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    for (int i = 0; i < 32; ++i) EXPECT(h[i] == 7, "h[%d] = %d", i, h[i]);
  }
  return finish_test("default_stream_per_thread");
}
