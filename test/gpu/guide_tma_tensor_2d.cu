// Two-dimensional tensor copies through the Tensor Memory Accelerator
// (sm_90), as the guide teaches them: the host describes a row-major matrix
// in global memory with a tensor map (cuTensorMapEncodeTiled, reached through
// the runtime's driver entry point so that the program needs no -lcuda) and
// passes it to the kernel as a __grid_constant__ parameter. Each block copies
// one 32x32 tile into shared memory (cp_async_bulk_tensor_2d_global_to_shared
// completing on a cuda::barrier with the tile's byte count), transforms it,
// and after a proxy fence writes it back to the transposed tile position of a
// second matrix through another tensor map
// (cp_async_bulk_tensor_2d_shared_to_global, bulk group commit and wait). A
// last tile starts past the matrix's edge: the TMA fills the out-of-bounds
// elements with zeros on the way in and drops them on the way out.
#include "gpu_test.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <utility>

constexpr int kTile = 32;   // a 32x32 tile of ints: 4 KiB
constexpr int kRows = 200;  // not a multiple of the tile: edge tiles
constexpr int kCols = 256;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
using barrier_t = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

// out[c][r] = 2 * in[r][c] + 1 for the tile at (tile column bx, tile row by),
// with out a kCols x kRows matrix.
__global__ void transpose_tiles(const __grid_constant__ CUtensorMap in,
                                const __grid_constant__ CUtensorMap out,
                                int *zeros_seen) {
  __shared__ alignas(128) int tile[kTile][kTile];
  __shared__ alignas(128) int transposed[kTile][kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier_t bar;
  const int x = blockIdx.x * kTile, y = blockIdx.y * kTile; // column, row
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  barrier_t::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &in, x, y, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) {
    const int r = i / kTile, c = i % kTile;
    // Elements past the matrix arrive as zeros (the tensor map's fill).
    if (y + r >= kRows && tile[r][c] == 0) atomicAdd(zeros_seen, 1);
    transposed[c][r] = 2 * tile[r][c] + 1;
  }
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&out, y, x, &transposed);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}
#endif

// A tensor map over a rows x cols row-major int matrix with kTile x kTile
// boxes; out-of-bounds elements read as zero.
static CUtensorMap tensor_map(PFN_cuTensorMapEncodeTiled_v12000 encode, int *base,
                              int rows, int cols) {
  CUtensorMap map{};
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}; // innermost first
  cuuint64_t strides[1] = {cols * sizeof(int)};               // bytes, rank - 1
  cuuint32_t box[2] = {kTile, kTile}, element_strides[2] = {1, 1};
  CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, base, dims, strides, box,
                      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  EXPECT(r == CUDA_SUCCESS, "cuTensorMapEncodeTiled returned %d", (int)r);
  return map;
}

int main() {
  int device = 0, major = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) {
    std::printf("note: tensor copies need sm_90; not run\n");
    return finish_test("guide_tma_tensor_2d");
  }
#if !defined(__CUDA_ARCH_LIST__) || __CUDA_ARCH_LIST__ >= 900
  void *entry = nullptr;
  cudaDriverEntryPointQueryResult found;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000,
                                         cudaEnableDefault, &found));
  EXPECT(found == cudaDriverEntryPointSuccess && entry, "no cuTensorMapEncodeTiled");
  if (!entry) return finish_test("guide_tma_tensor_2d");
  auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry);

  const int n = kRows * kCols;
  int *in, *out, *zeros;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&zeros, sizeof(int)));
  CHECK(cudaMemset(out, 0xff, n * sizeof(int)));
  CHECK(cudaMemset(zeros, 0, sizeof(int)));
  int *h = new int[n];
  for (int i = 0; i < n; ++i) h[i] = i % 9973;
  CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
  CUtensorMap in_map = tensor_map(encode, in, kRows, kCols);
  CUtensorMap out_map = tensor_map(encode, out, kCols, kRows);
  dim3 grid(kCols / kTile, (kRows + kTile - 1) / kTile);
  transpose_tiles<<<grid, 128>>>(in_map, out_map, zeros);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int *back = new int[n], z = 0;
  CHECK(cudaMemcpy(back, out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&z, zeros, sizeof z, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const int got = back[c * kRows + r], want = 2 * h[r * kCols + c] + 1;
      if (got != want && bad++ < 5)
        std::printf("out[%d][%d] = %d, want %d\n", c, r, got, want);
    }
  EXPECT(bad == 0, "%d elements wrong after the tensor copies", bad);
  // The last tile row covers rows 192..223: 24 rows past the edge, per column.
  const int past = (grid.y * kTile - kRows) * kCols;
  EXPECT(z == past, "%d zero-filled elements seen, want %d", z, past);
  delete[] h;
  delete[] back;
#else
  std::printf("note: not built for sm_90 or newer; not run\n");
#endif
  return finish_test("guide_tma_tensor_2d");
}
