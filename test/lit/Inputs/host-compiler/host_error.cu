#include <cstdio>
__global__ void k(int *p) { *p = 1; }

int main() {
  int x = undeclared_name;
  return x;
}
