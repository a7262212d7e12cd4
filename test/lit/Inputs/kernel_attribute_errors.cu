// Kernel properties nvcc rejects (guide-kernel-attributes-errors.test).
#ifndef CLUSTER
__global__ void
__launch_bounds__(128) __maxnreg__(32) both(int *p) { p[0] = 1; }
#else
__global__ void
__cluster_dims__(2) old_gpu(int *p) { p[0] = 1; }
#endif
