// Used by link.test: a plain C++ translation unit calling into a .cu one.
#include <cstdio>

int fill_on_gpu(int value);

int main() {
  int result = fill_on_gpu(7);
  // Without a GPU the CUDA calls fail cleanly; with one, the kernel ran.
  std::printf("linked: %s\n", result == 7 ? "kernel ran" : "no GPU");
  return 0;
}
