// cooperative_groups' cluster_group exists under mycc (CUDA's headers offer
// it to compilers that define _CG_CLUSTER_INTRINSICS_AVAILABLE, which mycc's
// prelude does for Clang's intrinsics): cluster.sync() is the cluster
// barrier, map_shared_rank a `mapa` into another block's shared memory.
// RUN: %mycc -ptx -arch=sm_90 %s -o - | FileCheck %s
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o - | FileCheck %s --check-prefix=NVCC %}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(unsigned *out) {
  __shared__ unsigned mine;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) mine = cluster.block_rank();
  cluster.sync();
  unsigned *theirs = cluster.map_shared_rank(&mine, cluster.block_rank() ^ 1);
  out[blockIdx.x] = *theirs + cluster.num_blocks();
  cluster.sync();
}
// CHECK-LABEL: .entry _Z8exchangePj(
// CHECK: barrier.cluster.arrive
// CHECK: barrier.cluster.wait
// CHECK: mapa
// NVCC-LABEL: .entry _Z8exchangePj(
// NVCC: barrier.cluster.arrive
// NVCC: barrier.cluster.wait
// NVCC: mapa
