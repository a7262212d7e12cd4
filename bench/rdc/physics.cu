// Separate compilation benchmark, unit 2 of 2: the device function and the
// device variable main.cu uses.
struct Body { float x, y, z, m; };
__device__ float softening;

__device__ float3 pull(Body a, Body b) {
  float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  float r2 = dx * dx + dy * dy + dz * dz + softening;
  float inv = rsqrtf(r2);
  float s = b.m * inv * inv * inv;
  return make_float3(dx * s, dy * s, dz * s);
}
