// A result-less call of inline assembly in Clang's CUDA headers (the
// vector atomicAdd of sm_90): mycc makes such memory-touching asm volatile,
// which it finds by the header's name; compiled from preprocessed text
// (--keep) the name comes from the line markers.
__global__ void add(float2 *v2, float4 *v4) {
  atomicAdd(&v2[0], make_float2(1.0f, 2.0f));
  atomicAdd(&v4[0], make_float4(1.0f, 2.0f, 3.0f, 4.0f));
}
