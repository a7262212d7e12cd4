// Large kernel parameter blocks (CUDA 12.1+ allows up to 32764 bytes of
// parameters on Volta and newer), used the ways nvcc-compiled code uses them:
//  - reads with data-dependent and with constant indices;
//  - the parameter's address passed to a read-only __noinline__ device
//    function (a template, so its attributes are not inferred), and inspected
//    through uintptr_t (an alignment test);
//  - a parameter declared __grid_constant__;
//  - a parameter the kernel writes: each thread writes its own copy, sees its
//    own writes, never another thread's, and the next launch sees the
//    original values again; also when a __noinline__ device function does the
//    writing, and for a 16-byte aligned parameter;
//  - a local copy of the parameter (`Big local = p`) that is then written;
//  - a parameter block of exactly 32764 bytes.
#include <cstdint>
#include <cstring>
#include "gpu_test.h"

struct Big {  // 32004 bytes
  float w[8000];
  int n;
};

struct alignas(16) Big16 {  // 16 KiB, 16-byte aligned
  float4 v[1024];
};

struct Max {  // with an int* and an int: 32764 bytes of parameters
  int w[8188];
};
static_assert(sizeof(Max) + sizeof(int*) + sizeof(int) == 32764, "limit");

constexpr int kIdx = 256;
constexpr int kBlocks = 4;
constexpr int kThreads = 128;
constexpr int kTotal = kBlocks * kThreads;

__host__ __device__ inline float value(int k) { return (float)((k * 37) % 101) + 0.25f; }

// Data-dependent indices.
__global__ void read_dyn(const Big p, const int* idx, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int j = 0; j < 16; ++j) acc += p.w[idx[(t + j) % kIdx]];
  out[t] = acc + p.n;
}

// Constant indices.
__global__ void read_const(const Big p, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = p.w[0] + p.w[4321] * 2 + p.w[7999] * 3 + p.n * (t & 3);
}

template <class T>
__device__ __noinline__ float element(const T& p, int k) { return p.w[k]; }

// The address goes to a device function.
__global__ void read_call(const Big p, const int* idx, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = element(p, idx[t % kIdx]) + element(p, 7999);
}

// The address is inspected as an integer.
__global__ void read_addr(const Big p, const int* idx, float* out, int* aligned) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float* e = &p.w[idx[t % kIdx]];
  uintptr_t a = reinterpret_cast<uintptr_t>(e);
  aligned[t] = (a % alignof(float)) == 0;
  out[t] = (a & 15) == 0 ? e[0] : e[0] + 0.0f;
}

// __grid_constant__: read in place by nvcc and mycc alike; the address is
// passed to a device function.
__global__ void read_grid_constant(const __grid_constant__ Big p, const int* idx, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = element(p, idx[t % kIdx]);
}

// Each thread writes its own copy at a data-dependent index.
__global__ void write_private(Big p, const int* idx, float* own, float* other, float* untouched) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = idx[t % kIdx] * 8 + (t & 7);  // distinct for neighbouring threads
  p.w[k] = -1.0f - t;
  __syncthreads();
  own[t] = p.w[k];                        // this thread's write
  other[t] = p.w[idx[(t + 1) % kIdx] * 8 + ((t + 1) & 7)];  // the neighbour's element
  untouched[t] = p.w[7999 - (t & 63)] + p.n;
}

template <class T>
__device__ __noinline__ void bump(T& p, int k, float by) { p.w[k] += by; }

// A device function writes the copy.
__global__ void write_call(Big p, const int* idx, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = idx[t % kIdx];
  bump(p, k, 1000.0f);
  out[t] = p.w[k] + p.w[(k + 1) % 8000];
}

// A 16-byte aligned parameter, written.
__global__ void write_aligned(Big16 p, const int* idx, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = idx[t % kIdx];
  p.v[k].w += 100.0f;  // may be the element u below: the kernel needs its copy
  float4 v = p.v[k];
  float4 u = p.v[1023 - (t & 15)];
  out[t] = v.x + v.y + v.z + v.w + u.w;
}

// A local copy of the parameter, written.
__global__ void local_copy(const Big p, const int* idx, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Big local = p;
  int k = idx[t % kIdx];
  local.w[k] *= 2.0f;
  out[t] = local.w[k] + local.w[(k + 3) % 8000] + local.n;
}

// Exactly 32764 bytes of parameters.
__global__ void read_max(const Max p, int* out, int salt) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = p.w[(t * 61) % 8188] + p.w[8187] + salt;
}

static bool near(float a, float b) {
  float d = a - b;
  if (d < 0) d = -d;
  float m = b < 0 ? -b : b;
  return d <= 1e-4f * (m > 1 ? m : 1);
}

int main() {
  Big* big = new Big;
  for (int k = 0; k < 8000; ++k) big->w[k] = value(k);
  big->n = 7;
  Big16* big16 = new Big16;
  for (int k = 0; k < 1024; ++k)
    big16->v[k] = make_float4(value(4 * k), value(4 * k + 1), value(4 * k + 2), value(4 * k + 3));
  Max* max = new Max;
  for (int k = 0; k < 8188; ++k) max->w[k] = k * 3 + 1;

  int hidx[kIdx];
  unsigned s = 2024;
  for (int i = 0; i < kIdx; ++i) {
    s = s * 1664525u + 1013904223u;
    hidx[i] = (int)((s >> 9) % 999);  // < 999: *8 + 7 stays below 8000, < 1024 for Big16
  }
  int* idx;
  float *out, *out2, *out3;
  int *iout, *aligned;
  CHECK(cudaMalloc(&idx, sizeof(hidx)));
  CHECK(cudaMemcpy(idx, hidx, sizeof(hidx), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&out, kTotal * sizeof(float)));
  CHECK(cudaMalloc(&out2, kTotal * sizeof(float)));
  CHECK(cudaMalloc(&out3, kTotal * sizeof(float)));
  CHECK(cudaMalloc(&iout, kTotal * sizeof(int)));
  CHECK(cudaMalloc(&aligned, kTotal * sizeof(int)));
  static float h[kTotal], h2[kTotal], h3[kTotal];
  static int hi[kTotal], ha[kTotal];
  auto fetch = [&](float* dst, float* src) {
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(dst, src, kTotal * sizeof(float), cudaMemcpyDeviceToHost));
  };

  read_dyn<<<kBlocks, kThreads>>>(*big, idx, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    float acc = 0;
    for (int j = 0; j < 16; ++j) acc += big->w[hidx[(t + j) % kIdx]];
    EXPECT(near(h[t], acc + big->n), "read_dyn[%d] = %g, want %g", t, h[t], acc + big->n);
  }

  read_const<<<kBlocks, kThreads>>>(*big, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    float want = big->w[0] + big->w[4321] * 2 + big->w[7999] * 3 + big->n * (t & 3);
    EXPECT(near(h[t], want), "read_const[%d] = %g, want %g", t, h[t], want);
  }

  read_call<<<kBlocks, kThreads>>>(*big, idx, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    float want = big->w[hidx[t % kIdx]] + big->w[7999];
    EXPECT(near(h[t], want), "read_call[%d] = %g, want %g", t, h[t], want);
  }

  read_addr<<<kBlocks, kThreads>>>(*big, idx, out, aligned);
  fetch(h, out);
  CHECK(cudaMemcpy(ha, aligned, sizeof(ha), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kTotal; ++t) {
    float want = big->w[hidx[t % kIdx]];
    EXPECT(near(h[t], want), "read_addr[%d] = %g, want %g", t, h[t], want);
    EXPECT(ha[t] == 1, "read_addr[%d]: element address not float-aligned", t);
  }

  read_grid_constant<<<kBlocks, kThreads>>>(*big, idx, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    float want = big->w[hidx[t % kIdx]];
    EXPECT(near(h[t], want), "read_grid_constant[%d] = %g, want %g", t, h[t], want);
  }

  // Twice: the second launch must see the parameter as the host passed it.
  for (int launch = 0; launch < 2; ++launch) {
    write_private<<<kBlocks, kThreads>>>(*big, idx, out, out2, out3);
    fetch(h, out);
    fetch(h2, out2);
    fetch(h3, out3);
    for (int t = 0; t < kTotal; ++t) {
      EXPECT(h[t] == -1.0f - t, "write_private[%d] (launch %d): own write reads %g", t, launch, h[t]);
      int nk = hidx[(t + 1) % kIdx] * 8 + ((t + 1) & 7);
      int k = hidx[t % kIdx] * 8 + (t & 7);
      float want = nk == k ? -1.0f - t : big->w[nk];
      EXPECT(h2[t] == want, "write_private[%d] (launch %d): neighbour's element reads %g, want %g",
             t, launch, h2[t], want);
      int u = 7999 - (t & 63);
      float wantu = (u == k ? -1.0f - t : big->w[u]) + big->n;
      EXPECT(near(h3[t], wantu), "write_private[%d] (launch %d): untouched element reads %g, want %g",
             t, launch, h3[t], wantu);
    }
  }

  write_call<<<kBlocks, kThreads>>>(*big, idx, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    int k = hidx[t % kIdx];
    int k1 = (k + 1) % 8000;
    float want = big->w[k] + 1000.0f + big->w[k1];
    EXPECT(near(h[t], want), "write_call[%d] = %g, want %g", t, h[t], want);
  }

  write_aligned<<<kBlocks, kThreads>>>(*big16, idx, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    int k = hidx[t % kIdx];
    float4 v = big16->v[k];
    int ku = 1023 - (t & 15);
    float uw = big16->v[ku].w;
    float want = v.x + v.y + v.z + v.w + 100.0f + uw;
    EXPECT(near(h[t], want), "write_aligned[%d] = %g, want %g", t, h[t], want);
  }

  local_copy<<<kBlocks, kThreads>>>(*big, idx, out);
  fetch(h, out);
  for (int t = 0; t < kTotal; ++t) {
    int k = hidx[t % kIdx];
    float want = big->w[k] * 2.0f + big->w[(k + 3) % 8000] + big->n;
    EXPECT(near(h[t], want), "local_copy[%d] = %g, want %g", t, h[t], want);
  }

  read_max<<<kBlocks, kThreads>>>(*max, iout, 5);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hi, iout, sizeof(hi), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kTotal; ++t) {
    int want = max->w[(t * 61) % 8188] + max->w[8187] + 5;
    EXPECT(hi[t] == want, "read_max[%d] = %d, want %d", t, hi[t], want);
  }

  CHECK(cudaFree(idx));
  CHECK(cudaFree(out));
  CHECK(cudaFree(out2));
  CHECK(cudaFree(out3));
  CHECK(cudaFree(iout));
  CHECK(cudaFree(aligned));
  delete big;
  delete big16;
  delete max;
  return finish_test("dialect_large_params");
}
