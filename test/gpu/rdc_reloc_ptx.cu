// -reloc-ptx: rdc_extern.cu's units device-linked with each unit's
// relocatable PTX in the fat binary beside the linked cubin (entries named
// by the units' module ids, as nvcc writes them); the CUDA runtime loads
// the linked image as before.
// FLAGS: -rdc=true -reloc-ptx
// MULTI-FILE: rdc_extern_b.cu
#define RDC_EXTERN_TEST_NAME "rdc_reloc_ptx"
#include "rdc_extern.cu"
