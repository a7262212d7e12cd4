// Whole-program units that instantiate the same __global__ templates, each
// with its own copy of a static __constant__ the kernels read (nvcc 13's
// -static-global-template-stub=true, its default): each unit's launch runs
// its own module's kernel. With weak host stubs (nvcc's =false, mycc before)
// the linker keeps one unit's stub, and the other unit's launches read the
// first unit's constant: a silently wrong result.
//  - a template in a namespace, declared before it is defined, with an
//    explicit specialisation;
//  - a template at global scope with a non-type parameter;
//  - the same through cudaLaunchKernel with the stub's address.
// MULTI-FILE: template_stubs_b.cu
#include "gpu_test.h"
#include "template_stubs.cuh"

int run_template_stubs_b(int *results);

int main() {
  int a[4], b[4];
  int bad = run_template_stubs(1, a) + run_template_stubs_b(b);
  EXPECT(bad == 0, "CUDA calls failed");
  for (int i = 0; i < 4; ++i) {
    EXPECT(a[i] == expected(1, i), "unit a, kernel %d: %d, not %d", i, a[i], expected(1, i));
    EXPECT(b[i] == expected(2, i), "unit b, kernel %d: %d, not %d", i, b[i], expected(2, i));
  }
  return finish_test("template_stubs");
}
