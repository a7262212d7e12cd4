// -dlto: the relocatable device code of rdc_extern.cu's units as LLVM
// bitcode, optimised as one program at the device link.
// FLAGS: -rdc=true -dlto
// MULTI-FILE: rdc_extern_b.cu
#define RDC_EXTERN_TEST_NAME "rdc_lto"
#include "rdc_extern.cu"
