// The host lowering (-cuda): stubs, launches, shadows, registration table.
// In process (Clang's spelling, which the checks below read):
// RUN: %mycc --host-in-process -cuda -arch=sm_80 %s -o %t.ii
// RUN: FileCheck %s < %t.ii
// For the host compiler (the default): the same lowering, in the host
// compiler's preprocessed text, CUDA's attributes left out.
// RUN: %mycc -cuda -arch=sm_80 %s -o %t.gcc.ii
// RUN: FileCheck %s --check-prefix=HOSTCC < %t.gcc.ii
// HOSTCC: int __mycc_launch(const void *stub, void **args);
// HOSTCC: static __attribute__(())
// HOSTCC-NEXT: # {{[0-9]+}} "{{.*}}lowering.cu"
// HOSTCC-NEXT: int counter;
// HOSTCC: void axpy(float a, const float *x, float *y, int n)
// HOSTCC-SAME: { void *__mycc_args[] = {nullptr, const_cast<void *>(static_cast<const volatile void *>(&a)), const_cast<void *>(static_cast<const volatile void *>(&x)), const_cast<void *>(static_cast<const volatile void *>(&y)), const_cast<void *>(static_cast<const volatile void *>(&n))};
// HOSTCC: (__cudaPushCallConfiguration(dim3(1, 2), 64, 0, stream) ? (void)0 : axpy(2.0f, x, y, n));
// HOSTCC: // mycc: registration table
// HOSTCC-DAG: extern "C" void __mycc_kernel_{{[0-9]+}}(void) __asm__("_Z4axpyfPKfPfi");
// HOSTCC-DAG: {const_cast<void *>(static_cast<const volatile void *>(&::counter)), "counter", sizeof(::counter), 0},
// HOSTCC-NOT: __attribute__((device))
// HOSTCC-NOT: __attribute__((global))

// The runtime interface comes first.
// CHECK: int __mycc_launch(const void *stub, void **args);

// A device variable becomes a private host shadow.
// CHECK: static __attribute__(()) int counter;
// CHECK: static __attribute__(()) float weights[3] = {1, 2, 3};

// A kernel becomes a host stub with the same signature that launches itself.
// The body takes the lines the kernel's took, so that the host compiler's
// messages about what follows name the right lines.
// CHECK: __attribute__((host, used, visibility("hidden"))) void axpy(float a, const float *x, float *y, int n) {
// CHECK-SAME: void *__mycc_args[] = {nullptr, const_cast<void *>(static_cast<const volatile void *>(&a)), const_cast<void *>(static_cast<const volatile void *>(&x)), const_cast<void *>(static_cast<const volatile void *>(&y)), const_cast<void *>(static_cast<const volatile void *>(&n))};
// CHECK-SAME: __mycc_launch((const void *)static_cast<void (*)(decltype(a), decltype(x), decltype(y), decltype(n))>(&axpy), __mycc_args + 1); }

// Templates stay templates (their stubs kept: the table names them by
// symbol); unnamed parameters get names.
// CHECK: template <class T, int N> static __attribute__((host, used)) void tiled(T *p, int __mycc_p1) {
// CHECK: static_cast<void (*)(decltype(p), decltype(__mycc_p1))>(&tiled<T, N>)
// CHECK: template <class... Args> static __attribute__((host, used)) void variadic(Args... args) {
// CHECK-SAME: void *__mycc_args[] = {nullptr, const_cast<void *>(static_cast<const volatile void *>(&args))...};

// An explicit instantiation names the host stub too, and is registered.
// CHECK: template __attribute__((host)) void tiled<double, 2>(double *, int);

// Launches: configuration push, then an ordinary call; inside templates and
// macros too (the unit is preprocessed).
// CHECK: (__cudaPushCallConfiguration(1, 32) ? (void)0 : tiled<T, 4>(p, 0));
// CHECK: (__cudaPushCallConfiguration(dim3(1, 2), 64, 0, stream) ? (void)0 : axpy(2.0f, x, y, n));
// CHECK: (__cudaPushCallConfiguration(1, 1) ? (void)0 : axpy(1.0f, x, y, 1));
// CHECK: (__cudaPushCallConfiguration(1, 1) ? (void)0 : variadic(1, 2.0, x));

// The table names kernels by symbol and variables by name (a template
// kernel's stub is static, -static-global-template-stub: _ZL with Clang);
// implicit instantiations weakly (the host compiler may not instantiate them).
// CHECK: // mycc: registration table
// CHECK-DAG: extern "C" void __mycc_kernel_{{[0-9]+}}(void) __asm__("_Z4axpyfPKfPfi");
// CHECK-DAG: static void __mycc_kernel_{{[0-9]+}}(void) __attribute__((weakref("_ZL5tiledIfLi4EEvPT_i")));
// CHECK-DAG: static void __mycc_kernel_{{[0-9]+}}(void) __attribute__((weakref("_ZL8variadicIJidPfEEvDpT_")));
// CHECK-DAG: extern "C" void __mycc_kernel_{{[0-9]+}}(void) __asm__("_ZL5tiledIdLi2EEvPT_i");
// CHECK-DAG: {const_cast<void *>(static_cast<const volatile void *>(&::counter)), "counter", sizeof(::counter), 0},
// CHECK-DAG: {const_cast<void *>(static_cast<const volatile void *>(&::weights)), "weights", sizeof(::weights), 1},
// CHECK: __mycc_register_module(&__mycc_module);

__device__ int counter;
__constant__ float weights[3] = {1, 2, 3};

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = threadIdx.x;
  if (i < n) y[i] += a * x[i] * weights[0];
}

template <class T, int N> __global__ void tiled(T *p, int) { p[N] = T(); }
template <class... Args> __global__ void variadic(Args... args) {}
template __global__ void tiled<double, 2>(double *, int);

template <class T> void launch_tiled(T *p) { tiled<T, 4><<<1, 32>>>(p, 0); }

#define LAUNCH_ONE(k, ...) k<<<1, 1>>>(__VA_ARGS__)

void run(float *x, float *y, int n, cudaStream_t stream) {
  axpy<<<dim3(1, 2), 64, 0, stream>>>(2.0f, x, y, n);
  launch_tiled(y);
  LAUNCH_ONE(axpy, 1.0f, x, y, 1);
  variadic<<<1, 1>>>(1, 2.0, x);
}
