// Stream-ordered memory allocation and stream priorities, as the
// Programming Guide teaches them: cudaMallocAsync/cudaFreeAsync on streams
// of different priorities, the device's default memory pool with a release
// threshold, an explicit pool (cudaMemPoolCreate, cudaMallocFromPoolAsync),
// memory reused across streams through an event, and the pool's usage
// attributes.
#include "gpu_test.h"

__global__ void fill(int *p, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value + i;
}

__global__ void add(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

int main() {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  int pools = 0;
  CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
  EXPECT(pools == 1, "memory pools not supported");

  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(greatest <= least, "priority range %d..%d", least, greatest);
  cudaStream_t high, low;
  CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  CHECK(cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least));
  int priority = 0;
  CHECK(cudaStreamGetPriority(high, &priority));
  EXPECT(priority == greatest, "high stream has priority %d, not %d", priority,
         greatest);

  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  unsigned long long threshold = 64ull << 20;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &threshold));

  constexpr int n = 1 << 20;
  int *a, *b, *sum;
  CHECK(cudaMallocAsync(&a, n * sizeof(int), high));
  CHECK(cudaMallocAsync(&b, n * sizeof(int), low));
  fill<<<n / 256, 256, 0, high>>>(a, n, 1);
  fill<<<n / 256, 256, 0, low>>>(b, n, 100);
  cudaEvent_t bReady;
  CHECK(cudaEventCreateWithFlags(&bReady, cudaEventDisableTiming));
  CHECK(cudaEventRecord(bReady, low));
  CHECK(cudaStreamWaitEvent(high, bReady, 0));
  CHECK(cudaMallocAsync(&sum, n * sizeof(int), high));
  add<<<n / 256, 256, 0, high>>>(a, b, sum, n);
  CHECK(cudaGetLastError());
  static int host[n];
  CHECK(cudaMemcpyAsync(host, sum, sizeof(host), cudaMemcpyDeviceToHost, high));
  CHECK(cudaFreeAsync(a, high));
  CHECK(cudaFreeAsync(b, high)); // freed in the stream that last used it
  CHECK(cudaFreeAsync(sum, high));
  CHECK(cudaStreamSynchronize(high));
  for (int i = 0; i < n; ++i)
    EXPECT(host[i] == 101 + 2 * i, "sum[%d] = %d", i, host[i]);

  unsigned long long used = 0, reserved = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                &reserved));
  EXPECT(used == 0, "%llu bytes still in use after the frees", used);
  EXPECT(reserved >= 3ull * n * sizeof(int),
         "the pool kept %llu bytes under a 64 MiB release threshold", reserved);

  // An explicit pool.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t own;
  CHECK(cudaMemPoolCreate(&own, &props));
  int *c;
  CHECK(cudaMallocFromPoolAsync(&c, n * sizeof(int), own, low));
  fill<<<n / 256, 256, 0, low>>>(c, n, 7);
  CHECK(cudaMemcpyAsync(host, c, sizeof(host), cudaMemcpyDeviceToHost, low));
  CHECK(cudaFreeAsync(c, low));
  CHECK(cudaStreamSynchronize(low));
  for (int i = 0; i < n; i += 4099)
    EXPECT(host[i] == 7 + i, "pool element %d = %d", i, host[i]);
  CHECK(cudaMemPoolTrimTo(own, 0));
  CHECK(cudaMemPoolDestroy(own));

  CHECK(cudaEventDestroy(bReady));
  CHECK(cudaStreamDestroy(high));
  CHECK(cudaStreamDestroy(low));
  return finish_test("guide_stream_ordered");
}
