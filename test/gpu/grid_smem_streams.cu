// dim3 2D/3D grids, dynamic shared memory (extern __shared__), two streams
// with async copies, events and a cross-stream dependency.
#include <cstdio>
#include <vector>
#include "gpu_test.h"

// 2D grid: one thread per element of a W x H matrix.
__global__ void fill2d(int* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = x * 1000 + y;
}

// 3D grid: one thread per element of an X x Y x Z volume; also records
// gridDim/blockDim as seen by the device.
__global__ void fill3d(int* out, int nx, int ny, int nz, int* dims) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
  if (x == 0 && y == 0 && z == 0) {
    dims[0] = gridDim.x; dims[1] = gridDim.y; dims[2] = gridDim.z;
    dims[3] = blockDim.x; dims[4] = blockDim.y; dims[5] = blockDim.z;
  }
}

// Dynamic shared memory: reverse each block's chunk, and write the block sum.
__global__ void reverse_blocks(const int* in, int* out, int* sums) {
  extern __shared__ int smem[];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  smem[t] = in[base + t];
  __syncthreads();
  out[base + t] = smem[blockDim.x - 1 - t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) smem[t] += smem[t + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = smem[0];
}

// Dynamic shared memory of a different element type (double), with the size
// given in bytes at launch time.
__global__ void smem_double(double* out, int n) {
  extern __shared__ double dsm[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) dsm[i] = 0.5 * i;
  __syncthreads();
  if (threadIdx.x == 0) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += dsm[i];
    out[blockIdx.x] = s;
  }
}

__global__ void scale_add(float* p, float mul, float add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * mul + add;
}

static void test_2d() {
  const int w = 300, h = 517;
  int* d;
  CHECK(cudaMalloc(&d, w * h * sizeof(int)));
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  fill2d<<<grid, block>>>(d, w, h);
  CHECK(cudaGetLastError());
  std::vector<int> hv(w * h);
  CHECK(cudaMemcpy(hv.data(), d, hv.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      EXPECT(hv[y * w + x] == x * 1000 + y, "2d (%d,%d) got %d", x, y, hv[y * w + x]);
  CHECK(cudaFree(d));
}

static void test_3d() {
  const int nx = 37, ny = 19, nz = 11;
  int *d, *ddims;
  CHECK(cudaMalloc(&d, nx * ny * nz * sizeof(int)));
  CHECK(cudaMalloc(&ddims, 6 * sizeof(int)));
  dim3 block(8, 4, 2);
  dim3 grid((nx + 7) / 8, (ny + 3) / 4, (nz + 1) / 2);
  fill3d<<<grid, block>>>(d, nx, ny, nz, ddims);
  CHECK(cudaGetLastError());
  std::vector<int> hv(nx * ny * nz);
  int dims[6];
  CHECK(cudaMemcpy(hv.data(), d, hv.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dims, ddims, sizeof(dims), cudaMemcpyDeviceToHost));
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        int got = hv[(z * ny + y) * nx + x];
        EXPECT(got == x + 100 * y + 10000 * z, "3d (%d,%d,%d) got %d", x, y, z, got);
      }
  EXPECT(dims[0] == (int)grid.x && dims[1] == (int)grid.y && dims[2] == (int)grid.z,
         "gridDim seen as %d,%d,%d", dims[0], dims[1], dims[2]);
  EXPECT(dims[3] == 8 && dims[4] == 4 && dims[5] == 2, "blockDim seen as %d,%d,%d",
         dims[3], dims[4], dims[5]);
  CHECK(cudaFree(d));
  CHECK(cudaFree(ddims));
}

static void test_dynamic_smem() {
  const int block = 256, blocks = 64, n = block * blocks;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 1001;
  int *din, *dout, *dsums;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  reverse_blocks<<<blocks, block, block * sizeof(int)>>>(din, dout, dsums);
  CHECK(cudaGetLastError());
  std::vector<int> out(n), sums(blocks);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), dsums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int t = 0; t < block; ++t) {
      s += in[b * block + t];
      EXPECT(out[b * block + t] == in[b * block + block - 1 - t], "reverse b=%d t=%d", b, t);
    }
    EXPECT(sums[b] == s, "block sum %d: got %d want %d", b, sums[b], s);
  }

  const int m = 1000;
  double* dd;
  CHECK(cudaMalloc(&dd, 3 * sizeof(double)));
  smem_double<<<dim3(3), dim3(128), m * sizeof(double), 0>>>(dd, m);
  CHECK(cudaGetLastError());
  double hd[3];
  CHECK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
  const double want = 0.5 * (m - 1) * m / 2;
  for (int i = 0; i < 3; ++i) EXPECT(hd[i] == want, "smem_double[%d] = %f want %f", i, hd[i], want);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dsums));
  CHECK(cudaFree(dd));
}

static void test_streams() {
  const int n = 1 << 18;
  const size_t bytes = n * sizeof(float);
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  float *h1, *h2, *d1, *d2;
  CHECK(cudaMallocHost(&h1, bytes));
  CHECK(cudaHostAlloc(&h2, bytes, cudaHostAllocDefault));
  CHECK(cudaMalloc(&d1, bytes));
  CHECK(cudaMalloc(&d2, bytes));
  for (int i = 0; i < n; ++i) {
    h1[i] = static_cast<float>(i % 1024);
    h2[i] = static_cast<float>(i % 512);
  }
  cudaEvent_t start, done1, done2;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&done1));
  CHECK(cudaEventCreateWithFlags(&done2, cudaEventDefault));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  CHECK(cudaEventRecord(start, s1));
  CHECK(cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1));
  scale_add<<<blocks, threads, 0, s1>>>(d1, 2.0f, 1.0f, n);  // 2x+1
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(done1, s1));

  CHECK(cudaMemcpyAsync(d2, h2, bytes, cudaMemcpyHostToDevice, s2));
  scale_add<<<blocks, threads, 0, s2>>>(d2, 3.0f, 0.0f, n);  // 3y
  CHECK(cudaGetLastError());
  // s2 waits for s1's kernel, then adds d1 into d2 via a device-to-device copy
  // of d1 over d2's second half.
  CHECK(cudaStreamWaitEvent(s2, done1, 0));
  CHECK(cudaMemcpyAsync(d2 + n / 2, d1 + n / 2, bytes / 2, cudaMemcpyDeviceToDevice, s2));
  CHECK(cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2));
  CHECK(cudaEventRecord(done2, s2));
  CHECK(cudaMemcpyAsync(h1, d1, bytes, cudaMemcpyDeviceToHost, s1));

  CHECK(cudaEventSynchronize(done2));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  EXPECT(cudaEventQuery(done1) == cudaSuccess, "done1 not complete");
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, done2));
  EXPECT(ms >= 0.0f, "elapsed time %f", ms);

  for (int i = 0; i < n; ++i) {
    float w1 = 2.0f * (i % 1024) + 1.0f;
    float w2 = i < n / 2 ? 3.0f * (i % 512) : w1;
    EXPECT(h1[i] == w1, "stream1 [%d] got %f want %f", i, h1[i], w1);
    EXPECT(h2[i] == w2, "stream2 [%d] got %f want %f", i, h2[i], w2);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(done1));
  CHECK(cudaEventDestroy(done2));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFreeHost(h1));
  CHECK(cudaFreeHost(h2));
  CHECK(cudaFree(d1));
  CHECK(cudaFree(d2));
}

int main() {
  test_2d();
  test_3d();
  test_dynamic_smem();
  test_streams();
  CHECK(cudaDeviceSynchronize());
  return finish_test("grid_smem_streams");
}
