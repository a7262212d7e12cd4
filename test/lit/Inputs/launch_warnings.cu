__global__ void plain(int *p) { p[0] = 1; }
__global__ void __launch_bounds__(128) bounded(int *p) { p[0] = 2; }
template <class T> __global__ void tmpl(T *p) { p[0] = 3; }
void launch(int *p, cudaStream_t s) {
  plain<<<1, 1>>>(p);
  bounded<<<1, 1, 0, s>>>(p);
  tmpl<<<1, 1, 0>>>(p);
}
