// PART-OF: guide_managed_rdc.cu
#include <cuda_runtime.h>

extern __managed__ int shared_total;
__managed__ int other_total;

__global__ void add_there(int n) { atomicAdd(&shared_total, n); }

void add_in_other_unit(int n) { add_there<<<1, 1>>>(n); }
int read_in_other_unit() { return shared_total; }
