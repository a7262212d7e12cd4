// Tensor-core GEMMs in the shape most WMMA code has (NVIDIA's samples, many
// projects): a block stages a 128-row tile of A and of B^T from global to
// shared memory through int4 copies, into an `extern __shared__` array of
// the input type with skewed rows; each warp loads its fragments from shared
// memory and multiplies; the accumulators go through shared memory and out
// to global memory with int4 copies again.
//
// C (M x N, row major) = A (M x K, row major) * B (K x N), B given as B^T
// (N x K, row major), so both staged tiles are rows of kChunkBytes. M and N
// are multiples of 128, K of the chunk.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <type_traits>

namespace gemm {

using namespace nvcuda;

constexpr int kTile = 128;         // rows and columns of C per block
constexpr int kWarpsM = 4, kWarpsN = 2, kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kWarpRows = kTile / kWarpsM, kWarpCols = kTile / kWarpsN; // 32 x 64
constexpr int kChunkBytes = 128;   // of K per stage
constexpr int kSkewBytes = 16;     // keeps fragment rows off one bank

struct F16 {
  using In = half; using Frag = half; using Acc = float;
  static constexpr int m = 16, n = 16, k = 16;
};
struct Bf16 {
  using In = __nv_bfloat16; using Frag = __nv_bfloat16; using Acc = float;
  static constexpr int m = 16, n = 16, k = 16;
};
struct S8 {
  using In = signed char; using Frag = signed char; using Acc = int;
  static constexpr int m = 16, n = 16, k = 16;
};
struct Tf32 {
  using In = float; using Frag = wmma::precision::tf32; using Acc = float;
  static constexpr int m = 16, n = 16, k = 8;
};
struct F64 {
  using In = double; using Frag = double; using Acc = double;
  static constexpr int m = 8, n = 8, k = 4;
};

template <class T> struct Shape {
  using In = typename T::In;
  using Acc = typename T::Acc;
  static constexpr int chunk = kChunkBytes / sizeof(In);           // K per stage
  static constexpr int ld = (kChunkBytes + kSkewBytes) / sizeof(In); // staged row
  static constexpr int cld = kTile + kSkewBytes / sizeof(Acc);      // C row in shared
  static constexpr int stageBytes = 2 * kTile * ld * sizeof(In);
  static constexpr int epilogueBytes = kTile * cld * sizeof(Acc);
  static constexpr int smemBytes = stageBytes > epilogueBytes ? stageBytes : epilogueBytes;
};

template <class T>
__device__ __forceinline__ void tile(typename T::In (*smem)[Shape<T>::ld],
                                     const typename T::In *A, const typename T::In *Bt,
                                     typename T::Acc *C, int M, int N, int K) {
  using In = typename T::In;
  using Acc = typename T::Acc;
  using S = Shape<T>;
  constexpr int fm = kWarpRows / T::m, fn = kWarpCols / T::n;
  constexpr int rowInt4 = kChunkBytes / 16;
  const int warp = threadIdx.x / 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int bm = blockIdx.y * kTile, bn = blockIdx.x * kTile;

  wmma::fragment<wmma::accumulator, T::m, T::n, T::k, Acc> acc[fm][fn];
  for (int i = 0; i < fm; ++i)
    for (int j = 0; j < fn; ++j) wmma::fill_fragment(acc[i][j], Acc(0));

  for (int k0 = 0; k0 < K; k0 += S::chunk) {
    // Rows 0..127 of the staging area are A's tile, 128..255 B^T's.
    for (int i = threadIdx.x; i < 2 * kTile * rowInt4; i += kThreads) {
      const int row = i / rowInt4, c = i % rowInt4;
      const In *src = row < kTile ? A + size_t(bm + row) * K + k0
                                  : Bt + size_t(bn + row - kTile) * K + k0;
      *((int4 *)&smem[row][0] + c) = *((const int4 *)src + c);
    }
    __syncthreads();
    for (int kk = 0; kk < S::chunk; kk += T::k) {
      wmma::fragment<wmma::matrix_a, T::m, T::n, T::k, typename T::Frag, wmma::row_major> a[fm];
      wmma::fragment<wmma::matrix_b, T::m, T::n, T::k, typename T::Frag, wmma::col_major> b[fn];
      for (int i = 0; i < fm; ++i) {
        wmma::load_matrix_sync(a[i], &smem[wm * kWarpRows + i * T::m][kk], S::ld);
        if constexpr (std::is_same_v<typename T::Frag, wmma::precision::tf32>)
          for (int t = 0; t < a[i].num_elements; ++t) a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);
      }
      for (int j = 0; j < fn; ++j) {
        wmma::load_matrix_sync(b[j], &smem[kTile + wn * kWarpCols + j * T::n][kk], S::ld);
        if constexpr (std::is_same_v<typename T::Frag, wmma::precision::tf32>)
          for (int t = 0; t < b[j].num_elements; ++t) b[j].x[t] = wmma::__float_to_tf32(b[j].x[t]);
      }
      for (int i = 0; i < fm; ++i)
        for (int j = 0; j < fn; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

  Acc *cs = reinterpret_cast<Acc *>(&smem[0][0]);
  for (int i = 0; i < fm; ++i)
    for (int j = 0; j < fn; ++j)
      wmma::store_matrix_sync(cs + (wm * kWarpRows + i * T::m) * S::cld + wn * kWarpCols + j * T::n,
                              acc[i][j], S::cld, wmma::mem_row_major);
  __syncthreads();
  constexpr int cRowInt4 = kTile * sizeof(Acc) / 16;
  for (int i = threadIdx.x; i < kTile * cRowInt4; i += kThreads) {
    const int row = i / cRowInt4, c = i % cRowInt4;
    *((int4 *)(C + size_t(bm + row) * N + bn) + c) = *((const int4 *)(cs + row * S::cld) + c);
  }
}

} // namespace gemm

// One kernel per type, each with its own `extern __shared__` array of the
// input type, as such code declares it.
#define GEMM_WMMA_KERNEL(NAME, T)                                                       \
  __global__ void __launch_bounds__(gemm::kThreads)                                    \
      NAME(const T::In *A, const T::In *Bt, T::Acc *C, int M, int N, int K) {          \
    extern __shared__ T::In NAME##_smem[][gemm::Shape<T>::ld];                          \
    gemm::tile<T>(NAME##_smem, A, Bt, C, M, N, K);                                      \
  }
