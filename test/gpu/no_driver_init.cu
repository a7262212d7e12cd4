// A program with device code that never touches the GPU must not pay for
// driver initialisation: registering its module at start-up may not load the
// CUDA driver library (libcuda), which every driver initialisation needs.
#include <cstdio>
#include <cstring>

__global__ void never_launched(int *p) { *p = 1; }
__device__ int unused_variable;

static bool driver_loaded() {
  FILE *maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return false;
  char line[4096];
  bool found = false;
  while (std::fgets(line, sizeof line, maps))
    if (std::strstr(line, "libcuda.so")) found = true;
  std::fclose(maps);
  return found;
}

int main() {
  if (driver_loaded()) {
    std::printf("FAIL: the CUDA driver library was loaded before any CUDA call\n");
    return 1;
  }
  std::printf("PASS no_driver_init\n");
  return 0;
}
