// PART-OF: template_stubs.cu
#include "gpu_test.h"
#include "template_stubs.cuh"

int run_template_stubs_b(int *results) { return run_template_stubs(2, results); }
