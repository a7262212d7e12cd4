// The Programming Guide's L2 access management: a stream access policy
// window over a persisting region (cudaStreamSetAttribute with
// cudaAccessPolicyWindow, after reserving a persisting L2 set-aside), and
// cuda::annotated_ptr accesses with persisting, streaming, normal and
// run-time properties (scalars, float4, double), which mycc compiles to
// nvcc's L2::cache_hint loads and stores. The hints change no value: every
// result is checked, and the kernels run inside the window.
#include "gpu_test.h"

#include <cuda/annotated_ptr>

constexpr int kCount = 1 << 20;

__global__ void scale(int *data, const int *lookup, int n) {
  cuda::annotated_ptr<const int, cuda::access_property::persisting> hot(lookup);
  cuda::annotated_ptr<int, cuda::access_property::streaming> once(data);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    once[i] = once[i] * 2 + hot[i % 1024];
}

__global__ void shift(float4 *v, double *d, cuda::access_property property,
                      int n) {
  cuda::annotated_ptr<float4, cuda::access_property> a(v, property);
  cuda::annotated_ptr<double, cuda::access_property::normal> b(d);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 x = a[i];
    a[i] = make_float4(x.w, x.z, x.y, x.x);
    b[i] += 0.5;
  }
}

int main() {
  int device = 0;
  CHECK(cudaSetDevice(device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  int *data, *lookup;
  CHECK(cudaMalloc(&data, kCount * sizeof(int)));
  CHECK(cudaMalloc(&lookup, 1024 * sizeof(int)));
  static int host[kCount];
  int table[1024];
  for (int i = 0; i < kCount; ++i) host[i] = i;
  for (int i = 0; i < 1024; ++i) table[i] = 3 * i;
  CHECK(cudaMemcpy(data, host, sizeof(host), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(lookup, table, sizeof(table), cudaMemcpyHostToDevice));

  bool window = prop.persistingL2CacheMaxSize > 0;
  if (window) {
    size_t setAside = prop.persistingL2CacheMaxSize;
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, setAside));
    size_t limit = 0;
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
    EXPECT(limit > 0, "persisting L2 set-aside is %zu bytes", limit);
    cudaStreamAttrValue attribute = {};
    attribute.accessPolicyWindow.base_ptr = lookup;
    attribute.accessPolicyWindow.num_bytes = 1024 * sizeof(int);
    attribute.accessPolicyWindow.hitRatio = 1.0f;
    attribute.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attribute.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow,
                                 &attribute));
    cudaStreamAttrValue readBack = {};
    CHECK(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow,
                                 &readBack));
    EXPECT(readBack.accessPolicyWindow.base_ptr == lookup &&
               readBack.accessPolicyWindow.hitProp ==
                   cudaAccessPropertyPersisting,
           "the stream's access policy window did not stick");
  } else {
    std::printf("note: no persisting L2 on this device; window not set\n");
  }

  scale<<<264, 256, 0, stream>>>(data, lookup, kCount);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(host, data, sizeof(host), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kCount; ++i)
    EXPECT(host[i] == 2 * i + 3 * (i % 1024), "element %d is %d", i, host[i]);

  constexpr int kVectors = 4096;
  float4 *v;
  double *d;
  CHECK(cudaMalloc(&v, kVectors * sizeof(float4)));
  CHECK(cudaMalloc(&d, kVectors * sizeof(double)));
  static float4 hv[kVectors];
  static double hd[kVectors];
  for (int i = 0; i < kVectors; ++i) {
    hv[i] = make_float4(i, i + 0.25f, i + 0.5f, i + 0.75f);
    hd[i] = i;
  }
  CHECK(cudaMemcpy(v, hv, sizeof(hv), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d, hd, sizeof(hd), cudaMemcpyHostToDevice));
  cuda::access_property streaming{cuda::access_property::streaming{}};
  shift<<<kVectors / 128, 128, 0, stream>>>(v, d, streaming, kVectors);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(hv, v, sizeof(hv), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd, d, sizeof(hd), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kVectors; ++i) {
    EXPECT(hv[i].x == i + 0.75f && hv[i].y == i + 0.5f &&
               hv[i].z == i + 0.25f && hv[i].w == i,
           "vector %d is %g %g %g %g", i, hv[i].x, hv[i].y, hv[i].z, hv[i].w);
    EXPECT(hd[i] == i + 0.5, "double %d is %g", i, hd[i]);
  }

  if (window) {
    cudaStreamAttrValue reset = {};
    reset.accessPolicyWindow.num_bytes = 0;
    CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow,
                                 &reset));
    CHECK(cudaCtxResetPersistingL2Cache());
  }
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(data));
  CHECK(cudaFree(lookup));
  CHECK(cudaFree(v));
  CHECK(cudaFree(d));
  return finish_test("guide_l2_persistence");
}
