// Pre-Volta votes (guide-pre-volta-votes.test).
__global__ void votes(int *p) {
  p[0] = __any(p[1]);
  p[1] = __ballot(p[2]);
  p[2] = __all(p[3]);
  p[3] = __any_sync(0xffffffffu, p[4]);
}
