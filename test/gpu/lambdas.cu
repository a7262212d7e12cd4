// Extended lambdas: __device__ and __host__ __device__ lambdas passed to
// kernel templates, capturing by value (scalars, structs, pointers, `this`
// copies), lambdas defined inside function templates, and plain lambdas
// defined in device code.
// FLAGS: --extended-lambda -std=c++17
#include <cstdio>
#include <vector>
#include "gpu_test.h"

template <class F>
__global__ void apply(F f, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(i);
}

template <class F>
__global__ void apply2(F f, const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i], i);
}

// A kernel whose body defines and uses its own (non-extended) lambdas.
__global__ void inner_lambda(int* out, int n, int k) {
  auto sq = [](int x) { return x * x; };
  auto add_k = [k](int x) { return x + k; };
  int acc = 0;
  auto accumulate = [&acc](int x) { acc += x; };
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    accumulate(sq(i));
    accumulate(add_k(1));
    out[i] = acc;
  }
}

struct Coeffs {
  int a, b, c;
  double scale;
};

static bool check(const char* what, const int* d, int n, int (*want)(int, const void*),
                  const void* ctx) {
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int w = want(i, ctx);
    if (h[i] != w) {
      std::printf("%s: element %d is %d, want %d\n", what, i, h[i], w);
      ++g_failures;
      return false;
    }
  }
  return true;
}

template <class F>
void launch_apply(F f, int* d, int n) {
  apply<<<(n + 127) / 128, 128>>>(f, d, n);
  CHECK(cudaGetLastError());
}

// The lambda is defined inside a function template and depends on T.
template <typename T>
void run_templated(T factor, T offset, int* d, int n) {
  auto f = [=] __device__(int i) { return static_cast<int>(i * factor + offset); };
  apply<<<(n + 255) / 256, 256>>>(f, d, n);
  CHECK(cudaGetLastError());
}

// A member function creating a lambda that captures a copy of *this.
struct Scaler {
  int mul;
  int add;
  void run(int* d, int n) const {
    auto f = [*this] __device__(int i) { return i * mul + add; };
    apply<<<(n + 255) / 256, 256>>>(f, d, n);
    CHECK(cudaGetLastError());
  }
};

int main() {
  const int n = 3000;
  int *d, *d2;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&d2, n * sizeof(int)));

  // __device__ lambda capturing scalars by value.
  {
    int k = 7, c = -3;
    auto f = [=] __device__(int i) { return i * k + c; };
    apply<<<(n + 255) / 256, 256>>>(f, d, n);
    CHECK(cudaGetLastError());
    check("device lambda", d, n, [](int i, const void*) { return i * 7 - 3; }, nullptr);
  }

  // __host__ __device__ lambda: run on the device and compare with the host.
  {
    int m = 5;
    auto hd = [=] __host__ __device__(int i) { return (i % m) * 100 + i / m; };
    apply<<<(n + 255) / 256, 256>>>(hd, d, n);
    CHECK(cudaGetLastError());
    check("host device lambda", d, n,
          [](int i, const void* ctx) { return (*static_cast<const decltype(hd)*>(ctx))(i); }, &hd);
    if (hd(12) != 202) {
      std::printf("host device lambda on the host: hd(12) = %d\n", hd(12));
      ++g_failures;
    }
  }

  // Capturing a struct by value, and a device pointer.
  {
    Coeffs co{2, -1, 4, 0.5};
    int* other = d2;
    auto init = [=] __device__(int i) { return other[i] = i + 1, 0; };
    apply<<<(n + 255) / 256, 256>>>(init, d, n);
    CHECK(cudaGetLastError());
    auto f = [=] __device__(int i) {
      int x = other[i];  // i + 1
      return static_cast<int>((co.a * x * x + co.b * x + co.c) * co.scale);
    };
    apply<<<(n + 255) / 256, 256>>>(f, d, n);
    CHECK(cudaGetLastError());
    check("struct capture", d, n,
          [](int i, const void*) {
            int x = i + 1;
            return static_cast<int>((2 * x * x - x + 4) * 0.5);
          },
          nullptr);
  }

  // Two-argument lambda with a kernel template of a different shape.
  {
    int bias = 11;
    auto f = [bias] __device__(int v, int i) { return v * 2 + i + bias; };
    apply2<<<(n + 255) / 256, 256>>>(f, d2, d, n);  // d2[i] == i + 1
    CHECK(cudaGetLastError());
    check("apply2", d, n, [](int i, const void*) { return (i + 1) * 2 + i + 11; }, nullptr);
  }

  // Lambda passed through a host function template.
  {
    long long big = 1LL << 33;
    launch_apply([=] __device__(int i) { return static_cast<int>((big + i) >> 1) ; }, d, n);
    check("via function template", d, n,
          [](int i, const void*) { return static_cast<int>(((1LL << 33) + i) >> 1); }, nullptr);
  }

  // Lambdas defined inside function templates (two instantiations).
  run_templated(3, 1, d, n);
  check("templated<int>", d, n, [](int i, const void*) { return i * 3 + 1; }, nullptr);
  run_templated(0.5, 0.25, d, n);
  check("templated<double>", d, n, [](int i, const void*) { return static_cast<int>(i * 0.5 + 0.25); },
        nullptr);

  // [*this] capture inside a member function.
  Scaler{4, 9}.run(d, n);
  check("[*this] capture", d, n, [](int i, const void*) { return i * 4 + 9; }, nullptr);

  // Ordinary lambdas defined in device code.
  inner_lambda<<<(n + 255) / 256, 256>>>(d, n, 5);
  CHECK(cudaGetLastError());
  check("lambda in kernel body", d, n, [](int i, const void*) { return i * i + 6; }, nullptr);

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  return finish_test("lambdas");
}
