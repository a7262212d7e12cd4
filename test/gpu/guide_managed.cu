// __managed__ variables as the Programming Guide's unified memory chapter
// uses them: written by the host before any launch, read and written by
// kernels, read back by the host after synchronising; arrays with an
// initializer, a variable in a namespace, a __host__ __device__ function
// using one on both sides, its address on the host (a managed pointer that
// cudaPointerGetAttributes recognises), and cudaMemPrefetchAsync with CUDA
// 13's cudaMemLocation signature.
#include "gpu_test.h"

__managed__ int counter;
__managed__ float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
namespace physics {
__device__ __managed__ double scale = 2.5;
}

__host__ __device__ float scaled(int i) {
  return table[i] * static_cast<float>(physics::scale);
}

__global__ void bump(float *out) {
  atomicAdd(&counter, 1);
  int i = threadIdx.x % 4;
  out[threadIdx.x] = scaled(i);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int j = 0; j < 4; ++j) table[j] += 10.0f;
    physics::scale = 0.5;
  }
}

int main() {
  counter = 40; // the first access: before any launch
  EXPECT(counter == 40, "counter reads %d after writing 40", counter);
  EXPECT(scaled(2) == 7.5f, "host scaled(2) = %g", scaled(2));
  float *out;
  CHECK(cudaMalloc(&out, 64 * sizeof(float)));
  bump<<<1, 64>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  EXPECT(counter == 104, "counter is %d after 64 increments of 40", counter);
  for (int j = 0; j < 4; ++j)
    EXPECT(table[j] == j + 11.0f, "table[%d] = %g", j, table[j]);
  EXPECT(physics::scale == 0.5, "physics::scale = %g", physics::scale);
  float hout[64];
  CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t)
    EXPECT(hout[t] == (t % 4 + 1) * 2.5f, "kernel scaled(%d) = %g", t % 4,
           hout[t]);

  int *address = &counter;
  cudaPointerAttributes attributes;
  CHECK(cudaPointerGetAttributes(&attributes, address));
  EXPECT(attributes.type == cudaMemoryTypeManaged,
         "&counter is memory of type %d, not managed", attributes.type);

  int device = 0;
  CHECK(cudaGetDevice(&device));
  int concurrent = 0;
  CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess,
                               device));
  if (concurrent) {
    cudaMemLocation location = {};
    location.type = cudaMemLocationTypeDevice;
    location.id = device;
    CHECK(cudaMemPrefetchAsync(table, sizeof(table), location, 0, 0));
    bump<<<1, 4>>>(out);
    location.type = cudaMemLocationTypeHost;
    location.id = 0;
    CHECK(cudaMemPrefetchAsync(table, sizeof(table), location, 0, 0));
    CHECK(cudaDeviceSynchronize());
    EXPECT(counter == 108, "counter is %d after 4 more", counter);
    EXPECT(table[0] == 21.0f, "table[0] = %g after a second round", table[0]);
  } else {
    std::printf("note: no concurrent managed access; prefetch not tried\n");
  }
  CHECK(cudaFree(out));
  return finish_test("guide_managed");
}
