// Virtual memory management and memory synchronisation domains.
//  - Two physical allocations (cuMemCreate) mapped back to back into one
//    reserved virtual range (cuMemAddressReserve, cuMemMap, cuMemSetAccess),
//    written by a kernel across the seam, read back, unmapped and released.
//  - A kernel launched in the remote memory synchronisation domain
//    (cudaLaunchAttributeMemSyncDomain, with a domain map) publishing data
//    with __threadfence(), read by a kernel in the default domain after it.
// FLAGS: -lcuda
#include "gpu_test.h"

#include <cuda.h>

#define CU_CHECK(call)                                                        \
  do {                                                                        \
    CUresult r_ = (call);                                                     \
    if (r_ != CUDA_SUCCESS) {                                                 \
      const char *name_ = "?";                                                \
      cuGetErrorName(r_, &name_);                                             \
      std::printf("%s:%d: CUDA driver error %s\n", __FILE__, __LINE__, name_); \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

__global__ void fill(unsigned *p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    p[i] = static_cast<unsigned>(i * 2654435761u);
}

__global__ void publish(int *data) {
  data[threadIdx.x] = threadIdx.x * 5;
  __threadfence();
}

__global__ void consume(const int *data, int *out) {
  out[threadIdx.x] = data[threadIdx.x] + 1;
}

int main() {
  CHECK(cudaFree(nullptr)); // the runtime's primary context, current
  int device = 0;
  CHECK(cudaGetDevice(&device));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t granularity = 0;
  CU_CHECK(cuMemGetAllocationGranularity(&granularity, &prop,
                                         CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  EXPECT(granularity > 0, "granularity %zu", granularity);
  size_t chunk = granularity * 2;
  CUmemGenericAllocationHandle first, second;
  CU_CHECK(cuMemCreate(&first, chunk, &prop, 0));
  CU_CHECK(cuMemCreate(&second, chunk, &prop, 0));
  CUdeviceptr base = 0;
  CU_CHECK(cuMemAddressReserve(&base, 2 * chunk, 0, 0, 0));
  CU_CHECK(cuMemMap(base, chunk, 0, first, 0));
  CU_CHECK(cuMemMap(base + chunk, chunk, 0, second, 0));
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CU_CHECK(cuMemSetAccess(base, 2 * chunk, &access, 1));
  size_t n = 2 * chunk / sizeof(unsigned);
  auto *p = reinterpret_cast<unsigned *>(base);
  fill<<<132, 256>>>(p, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  unsigned *host = static_cast<unsigned *>(std::malloc(2 * chunk));
  CHECK(cudaMemcpy(host, p, 2 * chunk, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += host[i] != static_cast<unsigned>(i * 2654435761u);
  EXPECT(bad == 0, "%zu of %zu words wrong across the two mappings", bad, n);
  std::free(host);
  CU_CHECK(cuMemUnmap(base, 2 * chunk));
  CU_CHECK(cuMemRelease(first));
  CU_CHECK(cuMemRelease(second));
  CU_CHECK(cuMemAddressFree(base, 2 * chunk));

  std::printf("virtual memory checked\n");
  std::fflush(stdout);

  int *data, *out;
  CHECK(cudaMalloc(&data, 64 * sizeof(int)));
  CHECK(cudaMalloc(&out, 64 * sizeof(int)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaLaunchAttribute attributes[2];
  attributes[0].id = cudaLaunchAttributeMemSyncDomain;
  attributes[0].val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  attributes[1].id = cudaLaunchAttributeMemSyncDomainMap;
  attributes[1].val.memSyncDomainMap.default_ = 0;
  attributes[1].val.memSyncDomainMap.remote = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(64);
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = 2;
  CHECK(cudaLaunchKernelEx(&config, publish, data));
  consume<<<1, 64, 0, stream>>>(data, out);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  int h[64];
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i)
    EXPECT(h[i] == i * 5 + 1, "consumer read %d at %d", h[i], i);
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(data));
  CHECK(cudaFree(out));
  return finish_test("guide_vmm_domains");
}
