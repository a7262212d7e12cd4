// Kernels in named, nested (both spellings), inline and anonymous namespaces,
// `static` kernels, and same-named kernels in different scopes.
// FLAGS: -std=c++17
#include <cstdio>
#include <vector>
#include "gpu_test.h"

// Every kernel is named `k` (or `sk`) so that only its scope tells them apart.
__global__ void k(int* out) { out[threadIdx.x] = 1; }

namespace alpha {
__global__ void k(int* out) { out[threadIdx.x] = 2; }
void launch(int* out) { k<<<1, 32>>>(out); }  // unqualified: finds alpha::k
}  // namespace alpha

namespace alpha {
namespace beta {
__global__ void k(int* out) { out[threadIdx.x] = 3; }
}  // namespace beta
}  // namespace alpha

namespace gam::delta {  // C++17 nested namespace definition
__global__ void k(int* out) { out[threadIdx.x] = 4; }
template <int V>
__global__ void kt(int* out) { out[threadIdx.x] = V; }
}  // namespace gam::delta

namespace {
__global__ void k_anon(int* out) { out[threadIdx.x] = 5; }
namespace inner {
__global__ void k(int* out) { out[threadIdx.x] = 6; }
}  // namespace inner
}  // namespace

static __global__ void sk(int* out) { out[threadIdx.x] = 7; }

namespace alpha {
static __global__ void sk(int* out) { out[threadIdx.x] = 8; }
}  // namespace alpha

namespace versioned {
inline namespace v2 {
__global__ void k(int* out) { out[threadIdx.x] = 9; }
}  // namespace v2
}  // namespace versioned

namespace alias_target {
__global__ void k(int* out) { out[threadIdx.x] = 10; }
}  // namespace alias_target
namespace at = alias_target;

struct Holder {
  // A static member function cannot be a kernel, but a kernel can be a friend.
  friend __global__ void friend_kernel(int* out);
};
__global__ void friend_kernel(int* out) { out[threadIdx.x] = 11; }

static void check(const char* what, void (*launch)(int*), int want) {
  int* d;
  CHECK(cudaMalloc(&d, 32 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 32 * sizeof(int)));
  launch(d);
  CHECK(cudaGetLastError());
  int h[32];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  for (int i = 0; i < 32; ++i) {
    if (h[i] != want) {
      std::printf("%s: element %d is %d, want %d\n", what, i, h[i], want);
      ++g_failures;
      return;
    }
  }
}

int main() {
  check("::k", [](int* d) { ::k<<<1, 32>>>(d); }, 1);
  check("alpha::k", [](int* d) { alpha::k<<<1, 32>>>(d); }, 2);
  check("alpha::launch", [](int* d) { alpha::launch(d); }, 2);
  check("alpha::beta::k", [](int* d) { alpha::beta::k<<<1, 32>>>(d); }, 3);
  check("gam::delta::k", [](int* d) { gam::delta::k<<<1, 32>>>(d); }, 4);
  check("gam::delta::kt<12>", [](int* d) { gam::delta::kt<12><<<1, 32>>>(d); }, 12);
  check("(anon)::k_anon", [](int* d) { k_anon<<<1, 32>>>(d); }, 5);
  check("(anon)::inner::k", [](int* d) { inner::k<<<1, 32>>>(d); }, 6);
  check("static sk", [](int* d) { sk<<<1, 32>>>(d); }, 7);
  check("static alpha::sk", [](int* d) { alpha::sk<<<1, 32>>>(d); }, 8);
  check("versioned::k (inline ns)", [](int* d) { versioned::k<<<1, 32>>>(d); }, 9);
  check("versioned::v2::k", [](int* d) { versioned::v2::k<<<1, 32>>>(d); }, 9);
  check("at::k (alias)", [](int* d) { at::k<<<1, 32>>>(d); }, 10);
  check("friend_kernel", [](int* d) { friend_kernel<<<1, 32>>>(d); }, 11);
  {
    using namespace alpha;
    check("using namespace alpha; beta::k", [](int* d) { beta::k<<<1, 32>>>(d); }, 3);
  }
  CHECK(cudaDeviceSynchronize());
  return finish_test("namespaces");
}
