// Used by the dependency-file tests: a .cu with a local header, a header
// only its device side includes, a system header and a header found through
// -isystem when SYSDEP is defined.
#include "dep.h"
#ifdef __CUDA_ARCH__
#include "device_only.h"
#else
#define DEVICE_ONLY_VALUE 0
#endif
#include <cstdio>
#ifdef SYSDEP
#include <sysdep.h>
#endif

__global__ void kernel(int *out) { *out = DEP_VALUE + DEVICE_ONLY_VALUE; }

int main() {
  std::printf("%d\n", DEP_VALUE);
  return 0;
}
