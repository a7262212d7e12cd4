// Used by the dependency-file tests: a .cu with a local header, a system
// header and a header found through -isystem when SYSDEP is defined.
#include "dep.h"
#include <cstdio>
#ifdef SYSDEP
#include <sysdep.h>
#endif

__global__ void kernel(int *out) { *out = DEP_VALUE; }

int main() {
  std::printf("%d\n", DEP_VALUE);
  return 0;
}
