// Kernel argument passing: structs with padding and over-alignment, CUDA
// vector types (float4, int2, double2, ...), __half/__half2, enums, bools,
// mixed scalar sizes, and large parameter blocks (~4 KB and ~30 KB; CUDA
// 12.1+ allows up to 32764 bytes of kernel parameters on Volta and newer).
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include "gpu_test.h"

struct Padded {  // lots of interior and tail padding
  char c;
  double d;
  short s;
  int i;
  char c2;
  long long ll;
  bool b;
};

struct alignas(16) Aligned16 {
  float x;
  int tag;
};

struct Nested {
  unsigned char bytes[3];
  Aligned16 inner;
  short arr[5];
};

struct Empty {};

enum class Color : unsigned char { Red = 1, Green = 2, Blue = 200 };

union Bits {
  float f;
  unsigned u;
};

// Everything the scalar/struct kernel saw, written back for the host.
struct Seen {
  Padded p;
  Aligned16 a;
  Nested nest;
  float4 f4;
  int2 i2;
  double2 d2;
  char3 c3;
  short2 s2;
  uint4 u4;
  longlong2 ll2;
  float h;
  float h2x, h2y;
  int color;
  int flag;
  unsigned bits;
  signed char sc;
  double tail;
};

__global__ void struct_args(Seen* out, char c0, Padded p, short s0, Aligned16 a, Empty,
                            Nested nest, float4 f4, bool flag, int2 i2, double2 d2, char3 c3,
                            __half h, short2 s2, __half2 h2, uint4 u4, Color color,
                            longlong2 ll2, Bits bits, signed char sc, double tail) {
  out->p = p;
  out->p.c = static_cast<char>(p.c + c0);
  out->p.s = static_cast<short>(p.s + s0);
  out->a = a;
  out->nest = nest;
  out->f4 = f4;
  out->i2 = i2;
  out->d2 = d2;
  out->c3 = c3;
  out->s2 = s2;
  out->u4 = u4;
  out->ll2 = ll2;
  out->h = __half2float(h);
  float2 f2 = __half22float2(h2);
  out->h2x = f2.x;
  out->h2y = f2.y;
  out->color = static_cast<int>(color);
  out->flag = flag ? 1 : 0;
  out->bits = bits.u;
  out->sc = sc;
  out->tail = tail;
}

// __half arithmetic on the device with __half arguments.
__global__ void half_math(__half* out, __half a, __half b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __hadd(__hmul(a, __int2half_rn(i)), b);
}

// Large parameter blocks: every element is checked on the device.
struct Big4K {
  int v[1000];  // 4000 bytes
};
struct Big30K {
  unsigned v[7500];  // 30000 bytes
  double scale;
  char last;
};

__device__ unsigned pattern(unsigned i, unsigned seed) { return i * 2654435761u + seed; }

__global__ void check_big4k(Big4K big, int* bad, long long* sum) {
  for (int i = threadIdx.x; i < 1000; i += blockDim.x) {
    if (big.v[i] != static_cast<int>(pattern(i, 17))) atomicAdd(bad, 1);
    atomicAdd(reinterpret_cast<unsigned long long*>(sum), static_cast<unsigned long long>(i));
  }
}

__global__ void check_big30k(int before, Big30K big, int after, int* bad, int* info) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = idx; i < 7500; i += gridDim.x * blockDim.x)
    if (big.v[i] != pattern(i, 99)) atomicAdd(bad, 1);
  if (idx == 0) {
    info[0] = before;
    info[1] = after;
    info[2] = static_cast<int>(big.scale * 4);
    info[3] = big.last;
  }
}

static unsigned host_pattern(unsigned i, unsigned seed) { return i * 2654435761u + seed; }

static void test_struct_args() {
  Padded p;
  std::memset(&p, 0, sizeof(p));
  p.c = 10;
  p.d = -2.5;
  p.s = -300;
  p.i = 123456789;
  p.c2 = 'q';
  p.ll = -9000000000LL;
  p.b = true;
  Aligned16 a{3.25f, 77};
  Nested nest;
  std::memset(&nest, 0, sizeof(nest));
  nest.bytes[0] = 1;
  nest.bytes[1] = 2;
  nest.bytes[2] = 255;
  nest.inner = Aligned16{-1.5f, 88};
  for (int i = 0; i < 5; ++i) nest.arr[i] = static_cast<short>(-i * 1000);
  float4 f4 = make_float4(1.0f, -2.0f, 3.5f, 1e20f);
  int2 i2 = make_int2(-7, 2147483647);
  double2 d2 = make_double2(1e-300, -6.25);
  char3 c3 = make_char3(1, -2, 3);
  short2 s2 = make_short2(-32768, 32767);
  __half h = __float2half(1.5f);
  __half2 h2 = __floats2half2_rn(-0.25f, 1024.0f);
  uint4 u4 = make_uint4(0xdeadbeefu, 1u, 0x80000000u, 42u);
  longlong2 ll2 = make_longlong2(-1LL, 0x7fffffffffffffffLL);
  Bits bits;
  bits.f = -0.0f;

  Seen* d;
  CHECK(cudaMalloc(&d, sizeof(Seen)));
  CHECK(cudaMemset(d, 0, sizeof(Seen)));
  struct_args<<<1, 1>>>(d, 5, p, 3, a, Empty{}, nest, f4, true, i2, d2, c3, h, s2, h2, u4,
                        Color::Blue, ll2, bits, static_cast<signed char>(-100), 6.02e23);
  CHECK(cudaGetLastError());
  Seen s;
  CHECK(cudaMemcpy(&s, d, sizeof(s), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));

  EXPECT(s.p.c == 15 && s.p.d == -2.5 && s.p.s == -297 && s.p.i == 123456789 && s.p.c2 == 'q' &&
             s.p.ll == -9000000000LL && s.p.b,
         "Padded = {%d, %f, %d, %d, %d, %lld, %d}", s.p.c, s.p.d, s.p.s, s.p.i, s.p.c2, s.p.ll,
         s.p.b);
  EXPECT(s.a.x == 3.25f && s.a.tag == 77, "Aligned16 = {%f, %d}", s.a.x, s.a.tag);
  EXPECT(s.nest.bytes[0] == 1 && s.nest.bytes[1] == 2 && s.nest.bytes[2] == 255 &&
             s.nest.inner.x == -1.5f && s.nest.inner.tag == 88 && s.nest.arr[0] == 0 &&
             s.nest.arr[4] == -4000,
         "Nested = {%d %d %d, {%f, %d}, %d .. %d}", s.nest.bytes[0], s.nest.bytes[1],
         s.nest.bytes[2], s.nest.inner.x, s.nest.inner.tag, s.nest.arr[0], s.nest.arr[4]);
  EXPECT(s.f4.x == 1.0f && s.f4.y == -2.0f && s.f4.z == 3.5f && s.f4.w == 1e20f,
         "float4 = %f %f %f %g", s.f4.x, s.f4.y, s.f4.z, s.f4.w);
  EXPECT(s.i2.x == -7 && s.i2.y == 2147483647, "int2 = %d %d", s.i2.x, s.i2.y);
  EXPECT(s.d2.x == 1e-300 && s.d2.y == -6.25, "double2 = %g %g", s.d2.x, s.d2.y);
  EXPECT(s.c3.x == 1 && s.c3.y == -2 && s.c3.z == 3, "char3 = %d %d %d", s.c3.x, s.c3.y, s.c3.z);
  EXPECT(s.s2.x == -32768 && s.s2.y == 32767, "short2 = %d %d", s.s2.x, s.s2.y);
  EXPECT(s.u4.x == 0xdeadbeefu && s.u4.y == 1u && s.u4.z == 0x80000000u && s.u4.w == 42u,
         "uint4 = %x %x %x %x", s.u4.x, s.u4.y, s.u4.z, s.u4.w);
  EXPECT(s.ll2.x == -1LL && s.ll2.y == 0x7fffffffffffffffLL, "longlong2 = %lld %lld", s.ll2.x,
         s.ll2.y);
  EXPECT(s.h == 1.5f, "__half = %f", s.h);
  EXPECT(s.h2x == -0.25f && s.h2y == 1024.0f, "__half2 = %f %f", s.h2x, s.h2y);
  EXPECT(s.color == 200, "enum class = %d", s.color);
  EXPECT(s.flag == 1, "bool = %d", s.flag);
  EXPECT(s.bits == 0x80000000u, "union bits = %x", s.bits);
  EXPECT(s.sc == -100, "signed char = %d", s.sc);
  EXPECT(s.tail == 6.02e23, "trailing double = %g", s.tail);
}

static void test_half_math() {
  const int n = 64;
  __half* d;
  CHECK(cudaMalloc(&d, n * sizeof(__half)));
  half_math<<<1, n>>>(d, __float2half(0.5f), __float2half(-3.0f), n);
  CHECK(cudaGetLastError());
  __half h[n];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  for (int i = 0; i < n; ++i) {
    float got = __half2float(h[i]);
    float want = 0.5f * i - 3.0f;  // exact in half precision for these values
    EXPECT(got == want, "half_math[%d] = %f want %f", i, got, want);
  }
}

static void test_big_params() {
  int *bad, *info;
  long long* sum;
  CHECK(cudaMalloc(&bad, sizeof(int)));
  CHECK(cudaMalloc(&info, 4 * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(long long)));

  static_assert(sizeof(Big4K) == 4000, "Big4K size");
  Big4K b4;
  for (int i = 0; i < 1000; ++i) b4.v[i] = static_cast<int>(host_pattern(i, 17));
  CHECK(cudaMemset(bad, 0, sizeof(int)));
  CHECK(cudaMemset(sum, 0, sizeof(long long)));
  check_big4k<<<1, 256>>>(b4, bad, sum);
  CHECK(cudaGetLastError());
  int hbad = -1;
  long long hsum = 0;
  CHECK(cudaMemcpy(&hbad, bad, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hsum, sum, sizeof(long long), cudaMemcpyDeviceToHost));
  EXPECT(hbad == 0, "Big4K: %d elements differ on the device", hbad);
  EXPECT(hsum == 999LL * 1000 / 2, "Big4K: index sum %lld", hsum);

  static_assert(sizeof(Big30K) > 30000 && sizeof(Big30K) + 2 * sizeof(int) + 2 * sizeof(int*) <= 32764,
                "Big30K must fit the 32764-byte parameter limit");
  Big30K* b30 = new Big30K;
  std::memset(b30, 0, sizeof(*b30));
  for (int i = 0; i < 7500; ++i) b30->v[i] = host_pattern(i, 99);
  b30->scale = 2.25;
  b30->last = 'z';
  CHECK(cudaMemset(bad, 0, sizeof(int)));
  CHECK(cudaMemset(info, 0, 4 * sizeof(int)));
  check_big30k<<<4, 256>>>(-12345, *b30, 54321, bad, info);
  CHECK(cudaGetLastError());
  int hinfo[4];
  CHECK(cudaMemcpy(&hbad, bad, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hinfo, info, sizeof(hinfo), cudaMemcpyDeviceToHost));
  EXPECT(hbad == 0, "Big30K: %d elements differ on the device", hbad);
  EXPECT(hinfo[0] == -12345 && hinfo[1] == 54321 && hinfo[2] == 9 && hinfo[3] == 'z',
         "Big30K: before %d after %d scale*4 %d last %d", hinfo[0], hinfo[1], hinfo[2], hinfo[3]);

  // Same kernel through cudaLaunchKernel with an argument array.
  int before = 1, after = 2;
  CHECK(cudaMemset(bad, 0, sizeof(int)));
  b30->v[7499] += 1;  // the device must see exactly one mismatch
  void* args[] = {&before, b30, &after, &bad, &info};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(check_big30k), dim3(2), dim3(128), args, 0,
                         nullptr));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&hbad, bad, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hinfo, info, sizeof(hinfo), cudaMemcpyDeviceToHost));
  EXPECT(hbad == 1, "Big30K via cudaLaunchKernel: %d mismatches, want 1", hbad);
  EXPECT(hinfo[0] == 1 && hinfo[1] == 2, "Big30K via cudaLaunchKernel: before %d after %d",
         hinfo[0], hinfo[1]);
  delete b30;
  CHECK(cudaFree(bad));
  CHECK(cudaFree(info));
  CHECK(cudaFree(sum));
}

int main() {
  test_struct_args();
  test_half_math();
  test_big_params();
  CHECK(cudaDeviceSynchronize());
  return finish_test("kernel_args");
}
