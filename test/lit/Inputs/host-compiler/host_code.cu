// Host code that nvcc compiles with g++ and that Clang's CUDA host mode
// rejects or compiles differently (issue: the host half nvcc's way).
#include <cmath>
#include <cstdio>
#include <cstring>

__global__ void square(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(static_cast<unsigned>(i) * static_cast<unsigned>(i));
}

// The device's wrapped squares, made on the host here so that the check
// runs without a GPU.
static void deviceSquares(int *out, int n) {
  for (int i = 0; i < n; ++i) {
    unsigned u = static_cast<unsigned>(i) * static_cast<unsigned>(i);
    std::memcpy(&out[i], &u, sizeof u);
  }
}

int main() {
#if defined(__GNUC__) && !defined(__clang__)
  std::printf("host compiler: gcc\n");
#elif defined(__clang__)
  std::printf("host compiler: clang\n");
#endif
  float f = 1.0f;
  std::printf("isfinite %d isnan %d isinf %d signbit %d\n", isfinite(f), isnan(f),
              isinf(f), signbit(f));
  std::printf("clock %d\n", clock() >= 0 && CLOCKS_PER_SEC > 0);
  static int array[1 << 20];
  const int n = 1 << 20;
  deviceSquares(array, n);
  // Signed overflow from i = 46341: undefined, and what the program prints
  // is what the host compiler made of it.
  int first = -1;
  for (int i = 0; i < n; ++i)
    if (array[i] != i * i) { first = i; break; }
  std::printf("first mismatch %d\n", first);
  return 0;
}
