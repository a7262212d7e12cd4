// Pre-Volta votes (guide-pre-volta-votes.test).
__global__ void votes(int *p) {
  p[0] = __any(p[1]);
  p[1] = __ballot(p[2]);
  p[2] = __all(p[3]);
  p[3] = __any_sync(0xffffffffu, p[4]);
}

// In a template, instantiated from user code and from a system header's
// template (libcu++'s invoke), and in a lambda.
#include <cuda/std/functional>
template <typename T> __device__ int vote_of(T v) { return __all(v > 0); }
struct Voter {
  template <typename T> __device__ int operator()(T v) const { return __ballot(v != 0); }
};
__global__ void votes_in_templates(int *p) {
  p[0] = vote_of(p[1]);
  p[1] = cuda::std::invoke(Voter{}, p[2]);
  p[2] = cuda::std::invoke([](int v) { return __any(v); }, p[3]);
}
