// The sum of an array, computed on the device (reduce.cu); the shared library
// of the examples. Only the functions marked REDUCE_API are exported (the
// library is built with hidden visibility where the build system supports it).
#pragma once

#if defined(__GNUC__)
#define REDUCE_API __attribute__((visibility("default")))
#else
#define REDUCE_API
#endif

// Copies n ints to the device, sums them there and returns the sum in *sum;
// returns a CUDA error code (0: success).
REDUCE_API int reduce_sum(const int *host, int n, long long *sum);
