// Programmatic dependent launch and graph nodes beyond stream capture:
//  - a secondary kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization
//    starts before the primary ends, does its independent work, then waits in
//    cudaGridDependencySynchronize() for the primary's results, which the
//    primary releases with cudaTriggerProgrammaticLaunchCompletion();
//  - a graph built node by node with a memory allocation node, a kernel node
//    using that memory, a copy node and a memory free node;
//  - a conditional (IF) node whose condition a kernel sets on the device
//    with cudaGraphSetConditional.
#include "gpu_test.h"

constexpr int kN = 4096;

// The dependent-launch controls are sm_90 instructions (griddepcontrol):
// PTX for an older virtual arch that has them cannot be JIT-compiled, with
// nvcc as with mycc. Below sm_90 the secondary simply starts after the
// primary has finished.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define DEPENDENT_LAUNCH 1
#else
#define DEPENDENT_LAUNCH 0
#endif

__global__ void primary(int *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = i * 3;
#if DEPENDENT_LAUNCH
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

__global__ void secondary(const int *data, int *out, int *early) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  early[i] = i; // independent of the primary
#if DEPENDENT_LAUNCH
  cudaGridDependencySynchronize();
#endif
  out[i] = data[i] + early[i];
}

__global__ void scale(int *p, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = i * factor;
}

__global__ void decide(cudaGraphConditionalHandle handle, const int *flag) {
  cudaGraphSetConditional(handle, *flag);
}

__global__ void mark(int *p) { p[threadIdx.x] += 1000; }

int main() {
  int *data, *out, *early;
  CHECK(cudaMalloc(&data, kN * sizeof(int)));
  CHECK(cudaMalloc(&out, kN * sizeof(int)));
  CHECK(cudaMalloc(&early, kN * sizeof(int)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  primary<<<kN / 256, 256, 0, stream>>>(data);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(kN / 256);
  config.blockDim = dim3(256);
  config.stream = stream;
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, secondary, (const int *)data, out, early));
  CHECK(cudaStreamSynchronize(stream));
  static int host[kN];
  CHECK(cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i)
    EXPECT(host[i] == 4 * i, "dependent launch: out[%d] = %d", i, host[i]);

  // A graph with memory nodes.
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = device;
  alloc.bytesize = kN * sizeof(int);
  cudaGraphNode_t allocNode, kernelNode, copyNode, freeNode;
  CHECK(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &alloc));
  int *scratch = static_cast<int *>(alloc.dptr);
  int factor = 5;
  void *args[] = {&scratch, &factor};
  cudaKernelNodeParams kernel = {};
  kernel.func = reinterpret_cast<void *>(scale);
  kernel.gridDim = dim3(kN / 256);
  kernel.blockDim = dim3(256);
  kernel.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kernelNode, graph, &allocNode, 1, &kernel));
  CHECK(cudaGraphAddMemcpyNode1D(&copyNode, graph, &kernelNode, 1, out, scratch,
                                 kN * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, graph, &copyNode, 1, scratch));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i)
    EXPECT(host[i] == 5 * i, "memory-node graph: out[%d] = %d", i, host[i]);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  // A conditional node: the body runs only when the device says so.
  for (int run = 0; run < 2; ++run) {
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle handle;
    CHECK(cudaGraphConditionalHandleCreate(&handle, g, 0, 0));
    int *flag;
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMemcpy(flag, &run, sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, 32 * sizeof(int)));
    cudaGraphNode_t decideNode, conditional;
    void *decideArgs[] = {&handle, &flag};
    cudaKernelNodeParams decideParams = {};
    decideParams.func = reinterpret_cast<void *>(decide);
    decideParams.gridDim = dim3(1);
    decideParams.blockDim = dim3(1);
    decideParams.kernelParams = decideArgs;
    CHECK(cudaGraphAddKernelNode(&decideNode, g, nullptr, 0, &decideParams));
    cudaGraphNodeParams cond = {};
    cond.type = cudaGraphNodeTypeConditional;
    cond.conditional.handle = handle;
    cond.conditional.type = cudaGraphCondTypeIf;
    cond.conditional.size = 1;
    CHECK(cudaGraphAddNode(&conditional, g, &decideNode, nullptr, 1, &cond));
    cudaGraph_t body = cond.conditional.phGraph_out[0];
    cudaGraphNode_t markNode;
    void *markArgs[] = {&out};
    cudaKernelNodeParams markParams = {};
    markParams.func = reinterpret_cast<void *>(mark);
    markParams.gridDim = dim3(1);
    markParams.blockDim = dim3(32);
    markParams.kernelParams = markArgs;
    CHECK(cudaGraphAddKernelNode(&markNode, body, nullptr, 0, &markParams));
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, stream));
    CHECK(cudaStreamSynchronize(stream));
    int h[32];
    CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i)
      EXPECT(h[i] == (run ? 1000 : 0), "conditional run %d: out[%d] = %d", run,
             i, h[i]);
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(flag));
  }

  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(data));
  CHECK(cudaFree(out));
  CHECK(cudaFree(early));
  return finish_test("guide_pdl_graphs");
}
