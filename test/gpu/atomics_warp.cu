// Warp-level primitives (__shfl_sync, __shfl_down_sync, __shfl_xor_sync,
// __ballot_sync, __any_sync, __all_sync, __activemask) and atomics
// (atomicAdd on float and double, atomicMax/atomicMin/atomicCAS/atomicExch
// on int, atomicAdd on unsigned long long).
#include <cstdio>
#include <vector>
#include "gpu_test.h"

constexpr unsigned FULL = 0xffffffffu;

__device__ int warp_sum_down(int v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
  return v;  // valid in lane 0
}

__device__ int warp_max_xor(int v) {
  for (int m = 16; m > 0; m >>= 1) v = max(v, __shfl_xor_sync(FULL, v, m));
  return v;  // valid in every lane
}

struct WarpOut {
  int sum;          // __shfl_down_sync reduction (lane 0)
  int bcast;        // __shfl_sync broadcast from lane 5
  int rotated;      // value from lane (lane + 1) % 32 via __shfl_sync
  int max_all;      // __shfl_xor_sync butterfly max (checked in every lane)
  unsigned ballot;  // __ballot_sync(lane is odd or multiple of 5)
  int any_big;      // __any_sync(v > 1000)
  int any_huge;     // __any_sync(v > 100000)
  int all_pos;      // __all_sync(v > 0)
  unsigned active;  // __activemask() inside a lane < 8 branch (as seen by lane 0)
  float fsum;       // __shfl_down_sync on floats
};

__global__ void warp_ops(const int* in, WarpOut* out) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int s = warp_sum_down(v);
  const int b = __shfl_sync(FULL, v, 5);
  const int r = __shfl_sync(FULL, v, (lane + 1) & 31);
  const int m = warp_max_xor(v);
  const unsigned bal = __ballot_sync(FULL, (lane & 1) || lane % 5 == 0);
  const int any_big = __any_sync(FULL, v > 1000);
  const int any_huge = __any_sync(FULL, v > 100000);
  const int all_pos = __all_sync(FULL, v > 0);
  float f = 0.5f * v;
  for (int off = 16; off > 0; off >>= 1) f += __shfl_down_sync(FULL, f, off);
  unsigned act = 0;
  if (lane < 8) act = __activemask();
  __syncwarp();
  int all_max_agree = __all_sync(FULL, m == __shfl_sync(FULL, m, 0));
  if (lane == 0) {
    out[warp].sum = s;
    out[warp].bcast = b;
    out[warp].max_all = all_max_agree ? m : -1;
    out[warp].ballot = bal;
    out[warp].any_big = any_big;
    out[warp].any_huge = any_huge;
    out[warp].all_pos = all_pos;
    out[warp].active = act;
    out[warp].fsum = f;
  }
  if (lane == 31) out[warp].rotated = r;  // lane 31 reads lane 0
}

// Increment through a compare-and-swap loop; all lanes of a warp contend with
// each other and with other warps.
__global__ void cas_increment(int* cas_counter) {
  int old = *cas_counter, assumed;
  do {
    assumed = old;
    old = atomicCAS(cas_counter, assumed, assumed + 1);
  } while (old != assumed);
}

__global__ void atomics(float* fsum, double* dsum, int* imax, int* imin,
                        unsigned long long* usum, int* exch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(fsum, 1.0f);
  atomicAdd(dsum, 0.25);
  int key = static_cast<int>((i * 2654435761u) % 1000003u) - 500000;
  atomicMax(imax, key);
  atomicMin(imin, key);
  atomicAdd(usum, static_cast<unsigned long long>(i));
  if (i == n - 1) atomicExch(exch, 4242);
}

static void test_warp() {
  const int blocks = 4, threads = 128, total = blocks * threads, warps = total / 32;
  std::vector<int> in(total);
  for (int i = 0; i < total; ++i) in[i] = 1 + (i * 37) % 1013;  // all positive, < 1014
  int* din;
  WarpOut* dout;
  CHECK(cudaMalloc(&din, total * sizeof(int)));
  CHECK(cudaMalloc(&dout, warps * sizeof(WarpOut)));
  CHECK(cudaMemcpy(din, in.data(), total * sizeof(int), cudaMemcpyHostToDevice));
  warp_ops<<<blocks, threads>>>(din, dout);
  CHECK(cudaGetLastError());
  std::vector<WarpOut> out(warps);
  CHECK(cudaMemcpy(out.data(), dout, warps * sizeof(WarpOut), cudaMemcpyDeviceToHost));
  unsigned want_ballot = 0;
  for (int l = 0; l < 32; ++l)
    if ((l & 1) || l % 5 == 0) want_ballot |= 1u << l;
  for (int w = 0; w < warps; ++w) {
    const int* v = &in[w * 32];
    int sum = 0, mx = v[0];
    bool big = false;
    for (int l = 0; l < 32; ++l) {
      sum += v[l];
      mx = v[l] > mx ? v[l] : mx;
      big = big || v[l] > 1000;
    }
    const WarpOut& o = out[w];
    EXPECT(o.sum == sum, "warp %d sum %d want %d", w, o.sum, sum);
    EXPECT(o.bcast == v[5], "warp %d bcast %d want %d", w, o.bcast, v[5]);
    EXPECT(o.rotated == v[0], "warp %d rotated %d want %d", w, o.rotated, v[0]);
    EXPECT(o.max_all == mx, "warp %d max %d want %d", w, o.max_all, mx);
    EXPECT(o.ballot == want_ballot, "warp %d ballot %08x want %08x", w, o.ballot, want_ballot);
    EXPECT(o.any_big == (big ? 1 : 0), "warp %d any_big %d want %d", w, o.any_big, big);
    EXPECT(o.any_huge == 0, "warp %d any_huge %d", w, o.any_huge);
    EXPECT(o.all_pos != 0, "warp %d all_pos %d", w, o.all_pos);
    // Only lanes < 8 can be active in that branch; lane 0 (the writer) must be.
    EXPECT((o.active & ~0xffu) == 0 && (o.active & 1u), "warp %d activemask in lane<8 branch %08x", w,
           o.active);
    EXPECT(o.fsum == 0.5f * sum, "warp %d fsum %f want %f", w, o.fsum, 0.5f * sum);
  }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
}

static void test_atomics() {
  const int n = 1 << 20;
  float* fsum;
  double* dsum;
  int *imax, *imin, *cas, *exch;
  unsigned long long* usum;
  CHECK(cudaMalloc(&fsum, sizeof(float)));
  CHECK(cudaMalloc(&dsum, sizeof(double)));
  CHECK(cudaMalloc(&imax, sizeof(int)));
  CHECK(cudaMalloc(&imin, sizeof(int)));
  CHECK(cudaMalloc(&cas, sizeof(int)));
  CHECK(cudaMalloc(&exch, sizeof(int)));
  CHECK(cudaMalloc(&usum, sizeof(unsigned long long)));
  const float f0 = 0.0f;
  const double d0 = 0.0;
  const int lo = -2147483647 - 1, hi = 2147483647, zero = 0;
  const unsigned long long u0 = 0;
  CHECK(cudaMemcpy(fsum, &f0, sizeof(f0), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dsum, &d0, sizeof(d0), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(imax, &lo, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(imin, &hi, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(cas, &zero, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(exch, &zero, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(usum, &u0, sizeof(u0), cudaMemcpyHostToDevice));
  atomics<<<(n + 255) / 256, 256>>>(fsum, dsum, imax, imin, usum, exch, n);
  CHECK(cudaGetLastError());
  const int cas_blocks = 32, cas_threads = 64;
  cas_increment<<<cas_blocks, cas_threads>>>(cas);
  CHECK(cudaGetLastError());
  float hf;
  double hd;
  int hmax, hmin, hcas, hexch;
  unsigned long long hu;
  CHECK(cudaMemcpy(&hf, fsum, sizeof(hf), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hd, dsum, sizeof(hd), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hmax, imax, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hmin, imin, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hcas, cas, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hexch, exch, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hu, usum, sizeof(hu), cudaMemcpyDeviceToHost));

  int want_max = lo, want_min = hi;
  for (int i = 0; i < n; ++i) {
    int key = static_cast<int>((i * 2654435761u) % 1000003u) - 500000;
    want_max = key > want_max ? key : want_max;
    want_min = key < want_min ? key : want_min;
  }
  EXPECT(hf == static_cast<float>(n), "float atomicAdd = %f want %d", hf, n);
  EXPECT(hd == 0.25 * n, "double atomicAdd = %f want %f", hd, 0.25 * n);
  EXPECT(hmax == want_max, "atomicMax = %d want %d", hmax, want_max);
  EXPECT(hmin == want_min, "atomicMin = %d want %d", hmin, want_min);
  EXPECT(hcas == cas_blocks * cas_threads, "atomicCAS counter = %d want %d", hcas,
         cas_blocks * cas_threads);
  EXPECT(hexch == 4242, "atomicExch = %d", hexch);
  EXPECT(hu == static_cast<unsigned long long>(n) * (n - 1) / 2, "u64 atomicAdd = %llu", hu);
  CHECK(cudaFree(fsum));
  CHECK(cudaFree(dsum));
  CHECK(cudaFree(imax));
  CHECK(cudaFree(imin));
  CHECK(cudaFree(cas));
  CHECK(cudaFree(exch));
  CHECK(cudaFree(usum));
}

int main() {
  test_warp();
  test_atomics();
  CHECK(cudaDeviceSynchronize());
  return finish_test("atomics_warp");
}
