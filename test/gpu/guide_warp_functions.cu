// Warp functions beyond the shuffles: __match_any_sync and __match_all_sync
// (sm_70), the warp reductions __reduce_{add,min,max,and,or,xor}_sync (sm_80),
// __activemask in a divergent branch, and shuffles with a width below 32.
#include "gpu_test.h"

constexpr unsigned kFull = 0xffffffffu;

__global__ void match(const int *keys, unsigned *any, unsigned *all_mask,
                      int *all_pred) {
  int lane = threadIdx.x;
  int key = keys[lane];
  any[lane] = __match_any_sync(kFull, key);
  int pred = 0;
  all_mask[lane] = __match_all_sync(kFull, key, &pred);
  all_pred[lane] = pred;
}

__global__ void reduce(const unsigned *values, unsigned *out) {
  unsigned v = values[threadIdx.x];
  int s = static_cast<int>(v) - 16;
  unsigned r[6] = {__reduce_add_sync(kFull, v),
                   static_cast<unsigned>(__reduce_min_sync(kFull, s)),
                   static_cast<unsigned>(__reduce_max_sync(kFull, s)),
                   __reduce_and_sync(kFull, v | 0x100),
                   __reduce_or_sync(kFull, v),
                   __reduce_xor_sync(kFull, v)};
  if (threadIdx.x == 0)
    for (int i = 0; i < 6; ++i) out[i] = r[i];
}

__global__ void divergent(unsigned *masks, int *sums) {
  int lane = threadIdx.x;
  if (lane % 3 == 0) {
    masks[lane] = __activemask();
  } else {
    masks[lane] = 0;
  }
  // Sums within groups of 8 lanes.
  int v = lane;
  for (int offset = 4; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFull, v, offset, 8);
  sums[lane] = v;
}

int main() {
  int *keys, *all_pred, *sums;
  unsigned *any, *all_mask, *values, *out, *masks;
  CHECK(cudaMalloc(&keys, 32 * sizeof(int)));
  CHECK(cudaMalloc(&all_pred, 32 * sizeof(int)));
  CHECK(cudaMalloc(&sums, 32 * sizeof(int)));
  CHECK(cudaMalloc(&any, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&all_mask, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&values, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, 6 * sizeof(unsigned)));
  CHECK(cudaMalloc(&masks, 32 * sizeof(unsigned)));

  int hk[32];
  for (int i = 0; i < 32; ++i) hk[i] = i % 5;
  CHECK(cudaMemcpy(keys, hk, sizeof(hk), cudaMemcpyHostToDevice));
  match<<<1, 32>>>(keys, any, all_mask, all_pred);
  CHECK(cudaGetLastError());
  unsigned hany[32], hall[32];
  int hpred[32];
  CHECK(cudaMemcpy(hany, any, sizeof(hany), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hall, all_mask, sizeof(hall), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hpred, all_pred, sizeof(hpred), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) {
    unsigned want = 0;
    for (int j = 0; j < 32; ++j)
      if (hk[j] == hk[i]) want |= 1u << j;
    EXPECT(hany[i] == want, "lane %d: match_any %08x, expected %08x", i,
           hany[i], want);
    EXPECT(hall[i] == 0 && hpred[i] == 0,
           "lane %d: match_all %08x pred %d with different keys", i, hall[i],
           hpred[i]);
  }

  unsigned hv[32];
  for (int i = 0; i < 32; ++i) hv[i] = i * 7 % 32;
  CHECK(cudaMemcpy(values, hv, sizeof(hv), cudaMemcpyHostToDevice));
  reduce<<<1, 32>>>(values, out);
  CHECK(cudaGetLastError());
  unsigned hr[6];
  CHECK(cudaMemcpy(hr, out, sizeof(hr), cudaMemcpyDeviceToHost));
  unsigned sum = 0, andv = ~0u, orv = 0, xorv = 0;
  int mn = 1 << 30, mx = -(1 << 30);
  for (int i = 0; i < 32; ++i) {
    sum += hv[i];
    andv &= hv[i] | 0x100;
    orv |= hv[i];
    xorv ^= hv[i];
    int s = static_cast<int>(hv[i]) - 16;
    mn = s < mn ? s : mn;
    mx = s > mx ? s : mx;
  }
  EXPECT(hr[0] == sum, "reduce_add %u, expected %u", hr[0], sum);
  EXPECT(static_cast<int>(hr[1]) == mn, "reduce_min %d, expected %d",
         static_cast<int>(hr[1]), mn);
  EXPECT(static_cast<int>(hr[2]) == mx, "reduce_max %d, expected %d",
         static_cast<int>(hr[2]), mx);
  EXPECT(hr[3] == andv, "reduce_and %x, expected %x", hr[3], andv);
  EXPECT(hr[4] == orv, "reduce_or %x, expected %x", hr[4], orv);
  EXPECT(hr[5] == xorv, "reduce_xor %x, expected %x", hr[5], xorv);

  divergent<<<1, 32>>>(masks, sums);
  CHECK(cudaGetLastError());
  unsigned hm[32];
  int hs[32];
  CHECK(cudaMemcpy(hm, masks, sizeof(hm), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs, sums, sizeof(hs), cudaMemcpyDeviceToHost));
  unsigned thirds = 0;
  for (int i = 0; i < 32; i += 3) thirds |= 1u << i;
  for (int i = 0; i < 32; ++i) {
    if (i % 3 == 0)
      EXPECT((hm[i] & thirds) == thirds,
             "lane %d: __activemask %08x lacks the active lanes %08x", i,
             hm[i], thirds);
    if (i % 8 == 0) {
      int want = 0;
      for (int j = i; j < i + 8; ++j) want += j;
      EXPECT(hs[i] == want, "group at lane %d sums to %d, not %d", i, hs[i],
             want);
    }
  }

  CHECK(cudaFree(keys));
  CHECK(cudaFree(all_pred));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(any));
  CHECK(cudaFree(all_mask));
  CHECK(cudaFree(values));
  CHECK(cudaFree(out));
  CHECK(cudaFree(masks));
  return finish_test("guide_warp_functions");
}
