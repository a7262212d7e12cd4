// The mycc runtime's persistent cache of PTX JIT results (cubins), described
// in docs/runtime.md ("JIT cache"). No GPU and no CUDA call: the runtime
// computes the key's inputs and compiles; this part names, stores, checks,
// finds and evicts the entries, so that the unit tests can cover it anywhere.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mycc::rt {

// SHA-256 (FIPS 180-4). On x86-64 processors with the SHA extensions the
// compression function uses them (about 2 GB/s instead of 0.2).
class Sha256 {
public:
  Sha256();
  void update(const void *data, std::size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  std::array<uint8_t, 32> finish(); // the object is spent afterwards

  static std::array<uint8_t, 32> of(std::string_view bytes);

  // Whether this processor has the SHA extensions, and whether they are
  // used (on by default where available; the tests compare both paths).
  static bool hardwareAvailable();
  static void useHardware(bool on);

private:
  void blocks(const uint8_t *p, std::size_t count);
  uint32_t h_[8];
  uint8_t buffer_[64];
  std::size_t used_ = 0;
  uint64_t total_ = 0;
};

std::string toHex(const uint8_t *bytes, std::size_t size);

using JitKey = std::array<uint8_t, 32>;

// What a JIT result depends on. Every field goes into the key, each with its
// length, so that no two different inputs share a serialisation.
struct JitKeyInput {
  std::string_view ptx;     // the PTX text, without a trailing NUL
  unsigned sm = 0;          // the device's compute capability, 90 for 9.0
  std::string_view driver;  // runtimeDriverVersionText()
  std::string_view options; // the PTX entry's JIT options string, verbatim
};
JitKey jitCacheKey(const JitKeyInput &input);

// "cuda 13000, kernel module 580.65.06": what the key records of the driver.
// `procVersion` is the text of /proc/driver/nvidia/version (empty when it
// cannot be read); its "Kernel Module" version is used, or its first line.
std::string driverVersionText(int cudaDriverVersion,
                              std::string_view procVersion);

// "256M", "1G", "512k", "4096", "64KiB", "64KB": bytes, with binary K/M/G/T
// multipliers. False for anything else, and on overflow.
bool parseByteSize(std::string_view text, uint64_t &bytes);

constexpr uint64_t kDefaultJitCacheMaxSize = uint64_t(256) << 20;

// The cache configuration from the environment.
struct JitCacheSettings {
  bool enabled = false;
  std::string dir;
  uint64_t maxSize = kDefaultJitCacheMaxSize;
  std::vector<std::string> warnings; // one line each, without "mycc: "
};
// The CUDA driver's variables for its own JIT cache, which mycc's cache
// (in front of the driver's) honours where mycc's own are unset or empty, as
// a program nvcc built would: CUDA_CACHE_DISABLE, CUDA_CACHE_PATH (mycc's
// entries go into its `mycc` subdirectory, apart from the driver's files),
// CUDA_CACHE_MAXSIZE (bytes).
struct DriverCacheVariables {
  const char *disable = nullptr;
  const char *path = nullptr;
  const char *maxSize = nullptr;
};
// MYCC_CACHE_DISABLE (set, not empty, not "0": off), MYCC_CACHE_DIR (default
// <home>/.cache/mycc), MYCC_CACHE_MAX_SIZE (default 256M; 0 turns the cache
// off; an unreadable value warns and keeps the default), each falling back
// to the driver's variable. Arguments may be null (unset).
JitCacheSettings jitCacheSettings(const char *disable, const char *dir,
                                  const char *maxSize, const char *home,
                                  const DriverCacheVariables &driver = {});
// The same from the process environment (HOME, else the password entry).
JitCacheSettings jitCacheSettingsFromEnvironment();

// The JIT options of a PTX entry of a fat binary (ptxas syntax), as the
// driver's JIT linker takes them. Recognised: -O<n> / --opt-level[=]<n>,
// --maxrregcount[=]<n> / -maxrregcount[=]<n>, -lineinfo /
// --generate-line-info, -g / --device-debug. Anything else: false, `why` set
// (the runtime then leaves the JIT to the driver).
struct JitOptions {
  int optimizationLevel = -1; // CU_JIT_OPTIMIZATION_LEVEL; -1: default
  int maxRegisters = -1;      // CU_JIT_MAX_REGISTERS; -1: default
  bool lineInfo = false;      // CU_JIT_GENERATE_LINE_INFO
  bool debugInfo = false;     // CU_JIT_GENERATE_DEBUG_INFO
};
bool parseJitOptions(std::string_view text, JitOptions &options,
                     std::string &why);

// The entries live in one directory, one file each, named after the key
// (<64 hex digits>.jit). An entry is a 96-byte header (magic "MYCCJIT\0",
// format version, header size, the key, the payload size and the payload's
// SHA-256, all little-endian) followed by the cubin.
class JitCache {
public:
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr std::size_t kHeaderSize = 96;

  JitCache(std::string dir, uint64_t maxSize);

  // Creates the directory (and missing parents) with mode 0700, or checks an
  // existing one: it must be a directory owned by this user and not writable
  // by group or others. False, with a one-line reason, when the cache cannot
  // be used.
  bool open(std::string &why);

  enum class Lookup { Hit, Miss, Damaged };
  // Hit: `payload` holds the cubin and the entry's modification time is set
  // to now (least recently used eviction). Damaged: the entry failed a check
  // (`why` says which); it has been removed, and the caller treats it as a
  // miss. Miss: no entry, or it could not be opened, or it was larger than
  // the size cap (then it has been removed).
  Lookup load(const JitKey &key, std::string &payload,
              std::string *why = nullptr);

  // Writes the entry to a temporary file in the directory (mode 0600) and
  // renames it into place, then evicts down to the size cap. False, with
  // `why`, when nothing was stored (an entry larger than the cap is never
  // stored).
  bool store(const JitKey &key, std::string_view payload,
             std::string *why = nullptr);

  // Removes the least recently used entries (oldest modification time
  // first) until the entries total at most the cap, and temporary files
  // older than an hour (left by a writer that died). Returns the bytes the
  // entries then take.
  uint64_t evict();

  std::string entryPath(const JitKey &key) const;
  const std::string &dir() const { return dir_; }
  uint64_t maxSize() const { return maxSize_; }

  // The bytes of an entry file for `payload` (exposed for the tests).
  static std::string encodeEntry(const JitKey &key, std::string_view payload);

private:
  std::string dir_;
  uint64_t maxSize_;
};

} // namespace mycc::rt
