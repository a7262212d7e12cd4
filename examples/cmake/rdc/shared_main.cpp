// A C++ program using the shared library with relocatable device code.
#include "../../common/check.h"

extern "C" int rdc_shared_cubes(int n);

int main() {
  example_require_device("rdc_shared_app");
  int wrong = rdc_shared_cubes(1000);
  if (wrong != 0) {
    std::fprintf(stderr, "rdc_shared_app: %d wrong results\n", wrong);
    return 1;
  }
  std::printf("rdc_shared_app: PASS\n");
  return 0;
}
