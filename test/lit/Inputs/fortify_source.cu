// Host code under glibc's _FORTIFY_SOURCE (distribution builds pass
// -D_FORTIFY_SOURCE=2; Ubuntu's g++ defines it whenever it optimises):
// printf and open become inline wrappers that pass their variadic arguments
// on with GCC's __builtin_va_arg_pack.
#include <cstdio>
#include <fcntl.h>

__global__ void kernel(int *p) { *p = 42; }

int main(int argc, char **argv) {
  int fd = open(argc > 1 ? argv[1] : "/dev/null", O_RDONLY);
  std::printf("open %s, %d arguments\n", fd >= 0 ? "ok" : "failed", argc);
  return 0;
}
