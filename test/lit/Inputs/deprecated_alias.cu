// A deprecated type named by an alias where the warning is suppressed, then
// used through the alias, as CUB's CubVector<long, 4>::Type (CUDA 13's
// deprecated long4) is: nvcc and g++ warn only where the type is named.
struct __attribute__((deprecated("use E"))) D { int x; };
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <class T> struct V;
template <> struct V<int> { using Type = D; };
#pragma GCC diagnostic pop
template <class T> __device__ int f() { typename V<T>::Type d{1}; return d.x; }
__global__ void k(int *p) { *p = f<int>(); }
