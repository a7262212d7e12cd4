// Large const tables, placed where nvcc places them. nvcc puts a variable in
// the 64 KiB constant bank only when it is written __constant__; Clang also
// promotes const and constexpr variables (`__device__ const` ones included)
// and function-scope `static const` ones, and ptxas then fails with "File
// uses too much global constant data". mycc keeps them in global memory
// (lib/Offload/DeviceSema.h). Each table here is 128 KiB, twice the bank:
//  - a `__device__ const` and a `__device__ constexpr` table, built by a
//    constexpr generator;
//  - a `static const` table in a __device__ function;
//  - a host-only static data member table (external linkage), which nvcc
//    leaves out of the device code and Clang put in the constant bank;
// plus a written __constant__ table, which stays in the constant bank. A
// kernel reads them all at scattered indices; the host checks every value.
#include <vector>

#include "gpu_test.h"

constexpr int kEntries = 32768; // floats: 128 KiB

struct Table {
  float v[kEntries];
};

__host__ __device__ constexpr float entry(int i, int salt) {
  return float((i * 37 + salt * 101) % 1009) * 0.25f + float(salt);
}

__host__ __device__ constexpr Table make_table(int salt) {
  Table t{};
  for (int i = 0; i < kEntries; ++i) t.v[i] = entry(i, salt);
  return t;
}

__device__ const Table g_table = make_table(1);
__device__ constexpr Table g_ctable = make_table(2);

struct Small {
  float v[1024];
};
__host__ __device__ constexpr Small make_small() {
  Small s{};
  for (int i = 0; i < 1024; ++i) s.v[i] = entry(i, 4);
  return s;
}
__constant__ Small g_small = make_small();

namespace host_data {
struct Lookup {
  static const Table table;
};
const Table Lookup::table = make_table(5);
} // namespace host_data

__device__ float from_local_table(int i) {
  static const Table t = make_table(3);
  return t.v[i];
}

__global__ void gather(const int *index, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int i = index[t];
  out[4 * t + 0] = g_table.v[i];
  out[4 * t + 1] = g_ctable.v[i];
  out[4 * t + 2] = from_local_table(i);
  out[4 * t + 3] = g_small.v[i % 1024];
}

int main() {
  const int n = 1 << 16;
  std::vector<int> index(n);
  for (int t = 0; t < n; ++t) index[t] = int((t * 7919LL + 17) % kEntries);
  int *d_index = nullptr;
  float *d_out = nullptr;
  CHECK(cudaMalloc(&d_index, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, 4 * n * sizeof(float)));
  CHECK(cudaMemcpy(d_index, index.data(), n * sizeof(int),
                   cudaMemcpyHostToDevice));
  gather<<<(n + 255) / 256, 256>>>(d_index, d_out, n);
  CHECK(cudaGetLastError());
  std::vector<float> out(4 * n);
  CHECK(cudaMemcpy(out.data(), d_out, 4 * n * sizeof(float),
                   cudaMemcpyDeviceToHost));
  const char *names[4] = {"__device__ const", "__device__ constexpr",
                          "static const local", "__constant__"};
  for (int t = 0; t < n; ++t) {
    int i = index[t];
    float want[4] = {entry(i, 1), entry(i, 2), entry(i, 3),
                     entry(i % 1024, 4)};
    for (int k = 0; k < 4; ++k)
      EXPECT(out[4 * t + k] == want[k], "%s table[%d]: %g, expected %g",
             names[k], i, out[4 * t + k], want[k]);
  }
  // The host-only table works on the host.
  for (int i = 0; i < kEntries; i += 97)
    EXPECT(host_data::Lookup::table.v[i] == entry(i, 5),
           "host table[%d]: %g, expected %g", i, host_data::Lookup::table.v[i],
           entry(i, 5));

  CHECK(cudaFree(d_index));
  CHECK(cudaFree(d_out));
  return finish_test("dialect_const_array");
}
