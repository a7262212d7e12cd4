/* What a C or C++ input sees from nvcc (and mycc): nvcc's macros, but no
   __CUDACC__, whose host compiler compiles it as plain C or C++. */
#ifdef __NVCC__
nvcc_defined
#endif
#ifdef __CUDACC__
cudacc_defined
#endif
#ifdef __CUDACC_VER_MAJOR__
cuda_major __CUDACC_VER_MAJOR__
#endif
#ifdef __cplusplus
cplusplus
#endif
