// Texture and surface objects: a 2D cudaArray read through a texture object
// with point sampling (tex2D<float>), normalised coordinates with wrap
// addressing and linear filtering, a 1D texture over linear memory
// (tex1Dfetch), and a surface object written and read back (surf2Dwrite,
// surf2Dread).
#include "gpu_test.h"

#include <cmath>

constexpr int kW = 64, kH = 32;

__global__ void sample(cudaTextureObject_t point, cudaTextureObject_t linear,
                       cudaTextureObject_t linear1d, float *out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * kW + x] = tex2D<float>(point, x + 0.5f, y + 0.5f);
  if (y == 0) {
    // Halfway between texels x and x+1 of row 0 (wrapping at the end).
    float u = (x + 1.0f) / kW, v = 0.5f / kH;
    out[kW * kH + x] = tex2D<float>(linear, u, v);
    out[kW * kH + kW + x] = tex1Dfetch<float>(linear1d, x);
  }
}

__global__ void surfaces(cudaSurfaceObject_t surface, int *out) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(x * 1000 + y, surface, x * static_cast<int>(sizeof(int)), y);
  __syncthreads();
  int v;
  surf2Dread(&v, surface, x * static_cast<int>(sizeof(int)), y);
  out[y * kW + x] = v;
}

int main() {
  static float host[kW * kH];
  for (int i = 0; i < kW * kH; ++i) host[i] = static_cast<float>(i % 97);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, kW, kH));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host, kW * sizeof(float),
                            kW * sizeof(float), kH, cudaMemcpyHostToDevice));
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc pointDesc = {};
  pointDesc.addressMode[0] = pointDesc.addressMode[1] = cudaAddressModeClamp;
  pointDesc.filterMode = cudaFilterModePoint;
  pointDesc.readMode = cudaReadModeElementType;
  cudaTextureObject_t point, linear, linear1d;
  CHECK(cudaCreateTextureObject(&point, &resource, &pointDesc, nullptr));
  cudaTextureDesc linearDesc = pointDesc;
  linearDesc.addressMode[0] = linearDesc.addressMode[1] = cudaAddressModeWrap;
  linearDesc.filterMode = cudaFilterModeLinear;
  linearDesc.normalizedCoords = 1;
  CHECK(cudaCreateTextureObject(&linear, &resource, &linearDesc, nullptr));

  float *flat;
  CHECK(cudaMalloc(&flat, kW * sizeof(float)));
  CHECK(cudaMemcpy(flat, host, kW * sizeof(float), cudaMemcpyHostToDevice));
  cudaResourceDesc linearResource = {};
  linearResource.resType = cudaResourceTypeLinear;
  linearResource.res.linear.devPtr = flat;
  linearResource.res.linear.desc = desc;
  linearResource.res.linear.sizeInBytes = kW * sizeof(float);
  cudaTextureDesc fetchDesc = {};
  fetchDesc.readMode = cudaReadModeElementType;
  CHECK(cudaCreateTextureObject(&linear1d, &linearResource, &fetchDesc, nullptr));

  float *out;
  CHECK(cudaMalloc(&out, (kW * kH + 2 * kW) * sizeof(float)));
  sample<<<kH, kW>>>(point, linear, linear1d, out);
  CHECK(cudaGetLastError());
  static float result[kW * kH + 2 * kW];
  CHECK(cudaMemcpy(result, out, sizeof(result), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kW * kH; ++i)
    EXPECT(result[i] == host[i], "point sample %d = %g, not %g", i, result[i],
           host[i]);
  for (int x = 0; x < kW; ++x) {
    float want = 0.5f * (host[x] + host[(x + 1) % kW]);
    // Linear filtering weighs with 8-bit fractions.
    EXPECT(std::fabs(result[kW * kH + x] - want) <= 0.01f * (1 + std::fabs(want)),
           "linear sample %d = %g, not %g", x, result[kW * kH + x], want);
    EXPECT(result[kW * kH + kW + x] == host[x], "tex1Dfetch %d = %g", x,
           result[kW * kH + kW + x]);
  }

  cudaChannelFormatDesc intDesc = cudaCreateChannelDesc<int>();
  cudaArray_t surfaceArray;
  CHECK(cudaMallocArray(&surfaceArray, &intDesc, kW, kH, cudaArraySurfaceLoadStore));
  cudaResourceDesc surfaceResource = {};
  surfaceResource.resType = cudaResourceTypeArray;
  surfaceResource.res.array.array = surfaceArray;
  cudaSurfaceObject_t surface;
  CHECK(cudaCreateSurfaceObject(&surface, &surfaceResource));
  int *ints;
  CHECK(cudaMalloc(&ints, kW * kH * sizeof(int)));
  surfaces<<<kH, kW>>>(surface, ints);
  CHECK(cudaGetLastError());
  static int back[kW * kH], copied[kW * kH];
  CHECK(cudaMemcpy(back, ints, sizeof(back), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(copied, kW * sizeof(int), surfaceArray, 0, 0,
                              kW * sizeof(int), kH, cudaMemcpyDeviceToHost));
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      EXPECT(back[y * kW + x] == x * 1000 + y, "surf2Dread (%d,%d) = %d", x, y,
             back[y * kW + x]);
      EXPECT(copied[y * kW + x] == x * 1000 + y, "array (%d,%d) = %d", x, y,
             copied[y * kW + x]);
    }

  CHECK(cudaDestroyTextureObject(point));
  CHECK(cudaDestroyTextureObject(linear));
  CHECK(cudaDestroyTextureObject(linear1d));
  CHECK(cudaDestroySurfaceObject(surface));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFreeArray(surfaceArray));
  CHECK(cudaFree(flat));
  CHECK(cudaFree(out));
  CHECK(cudaFree(ints));
  return finish_test("guide_textures");
}
