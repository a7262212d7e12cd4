// __host__ __device__ functions called on both sides (free functions,
// templates, constexpr, member functions), and a function whose result
// depends on __CUDA_ARCH__.
#include <cstdio>
#include "gpu_test.h"

__host__ __device__ int poly(int x) { return 3 * x * x - 2 * x + 7; }

__host__ __device__ inline unsigned hash32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

template <typename T>
__host__ __device__ T clamp_add(T a, T b, T hi) {
  T s = a + b;
  return s > hi ? hi : s;
}

constexpr __host__ __device__ int cube(int x) { return x * x * x; }
static_assert(cube(3) == 27, "constexpr on the host");

struct Vec2 {
  float x, y;
  __host__ __device__ Vec2(float x_, float y_) : x(x_), y(y_) {}
  __host__ __device__ float dot(const Vec2& o) const { return x * o.x + y * o.y; }
  __host__ __device__ Vec2 operator+(const Vec2& o) const { return Vec2(x + o.x, y + o.y); }
};

// Differs between host and device compilation.
__host__ __device__ int where_am_i() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;  // e.g. 900 for sm_90
#else
  return -1;
#endif
}

// Only a device function, and only a host function, with the same role.
__device__ int side_device() { return 1; }
__host__ int side_host() { return 2; }
__host__ __device__ int side() {
#if defined(__CUDA_ARCH__)
  return side_device() * 100;
#else
  return side_host() * 100;
#endif
}

struct Results {
  int poly_v[8];
  unsigned hash_v[8];
  int clamp_i;
  double clamp_d;
  int cube_v;
  int cube_const;
  float dot_v;
  float sum_x, sum_y;
  int arch;
  int side_v;
};

__global__ void compute(Results* r) {
  if (threadIdx.x < 8) {
    r->poly_v[threadIdx.x] = poly(threadIdx.x - 3);
    r->hash_v[threadIdx.x] = hash32(threadIdx.x * 2654435761u);
  }
  if (threadIdx.x == 0) {
    r->clamp_i = clamp_add(40, 5, 42);
    r->clamp_d = clamp_add(1.25, 2.5, 10.0);
    r->cube_v = cube(static_cast<int>(blockDim.x) - 27);  // runtime argument: cube(5)
    constexpr int c = cube(4);
    r->cube_const = c;
    Vec2 a(1.5f, 2.0f), b(4.0f, -0.5f);
    r->dot_v = a.dot(b);
    Vec2 s = a + b;
    r->sum_x = s.x;
    r->sum_y = s.y;
    r->arch = where_am_i();
    r->side_v = side();
  }
}

int main() {
  Results* d;
  CHECK(cudaMalloc(&d, sizeof(Results)));
  CHECK(cudaMemset(d, 0, sizeof(Results)));
  compute<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  Results r;
  CHECK(cudaMemcpy(&r, d, sizeof(r), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));

  for (int i = 0; i < 8; ++i) {
    EXPECT(r.poly_v[i] == poly(i - 3), "poly(%d): device %d host %d", i - 3, r.poly_v[i], poly(i - 3));
    unsigned h = hash32(i * 2654435761u);
    EXPECT(r.hash_v[i] == h, "hash32 #%d: device %u host %u", i, r.hash_v[i], h);
  }
  EXPECT(r.clamp_i == clamp_add(40, 5, 42) && r.clamp_i == 42, "clamp_add<int> = %d", r.clamp_i);
  EXPECT(r.clamp_d == clamp_add(1.25, 2.5, 10.0) && r.clamp_d == 3.75, "clamp_add<double> = %f",
         r.clamp_d);
  EXPECT(r.cube_v == cube(5), "cube(5) on device = %d", r.cube_v);
  EXPECT(r.cube_const == 64, "constexpr cube(4) on device = %d", r.cube_const);
  Vec2 a(1.5f, 2.0f), b(4.0f, -0.5f);
  EXPECT(r.dot_v == a.dot(b) && r.dot_v == 5.0f, "dot = %f", r.dot_v);
  EXPECT(r.sum_x == 5.5f && r.sum_y == 1.5f, "sum = (%f, %f)", r.sum_x, r.sum_y);

  // __CUDA_ARCH__: the host sees -1; the device sees an architecture number
  // that cannot exceed the device's own compute capability.
  const int host_arch = where_am_i();
  EXPECT(host_arch == -1, "where_am_i() on the host = %d", host_arch);
  int dev = 0, major = 0, minor = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  const int dev_cc = major * 100 + minor * 10;
  EXPECT(r.arch >= 500 && r.arch <= dev_cc && r.arch % 10 == 0,
         "__CUDA_ARCH__ on the device = %d (device is %d)", r.arch, dev_cc);
  EXPECT(side() == 200, "side() on the host = %d", side());
  EXPECT(r.side_v == 100, "side() on the device = %d", r.side_v);

  if (!g_failures) std::printf("device __CUDA_ARCH__ = %d\n", r.arch);
  return finish_test("host_device");
}
