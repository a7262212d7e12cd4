// Dynamic parallelism as an extensible whole program (-ewp): the same
// program as rdc_dynamic_parallelism.cu, its device code one unit's whole
// program that the device link extends with libcudadevrt only (nvcc's cicc
// --partial-link, ptxas -ewp, __CUDACC_EWP__ for the device runtime's API).
// FLAGS: -ewp
#define RDC_DYNPAR_TEST_NAME "rdc_ewp_dynamic_parallelism"
#include "rdc_dynamic_parallelism.cu"
