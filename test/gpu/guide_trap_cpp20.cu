// __trap() and C++20 in device code.
//  - A kernel that calls __trap() ends its launch with an error and leaves
//    the context unusable, so it runs in a child process: the child reports
//    the launch's error through its exit status.
//  - C++20: concepts and requires-clauses, consteval and constexpr
//    evaluation, designated initializers, templated lambdas, the spaceship
//    operator, [[likely]], and constinit device data, in kernels.
// FLAGS: -std=c++20 --expt-relaxed-constexpr
#include "gpu_test.h"

#include <compare>
#include <sys/wait.h>
#include <unistd.h>

__global__ void trapping(int *p) {
  if (p[0] == 42) __trap();
  p[1] = 1;
}

template <typename T>
concept Arithmetic = requires(T a, T b) { a + b; a * b; };

template <Arithmetic T> __device__ T square_sum(T a, T b) { return a * a + b * b; }

consteval int table_size() { return 4 * 4; }
constexpr int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

struct Point {
  int x = 0, y = 0;
  constexpr auto operator<=>(const Point &) const = default;
};

__device__ constinit int scale = factorial(4); // 24

__global__ void modern(int *out) {
  constexpr int n = table_size();
  int i = threadIdx.x;
  Point p{.x = i, .y = n - i};
  Point q{.x = n - i, .y = i};
  auto pick = []<typename T>(T a, T b) { return a < b ? a : b; };
  out[i] = square_sum(p.x, p.y);
  if ((p <=> q) < 0) [[likely]]
    out[n + i] = pick(p.x, q.x) * scale;
  else
    out[n + i] = -1;
  out[2 * n + i] = static_cast<int>(square_sum(1.5f, 0.5f) * 4);
}

int main() {
  pid_t child = fork();
  if (child == 0) {
    int *p;
    if (cudaMalloc(&p, 2 * sizeof(int)) != cudaSuccess) _exit(2);
    int v = 42;
    cudaMemcpy(p, &v, sizeof(int), cudaMemcpyHostToDevice);
    trapping<<<1, 1>>>(p);
    cudaError_t err = cudaDeviceSynchronize();
    _exit(err == cudaSuccess ? 0 : err == cudaErrorLaunchFailure ? 3 : 4);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 3,
         "the trapping child exited with %d, not 3 (cudaErrorLaunchFailure)",
         WIFEXITED(status) ? WEXITSTATUS(status) : -1);

  int *p;
  CHECK(cudaMalloc(&p, 2 * sizeof(int)));
  int h[2] = {0, 0};
  CHECK(cudaMemcpy(p, h, sizeof(h), cudaMemcpyHostToDevice));
  trapping<<<1, 1>>>(p);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, p, sizeof(h), cudaMemcpyDeviceToHost));
  EXPECT(h[1] == 1, "the non-trapping launch wrote %d", h[1]);

  constexpr int n = 16;
  int *out;
  CHECK(cudaMalloc(&out, 3 * n * sizeof(int)));
  modern<<<1, n>>>(out);
  CHECK(cudaGetLastError());
  int ho[3 * n];
  CHECK(cudaMemcpy(ho, out, sizeof(ho), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT(ho[i] == i * i + (n - i) * (n - i), "square_sum %d: %d", i, ho[i]);
    // p < q exactly when p.x < q.x (p.x == q.x means p == q here).
    int want = i < n - i ? i * 24 : -1;
    EXPECT(ho[n + i] == want, "spaceship/pick %d: %d, expected %d", i,
           ho[n + i], want);
    EXPECT(ho[2 * n + i] == 10, "float square_sum: %d", ho[2 * n + i]);
  }
  CHECK(cudaFree(p));
  CHECK(cudaFree(out));
  return finish_test("guide_trap_cpp20");
}
