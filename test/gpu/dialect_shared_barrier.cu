// Function-scope __shared__ objects of a class type whose constructor or
// destructor is not empty, as CUDA code declares a block barrier:
//   __shared__ cuda::barrier<cuda::thread_scope_block> bar;
// nvcc accepts them (warning #20054, silenced here with the pragma CUDA code
// uses) and runs no constructor and no destructor: one thread initialises
// the barrier with init(&bar, blockDim.x). Clang rejects them; mycc rewrites
// the declaration (lib/Lowering/SharedInit.h). Checked:
//  - a block reduction whose steps are separated by bar.arrive_and_wait();
//  - a kernel template (two instantiations) with a single barrier and an
//    array of two barriers used in alternation;
//  - no constructor or destructor of a __shared__ object runs (they would
//    count their calls), and a lambda that copies its captures refers to the
//    __shared__ object itself (a __shared__ variable is not captured).
#include <cuda/barrier>

#include <vector>

#include "gpu_test.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kThreads = 256; // block_sum's block size (a power of two)
constexpr int kPerThread = 8;
constexpr int kBlocks = 64;

__global__ void block_sum(const int *in, long long *out) {
  __shared__ block_barrier bar;
  __shared__ long long partial[kThreads];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads(); // initialised before anyone arrives
  const int *mine = in + (blockIdx.x * blockDim.x + threadIdx.x) * kPerThread;
  long long sum = 0;
  for (int i = 0; i < kPerThread; ++i) sum += mine[i];
  partial[threadIdx.x] = sum;
  bar.arrive_and_wait();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    bar.arrive_and_wait();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// Every thread adds 1 to a per-round counter, then waits on one of two
// barriers in turn; after the wait, the counter must hold the block size.
// out[block] counts the rounds where it did not.
template <int Rounds> __global__ void rounds(int *out) {
  __shared__ block_barrier start;
  __shared__ block_barrier bars[2];
  __shared__ int counter[Rounds];
  if (threadIdx.x == 0) {
    init(&start, blockDim.x);
    init(&bars[0], blockDim.x);
    init(&bars[1], blockDim.x);
    for (int r = 0; r < Rounds; ++r) counter[r] = 0;
  }
  __syncthreads();
  start.arrive_and_wait();
  int wrong = 0;
  for (int r = 0; r < Rounds; ++r) {
    atomicAdd(&counter[r], 1);
    bars[r % 2].arrive_and_wait();
    if (counter[r] != int(blockDim.x)) ++wrong;
  }
  if (wrong) atomicAdd(&out[blockIdx.x], wrong);
}

__device__ int g_constructed;
__device__ int g_destroyed;

struct Counted {
  int value;
  __device__ Counted() : value(-1) { atomicAdd(&g_constructed, 1); }
  __device__ ~Counted() { atomicAdd(&g_destroyed, 1); }
};

__global__ void no_constructors(int *out) {
  __shared__ Counted one;
  static __shared__ Counted two[2];
  auto read = [=] { return one.value + two[1].value; };
  if (threadIdx.x == 0) {
    one.value = 40;
    two[1].value = 2;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = read();
}

int main() {
  // block_sum
  const int n = kBlocks * kThreads * kPerThread;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919 + 13) % 2001 - 1000;
  std::vector<long long> want(kBlocks, 0);
  for (int i = 0; i < n; ++i) want[i / (kThreads * kPerThread)] += in[i];
  int *d_in = nullptr;
  long long *d_sums = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, kBlocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sums, 0, kBlocks * sizeof(long long)));
  block_sum<<<kBlocks, kThreads>>>(d_in, d_sums);
  CHECK(cudaGetLastError());
  std::vector<long long> sums(kBlocks);
  CHECK(cudaMemcpy(sums.data(), d_sums, kBlocks * sizeof(long long),
                   cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; ++b)
    EXPECT(sums[b] == want[b], "block %d: sum %lld, expected %lld", b, sums[b],
           want[b]);

  // rounds<5> and rounds<6>
  int *d_wrong = nullptr;
  CHECK(cudaMalloc(&d_wrong, 16 * sizeof(int)));
  CHECK(cudaMemset(d_wrong, 0, 16 * sizeof(int)));
  rounds<5><<<8, 128>>>(d_wrong);
  CHECK(cudaGetLastError());
  rounds<6><<<8, 512>>>(d_wrong + 8);
  CHECK(cudaGetLastError());
  int wrong[16];
  CHECK(cudaMemcpy(wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 16; ++b)
    EXPECT(wrong[b] == 0, "rounds<%d> block %d: %d rounds saw an incomplete count",
           b < 8 ? 5 : 6, b % 8, wrong[b]);

  // no_constructors
  const int threads = 2 * 64;
  int *d_read = nullptr;
  CHECK(cudaMalloc(&d_read, threads * sizeof(int)));
  no_constructors<<<2, 64>>>(d_read);
  CHECK(cudaGetLastError());
  std::vector<int> read(threads);
  CHECK(cudaMemcpy(read.data(), d_read, threads * sizeof(int),
                   cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; ++t)
    EXPECT(read[t] == 42, "thread %d read %d through the lambda, expected 42", t,
           read[t]);
  int constructed = -1, destroyed = -1;
  CHECK(cudaMemcpyFromSymbol(&constructed, g_constructed, sizeof(int)));
  CHECK(cudaMemcpyFromSymbol(&destroyed, g_destroyed, sizeof(int)));
  EXPECT(constructed == 0, "%d constructor calls for __shared__ objects",
         constructed);
  EXPECT(destroyed == 0, "%d destructor calls for __shared__ objects", destroyed);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_wrong));
  CHECK(cudaFree(d_read));
  return finish_test("dialect_shared_barrier");
}
