// A program of plain C++ linked against the shared library shlib_a.cu and
// shlib_b.cu make.
#include <cstdio>
extern "C" int shlib_run();
int main() {
  int bad = shlib_run();
  if (bad != 0) {
    std::printf("FAIL shared_library_rdc: %d wrong\n", bad);
    return 1;
  }
  std::printf("PASS shared_library_rdc\n");
  return 0;
}
