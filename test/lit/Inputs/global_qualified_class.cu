// CUB's test_util.h specialises a class template under a name qualified
// from the global namespace; g++ rejects that spelling.
#include <cuda/std/limits>
struct TestFoo { int x; };
template <>
class ::cuda::std::numeric_limits<TestFoo> {
public:
  static constexpr bool is_specialized = true;
  __host__ __device__ static TestFoo max() { return TestFoo{7}; }
};
__global__ void kernel(int *p) { *p = ::cuda::std::numeric_limits<TestFoo>::max().x; }
int main() { return ::cuda::std::numeric_limits<TestFoo>::max().x == 7 ? 0 : 1; }
