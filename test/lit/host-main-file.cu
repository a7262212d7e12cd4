// The lowered unit starts with the .cu's line marker, so that g++ takes the
// .cu for its main file (a preprocessed unit's first line names it). g++
// gives -Wsubobject-linkage only outside the main file, and CCCL's examples
// build with -Werror: Thrust's sum_rows and sum_columns failed ("has a base
// ... whose type uses the anonymous namespace") for a header's class
// template specialised with an extended lambda of main. nvcc passes there
// because its host code replaces an extended lambda with a named wrapper
// type; for a plain lambda g++ warns with nvcc too, and not with mycc.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -std=c++17 -arch=sm_90 --extended-lambda -I%S/Inputs -Xcompiler=-Werror=subobject-linkage -c %s -o %t/mycc.o
// RUN: %mycc -std=c++17 -arch=sm_90 --extended-lambda -I%S/Inputs -cuda %s -o %t/lowered.ii
// RUN: head -1 %t/lowered.ii | FileCheck %s
// CHECK: # {{[01]}} "{{.*}}host-main-file.cu"
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -std=c++17 -arch=sm_90 --extended-lambda -I%S/Inputs -Xcompiler=-Werror=subobject-linkage -c %s -o %t/nvcc.o %}
#include "subobject-linkage.h"

__global__ void kernel(int *p) { *p = 1; }

int main() { return run([] __host__ __device__(int) {}) == 0; }
