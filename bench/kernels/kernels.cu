// The kernels of the kernel-speed benchmark, built once per compiler into a
// shared library (run.sh) that harness.cpp loads beside the other builds.
// Each case owns its inputs, launches its kernel(s) on the default stream,
// and checks its output against a reference computed on the host.
#include "cases.h"
#include "gemm_wmma.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

#define TRY(call)                                                                       \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) return int(e_);                                              \
  } while (0)

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in (0, 1), never 0 or 1.
double unit(std::uint64_t i) { return (double(mix(i) >> 11) + 0.5) / 9007199254740992.0; }

int fail(char *why, int len, const char *format, double a, double b, double c) {
  std::snprintf(why, len, format, a, b, c);
  return 1;
}

// ---------------------------------------------------------------- WMMA GEMMs

GEMM_WMMA_KERNEL(gemm_wmma_f16, gemm::F16)
GEMM_WMMA_KERNEL(gemm_wmma_bf16, gemm::Bf16)
GEMM_WMMA_KERNEL(gemm_wmma_s8, gemm::S8)
GEMM_WMMA_KERNEL(gemm_wmma_tf32, gemm::Tf32)
GEMM_WMMA_KERNEL(gemm_wmma_f64, gemm::F64)

template <class T> struct GemmCase {
  using In = typename T::In;
  using Acc = typename T::Acc;
  using Kernel = void (*)(const In *, const In *, Acc *, int, int, int);
  static inline int n = 0;
  static inline Kernel kernel = nullptr;
  static inline In *a = nullptr, *bt = nullptr;
  static inline Acc *c = nullptr;
  static inline std::vector<signed char> ha, hbt; // small integers: every sum is exact

  static int setup(int size, Kernel k) {
    n = size;
    kernel = k;
    std::size_t count = std::size_t(n) * n;
    ha.resize(count);
    hbt.resize(count);
    std::vector<In> da(count), dbt(count);
    for (std::size_t i = 0; i < count; ++i) {
      ha[i] = static_cast<signed char>(int(mix(i) % 5) - 2);
      hbt[i] = static_cast<signed char>(int(mix(i + count) % 5) - 2);
      da[i] = In(float(ha[i]));
      dbt[i] = In(float(hbt[i]));
    }
    TRY(cudaMalloc(&a, count * sizeof(In)));
    TRY(cudaMalloc(&bt, count * sizeof(In)));
    TRY(cudaMalloc(&c, count * sizeof(Acc)));
    TRY(cudaMemcpy(a, da.data(), count * sizeof(In), cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(bt, dbt.data(), count * sizeof(In), cudaMemcpyHostToDevice));
    TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             gemm::Shape<T>::smemBytes));
    return 0;
  }
  static int launch() {
    dim3 grid(n / gemm::kTile, n / gemm::kTile);
    kernel<<<grid, gemm::kThreads, gemm::Shape<T>::smemBytes>>>(a, bt, c, n, n, n);
    return int(cudaGetLastError());
  }
  static int verify(char *why, int len) {
    std::size_t count = std::size_t(n) * n;
    std::vector<Acc> hc(count);
    if (cudaMemcpy(hc.data(), c, count * sizeof(Acc), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    for (int s = 0; s < 4096; ++s) {
      int i = int(mix(s * 2 + 1) % n), j = int(mix(s * 2 + 2) % n);
      long want = 0;
      for (int k = 0; k < n; ++k) want += long(ha[std::size_t(i) * n + k]) * hbt[std::size_t(j) * n + k];
      double got = double(hc[std::size_t(i) * n + j]);
      if (got != double(want))
        return fail(why, len, "C[%.0f] is %.17g, want %.17g", double(std::size_t(i) * n + j), got,
                    double(want));
    }
    return 0;
  }
  static void teardown() {
    cudaFree(a);
    cudaFree(bt);
    cudaFree(c);
  }
};

// ------------------------------------------------------- copy through float4

__global__ void copy_float4(const float4 *__restrict__ in, float4 *__restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

struct CopyCase {
  static constexpr std::size_t n = std::size_t(1) << 24; // float4s: 256 MB
  static inline float4 *in = nullptr, *out = nullptr;
  static int setup() {
    TRY(cudaMalloc(&in, n * sizeof(float4)));
    TRY(cudaMalloc(&out, n * sizeof(float4)));
    std::vector<float4> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = make_float4(float(i), float(i + 1), float(i + 2), float(i + 3));
    TRY(cudaMemcpy(in, h.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    return 0;
  }
  static int launch() {
    copy_float4<<<132 * 16, 256>>>(in, out, n);
    return int(cudaGetLastError());
  }
  static int verify(char *why, int len) {
    std::vector<float4> h(n);
    if (cudaMemcpy(h.data(), out, n * sizeof(float4), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    for (std::size_t i = 0; i < n; ++i)
      if (h[i].x != float(i) || h[i].w != float(i + 3))
        return fail(why, len, "element %.0f is %g, want %g", double(i), h[i].x, double(float(i)));
    return 0;
  }
  static void teardown() {
    cudaFree(in);
    cudaFree(out);
  }
};

// ------------------------------------------------------------- sum reduction

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float blockSum(float v) {
  __shared__ float partial[32];
  v = warpSum(v);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? warpSum(v) : 0.0f;
}

__global__ void sum_partials(const float *__restrict__ in, std::size_t n, float *__restrict__ partials) {
  float v = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    v += in[i];
  v = blockSum(v);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

__global__ void sum_final(const float *__restrict__ partials, int n, float *__restrict__ out) {
  float v = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += partials[i];
  v = blockSum(v);
  if (threadIdx.x == 0) *out = v;
}

struct ReduceCase {
  static constexpr std::size_t n = std::size_t(1) << 26;
  static constexpr int blocks = 132 * 8;
  static inline float *in = nullptr, *partials = nullptr, *out = nullptr;
  static inline double want = 0;
  static int setup() {
    std::vector<float> h(n);
    want = 0;
    for (std::size_t i = 0; i < n; ++i) {
      h[i] = float(unit(i));
      want += h[i];
    }
    TRY(cudaMalloc(&in, n * sizeof(float)));
    TRY(cudaMalloc(&partials, blocks * sizeof(float)));
    TRY(cudaMalloc(&out, sizeof(float)));
    TRY(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
  }
  static int launch() {
    sum_partials<<<blocks, 512>>>(in, n, partials);
    sum_final<<<1, 1024>>>(partials, blocks, out);
    return int(cudaGetLastError());
  }
  static int verify(char *why, int len) {
    float got = 0;
    if (cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    if (std::fabs(got - want) > 1e-5 * want)
      return fail(why, len, "sum is %.9g, want %.9g%.0f", got, want, 0);
    return 0;
  }
  static void teardown() {
    cudaFree(in);
    cudaFree(partials);
    cudaFree(out);
  }
};

// ---------------------------------------------------- 7-point stencil in 3D

constexpr int kGrid = 384;

__global__ void stencil7(const float *__restrict__ in, float *__restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= kGrid || y >= kGrid) return;
  const std::size_t plane = std::size_t(kGrid) * kGrid;
  for (int z = 0; z < kGrid; ++z) {
    const std::size_t i = z * plane + std::size_t(y) * kGrid + x;
    if (x == 0 || y == 0 || z == 0 || x == kGrid - 1 || y == kGrid - 1 || z == kGrid - 1) {
      out[i] = in[i];
      continue;
    }
    out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - kGrid] + in[i + kGrid] +
                                    in[i - plane] + in[i + plane]);
  }
}

struct StencilCase {
  static constexpr std::size_t n = std::size_t(kGrid) * kGrid * kGrid;
  static inline float *in = nullptr, *out = nullptr;
  static inline std::vector<float> h;
  static int setup() {
    h.resize(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = float(unit(i));
    TRY(cudaMalloc(&in, n * sizeof(float)));
    TRY(cudaMalloc(&out, n * sizeof(float)));
    TRY(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
  }
  static int launch() {
    stencil7<<<dim3(kGrid / 32, kGrid / 8), dim3(32, 8)>>>(in, out);
    return int(cudaGetLastError());
  }
  static int verify(char *why, int len) {
    std::vector<float> got(n);
    if (cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    const std::size_t plane = std::size_t(kGrid) * kGrid;
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t x = i % kGrid, y = i / kGrid % kGrid, z = i / plane;
      double want = h[i];
      if (x && y && z && x < kGrid - 1 && y < kGrid - 1 && z < kGrid - 1)
        want = 0.4 * h[i] + 0.1 * (double(h[i - 1]) + h[i + 1] + h[i - kGrid] + h[i + kGrid] +
                                   h[i - plane] + h[i + plane]);
      if (std::fabs(got[i] - want) > 1e-5 * (1 + std::fabs(want)))
        return fail(why, len, "point %.0f is %.9g, want %.9g", double(i), got[i], want);
    }
    return 0;
  }
  static void teardown() {
    cudaFree(in);
    cudaFree(out);
  }
};

// ------------------------------------------------------- transcendentals
// Quasi-random normal variates (the inverse normal CDF) shaped by exp, log,
// sin and cos, in single precision.

__global__ void transcendental(const float *__restrict__ u, float *__restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    float x = u[i];
    float z = normcdfinvf(x);
    float s, c;
    sincosf(6.2831853f * x, &s, &c);
    out[i] = z + 0.25f * expf(-x) * s + 0.125f * logf(1.0f + x) * c + 0.0625f * erff(z);
  }
}

// The inverse normal CDF in double: Acklam's approximation, one Halley step.
double normalQuantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

struct TranscendentalCase {
  static constexpr std::size_t n = std::size_t(1) << 25;
  static inline float *u = nullptr, *out = nullptr;
  static inline std::vector<float> h;
  static int setup() {
    h.resize(n);
    // Strictly inside (0, 1) once rounded to float.
    for (std::size_t i = 0; i < n; ++i) h[i] = std::clamp(float(unit(i)), 1e-7f, 1 - 6e-8f);
    TRY(cudaMalloc(&u, n * sizeof(float)));
    TRY(cudaMalloc(&out, n * sizeof(float)));
    TRY(cudaMemcpy(u, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
  }
  static int launch() {
    transcendental<<<132 * 8, 256>>>(u, out, n);
    return int(cudaGetLastError());
  }
  static int verify(char *why, int len) {
    std::vector<float> got(n);
    if (cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    for (std::size_t i = 0; i < n; i += 97) {
      double x = h[i], z = normalQuantile(x);
      double want = z + 0.25 * std::exp(-x) * std::sin(2 * M_PI * x) +
                    0.125 * std::log(1 + x) * std::cos(2 * M_PI * x) + 0.0625 * std::erf(z);
      // Single precision: a few ulp of each term.
      double tolerance = 1e-5 * (1 + std::fabs(z));
      if (!(std::fabs(got[i] - want) <= tolerance))
        return fail(why, len, "u=%.9g gives %.9g, want %.9g", x, got[i], want);
    }
    return 0;
  }
  static void teardown() {
    cudaFree(u);
    cudaFree(out);
  }
};

// -------------------------------------------- binomial option pricing (fp64)
// European calls on a binomial tree: one block per option, the tree's values
// in shared memory, a double-precision update per node and step.

constexpr int kSteps = 2048;

struct Option {
  double spot, strike, years, rate, volatility;
};

__host__ __device__ inline void treeParameters(const Option &o, double &up, double &pu, double &pd) {
  double dt = o.years / kSteps;
  double vdt = o.volatility * sqrt(dt);
  up = exp(vdt);
  double growth = exp(o.rate * dt);
  double p = (growth - 1 / up) / (up - 1 / up);
  double discount = exp(-o.rate * dt);
  pu = p * discount;
  pd = (1 - p) * discount;
}

__global__ void __launch_bounds__(256) binomial(const Option *__restrict__ options, double *__restrict__ prices) {
  __shared__ double value[2][kSteps + 1];
  const Option o = options[blockIdx.x];
  double up, pu, pd;
  treeParameters(o, up, pu, pd);
  for (int j = threadIdx.x; j <= kSteps; j += blockDim.x) {
    double s = o.spot * exp(log(up) * (2.0 * j - kSteps));
    value[0][j] = fmax(s - o.strike, 0.0);
  }
  __syncthreads();
  int from = 0;
  for (int step = kSteps; step > 0; --step) {
    for (int j = threadIdx.x; j < step; j += blockDim.x)
      value[from ^ 1][j] = pu * value[from][j + 1] + pd * value[from][j];
    from ^= 1;
    __syncthreads();
  }
  if (threadIdx.x == 0) prices[blockIdx.x] = value[from][0];
}

struct BinomialCase {
  static constexpr int count = 1024;
  static inline Option *options = nullptr;
  static inline double *prices = nullptr;
  static inline std::vector<Option> h;
  static int setup() {
    h.resize(count);
    for (int i = 0; i < count; ++i)
      h[i] = {5 + 25 * unit(5 * i), 1 + 99 * unit(5 * i + 1), 0.25 + 9.75 * unit(5 * i + 2),
              0.02 + 0.03 * unit(5 * i + 3), 0.1 + 0.2 * unit(5 * i + 4)};
    TRY(cudaMalloc(&options, count * sizeof(Option)));
    TRY(cudaMalloc(&prices, count * sizeof(double)));
    TRY(cudaMemcpy(options, h.data(), count * sizeof(Option), cudaMemcpyHostToDevice));
    return 0;
  }
  static int launch() {
    binomial<<<count, 256>>>(options, prices);
    return int(cudaGetLastError());
  }
  static int verify(char *why, int len) {
    std::vector<double> got(count);
    if (cudaMemcpy(got.data(), prices, count * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    std::vector<double> v(kSteps + 1);
    for (int i = 0; i < count; i += 31) {
      double up, pu, pd;
      treeParameters(h[i], up, pu, pd);
      for (int j = 0; j <= kSteps; ++j)
        v[j] = std::fmax(h[i].spot * std::exp(std::log(up) * (2.0 * j - kSteps)) - h[i].strike, 0.0);
      for (int step = kSteps; step > 0; --step)
        for (int j = 0; j < step; ++j) v[j] = pu * v[j + 1] + pd * v[j];
      if (std::fabs(got[i] - v[0]) > 1e-9 * (1 + v[0]))
        return fail(why, len, "option %.0f costs %.17g, want %.17g", i, got[i], v[0]);
    }
    return 0;
  }
  static void teardown() {
    cudaFree(options);
    cudaFree(prices);
  }
};

// --------------------------------------------------- CUB radix sort and scan

struct CubCase {
  static constexpr std::size_t n = std::size_t(1) << 24;
  static inline std::uint32_t *keys = nullptr, *out = nullptr;
  static inline void *temp = nullptr;
  static inline std::size_t tempBytes = 0;
  static inline std::vector<std::uint32_t> h, sorted, scanned;
  static int setup() {
    h.resize(n);
    scanned.resize(n);
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < n; ++i) {
      h[i] = std::uint32_t(mix(i));
      scanned[i] = running += h[i];
    }
    sorted = h;
    std::sort(sorted.begin(), sorted.end());
    TRY(cudaMalloc(&keys, n * sizeof(std::uint32_t)));
    TRY(cudaMalloc(&out, n * sizeof(std::uint32_t)));
    std::size_t sortBytes = 0, scanBytes = 0;
    TRY(cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, keys, out, int(n)));
    TRY(cub::DeviceScan::InclusiveSum(nullptr, scanBytes, keys, out, int(n)));
    tempBytes = std::max(sortBytes, scanBytes);
    TRY(cudaMalloc(&temp, tempBytes));
    TRY(cudaMemcpy(keys, h.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    return 0;
  }
  static int sort() { return int(cub::DeviceRadixSort::SortKeys(temp, tempBytes, keys, out, int(n))); }
  static int scan() { return int(cub::DeviceScan::InclusiveSum(temp, tempBytes, keys, out, int(n))); }
  static int compare(const std::vector<std::uint32_t> &want, char *why, int len) {
    std::vector<std::uint32_t> got(n);
    if (cudaMemcpy(got.data(), out, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost) != cudaSuccess)
      return fail(why, len, "cudaMemcpy failed%.0f%.0f%.0f", 0, 0, 0);
    auto bad = std::mismatch(got.begin(), got.end(), want.begin());
    if (bad.first == got.end()) return 0;
    return fail(why, len, "element %.0f is %.0f, want %.0f", double(bad.first - got.begin()),
                double(*bad.first), double(*bad.second));
  }
  static int verifySort(char *why, int len) { return compare(sorted, why, len); }
  static int verifyScan(char *why, int len) { return compare(scanned, why, len); }
  static void teardown() {
    cudaFree(keys);
    cudaFree(out);
    cudaFree(temp);
    keys = out = nullptr;
    temp = nullptr;
  }
};

constexpr int kGemmSize = 4096, kGemmSizeF64 = 2048;

const BenchCase kCases[] = {
    {"wmma_gemm_f16", [] { return GemmCase<gemm::F16>::setup(kGemmSize, gemm_wmma_f16); },
     GemmCase<gemm::F16>::launch, GemmCase<gemm::F16>::verify, GemmCase<gemm::F16>::teardown},
    {"wmma_gemm_bf16", [] { return GemmCase<gemm::Bf16>::setup(kGemmSize, gemm_wmma_bf16); },
     GemmCase<gemm::Bf16>::launch, GemmCase<gemm::Bf16>::verify, GemmCase<gemm::Bf16>::teardown},
    {"wmma_gemm_s8", [] { return GemmCase<gemm::S8>::setup(kGemmSize, gemm_wmma_s8); },
     GemmCase<gemm::S8>::launch, GemmCase<gemm::S8>::verify, GemmCase<gemm::S8>::teardown},
    {"wmma_gemm_tf32", [] { return GemmCase<gemm::Tf32>::setup(kGemmSize, gemm_wmma_tf32); },
     GemmCase<gemm::Tf32>::launch, GemmCase<gemm::Tf32>::verify, GemmCase<gemm::Tf32>::teardown},
    {"wmma_gemm_f64", [] { return GemmCase<gemm::F64>::setup(kGemmSizeF64, gemm_wmma_f64); },
     GemmCase<gemm::F64>::launch, GemmCase<gemm::F64>::verify, GemmCase<gemm::F64>::teardown},
    {"copy_float4", CopyCase::setup, CopyCase::launch, CopyCase::verify, CopyCase::teardown},
    {"reduce_sum_f32", ReduceCase::setup, ReduceCase::launch, ReduceCase::verify, ReduceCase::teardown},
    {"stencil_3d_7pt", StencilCase::setup, StencilCase::launch, StencilCase::verify, StencilCase::teardown},
    {"transcendental_f32", TranscendentalCase::setup, TranscendentalCase::launch, TranscendentalCase::verify,
     TranscendentalCase::teardown},
    {"binomial_options_f64", BinomialCase::setup, BinomialCase::launch, BinomialCase::verify,
     BinomialCase::teardown},
    {"cub_radix_sort_u32", CubCase::setup, CubCase::sort, CubCase::verifySort, CubCase::teardown},
    {"cub_inclusive_scan_u32", CubCase::setup, CubCase::scan, CubCase::verifyScan, CubCase::teardown},
};

} // namespace

extern "C" const BenchCase *bench_kernel_cases(int *count) {
  *count = int(sizeof(kCases) / sizeof(kCases[0]));
  return kCases;
}
