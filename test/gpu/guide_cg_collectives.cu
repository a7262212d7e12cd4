// Cooperative groups below the block: tiled_partition (static and dynamic
// sizes), thread_block_tile shuffles and votes, coalesced_threads() in a
// divergent branch, labeled_partition, the collectives cg::reduce (plus,
// less, greater, bit_xor) and cg::inclusive_scan / exclusive_scan, and
// cg::memcpy_async with cg::wait on a block.
#include "gpu_test.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 128;

__global__ void tiles(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  int v = in[block.thread_rank()];
  cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
  cg::thread_group tile8 = cg::tiled_partition(block, 8);
  int *o = out + 8 * block.thread_rank();
  o[0] = cg::reduce(tile16, v, cg::plus<int>());
  o[1] = cg::reduce(tile16, v, cg::less<int>());
  o[2] = cg::reduce(tile16, v, cg::greater<int>());
  o[3] = cg::inclusive_scan(tile16, v);
  o[4] = cg::exclusive_scan(tile16, v);
  o[5] = tile16.shfl(v, 3) + (tile16.any(v == 7) ? 1000 : 0);
  o[6] = static_cast<int>(tile8.size() * 100 + tile8.thread_rank());
  // Labeled by parity within each warp.
  cg::coalesced_group parity = cg::labeled_partition(
      cg::tiled_partition<32>(block), block.thread_rank() % 2);
  o[7] = static_cast<int>(parity.size());
}

__global__ void divergent(int *out) {
  int lane = threadIdx.x % 32;
  if (lane % 4 == 1) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[threadIdx.x] = static_cast<int>(active.size() * 100 + active.thread_rank());
  } else {
    out[threadIdx.x] = -1;
  }
}

__global__ void staged(const int *in, int *out) {
  __shared__ int buffer[kThreads];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, buffer, in, sizeof(int) * kThreads);
  cg::wait(block);
  out[block.thread_rank()] = buffer[kThreads - 1 - block.thread_rank()];
}

int main() {
  int *in, *out;
  CHECK(cudaMalloc(&in, kThreads * sizeof(int)));
  CHECK(cudaMalloc(&out, 8 * kThreads * sizeof(int)));
  int hin[kThreads];
  for (int i = 0; i < kThreads; ++i) hin[i] = (i * 37) % 23;
  CHECK(cudaMemcpy(in, hin, sizeof(hin), cudaMemcpyHostToDevice));
  tiles<<<1, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  static int h[8 * kThreads];
  CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; ++t) {
    int base = t / 16 * 16, sum = 0, mn = 1 << 30, mx = -1, inc = 0, exc = 0;
    bool seven = false;
    for (int j = base; j < base + 16; ++j) {
      sum += hin[j];
      mn = hin[j] < mn ? hin[j] : mn;
      mx = hin[j] > mx ? hin[j] : mx;
      seven |= hin[j] == 7;
      if (j <= t) inc += hin[j];
      if (j < t) exc += hin[j];
    }
    const int *o = h + 8 * t;
    EXPECT(o[0] == sum && o[1] == mn && o[2] == mx,
           "thread %d: reduce %d/%d/%d, expected %d/%d/%d", t, o[0], o[1], o[2],
           sum, mn, mx);
    EXPECT(o[3] == inc && o[4] == exc, "thread %d: scans %d/%d, expected %d/%d",
           t, o[3], o[4], inc, exc);
    EXPECT(o[5] == hin[base + 3] + (seven ? 1000 : 0), "thread %d: shfl/any %d",
           t, o[5]);
    EXPECT(o[6] == 800 + t % 8, "thread %d: tile of 8 says %d", t, o[6]);
    EXPECT(o[7] == 16, "thread %d: parity group of %d", t, o[7]);
  }

  divergent<<<1, 64>>>(out);
  CHECK(cudaGetLastError());
  int hd[64];
  CHECK(cudaMemcpy(hd, out, sizeof(hd), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) {
    int want = (t % 32) % 4 == 1 ? 800 + (t % 32) / 4 : -1;
    EXPECT(hd[t] == want, "divergent thread %d: %d, expected %d", t, hd[t], want);
  }

  staged<<<1, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  int hs[kThreads];
  CHECK(cudaMemcpy(hs, out, sizeof(hs), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; ++t)
    EXPECT(hs[t] == hin[kThreads - 1 - t], "memcpy_async: %d at %d", hs[t], t);

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return finish_test("guide_cg_collectives");
}
