// __constant__ and __device__ variables (scalar, array, struct, one in a
// namespace) accessed through cudaMemcpyToSymbol/FromSymbol (with offsets),
// cudaGetSymbolAddress and cudaGetSymbolSize.
#include <cstdio>
#include <cstring>
#include "gpu_test.h"

struct Params {
  char tag;
  double scale;
  int offset;
  float bias[3];
};

__constant__ float c_scalar;
__constant__ int c_table[64];
__constant__ Params c_params;
__constant__ int c_init[4] = {11, 22, 33, 44};  // statically initialised

__device__ int d_counter;
__device__ double d_array[128];
__device__ Params d_params;
__device__ unsigned long long d_init = 0x0123456789abcdefULL;

namespace sym {
__constant__ int c_ns[8];
__device__ float d_ns = 1.5f;
}  // namespace sym

static __device__ int d_static_val = 77;

__global__ void use_constants(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = c_scalar * c_table[i % 64] + static_cast<float>(c_params.scale) +
             c_params.offset + c_params.bias[i % 3] + sym::c_ns[i % 8] + c_init[i % 4];
    atomicAdd(&d_counter, 1);
  }
}

__global__ void write_device_vars() {
  int i = threadIdx.x;
  if (i < 128) d_array[i] = d_array[i] * 2.0 + i;
  if (i == 0) {
    d_params.tag = c_params.tag + 1;
    d_params.scale = c_params.scale * 10;
    d_params.offset = c_params.offset - 1;
    for (int j = 0; j < 3; ++j) d_params.bias[j] = c_params.bias[j] + j;
    sym::d_ns += 1.0f;
    d_init += 1;
    d_static_val *= 2;
  }
}

__global__ void read_through_pointer(const int* p, int* out) { out[threadIdx.x] = p[threadIdx.x] + 1; }

int main() {
  // Sizes.
  size_t sz = 0;
  CHECK(cudaGetSymbolSize(&sz, c_scalar));
  EXPECT(sz == sizeof(float), "size(c_scalar) = %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, c_table));
  EXPECT(sz == 64 * sizeof(int), "size(c_table) = %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, c_params));
  EXPECT(sz == sizeof(Params), "size(c_params) = %zu want %zu", sz, sizeof(Params));
  CHECK(cudaGetSymbolSize(&sz, d_array));
  EXPECT(sz == 128 * sizeof(double), "size(d_array) = %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, sym::c_ns));
  EXPECT(sz == 8 * sizeof(int), "size(sym::c_ns) = %zu", sz);
  CHECK(cudaGetSymbolSize(&sz, d_init));
  EXPECT(sz == sizeof(unsigned long long), "size(d_init) = %zu", sz);

  // Static initialisers are visible before any write.
  {
    int init[4] = {0, 0, 0, 0};
    CHECK(cudaMemcpyFromSymbol(init, c_init, sizeof(init)));
    EXPECT(init[0] == 11 && init[1] == 22 && init[2] == 33 && init[3] == 44,
           "c_init = %d %d %d %d", init[0], init[1], init[2], init[3]);
    unsigned long long v = 0;
    CHECK(cudaMemcpyFromSymbol(&v, d_init, sizeof(v)));
    EXPECT(v == 0x0123456789abcdefULL, "d_init = %llx", v);
    float f = 0;
    CHECK(cudaMemcpyFromSymbol(&f, sym::d_ns, sizeof(f)));
    EXPECT(f == 1.5f, "sym::d_ns = %f", f);
    int s = 0;
    CHECK(cudaMemcpyFromSymbol(&s, d_static_val, sizeof(s)));
    EXPECT(s == 77, "d_static_val = %d", s);
  }

  // Upload constants: scalar, array in two pieces (second with an offset),
  // a struct, and a namespaced array.
  const float scalar = 2.0f;
  int table[64];
  for (int i = 0; i < 64; ++i) table[i] = i * 3;
  Params p;
  std::memset(&p, 0, sizeof(p));
  p.tag = 'A';
  p.scale = 0.5;
  p.offset = 100;
  p.bias[0] = 0.25f;
  p.bias[1] = 0.5f;
  p.bias[2] = 0.75f;
  int ns[8];
  for (int i = 0; i < 8; ++i) ns[i] = 1000 * i;
  CHECK(cudaMemcpyToSymbol(c_scalar, &scalar, sizeof(scalar)));
  CHECK(cudaMemcpyToSymbol(c_table, table, 32 * sizeof(int)));
  CHECK(cudaMemcpyToSymbol(c_table, table + 32, 32 * sizeof(int), 32 * sizeof(int),
                           cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(c_params, &p, sizeof(p)));
  CHECK(cudaMemcpyToSymbolAsync(sym::c_ns, ns, sizeof(ns), 0, cudaMemcpyHostToDevice, 0));
  const int zero = 0;
  CHECK(cudaMemcpyToSymbol(d_counter, &zero, sizeof(zero)));

  // Read back a constant with an offset.
  {
    int back[4];
    CHECK(cudaMemcpyFromSymbol(back, c_table, sizeof(back), 60 * sizeof(int)));
    for (int i = 0; i < 4; ++i) EXPECT(back[i] == (60 + i) * 3, "c_table[%d] = %d", 60 + i, back[i]);
  }

  const int n = 1000;
  float* dout;
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  use_constants<<<(n + 255) / 256, 256>>>(dout, n);
  CHECK(cudaGetLastError());
  float out[n];
  CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  const int cinit[4] = {11, 22, 33, 44};
  for (int i = 0; i < n; ++i) {
    float want = scalar * table[i % 64] + 0.5f + 100 + p.bias[i % 3] + ns[i % 8] + cinit[i % 4];
    EXPECT(out[i] == want, "use_constants[%d] = %f want %f", i, out[i], want);
  }
  int counter = -1;
  CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof(counter)));
  EXPECT(counter == n, "d_counter = %d", counter);

  // __device__ variables: write from the host, modify on the device, read back.
  double arr[128];
  for (int i = 0; i < 128; ++i) arr[i] = 0.5 * i;
  CHECK(cudaMemcpyToSymbol(d_array, arr, sizeof(arr)));
  write_device_vars<<<1, 128>>>();
  CHECK(cudaGetLastError());
  double arr2[128];
  CHECK(cudaMemcpyFromSymbol(arr2, d_array, sizeof(arr2), 0, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 128; ++i) EXPECT(arr2[i] == 2.0 * i, "d_array[%d] = %f", i, arr2[i]);
  Params q;
  CHECK(cudaMemcpyFromSymbol(&q, d_params, sizeof(q)));
  EXPECT(q.tag == 'B' && q.scale == 5.0 && q.offset == 99 && q.bias[0] == 0.25f &&
             q.bias[1] == 1.5f && q.bias[2] == 2.75f,
         "d_params = {%c, %f, %d, %f %f %f}", q.tag, q.scale, q.offset, q.bias[0], q.bias[1],
         q.bias[2]);
  {
    float f = 0;
    CHECK(cudaMemcpyFromSymbol(&f, sym::d_ns, sizeof(f)));
    EXPECT(f == 2.5f, "sym::d_ns = %f", f);
    unsigned long long v = 0;
    CHECK(cudaMemcpyFromSymbol(&v, d_init, sizeof(v)));
    EXPECT(v == 0x0123456789abcdf0ULL, "d_init = %llx", v);
    int s = 0;
    CHECK(cudaMemcpyFromSymbol(&s, d_static_val, sizeof(s)));
    EXPECT(s == 154, "d_static_val = %d", s);
  }

  // cudaGetSymbolAddress: plain cudaMemcpy through the pointer and pass the
  // pointer to a kernel.
  {
    void* addr = nullptr;
    CHECK(cudaGetSymbolAddress(&addr, d_array));
    EXPECT(addr != nullptr, "address of d_array is null");
    double v[2];
    CHECK(cudaMemcpy(v, static_cast<double*>(addr) + 10, sizeof(v), cudaMemcpyDeviceToHost));
    EXPECT(v[0] == 20.0 && v[1] == 22.0, "d_array via address = %f %f", v[0], v[1]);

    void* caddr = nullptr;
    CHECK(cudaGetSymbolAddress(&caddr, c_table));
    int* dres;
    CHECK(cudaMalloc(&dres, 64 * sizeof(int)));
    read_through_pointer<<<1, 64>>>(static_cast<const int*>(caddr), dres);
    CHECK(cudaGetLastError());
    int res[64];
    CHECK(cudaMemcpy(res, dres, sizeof(res), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; ++i) EXPECT(res[i] == table[i] + 1, "c_table via address [%d] = %d", i, res[i]);

    void* nsaddr = nullptr;
    CHECK(cudaGetSymbolAddress(&nsaddr, sym::c_ns));
    int nsback[8];
    CHECK(cudaMemcpy(nsback, nsaddr, sizeof(nsback), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; ++i) EXPECT(nsback[i] == ns[i], "sym::c_ns via address [%d] = %d", i, nsback[i]);

    // Write a __device__ variable through its address, read via the symbol.
    void* caddr2 = nullptr;
    CHECK(cudaGetSymbolAddress(&caddr2, d_counter));
    const int seven = 7;
    CHECK(cudaMemcpy(caddr2, &seven, sizeof(seven), cudaMemcpyHostToDevice));
    int back = 0;
    CHECK(cudaMemcpyFromSymbol(&back, d_counter, sizeof(back)));
    EXPECT(back == 7, "d_counter after write via address = %d", back);
    CHECK(cudaFree(dres));
  }

  CHECK(cudaFree(dout));
  CHECK(cudaDeviceSynchronize());
  return finish_test("symbols");
}
