// __shared__ variables of a class type with a constructor that nvcc rejects
// as well, so mycc leaves Clang's error: a written initialiser (CASE 1), a
// variable at namespace scope (CASE 2).
struct Counted {
  int v;
  __device__ Counted() : v(1) {}
};

#if CASE == 1
__global__ void k(int *out) {
  __shared__ Counted c = Counted();
  out[0] = c.v;
}
#elif CASE == 2
__shared__ Counted g;
__global__ void k(int *out) { out[0] = g.v; }
#endif
