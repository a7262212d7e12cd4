// Template kernels: deduced and explicit template arguments, non-type
// template parameters, overloaded kernels, launches inside function templates
// and macros, variadic template kernels.
// FLAGS: -std=c++17
#include <cstdio>
#include <vector>
#include "gpu_test.h"

#define LAUNCH(k, n, ...) k<<<((n) + 255) / 256, 256>>>(__VA_ARGS__)

// ---- type template, deduced or explicit -----------------------------------
template <typename T>
__global__ void scale(T* p, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * factor;
}

// ---- non-type template parameters -----------------------------------------
template <int N>
__global__ void add_n(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += N;
}

// Mixed type + non-type + default template argument; N is also used as a
// compile-time array bound.
template <typename T, int N, bool Square = false>
__global__ void sum_window(const T* in, T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T window[N];
  for (int k = 0; k < N; ++k) window[k] = (i + k < n) ? in[i + k] : T(0);
  T s = T(0);
  for (int k = 0; k < N; ++k) s += Square ? window[k] * window[k] : window[k];
  out[i] = s;
}

// ---- overloaded kernels -----------------------------------------------------
__global__ void over(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1;
}
__global__ void over(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 2.5f;
}
__global__ void over(int* p, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}
// A template overload alongside the non-template ones.
template <typename T>
__global__ void over(T* p, T a, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = a + b;
}

// ---- variadic template kernels ------------------------------------------------
template <typename... Args>
__global__ void sum_args(long long* out, Args... args) {
  out[0] = (0LL + ... + static_cast<long long>(args));
  out[1] = static_cast<long long>(sizeof...(Args));
}

template <typename T, typename... Rest>
__device__ T dev_first(T first, Rest...) { return first; }

template <typename... Ts>
__global__ void first_of(double* out, Ts... ts) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = static_cast<double>(dev_first(ts...));
}

// ---- class templates used by kernels -----------------------------------------
template <typename T>
struct Affine {
  T a, b;
  __device__ T operator()(T x) const { return a * x + b; }
};

template <typename T, typename Op>
__global__ void transform(T* p, Op op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = op(p[i]);
}

// ---- launches inside function templates ----------------------------------------
template <typename T>
void run_scale(T* d, T factor, int n) {
  scale<<<(n + 127) / 128, 128>>>(d, factor, n);  // deduced inside a template
  CHECK(cudaGetLastError());
}

template <int N, typename T>
void run_window(const T* in, T* out, int n) {
  LAUNCH((sum_window<T, N>), n, in, out, n);  // macro launch inside a template
  CHECK(cudaGetLastError());
}

template <typename... Args>
void run_sum_args(long long* out, Args... args) {
  sum_args<<<1, 1>>>(out, args...);  // pack expansion in launch arguments
  CHECK(cudaGetLastError());
}

template <typename T>
static std::vector<T> fetch(const T* d, int n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  const int n = 1000;
  int* di;
  float* df;
  double* dd;
  long long* dl;
  CHECK(cudaMalloc(&di, n * sizeof(int)));
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMalloc(&dd, n * sizeof(double)));
  CHECK(cudaMalloc(&dl, 2 * sizeof(long long)));

  std::vector<int> hi(n);
  std::vector<float> hf(n);
  std::vector<double> hd(n);
  for (int i = 0; i < n; ++i) {
    hi[i] = i;
    hf[i] = 0.5f * i;
    hd[i] = 0.25 * i;
  }
  CHECK(cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice));

  // Deduced (int, float) and explicit (double) template arguments.
  scale<<<(n + 255) / 256, 256>>>(di, 3, n);
  CHECK(cudaGetLastError());
  scale<<<(n + 255) / 256, 256>>>(df, 4.0f, n);
  CHECK(cudaGetLastError());
  scale<double><<<(n + 255) / 256, 256>>>(dd, 8, n);  // 8 converts to double
  CHECK(cudaGetLastError());
  {
    auto ri = fetch(di, n);
    auto rf = fetch(df, n);
    auto rd = fetch(dd, n);
    for (int i = 0; i < n; ++i) {
      EXPECT(ri[i] == 3 * i, "scale<int>[%d]=%d", i, ri[i]);
      EXPECT(rf[i] == 2.0f * i, "scale<float>[%d]=%f", i, rf[i]);
      EXPECT(rd[i] == 2.0 * i, "scale<double>[%d]=%f", i, rd[i]);
    }
  }

  // Function template launches (int and double instantiations).
  run_scale(di, 2, n);          // 6i
  run_scale<double>(dd, 0.5, n);  // i
  {
    auto ri = fetch(di, n);
    auto rd = fetch(dd, n);
    for (int i = 0; i < n; ++i) {
      EXPECT(ri[i] == 6 * i, "run_scale<int>[%d]=%d", i, ri[i]);
      EXPECT(rd[i] == 1.0 * i, "run_scale<double>[%d]=%f", i, rd[i]);
    }
  }

  // Non-type template parameters, plain and through the LAUNCH macro.
  add_n<7><<<(n + 255) / 256, 256>>>(di, n);
  CHECK(cudaGetLastError());
  LAUNCH(add_n<-2>, n, di, n);
  CHECK(cudaGetLastError());
  LAUNCH((add_n<100 + 5>), n, di, n);
  CHECK(cudaGetLastError());
  {
    auto ri = fetch(di, n);
    for (int i = 0; i < n; ++i) EXPECT(ri[i] == 6 * i + 110, "add_n[%d]=%d", i, ri[i]);
  }

  // Mixed type/non-type/default template parameters.
  double* dwin;
  CHECK(cudaMalloc(&dwin, n * sizeof(double)));
  run_window<4>(static_cast<const double*>(dd), dwin, n);  // dd[i] == i
  {
    auto r = fetch(dwin, n);
    for (int i = 0; i < n; ++i) {
      double want = 0;
      for (int k = 0; k < 4; ++k) want += (i + k < n) ? i + k : 0;
      EXPECT(r[i] == want, "sum_window<double,4>[%d]=%f want %f", i, r[i], want);
    }
  }
  sum_window<double, 3, true><<<(n + 255) / 256, 256>>>(dd, dwin, n);
  CHECK(cudaGetLastError());
  {
    auto r = fetch(dwin, n);
    for (int i = 0; i < n; ++i) {
      double want = 0;
      for (int k = 0; k < 3; ++k) want += (i + k < n) ? double(i + k) * (i + k) : 0;
      EXPECT(r[i] == want, "sum_window<double,3,true>[%d]=%f want %f", i, r[i], want);
    }
  }

  // Overloaded kernels.
  over<<<(n + 255) / 256, 256>>>(di, n);
  CHECK(cudaGetLastError());
  over<<<(n + 255) / 256, 256>>>(df, n);
  CHECK(cudaGetLastError());
  {
    auto ri = fetch(di, n);
    auto rf = fetch(df, n);
    for (int i = 0; i < n; ++i) {
      EXPECT(ri[i] == 1, "over(int*)[%d]=%d", i, ri[i]);
      EXPECT(rf[i] == 2.5f, "over(float*)[%d]=%f", i, rf[i]);
    }
  }
  LAUNCH(over, n, di, 42, n);
  CHECK(cudaGetLastError());
  over<<<(n + 255) / 256, 256>>>(df, 1.25f, 2.0f, n);
  CHECK(cudaGetLastError());
  {
    auto ri = fetch(di, n);
    auto rf = fetch(df, n);
    for (int i = 0; i < n; ++i) {
      EXPECT(ri[i] == 42, "over(int*,int,int)[%d]=%d", i, ri[i]);
      EXPECT(rf[i] == 3.25f, "over<float>(...)[%d]=%f", i, rf[i]);
    }
  }
  // Overload chosen through an explicitly typed function pointer.
  {
    void (*kp)(int*, int) = over;
    kp<<<(n + 255) / 256, 256>>>(di, n);
    CHECK(cudaGetLastError());
    auto ri = fetch(di, n);
    for (int i = 0; i < n; ++i) EXPECT(ri[i] == 1, "over via pointer[%d]=%d", i, ri[i]);
  }

  // Functor class template as a kernel argument.
  transform<<<(n + 255) / 256, 256>>>(df, Affine<float>{2.0f, -1.0f}, n);  // 5.5
  CHECK(cudaGetLastError());
  {
    auto rf = fetch(df, n);
    for (int i = 0; i < n; ++i) EXPECT(rf[i] == 5.5f, "transform[%d]=%f", i, rf[i]);
  }

  // Variadic template kernels.
  {
    long long hl[2];
    sum_args<<<1, 1>>>(dl, 1, 2LL, (short)3, 4u, (char)5);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hl, dl, sizeof(hl), cudaMemcpyDeviceToHost));
    EXPECT(hl[0] == 15 && hl[1] == 5, "sum_args(5 args) = %lld, count %lld", hl[0], hl[1]);

    sum_args<<<1, 1>>>(dl);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hl, dl, sizeof(hl), cudaMemcpyDeviceToHost));
    EXPECT(hl[0] == 0 && hl[1] == 0, "sum_args() = %lld, count %lld", hl[0], hl[1]);

    run_sum_args(dl, 10000000000LL, -3, 7);
    CHECK(cudaMemcpy(hl, dl, sizeof(hl), cudaMemcpyDeviceToHost));
    EXPECT(hl[0] == 10000000004LL && hl[1] == 3, "run_sum_args = %lld, count %lld", hl[0], hl[1]);

    sum_args<int, int><<<1, 1>>>(dl, 20, 22);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hl, dl, sizeof(hl), cudaMemcpyDeviceToHost));
    EXPECT(hl[0] == 42 && hl[1] == 2, "sum_args<int,int> = %lld, count %lld", hl[0], hl[1]);

    double r = 0;
    first_of<<<1, 32>>>(dd, 2.75, 1, 'x', 3.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&r, dd, sizeof(r), cudaMemcpyDeviceToHost));
    EXPECT(r == 2.75, "first_of = %f", r);
  }

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(di));
  CHECK(cudaFree(df));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(dl));
  CHECK(cudaFree(dwin));
  return finish_test("templates");
}
