// A device class hierarchy with pure virtual functions: abstract bases whose
// vtables are emitted (out-of-line virtual destructor, a pure virtual
// destructor with a definition), objects created on the device with new
// (without including <new>, which nvcc's headers include for device code),
// used and deleted through base pointers, in one kernel and across kernels. The base vtables hold pure virtual slots, which Clang fills with
// __cxa_pure_virtual; nvcc's device code needs no definition of it.
#include "gpu_test.h"

struct Shape {
  __device__ Shape(int id) : id(id) {}
  __device__ virtual ~Shape();               // out of line: emits Shape's vtable
  __device__ virtual float area() const = 0; // pure
  __device__ virtual int sides() const { return 0; }
  int id;
};
__device__ Shape::~Shape() {}

struct Square : Shape {
  __device__ Square(int id, float s) : Shape(id), s(s) {}
  __device__ float area() const override { return s * s; }
  __device__ int sides() const override { return 4; }
  float s;
};

struct Circle : Shape {
  __device__ Circle(int id, float r) : Shape(id), r(r) {}
  __device__ float area() const override { return 3.0f * r * r; }
  float r;
};

// A pure virtual destructor with a definition, and a second level of
// abstraction.
struct Counter {
  __device__ virtual ~Counter() = 0;
  __device__ virtual int next() = 0;
  __device__ virtual int step() const = 0;
};
__device__ Counter::~Counter() {}

struct Stepper : Counter {
  __device__ int next() override { return value += step(); }
  int value = 0;
};

struct ByThree : Stepper {
  __device__ int step() const override { return 3; }
};

// Destruction through the base: counts how many destructors ran.
__device__ int g_destroyed;
struct Tracked : Square {
  __device__ Tracked(int id, float s) : Square(id, s) {}
  __device__ ~Tracked() override { atomicAdd(&g_destroyed, 1); }
};

__device__ Shape *g_shapes[64];

__global__ void make_shapes(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i % 3 == 0)
    g_shapes[i] = new Square(i, float(i));
  else if (i % 3 == 1)
    g_shapes[i] = new Circle(i, float(i));
  else
    g_shapes[i] = new Tracked(i, float(i));
}

__global__ void use_shapes(int n, float *area, int *sides, int *ids) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Shape *s = g_shapes[i];
  area[i] = s->area();
  sides[i] = s->sides();
  ids[i] = s->id;
}

__global__ void free_shapes(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  delete g_shapes[i];
  g_shapes[i] = nullptr;
}

__global__ void count(int *out) {
  Counter *c = new ByThree;
  int total = 0;
  for (int k = 0; k < 4; ++k) total += c->next(); // 3 + 6 + 9 + 12
  delete c; // through the pure virtual destructor
  out[threadIdx.x] = total + static_cast<int>(threadIdx.x);
}

int main() {
  const int n = 48;
  float *d_area;
  int *d_sides, *d_ids, *d_count;
  CHECK(cudaMalloc(&d_area, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sides, n * sizeof(int)));
  CHECK(cudaMalloc(&d_ids, n * sizeof(int)));
  CHECK(cudaMalloc(&d_count, 32 * sizeof(int)));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(g_destroyed, &zero, sizeof zero));

  make_shapes<<<2, 32>>>(n);
  CHECK(cudaGetLastError());
  use_shapes<<<2, 32>>>(n, d_area, d_sides, d_ids);
  CHECK(cudaGetLastError());
  free_shapes<<<2, 32>>>(n);
  CHECK(cudaGetLastError());
  count<<<1, 32>>>(d_count);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float area[n];
  int sides[n], ids[n], counts[32], destroyed = -1;
  CHECK(cudaMemcpy(area, d_area, sizeof area, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sides, d_sides, sizeof sides, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ids, d_ids, sizeof ids, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts, d_count, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpyFromSymbol(&destroyed, g_destroyed, sizeof destroyed));

  int tracked = 0;
  for (int i = 0; i < n; ++i) {
    float x = float(i);
    bool circle = i % 3 == 1;
    float want_area = circle ? 3.0f * x * x : x * x;
    int want_sides = circle ? 0 : 4;
    tracked += i % 3 == 2;
    EXPECT(area[i] == want_area, "shape %d: area %g, expected %g", i, area[i], want_area);
    EXPECT(sides[i] == want_sides, "shape %d: %d sides, expected %d", i, sides[i], want_sides);
    EXPECT(ids[i] == i, "shape %d: id %d", i, ids[i]);
  }
  EXPECT(destroyed == tracked, "%d Tracked destructors ran, expected %d", destroyed, tracked);
  for (int t = 0; t < 32; ++t)
    EXPECT(counts[t] == 30 + t, "thread %d counted %d, expected %d", t, counts[t], 30 + t);

  CHECK(cudaFree(d_area));
  CHECK(cudaFree(d_sides));
  CHECK(cudaFree(d_ids));
  CHECK(cudaFree(d_count));
  return finish_test("dialect_virtual");
}
