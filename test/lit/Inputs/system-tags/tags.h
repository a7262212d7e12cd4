#pragma once
// A library's tag objects, declared for device code as CCCL does
// (_CCCL_GLOBAL_CONSTANT): `__device__ constexpr` at namespace scope.
namespace lib {
struct tag_t { int id; };
#define LIB_TAG(name, n) __device__ constexpr tag_t name{n};
LIB_TAG(seq, 1) LIB_TAG(par, 2) LIB_TAG(in_place, 3) LIB_TAG(unexpect, 4)
LIB_TAG(next, 5) LIB_TAG(prev, 6) LIB_TAG(advance, 7) LIB_TAG(distance, 8)
LIB_TAG(iter_move, 9) LIB_TAG(iter_swap, 10) LIB_TAG(begin, 11) LIB_TAG(end, 12)
inline __host__ __device__ int id_of(const tag_t &t) { return t.id; }
}
