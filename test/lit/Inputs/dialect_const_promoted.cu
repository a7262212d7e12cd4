// const and constexpr variables without a memory-space attribute. nvcc keeps
// them out of device code, and with DEVICE_USE rejects the kernels that read
// them ("identifier ... is undefined in device code"); Clang lets device code
// read them. Under mycc those that device code reads live in global memory,
// not in the 64 KiB constant bank (each table here is 80 000 bytes), and the
// others are not in the device code at all.
constexpr int kEntries = 20000;
struct Table {
  float v[kEntries];
};
constexpr Table make_table(int salt) {
  Table t{};
  for (int i = 0; i < kEntries; ++i) t.v[i] = float(i % 97 + salt);
  return t;
}

const Table plain = make_table(1);
constexpr Table folded = make_table(2);
namespace ns {
const Table in_namespace = make_table(3);
#ifdef DEVICE_USE
__global__ void read_in_namespace(float *out, int i) {
  out[0] = in_namespace.v[i];
}
#endif
} // namespace ns
extern const Table host_only = make_table(4);
struct Host {
  static const Table member;
};
const Table Host::member = make_table(5);

#ifdef DEVICE_USE
__global__ void read(float *out, int i) { out[0] = plain.v[i] + folded.v[i]; }
#endif

float on_host(int i) { return host_only.v[i] + Host::member.v[i] + plain.v[i]; }
