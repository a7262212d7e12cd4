// The classes and template instantiations of the device API that the
// differential test (run.py) covers beyond plain functions. Each alias in
// namespace mycc_diff names a class whose public members (and those of its
// public bases) are called; each `extern template` is one instantiation of a
// function template whose template parameters the test cannot guess.
// Included after the headers run.py lists, by the lister and by the
// generated unit alike.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_awbarrier.h>
#include <cuda_pipeline.h>
#include <mma.h>

// A class template specialization is instantiated (its members declared)
// only where a complete type is needed.
#define MYCC_DIFF_CLASS(name, ...)                                             \
  using name = __VA_ARGS__;                                                    \
  static_assert(sizeof(name) != 0, #name)

namespace mycc_diff {
namespace cg = cooperative_groups;
// The half, bfloat16 and narrow floating-point classes: constructors,
// conversions and member operators.
using half = __half;
using half2 = __half2;
using bfloat16 = __nv_bfloat16;
using bfloat162 = __nv_bfloat162;
using fp8_e4m3 = __nv_fp8_e4m3;
using fp8x2_e4m3 = __nv_fp8x2_e4m3;
using fp8x4_e4m3 = __nv_fp8x4_e4m3;
using fp8_e5m2 = __nv_fp8_e5m2;
using fp8x2_e5m2 = __nv_fp8x2_e5m2;
using fp8x4_e5m2 = __nv_fp8x4_e5m2;
using fp8_e8m0 = __nv_fp8_e8m0;
using fp8x2_e8m0 = __nv_fp8x2_e8m0;
using fp8x4_e8m0 = __nv_fp8x4_e8m0;
using fp6_e2m3 = __nv_fp6_e2m3;
using fp6x2_e2m3 = __nv_fp6x2_e2m3;
using fp6x4_e2m3 = __nv_fp6x4_e2m3;
using fp6_e3m2 = __nv_fp6_e3m2;
using fp6x2_e3m2 = __nv_fp6x2_e3m2;
using fp6x4_e3m2 = __nv_fp6x4_e3m2;
using fp4_e2m1 = __nv_fp4_e2m1;
using fp4x2_e2m1 = __nv_fp4x2_e2m1;
using fp4x4_e2m1 = __nv_fp4x4_e2m1;

// Cooperative groups: every group kind's members.
using thread_group = cg::thread_group;
using thread_block = cg::thread_block;
using grid_group = cg::grid_group;
using coalesced_group = cg::coalesced_group;
MYCC_DIFF_CLASS(tile32, cg::thread_block_tile<32, cg::thread_block>);
MYCC_DIFF_CLASS(tile8, cg::thread_block_tile<8, cg::thread_block>);
MYCC_DIFF_CLASS(tile32_any, cg::thread_block_tile<32>);
#if defined(_CG_HAS_CLUSTER_GROUP)
using cluster_group = cg::cluster_group;
#endif

// libcu++'s synchronisation and atomics.
MYCC_DIFF_CLASS(atomic_ref_int_device, cuda::atomic_ref<int, cuda::thread_scope_device>);
MYCC_DIFF_CLASS(atomic_ref_uint_block, cuda::atomic_ref<unsigned, cuda::thread_scope_block>);
MYCC_DIFF_CLASS(atomic_ref_ull_system, cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>);
MYCC_DIFF_CLASS(atomic_ref_float_device, cuda::atomic_ref<float, cuda::thread_scope_device>);
MYCC_DIFF_CLASS(atomic_ref_double_block, cuda::atomic_ref<double, cuda::thread_scope_block>);
MYCC_DIFF_CLASS(atomic_int_device, cuda::atomic<int, cuda::thread_scope_device>);
MYCC_DIFF_CLASS(barrier_block, cuda::barrier<cuda::thread_scope_block>);
MYCC_DIFF_CLASS(barrier_thread, cuda::barrier<cuda::thread_scope_thread>);
MYCC_DIFF_CLASS(pipeline_thread, cuda::pipeline<cuda::thread_scope_thread>);
MYCC_DIFF_CLASS(pipeline_block, cuda::pipeline<cuda::thread_scope_block>);
using awbarrier = nvcuda::experimental::awbarrier;
MYCC_DIFF_CLASS(aligned16, cuda::aligned_size_t<16>);
} // namespace mycc_diff

// Function templates with a group, a functor or a value parameter: one
// instantiation each.
_CG_BEGIN_NAMESPACE
extern template __device__ int reduce(const thread_block_tile<32, thread_block> &, int &&, plus<int> &&);
extern template __device__ float reduce(const thread_block_tile<32, thread_block> &, float &&, greater<float> &&);
extern template __device__ unsigned reduce(const thread_block_tile<32, thread_block> &, unsigned &&, bit_and<unsigned> &&);
extern template __device__ int inclusive_scan(const thread_block_tile<32, thread_block> &, int &&, plus<int> &&);
extern template __device__ int exclusive_scan(const thread_block_tile<32, thread_block> &, int &&, plus<int> &&);
extern template __device__ thread_block_tile<32, thread_block> tiled_partition<32, thread_block>(const thread_block &);
extern template __device__ thread_block_tile<8, thread_block> tiled_partition<8, thread_block>(const thread_block &);
_CG_END_NAMESPACE

// Member function templates whose parameters are class templates.
extern template __host__ __device__ bool
cuda::pipeline<cuda::thread_scope_thread>::consumer_wait_for(
    const cuda::std::chrono::duration<long long, cuda::std::nano> &);
extern template __host__ __device__ bool
cuda::pipeline<cuda::thread_scope_block>::consumer_wait_for(
    const cuda::std::chrono::duration<long long, cuda::std::micro> &);
extern template __host__ __device__ bool
cuda::pipeline<cuda::thread_scope_thread>::consumer_wait_until(
    const cuda::std::chrono::system_clock::time_point &);
extern template __host__ __device__ bool
cuda::pipeline<cuda::thread_scope_block>::consumer_wait_until(
    const cuda::std::chrono::system_clock::time_point &);
extern template __host__ __device__ bool
cuda::barrier<cuda::thread_scope_block>::try_wait_for(
    cuda::barrier<cuda::thread_scope_block>::arrival_token &&,
    const cuda::std::chrono::duration<long long, cuda::std::nano> &);
extern template __host__ __device__ bool
cuda::barrier<cuda::thread_scope_block>::try_wait_parity_for(
    bool, const cuda::std::chrono::duration<long long, cuda::std::nano> &);
extern template __host__ __device__ bool
cuda::barrier<cuda::thread_scope_block>::try_wait_until(
    cuda::barrier<cuda::thread_scope_block>::arrival_token &&,
    const cuda::std::chrono::system_clock::time_point &);
extern template __host__ __device__ bool
cuda::barrier<cuda::thread_scope_block>::try_wait_parity_until(
    bool, const cuda::std::chrono::system_clock::time_point &);

// WMMA's fill_fragment (on the fragments' common base; a static function,
// whose instantiation can only be defined) and the legacy pipeline's copy of
// an array.
namespace nvcuda {
namespace wmma {
template __device__ void fill_fragment(__frag_base<__half, 16, 16> &, const __half &);
template __device__ void fill_fragment(__frag_base<float, 8, 8> &, const float &);
template __device__ void fill_fragment(__frag_base<double, 2, 2> &, const double &);
template __device__ void fill_fragment(__frag_base<int, 8, 8> &, const int &);
} // namespace wmma
namespace experimental {
extern template __device__ void memcpy_async(int (*)[4], const int (*)[4], pipeline &);
} // namespace experimental
} // namespace nvcuda

// cuda::memcpy_async with a barrier: by a group or a thread, typed or raw
// memory, with and without the alignment promise.
#define MYCC_DIFF_BAR cuda::barrier<cuda::thread_scope_block>
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(const cooperative_groups::thread_block &, int *, const int *,
                   cuda::aligned_size_t<16>, MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(const cooperative_groups::thread_block &, float *, const float *,
                   cuda::std::size_t, MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(const mycc_diff::tile32 &, void *, const void *, cuda::std::size_t,
                   MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(const mycc_diff::tile32 &, void *, const void *,
                   cuda::aligned_size_t<16>, MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(int *, const int *, cuda::aligned_size_t<16>, MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(double *, const double *, cuda::std::size_t, MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(void *, const void *, cuda::aligned_size_t<16>, MYCC_DIFF_BAR &);
extern template __host__ __device__ cuda::async_contract_fulfillment
cuda::memcpy_async(void *, const void *, cuda::std::size_t, MYCC_DIFF_BAR &);
#undef MYCC_DIFF_BAR
