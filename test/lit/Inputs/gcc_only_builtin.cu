// A GCC builtin that Clang lacks, in host code where the host compiler's
// __has_builtin says it exists: CCCL's cuda::std::byteswap of a 128-bit
// integer calls __builtin_bswap128 there.
#include <cuda/std/bit>
#include <cstdio>

__host__ __device__ unsigned long long low_of_swapped(unsigned __int128 v) {
#if __has_builtin(__builtin_bswap128) && !defined(__CUDA_ARCH__)
  return (unsigned long long)__builtin_bswap128(v);
#else
  return (unsigned long long)cuda::std::byteswap(v);
#endif
}

int main() {
  unsigned __int128 v = ((unsigned __int128)0x0102030405060708ULL << 64) | 0x1112131415161718ULL;
  unsigned __int128 s = cuda::std::byteswap(v);
  std::printf("%016llx %016llx %016llx\n", (unsigned long long)(s >> 64),
              (unsigned long long)s, low_of_swapped(v));
}
