// What CUTLASS and CuTe taught the host lowering. Each construct compiles
// with nvcc 13 and g++ as its host compiler; each failed with mycc:
// - a member alias naming the enclosing class's member it hides (CUTLASS's
//   `struct OutputOp { using ElementAccumulator = ElementAccumulator; };`):
//   g++ says the declaration "changes meaning" of the name; nvcc writes the
//   outer name qualified by its class, and so does mycc;
// - a local class with __device__ members in a __device__ function's body
//   (CUTLASS's tensormaps_init): the body is left out for the host, and the
//   members' own edits fell into the removed text and garbled the unit;
// - a static kernel template at global scope (CuTe's gemm_device): g++
//   names its specialisations without Clang's 'L' of internal linkage, and
//   the registration table named a symbol nothing defined;
// - a kernel specialisation that only an inline function the host compiler
//   never emits refers to (CUB's EmptyKernel<void>): its stub was not
//   emitted and the link failed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -std=c++17 -arch=sm_90 %s -o %t/mycc
// RUN: %mycc -std=c++17 -arch=sm_90 --host-in-process %s -o %t/in-process
// RUN: %mycc -std=c++17 -arch=sm_90 -cuda %s -o %t/lowered.ii
// RUN: FileCheck %s < %t/lowered.ii
// RUN: nm %t/mycc | FileCheck %s --check-prefix=SYMBOLS
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -std=c++17 -arch=sm_90 %s -o %t/nvcc %}

template <class Iterator> struct Epilogue {
  using ElementAccumulator = typename Iterator::Element;
  struct OutputOp {
    using ElementAccumulator = ElementAccumulator;
  };
  // CHECK: using ElementAccumulator = typename Epilogue::ElementAccumulator;
};

struct Plain {
  using Index = int;
  struct Inner {
    using Index = Index;
    // CHECK: using Index = Plain::Index;
  };
};

struct Iter {
  using Element = float;
};

struct TmaDescriptor {
  int word;
};

__device__ inline auto tensormaps_init(int index) {
  struct {
    __device__ operator TmaDescriptor *() const {
      return reinterpret_cast<TmaDescriptor *>(0);
    }
    __device__ auto operator[](int) const {
      return reinterpret_cast<TmaDescriptor *>(0);
    }
  } maps;
  return maps[index];
}
// CHECK: inline auto tensormaps_init(int index) ;

template <class T>
__global__ static void gemm_device(T *out, Epilogue<Iter>::OutputOp::ElementAccumulator alpha,
                                   Plain::Inner::Index n) {
  if (threadIdx.x < n) out[threadIdx.x] = alpha * T(tensormaps_init(0) == nullptr);
}

template <class T> void gemm(T *out) { gemm_device<<<1, 32>>>(out, 1.0f, 32); }

template <class T> __global__ void EmptyKernel() {}

inline void *empty_kernel() { return reinterpret_cast<void *>(&EmptyKernel<void>); }

// SYMBOLS-DAG: t _Z11gemm_deviceIfEvPT_fi
// SYMBOLS-DAG: _Z11EmptyKernelIvEvv

int main() {
  float *out = nullptr;
  gemm(out);
  return 0;
}
