// __managed__ variables with relocatable device code: this unit defines
// one, the other (guide_managed_rdc_b.cu) declares it extern and uses it
// from its kernel and from its host code, and defines one this unit uses.
// FLAGS: -rdc=true
// MULTI-FILE: guide_managed_rdc_b.cu
#include "gpu_test.h"

__managed__ int shared_total = 7;
extern __managed__ int other_total;

void add_in_other_unit(int n); // launches the other unit's kernel
int read_in_other_unit();      // reads shared_total from the other unit

__global__ void add_here(int n) { atomicAdd(&other_total, n); }

int main() {
  EXPECT(read_in_other_unit() == 7, "the other unit reads %d",
         read_in_other_unit());
  shared_total = 100;
  add_in_other_unit(5);
  CHECK(cudaDeviceSynchronize());
  EXPECT(shared_total == 105, "shared_total is %d", shared_total);
  EXPECT(read_in_other_unit() == 105, "the other unit reads %d",
         read_in_other_unit());
  other_total = 1;
  add_here<<<1, 32>>>(2);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  EXPECT(other_total == 65, "other_total is %d", other_total);
  return finish_test("guide_managed_rdc");
}
