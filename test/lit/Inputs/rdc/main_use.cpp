#include <cstdio>
void launch_use(int *);
int main() {
  launch_use(nullptr); // fails cleanly without a GPU
  std::puts("rdc program linked");
  return 0;
}
