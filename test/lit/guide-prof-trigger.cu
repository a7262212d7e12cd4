// __prof_trigger with a counter known only at run time: nvcc selects among
// the 16 `pmevent`s; a constant counter gives one.
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s %}

__global__ void variable(int counter) { __prof_trigger(counter); }
__global__ void constant() { __prof_trigger(7); }

// CHECK-LABEL: .entry _Z8variablei(
// CHECK-DAG: pmevent {{[ \t]*}}0;
// CHECK-DAG: pmevent {{[ \t]*}}1;
// CHECK-DAG: pmevent {{[ \t]*}}2;
// CHECK-DAG: pmevent {{[ \t]*}}3;
// CHECK-DAG: pmevent {{[ \t]*}}4;
// CHECK-DAG: pmevent {{[ \t]*}}5;
// CHECK-DAG: pmevent {{[ \t]*}}6;
// CHECK-DAG: pmevent {{[ \t]*}}7;
// CHECK-DAG: pmevent {{[ \t]*}}8;
// CHECK-DAG: pmevent {{[ \t]*}}9;
// CHECK-DAG: pmevent {{[ \t]*}}10;
// CHECK-DAG: pmevent {{[ \t]*}}11;
// CHECK-DAG: pmevent {{[ \t]*}}12;
// CHECK-DAG: pmevent {{[ \t]*}}13;
// CHECK-DAG: pmevent {{[ \t]*}}14;
// CHECK-DAG: pmevent {{[ \t]*}}15;
// CHECK-LABEL: .entry _Z8constantv(
// CHECK: pmevent {{[ \t]*}}7;
// CHECK-NOT: pmevent
// CHECK: ret;
