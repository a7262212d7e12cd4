// What the host compiler reads of a __device__ function. An inline one or
// one of internal linkage gets, as in nvcc's host code, a body that stops
// the program: named in a kernel's template argument (ggml's
// k_bin_bcast<op_add>, k_get_rows<dequantize_q4_0>), a declaration alone
// drew g++'s "inline function ... used but never defined", an error under
// -Werror, which nvcc's build does not give. Other functions, constructors
// and functions whose body deduces their return type keep a declaration.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -c -std=c++17 -arch=sm_90 -Xcompiler=-Werror,-Wall,-Wextra,-Wmissing-noreturn %s -o %t/mycc.o
// RUN: %mycc -std=c++17 -arch=sm_90 -cuda %s -o %t/lowered.ii
// RUN: FileCheck %s < %t/lowered.ii
// nvcc gives every __device__ function such a body, so g++ suggests
// `noreturn` for `external` and `deduced` under -Wmissing-noreturn.
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -c -std=c++17 -arch=sm_90 -Xcompiler=-Werror,-Wall,-Wextra %s -o %t/nvcc.o %}
// RUN: %if nvcc %{ not %cuda_path/bin/nvcc -c -std=c++17 -arch=sm_90 -Xcompiler=-Werror,-Wmissing-noreturn %s -o %t/nvcc.o 2>&1 | FileCheck %s --check-prefix=NVCC %}
// NVCC: error: function might be candidate for attribute 'noreturn'


static __device__ __forceinline__ float op_add(const float a, const float b) { return a + b; }
// CHECK: __attribute__((unused)) float op_add(const float a, const float b) { (void)a; (void)b; __builtin_trap(); }

template <typename T>
static __device__ void dequantize(const void *vx, int i, T &v) { v = static_cast<const T *>(vx)[i]; }
// CHECK: __attribute__((unused)) void dequantize(const void *vx, int i, T &v) { (void)vx; (void)i; (void)v; __builtin_trap(); }

template <float (*op)(const float, const float)>
static __global__ void k_bin(const float *x, float *y) { y[threadIdx.x] = op(x[threadIdx.x], 1.0f); }

template <typename T, void (*load)(const void *, int, T &)>
static __global__ void k_rows(const void *x, T *y) { load(x, threadIdx.x, y[threadIdx.x]); }

struct Counter {
  int &count;
  __device__ Counter(int &c) : count(c) { ++count; }
  // CHECK: Counter(int &c) ;
  __device__ int twice() const { return 2 * count; }
  // CHECK: int twice() const { __builtin_trap(); }
};

__device__ int external(int a, int) { return a; }
// CHECK: int external(int a, int) ;
__device__ auto deduced(int a) { return a * 2; }
// CHECK: auto deduced(int a) ;

template <typename T> struct Box { __device__ T get(T v) const; };
template <typename T> __device__ T Box<T>::get(T v) const { return v; }
// CHECK: T Box<T>::get(T v) const { (void)v; __builtin_trap(); }

__global__ void uses(int *p) {
  Counter c(*p);
  p[1] = c.twice() + external(1, 2) + deduced(3) + Box<int>().get(4);
}

void launch(const float *x, float *y, const void *q, float *r) {
  k_bin<op_add><<<1, 32>>>(x, y);
  k_rows<float, dequantize<float>><<<1, 32>>>(q, r);
}

// The host parse skips the bodies of kernels and of __device__ functions
// other than constructors, and finds each in the text: past a trailing
// return type, an exception specification or a ref-qualifier, over braces
// in literals and over line markers inside a body.
static __device__ const char *brace_text(int a) { return a ? "}" : "{"; }
// CHECK: const __attribute__((unused)) char *brace_text(int a) { (void)a; __builtin_trap(); }
static __device__ auto trailing(int a) -> int { return a; }
// CHECK: __attribute__((unused)) auto trailing(int a) -> int { (void)a; __builtin_trap(); }
static __device__ int nothrow(int a) noexcept(sizeof(int) == 4) { return a; }
// CHECK: __attribute__((unused)) int nothrow(int a) noexcept(sizeof(int) == 4) { (void)a; __builtin_trap(); }
static __device__ int spaced(int a) {
  int b = a;










  return b;
}
// CHECK: __attribute__((unused)) int spaced(int a) { (void)a; __builtin_trap(); }
// CHECK-NEXT: # [[#@LINE-3]] "
struct Op {
  __device__ int operator()(int a) const & { return a + '}'; }
  // CHECK: int operator()(int a) const & { (void)a; __builtin_trap(); }
  __device__ ~Op() { }
  // CHECK: ~Op() ;
};
__global__ void kbrace(char *p) { p[0] = '}'; p[1] = Op()(1) + *brace_text(0) + trailing(1) + nothrow(2) + spaced(3); }
// CHECK: void kbrace(char *p) { void *__mycc_args[] = {nullptr, {{.*}}(&p))}; __mycc_launch({{.*}}); }
void launch_kbrace(char *p) { kbrace<<<1, 32>>>(p); }
