// Dynamic shared memory read with 16-byte vector accesses through an
// `extern __shared__ float2` array, after 8 bytes of static shared memory:
// with the element type's alignment (8) the dynamic area started at 8
// modulo 16 and the float4 accesses faulted ("misaligned address"); nvcc
// aligns it to 16 (ggml's flash attention kernels).
#include "gpu_test.h"

__global__ void sum_rows(const float4 *in, float *out, int n) {
  extern __shared__ float2 meta[];
  __shared__ float2 scale;  // 8 bytes of static shared memory first
  if (threadIdx.x == 0) scale = make_float2(2.0f, 0.5f);
  float4 *tile = reinterpret_cast<float4 *>(meta);
  for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += tile[i].x + tile[i].y + tile[i].z + tile[i].w;
    out[0] = s * scale.x * scale.y;
    out[1] = static_cast<float>(reinterpret_cast<unsigned long long>(meta) % 16);
  }
}

int main() {
  constexpr int n = 256;
  float4 *in;
  float *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(float4)));
  CHECK(cudaMallocManaged(&out, 2 * sizeof(float)));
  for (int i = 0; i < n; ++i) in[i] = make_float4(1, 2, 3, 4);
  sum_rows<<<1, 128, n * sizeof(float4)>>>(in, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  EXPECT(out[0] == 10.0f * n, "sum %f", out[0]);
  EXPECT(out[1] == 0.0f, "dynamic shared memory at %f modulo 16", out[1]);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return finish_test("extern_shared_align");
}
