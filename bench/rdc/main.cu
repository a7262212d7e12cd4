// Separate compilation benchmark, unit 1 of 2: a kernel that calls a device
// function defined in the other unit (physics.cu) in its inner loop. With
// relocatable device code nvcc calls it through the ABI (nvlink cannot
// inline across units without -dlto); mycc's device link sees both units.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

struct Body { float x, y, z, m; };
extern __device__ float3 pull(Body a, Body b);      // physics.cu
extern __device__ float softening;                  // physics.cu

__global__ void accelerations(const Body *bodies, float3 *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Body me = bodies[i];
  float3 a = {0, 0, 0};
  for (int j = 0; j < n; ++j) {
    float3 f = pull(me, bodies[j]);
    a.x += f.x; a.y += f.y; a.z += f.z;
  }
  acc[i] = a;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16384;
  int reps = argc > 2 ? atoi(argv[2]) : 15;
  std::vector<Body> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = {float(i % 97) * 0.5f, float(i % 89) * 0.25f, float(i % 83), 1.0f + (i % 7)};
  float eps = 0.01f;
  cudaMemcpyToSymbol(softening, &eps, sizeof eps);
  Body *d; float3 *acc;
  cudaMalloc(&d, n * sizeof(Body));
  cudaMalloc(&acc, n * sizeof(float3));
  cudaMemcpy(d, h.data(), n * sizeof(Body), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start); cudaEventCreate(&stop);
  accelerations<<<(n + 127) / 128, 128>>>(d, acc, n); // warm-up
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(start);
    accelerations<<<(n + 127) / 128, 128>>>(d, acc, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t; cudaEventElapsedTime(&t, start, stop); ms.push_back(t);
  }
  std::vector<float3> out(n);
  cudaMemcpy(out.data(), acc, n * sizeof(float3), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) { printf("CUDA error\n"); return 1; }
  // Check a few bodies against the host.
  int bad = 0;
  for (int i = 0; i < n; i += n / 7) {
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      double dx = h[j].x - h[i].x, dy = h[j].y - h[i].y, dz = h[j].z - h[i].z;
      double r2 = dx * dx + dy * dy + dz * dz + eps;
      double inv = 1.0 / (r2 * std::sqrt(r2));
      ax += h[j].m * dx * inv; ay += h[j].m * dy * inv; az += h[j].m * dz * inv;
    }
    auto close = [](double a, double b) { return std::abs(a - b) <= 1e-3 * (1 + std::abs(b)); };
    if (!close(out[i].x, ax) || !close(out[i].y, ay) || !close(out[i].z, az)) ++bad;
  }
  std::sort(ms.begin(), ms.end());
  printf("TIME kernel_ms=%.4f bad=%d\n", ms[ms.size() / 2], bad);
  return bad != 0;
}
