// WMMA with sub-byte fragments (nvcuda::wmma::experimental): 4-bit signed
// and unsigned integers (m8n8k32, s32 accumulator) and single bits
// (m8n8k128, XOR with population count), against products computed on the
// host. Each byte holds two equal 4-bit values, and each row or column of
// bits is compared word by word, so the checks do not depend on the order
// of the values within a byte or a word.
#include "gpu_test.h"

#include <mma.h>

using namespace nvcuda;
namespace exp_ = nvcuda::wmma::experimental;

// A is 8x32 row-major, B is 32x8 column-major: 8 rows/columns of 16 bytes.
template <class Precision>
__global__ void mma4(const void *a, const void *b, int *c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, Precision, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, Precision, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
  wmma::fill_fragment(fc, 1);  // C = 1 everywhere
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 32);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}

// A is 8x128 bits row-major, B 128x8 bits column-major: 4 words each.
__global__ void bmma(const unsigned *a, const unsigned *b, int *c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 128, exp_::precision::b1, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, exp_::precision::b1, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 128);
  wmma::load_matrix_sync(fb, b, 128);
  wmma::bmma_sync(fc, fa, fb, fc, exp_::bmmaBitOpXOR, exp_::bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}

// The 4-bit value `v` twice in a byte.
unsigned char twice(int v) { return (unsigned char)((v & 0xF) | ((v & 0xF) << 4)); }

int main() {
  // 4-bit: A[i][k] and B[k][j] for k = 2m, 2m+1 share byte m.
  int a4[8][16], b4[8][16]; // values per (row of A / column of B, byte)
  unsigned char abytes[8 * 16], bbytes[8 * 16];
  for (int i = 0; i < 8; ++i)
    for (int m = 0; m < 16; ++m) {
      a4[i][m] = (i * 3 + m * 5) % 16 - 8; // -8..7
      b4[i][m] = (i * 7 + m * 3) % 16 - 8;
      abytes[i * 16 + m] = twice(a4[i][m]);
      bbytes[i * 16 + m] = twice(b4[i][m]);
    }
  unsigned char *da, *db;
  int *dc;
  CHECK(cudaMalloc(&da, sizeof abytes));
  CHECK(cudaMalloc(&db, sizeof bbytes));
  CHECK(cudaMalloc(&dc, 64 * sizeof(int)));
  CHECK(cudaMemcpy(da, abytes, sizeof abytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, bbytes, sizeof bbytes, cudaMemcpyHostToDevice));
  int c[64];
  // Signed.
  mma4<exp_::precision::s4><<<1, 32>>>(da, db, dc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int want = 1;
      for (int m = 0; m < 16; ++m) want += 2 * a4[i][m] * b4[j][m];
      EXPECT(c[i * 8 + j] == want, "s4 C[%d][%d] = %d, want %d", i, j, c[i * 8 + j], want);
    }
  // Unsigned: the same bytes read as 0..15.
  mma4<exp_::precision::u4><<<1, 32>>>(da, db, dc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int want = 1;
      for (int m = 0; m < 16; ++m) want += 2 * (a4[i][m] & 0xF) * (b4[j][m] & 0xF);
      EXPECT(c[i * 8 + j] == want, "u4 C[%d][%d] = %d, want %d", i, j, c[i * 8 + j], want);
    }
  // Bits.
  unsigned a1[8 * 4], b1[8 * 4];
  for (int i = 0; i < 32; ++i) {
    a1[i] = 0x9E3779B9u * (i + 1);
    b1[i] = 0x85EBCA6Bu * (i + 7);
  }
  unsigned *da1, *db1;
  CHECK(cudaMalloc(&da1, sizeof a1));
  CHECK(cudaMalloc(&db1, sizeof b1));
  CHECK(cudaMemcpy(da1, a1, sizeof a1, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db1, b1, sizeof b1, cudaMemcpyHostToDevice));
  bmma<<<1, 32>>>(da1, db1, dc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int want = 0;
      for (int w = 0; w < 4; ++w) want += __builtin_popcount(a1[i * 4 + w] ^ b1[j * 4 + w]);
      EXPECT(c[i * 8 + j] == want, "b1 C[%d][%d] = %d, want %d", i, j, c[i * 8 + j], want);
    }
  return finish_test("guide_wmma_subbyte");
}
