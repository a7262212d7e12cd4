// Warp matrix multiply-accumulate (nvcuda::wmma): 16x16x16 tiles of half
// inputs with float and half accumulators, bf16 inputs (sm_80), tf32 inputs
// (m16n16k8) and double (m8n8k4), row- and column-major fragments, checked
// against a host matrix product.
#include "gpu_test.h"

#include <cmath>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// C = A * B + C for one tile; A row-major, B column-major.
template <typename In, typename Acc, int M, int N, int K>
__global__ void tile(const In *a, const In *b, Acc *c) {
  using ARow = wmma::fragment<wmma::matrix_a, M, N, K, In, wmma::row_major>;
  using BCol = wmma::fragment<wmma::matrix_b, M, N, K, In, wmma::col_major>;
  ARow fa;
  BCol fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
}

// tf32: fragments hold wmma::precision::tf32, memory holds float.
__global__ void tile_tf32(const float *a, const float *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

template <typename In, typename Acc, int M, int N, int K, typename ToIn,
          typename FromAcc, typename ToAcc>
void check(const char *what, ToIn toIn, FromAcc fromAcc, ToAcc toAcc,
           double tolerance) {
  In ha[M * K], hb[K * N];
  Acc hc[M * N];
  double ref[M * N];
  for (int i = 0; i < M * K; ++i) ha[i] = toIn(((i * 7) % 9 - 4) * 0.25);
  for (int i = 0; i < K * N; ++i) hb[i] = toIn(((i * 5) % 7 - 3) * 0.5);
  for (int i = 0; i < M * N; ++i) hc[i] = toAcc((i % 4) * 0.125);
  for (int r = 0; r < M; ++r)
    for (int col = 0; col < N; ++col) {
      double s = (r * N + col) % 4 * 0.125;
      for (int k = 0; k < K; ++k)
        s += ((r * K + k) * 7 % 9 - 4) * 0.25 * (((col * K + k) * 5) % 7 - 3) * 0.5;
      ref[r * N + col] = s;
    }
  In *a, *b;
  Acc *c;
  CHECK(cudaMalloc(&a, sizeof(ha)));
  CHECK(cudaMalloc(&b, sizeof(hb)));
  CHECK(cudaMalloc(&c, sizeof(hc)));
  CHECK(cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(c, hc, sizeof(hc), cudaMemcpyHostToDevice));
  tile<In, Acc, M, N, K><<<1, 32>>>(a, b, c);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hc, c, sizeof(hc), cudaMemcpyDeviceToHost));
  for (int i = 0; i < M * N; ++i)
    EXPECT(std::fabs(fromAcc(hc[i]) - ref[i]) <= tolerance,
           "%s: element %d is %g, expected %g", what, i, fromAcc(hc[i]), ref[i]);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
}

int main() {
  auto toHalf = [](double v) { return __float2half(static_cast<float>(v)); };
  auto toBf16 = [](double v) { return __float2bfloat16(static_cast<float>(v)); };
  auto toFloat = [](double v) { return static_cast<float>(v); };
  auto fromFloat = [](float v) { return static_cast<double>(v); };
  auto fromHalf = [](__half v) { return static_cast<double>(__half2float(v)); };
  auto id = [](double v) { return v; };
  check<__half, float, 16, 16, 16>("half->float", toHalf, fromFloat, toFloat, 1e-3);
  check<__half, __half, 16, 16, 16>("half->half", toHalf, fromHalf, toHalf, 0.05);
  check<__nv_bfloat16, float, 16, 16, 16>("bf16->float", toBf16, fromFloat, toFloat, 1e-3);
  check<double, double, 8, 8, 4>("double", id, id, id, 1e-12);

  float ha[16 * 8], hb[8 * 16], hc[16 * 16];
  for (int i = 0; i < 16 * 8; ++i) ha[i] = ((i * 3) % 5 - 2) * 0.5f;
  for (int i = 0; i < 8 * 16; ++i) hb[i] = ((i * 7) % 3 - 1) * 0.25f;
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, sizeof(ha)));
  CHECK(cudaMalloc(&b, sizeof(hb)));
  CHECK(cudaMalloc(&c, sizeof(hc)));
  CHECK(cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice));
  tile_tf32<<<1, 32>>>(a, b, c);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hc, c, sizeof(hc), cudaMemcpyDeviceToHost));
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 16; ++col) {
      float s = 0;
      for (int k = 0; k < 8; ++k) s += ha[r * 8 + k] * hb[col * 8 + k];
      EXPECT(std::fabs(hc[r * 16 + col] - s) <= 1e-3f, "tf32 (%d,%d) = %g, not %g",
             r, col, hc[r * 16 + col], s);
    }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  return finish_test("guide_wmma");
}
