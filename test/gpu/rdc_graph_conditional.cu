// A conditional graph node (CUDA 12.4+): a WHILE node whose body kernel
// decides, through the device runtime's cudaGraphSetConditional (from
// libcudadevrt, so -rdc=true), whether the body runs again.
// FLAGS: -rdc=true
#include "gpu_test.h"

__global__ void body(int *counter, cudaGraphConditionalHandle handle) {
  int c = ++*counter;
  cudaGraphSetConditional(handle, c < 10 ? 1 : 0);
}

int main() {
  int *counter;
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1,
                                         cudaGraphCondAssignDefault));
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params));
  cudaGraph_t bodyGraph = params.conditional.phGraph_out[0];

  cudaGraphNodeParams kernel = {};
  kernel.type = cudaGraphNodeTypeKernel;
  kernel.kernel.func = (void *)body;
  kernel.kernel.gridDim = dim3(1);
  kernel.kernel.blockDim = dim3(1);
  void *args[] = {&counter, &handle};
  kernel.kernel.kernelParams = args;
  cudaGraphNode_t kernelNode;
  CHECK(cudaGraphAddNode(&kernelNode, bodyGraph, nullptr, nullptr, 0, &kernel));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  int host = 0;
  CHECK(cudaMemcpy(&host, counter, sizeof host, cudaMemcpyDeviceToHost));
  EXPECT(host == 10, "the body ran %d times, want 10", host);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return finish_test("rdc_graph_conditional");
}
