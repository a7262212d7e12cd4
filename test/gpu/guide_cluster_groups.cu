// Thread block clusters through cooperative groups, as the Programming
// Guide's cluster and distributed shared memory sections teach them: a
// histogram whose bins are spread over the shared memory of a cluster's
// blocks (cg::this_cluster(), map_shared_rank, cluster.sync()), launched
// with cudaLaunchKernelEx and a cluster-dimension attribute; the cluster
// queries (num_blocks, block_rank, dim_blocks, the grid's num_clusters and
// cluster_rank); a non-portable cluster of 16 blocks; and
// cudaOccupancyMaxActiveClusters.
#include "gpu_test.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 256;
constexpr int kBinsPerBlock = 512;

__global__ void arch_of(int *arch) {
#ifdef __CUDA_ARCH__
  *arch = __CUDA_ARCH__;
#endif
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTERS 1
#else
#define CLUSTERS 0
#endif

// Bins [0, bins) live in the shared memory of the cluster's blocks, block r
// holding [r * kBinsPerBlock, (r + 1) * kBinsPerBlock).
__global__ void cluster_histogram(const int *values, int n, int bins,
                                  unsigned *global_bins, unsigned *shape) {
#if CLUSTERS
  __shared__ unsigned local[kBinsPerBlock];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  for (int i = threadIdx.x; i < kBinsPerBlock; i += blockDim.x) local[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    int bin = values[i] % bins;
    unsigned *owner = cluster.map_shared_rank(local, bin / kBinsPerBlock);
    atomicAdd(owner + bin % kBinsPerBlock, 1u);
  }
  cluster.sync(); // every block's updates of this block's bins are done
  for (int i = threadIdx.x; i < kBinsPerBlock; i += blockDim.x) {
    int bin = rank * kBinsPerBlock + i;
    if (bin < bins) atomicAdd(&global_bins[bin], local[i]);
  }
  if (threadIdx.x == 0) {
    cg::grid_group grid = cg::this_grid();
    unsigned *out = shape + 6 * blockIdx.x;
    out[0] = cluster.num_blocks();
    out[1] = rank;
    out[2] = cluster.dim_blocks().x;
    out[3] = static_cast<unsigned>(grid.num_clusters());
    out[4] = static_cast<unsigned>(grid.cluster_rank());
    out[5] = cluster.block_index().x;
  }
#endif
}

__global__ void cluster_size(unsigned *size) {
#if CLUSTERS
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  if (threadIdx.x == 0) size[blockIdx.x] = cluster.num_blocks();
#endif
}

// A launch configuration of `blocks` blocks of `threads` in clusters of
// `cluster` blocks along x; `attribute` holds the cluster dimension.
cudaLaunchConfig_t in_clusters(int blocks, int threads, int cluster,
                               cudaLaunchAttribute &attribute) {
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

int main() {
  int *arch;
  CHECK(cudaMalloc(&arch, sizeof(int)));
  CHECK(cudaMemset(arch, 0, sizeof(int)));
  arch_of<<<1, 1>>>(arch);
  int harch = 0;
  CHECK(cudaMemcpy(&harch, arch, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(arch));
  if (harch < 900) {
    std::printf("note: clusters not built (virtual arch %d)\n", harch);
    return finish_test("guide_cluster_groups");
  }

  constexpr int kCluster = 4, kBlocks = 32, kN = 1 << 20;
  const int bins = kCluster * kBinsPerBlock - 100; // the last block's partly
  int *values;
  unsigned *global_bins, *shape;
  CHECK(cudaMalloc(&values, kN * sizeof(int)));
  CHECK(cudaMalloc(&global_bins, bins * sizeof(unsigned)));
  CHECK(cudaMalloc(&shape, 6 * kBlocks * sizeof(unsigned)));
  static int hv[kN];
  for (int i = 0; i < kN; ++i) hv[i] = (i * 2654435761u) >> 7;
  CHECK(cudaMemcpy(values, hv, sizeof(hv), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(global_bins, 0, bins * sizeof(unsigned)));

  cudaLaunchAttribute attribute;
  cudaLaunchConfig_t config =
      in_clusters(kBlocks, kThreads, kCluster, attribute);
  CHECK(cudaLaunchKernelEx(&config, cluster_histogram, values, kN, bins,
                           global_bins, shape));
  CHECK(cudaDeviceSynchronize());
  static unsigned hb[kCluster * kBinsPerBlock], want[kCluster * kBinsPerBlock];
  CHECK(cudaMemcpy(hb, global_bins, bins * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) ++want[hv[i] % bins];
  for (int b = 0; b < bins; ++b)
    EXPECT(hb[b] == want[b], "bin %d: %u, expected %u", b, hb[b], want[b]);
  unsigned hs[6 * kBlocks];
  CHECK(cudaMemcpy(hs, shape, sizeof(hs), cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; ++b) {
    const unsigned *s = hs + 6 * b;
    EXPECT(s[0] == kCluster && s[2] == kCluster,
           "block %d: cluster of %u blocks, dim %u", b, s[0], s[2]);
    EXPECT(s[1] == static_cast<unsigned>(b % kCluster) && s[5] == s[1],
           "block %d: rank %u, index %u", b, s[1], s[5]);
    EXPECT(s[3] == kBlocks / kCluster, "block %d: %u clusters", b, s[3]);
    EXPECT(s[4] == static_cast<unsigned>(b / kCluster),
           "block %d: cluster rank %u", b, s[4]);
  }

  // How many 4-block clusters of this kernel fit on the GPU at once.
  int clusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, cluster_histogram, &config));
  EXPECT(clusters > 0, "cudaOccupancyMaxActiveClusters: %d", clusters);

  // 16 blocks per cluster is beyond the portable 8: allowed per kernel.
  unsigned *sizes;
  CHECK(cudaMalloc(&sizes, 32 * sizeof(unsigned)));
  CHECK(cudaFuncSetAttribute(cluster_size,
                             cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute wideAttribute;
  cudaLaunchConfig_t wide = in_clusters(32, 32, 16, wideAttribute);
  int wideClusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&wideClusters, cluster_size, &wide));
  if (wideClusters > 0) {
    CHECK(cudaLaunchKernelEx(&wide, cluster_size, sizes));
    CHECK(cudaDeviceSynchronize());
    unsigned hsz[32];
    CHECK(cudaMemcpy(hsz, sizes, sizeof(hsz), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 32; ++b)
      EXPECT(hsz[b] == 16, "block %d: cluster of %u blocks", b, hsz[b]);
  } else {
    std::printf("note: this GPU runs no 16-block cluster\n");
  }

  CHECK(cudaFree(values));
  CHECK(cudaFree(global_bins));
  CHECK(cudaFree(shape));
  CHECK(cudaFree(sizes));
  return finish_test("guide_cluster_groups");
}
