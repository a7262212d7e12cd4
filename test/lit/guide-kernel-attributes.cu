// Kernel properties in the PTX entry, as nvcc writes them: __cluster_dims__
// (.explicitcluster, .reqnctapercluster), __maxnreg__ (.maxnreg), and the
// three-argument __launch_bounds__ (.maxntid, .minnctapersm,
// .maxclusterrank) without the false host-side "maxclusterrank requires
// sm_90" warning. Template kernels take their instantiated values.
// RUN: %mycc -ptx -arch=sm_90 %s -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %mycc -c -arch=sm_90 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=NVCC %}
// QUIET-NOT: warning
// QUIET-NOT: error

__global__ void __cluster_dims__(2, 1, 1) pairs(int *p) { p[0] = 1; }
__global__ void __cluster_dims__(4) fours(int *p) { p[0] = 1; }
__global__ void __maxnreg__(32) limited(int *p) { p[0] = 1; }
__global__ void __launch_bounds__(256, 2, 4) bounded(int *p) { p[0] = 1; }
template <int N>
__global__ void __maxnreg__(N) __cluster_dims__(N / 16, 2) templated(int *p) {
  p[0] = N;
}
template __global__ void templated<64>(int *);
// A kernel with C linkage keeps its plain symbol, and its properties.
extern "C" __global__ void __cluster_dims__(2, 2, 1) __maxnreg__(40)
    plain_c(int *p) { p[0] = 1; }

// CHECK-LABEL: .entry _Z5pairsPi(
// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK-LABEL: .entry _Z5foursPi(
// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 4, 1, 1
// CHECK-LABEL: .entry _Z7limitedPi(
// CHECK: .maxnreg 32
// CHECK-LABEL: .entry _Z7boundedPi(
// CHECK: .maxntid 256
// CHECK: .minnctapersm 2
// CHECK: .maxclusterrank 4
// CHECK-LABEL: .entry _Z9templatedILi64EEvPi(
// CHECK-DAG: .maxnreg 64
// CHECK-DAG: .explicitcluster
// CHECK-DAG: .reqnctapercluster 4, 2, 1
// CHECK-LABEL: .entry plain_c(
// CHECK-DAG: .maxnreg 40
// CHECK-DAG: .explicitcluster
// CHECK-DAG: .reqnctapercluster 2, 2, 1
// The annotation that carries __maxnreg__ leaves nothing behind.
// CHECK-NOT: mycc.maxnreg

// NVCC-LABEL: .entry _Z5pairsPi(
// NVCC: .explicitcluster
// NVCC-NEXT: .reqnctapercluster 2, 1, 1
// NVCC-LABEL: .entry _Z5foursPi(
// NVCC: .explicitcluster
// NVCC-NEXT: .reqnctapercluster 4, 1, 1
// NVCC-LABEL: .entry _Z7limitedPi(
// NVCC: .maxnreg 32
// NVCC-LABEL: .entry _Z7boundedPi(
// NVCC: .maxntid 256
// NVCC: .minnctapersm 2
// NVCC: .maxclusterrank 4
// NVCC-LABEL: .entry _Z9templatedILi64EEvPi(
// NVCC-DAG: .maxnreg 64
// NVCC-DAG: .explicitcluster
// NVCC-DAG: .reqnctapercluster 4, 2, 1
// NVCC-LABEL: .entry plain_c(
// NVCC-DAG: .maxnreg 40
// NVCC-DAG: .explicitcluster
// NVCC-DAG: .reqnctapercluster 2, 2, 1
