// A device module large enough (over 20,000 LLVM instructions once
// optimised) that mycc splits its code generation without -split-compile:
// ten kernels, each a fully unrolled loop of sinf, with a __shared__
// buffer of their own and a global they share.
__device__ float scale = 2.0f;

template <int N> __global__ void wave(float *x, int n) {
  __shared__ float buffer[256];
  buffer[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int i = 0; i < 24; ++i)
    acc += sinf(buffer[(threadIdx.x + i * N) % 256] * scale + i);
  x[threadIdx.x + n] = acc;
}

template __global__ void wave<1>(float *, int);
template __global__ void wave<2>(float *, int);
template __global__ void wave<3>(float *, int);
template __global__ void wave<4>(float *, int);
template __global__ void wave<5>(float *, int);
template __global__ void wave<6>(float *, int);
template __global__ void wave<7>(float *, int);
template __global__ void wave<8>(float *, int);
template __global__ void wave<9>(float *, int);
template __global__ void wave<10>(float *, int);
