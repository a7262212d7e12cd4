// Texture and surface objects: a 2D cudaArray read through a texture object
// with point sampling (tex2D<float>), normalised coordinates with wrap
// addressing and linear filtering, a 1D texture over linear memory
// (tex1Dfetch), a 2D gather (tex2Dgather) with and without the residency
// flag of sparse textures, and a surface object written and read back
// (surf2Dwrite, surf2Dread).
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

// The four texels around (x + 1, y + 1), as the regular gather and as the
// sparse one (which also says whether they are resident: always, here).
__global__ void gather(cudaTextureObject_t point, float4 *out, int *resident) {
  int x = threadIdx.x, y = blockIdx.x, i = y * kW + x;
  bool r = false;
  out[2 * i] = tex2Dgather<float4>(point, x + 1.0f, y + 1.0f, &r, 0);
  out[2 * i + 1] = tex2Dgather<float4>(point, x + 1.0f, y + 1.0f, 0);
  resident[i] = r;
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

  float4 *gathered;
  int *resident;
  CHECK(cudaMalloc(&gathered, 2 * kW * kH * sizeof(float4)));
  CHECK(cudaMalloc(&resident, kW * kH * sizeof(int)));
  gather<<<kH, kW>>>(point, gathered, resident);
  CHECK(cudaGetLastError());
  static float4 g[2 * kW * kH];
  static int res[kW * kH];
  CHECK(cudaMemcpy(g, gathered, sizeof(g), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res, resident, sizeof(res), cudaMemcpyDeviceToHost));
  for (int y = 0; y + 1 < kH; ++y)
    for (int x = 0; x + 1 < kW; ++x) {
      int i = y * kW + x;
      float4 s = g[2 * i], p = g[2 * i + 1];
      float want = host[i] + host[i + 1] + host[i + kW] + host[i + kW + 1];
      EXPECT(p.x + p.y + p.z + p.w == want, "gather (%d,%d) sums to %g, not %g", x,
             y, p.x + p.y + p.z + p.w, want);
      EXPECT(s.x == p.x && s.y == p.y && s.z == p.z && s.w == p.w,
             "sparse gather (%d,%d) = (%g %g %g %g), regular (%g %g %g %g)", x, y,
             s.x, s.y, s.z, s.w, p.x, p.y, p.z, p.w);
      EXPECT(res[i] == 1, "sparse gather (%d,%d): texels not resident", x, y);
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
  CHECK(cudaFree(gathered));
  CHECK(cudaFree(resident));
  return finish_test("guide_textures");
}
