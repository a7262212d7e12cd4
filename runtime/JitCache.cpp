// The persistent JIT cache of the mycc runtime: see JitCache.h and
// docs/runtime.md. POSIX file system calls only.

#include "JitCache.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MYCC_SHA_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace mycc::rt {

// ---------------------------------------------------------------------------
// SHA-256
// ---------------------------------------------------------------------------

namespace {

constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}

// The compression function over `count` 64-byte blocks.
void portableBlocks(uint32_t *state, const uint8_t *p, std::size_t count) {
  for (; count; --count, p += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 |
             uint32_t(p[4 * i + 2]) << 8 | uint32_t(p[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3],
             e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
                    ((e & f) ^ (~e & g)) + kRound[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
                    ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

#ifdef MYCC_SHA_X86
// The SHA-NI form of the same compression function (the round constants and
// message schedule are those above, four rounds per step).
__attribute__((target("sha,sse4.1,ssse3"))) void
hardwareBlocks(uint32_t *h, const uint8_t *p, std::size_t count) {
  const __m128i byteSwap =
      _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i *>(h));
  __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(h + 4));
  tmp = _mm_shuffle_epi32(tmp, 0xB1);               // CDAB
  state1 = _mm_shuffle_epi32(state1, 0x1B);         // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);      // CDGH
  for (; count; --count, p += 64) {
    const __m128i abef = state0, cdgh = state1;
    __m128i w[4];
    for (int i = 0; i < 4; ++i)
      w[i] = _mm_shuffle_epi8(
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * i)),
          byteSwap);
    for (int i = 0; i < 16; ++i) { // rounds 4i .. 4i+3
      __m128i wk = _mm_add_epi32(
          w[i & 3],
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(kRound + 4 * i)));
      state1 = _mm_sha256rnds2_epu32(state1, state0, wk);
      state0 =
          _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(wk, 0x0E));
      if (i < 12) { // W[4i+16 .. 4i+19] replaces W[4i .. 4i+3]
        __m128i next = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
        next = _mm_add_epi32(
            next, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
        w[i & 3] = _mm_sha256msg2_epu32(next, w[(i + 3) & 3]);
      }
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);       // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);    // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0); // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);    // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i *>(h), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(h + 4), state1);
}

bool detectShaExtensions() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d))
    return false;
  const bool sse41 = c & (1u << 19), ssse3 = c & (1u << 9);
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
    return false;
  return sse41 && ssse3 && (b & (1u << 29));
}
#endif

bool shaHardware() {
#ifdef MYCC_SHA_X86
  static const bool available = detectShaExtensions();
  return available;
#else
  return false;
#endif
}

std::atomic<bool> gUseShaHardware{true};

} // namespace

Sha256::Sha256()
    : h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19},
      buffer_{} {}

bool Sha256::hardwareAvailable() { return shaHardware(); }
void Sha256::useHardware(bool on) { gUseShaHardware.store(on); }

void Sha256::blocks(const uint8_t *p, std::size_t count) {
#ifdef MYCC_SHA_X86
  if (shaHardware() && gUseShaHardware.load(std::memory_order_relaxed)) {
    hardwareBlocks(h_, p, count);
    return;
  }
#endif
  portableBlocks(h_, p, count);
}

void Sha256::update(const void *data, std::size_t size) {
  const auto *p = static_cast<const uint8_t *>(data);
  total_ += size;
  if (used_) {
    std::size_t take = std::min(size, sizeof buffer_ - used_);
    std::memcpy(buffer_ + used_, p, take);
    used_ += take;
    p += take;
    size -= take;
    if (used_ < sizeof buffer_)
      return;
    blocks(buffer_, 1);
    used_ = 0;
  }
  std::size_t whole = size / 64;
  if (whole)
    blocks(p, whole);
  p += 64 * whole;
  size -= 64 * whole;
  if (size) {
    std::memcpy(buffer_, p, size);
    used_ = size;
  }
}

std::array<uint8_t, 32> Sha256::finish() {
  uint64_t bits = total_ * 8;
  uint8_t pad[72] = {0x80};
  std::size_t padSize = (used_ < 56 ? 56 - used_ : 120 - used_);
  for (int i = 0; i < 8; ++i)
    pad[padSize + i] = uint8_t(bits >> (56 - 8 * i));
  update(pad, padSize + 8);
  std::array<uint8_t, 32> out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = uint8_t(h_[i] >> (24 - 8 * j));
  return out;
}

std::array<uint8_t, 32> Sha256::of(std::string_view bytes) {
  Sha256 s;
  s.update(bytes);
  return s.finish();
}

std::string toHex(const uint8_t *bytes, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out(2 * size, '0');
  for (std::size_t i = 0; i < size; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  return out;
}

// ---------------------------------------------------------------------------
// Key, settings, options
// ---------------------------------------------------------------------------

namespace {

void putLE(std::string &out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(char(uint8_t(value >> (8 * i))));
}

uint64_t getLE(const uint8_t *p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= uint64_t(p[i]) << (8 * i);
  return value;
}

void hashField(Sha256 &s, char tag, std::string_view bytes) {
  std::string head(1, tag);
  putLE(head, bytes.size(), 8);
  s.update(head);
  s.update(bytes);
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::strchr(" \t\r\n", text.front()))
    text.remove_prefix(1);
  while (!text.empty() && std::strchr(" \t\r\n", text.back()))
    text.remove_suffix(1);
  return text;
}

bool flagSet(const char *value) {
  return value && *value && std::string_view(value) != "0";
}

bool parseUnsigned(std::string_view text, int &out) {
  if (text.empty() || text.size() > 6)
    return false;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + (c - '0');
  }
  out = value;
  return true;
}

} // namespace

JitKey jitCacheKey(const JitKeyInput &input) {
  Sha256 s;
  // The key's own version: changes whenever what the runtime passes to the
  // JIT compiler besides these fields changes.
  s.update(std::string_view("mycc JIT cache key 1\0", 21));
  hashField(s, 'P', input.ptx);
  hashField(s, 'S', std::to_string(input.sm));
  hashField(s, 'D', input.driver);
  hashField(s, 'O', input.options);
  return s.finish();
}

std::string driverVersionText(int cudaDriverVersion,
                              std::string_view procVersion) {
  std::string text = "cuda " + std::to_string(cudaDriverVersion);
  std::string_view line = trim(procVersion.substr(0, procVersion.find('\n')));
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  <date>" or
  // "... Open Kernel Module for x86_64  580.82.07  Release Build ...": the
  // first word after "Kernel Module" made of digits and dots.
  std::string_view module;
  constexpr std::string_view marker = "Kernel Module";
  std::size_t at = line.find(marker);
  std::string_view rest =
      at == std::string_view::npos ? "" : line.substr(at + marker.size());
  while (module.empty() && !(rest = trim(rest)).empty()) {
    std::size_t end = std::min(rest.find_first_of(" \t"), rest.size());
    std::string_view word = rest.substr(0, end);
    rest.remove_prefix(end);
    if (word.find('.') != std::string_view::npos &&
        word.find_first_not_of("0123456789.") == std::string_view::npos)
      module = word;
  }
  if (module.empty())
    module = line;
  if (!module.empty())
    text += ", kernel module " + std::string(module);
  return text;
}

bool parseByteSize(std::string_view text, uint64_t &bytes) {
  text = trim(text);
  std::size_t digits = 0;
  uint64_t value = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    unsigned d = unsigned(text[digits] - '0');
    if (value > (UINT64_MAX - d) / 10)
      return false;
    value = value * 10 + d;
    ++digits;
  }
  if (digits == 0)
    return false;
  std::string_view suffix = text.substr(digits);
  unsigned shift = 0;
  if (!suffix.empty()) {
    switch (suffix.front()) {
    case 'k':
    case 'K':
      shift = 10;
      break;
    case 'm':
    case 'M':
      shift = 20;
      break;
    case 'g':
    case 'G':
      shift = 30;
      break;
    case 't':
    case 'T':
      shift = 40;
      break;
    default:
      shift = 0;
      break;
    }
    if (shift)
      suffix.remove_prefix(1);
    if (!(suffix.empty() || suffix == "B" || suffix == "b" ||
          (shift && (suffix == "iB" || suffix == "ib"))))
      return false;
  }
  if (shift && value > (UINT64_MAX >> shift))
    return false;
  bytes = value << shift;
  return true;
}

JitCacheSettings jitCacheSettings(const char *disable, const char *dir,
                                  const char *maxSize, const char *home,
                                  const DriverCacheVariables &driver) {
  auto given = [](const char *value) { return value && *value; };
  JitCacheSettings s;
  if (given(disable) ? flagSet(disable) : flagSet(driver.disable))
    return s;
  const char *sizeName = "MYCC_CACHE_MAX_SIZE";
  if (!given(maxSize) && given(driver.maxSize)) {
    maxSize = driver.maxSize;
    sizeName = "CUDA_CACHE_MAXSIZE";
  }
  if (given(maxSize)) {
    uint64_t bytes = 0;
    if (parseByteSize(maxSize, bytes))
      s.maxSize = bytes;
    else
      s.warnings.push_back("warning: " + std::string(sizeName) + "=" +
                           std::string(maxSize) +
                           " is not a size (e.g. 256M); using 256M");
  }
  if (s.maxSize == 0)
    return s;
  if (given(dir)) {
    s.dir = dir;
  } else if (given(driver.path)) {
    s.dir = driver.path;
    while (s.dir.size() > 1 && s.dir.back() == '/')
      s.dir.pop_back();
    s.dir += (s.dir == "/" ? "mycc" : "/mycc");
  } else if (home && *home) {
    s.dir = std::string(home);
    while (s.dir.size() > 1 && s.dir.back() == '/')
      s.dir.pop_back();
    s.dir += (s.dir == "/" ? "" : "/");
    s.dir += ".cache/mycc";
  } else {
    s.warnings.push_back("warning: JIT cache disabled: no MYCC_CACHE_DIR and "
                         "no home directory");
    return s;
  }
  s.enabled = true;
  return s;
}

JitCacheSettings jitCacheSettingsFromEnvironment() {
  const char *home = std::getenv("HOME");
  std::string fromPasswd;
  if (!home || !*home) {
    struct passwd pw, *result = nullptr;
    char buffer[4096];
    if (getpwuid_r(geteuid(), &pw, buffer, sizeof buffer, &result) == 0 &&
        result && result->pw_dir)
      fromPasswd = result->pw_dir;
    home = fromPasswd.c_str();
  }
  return jitCacheSettings(
      std::getenv("MYCC_CACHE_DISABLE"), std::getenv("MYCC_CACHE_DIR"),
      std::getenv("MYCC_CACHE_MAX_SIZE"), home,
      DriverCacheVariables{std::getenv("CUDA_CACHE_DISABLE"),
                           std::getenv("CUDA_CACHE_PATH"),
                           std::getenv("CUDA_CACHE_MAXSIZE")});
}

bool parseJitOptions(std::string_view text, JitOptions &options,
                     std::string &why) {
  options = JitOptions{};
  std::vector<std::string_view> words;
  while (true) {
    text = trim(text);
    if (text.empty())
      break;
    std::size_t end = text.find_first_of(" \t\r\n");
    words.push_back(text.substr(0, end));
    if (end == std::string_view::npos)
      break;
    text.remove_prefix(end);
  }
  // An option with a number: "--name=N", "--name N" (and "-ON" for -O).
  auto number = [&](std::size_t &i, std::string_view name, int &out) {
    std::string_view w = words[i];
    if (w == name) {
      if (i + 1 >= words.size())
        return false;
      return parseUnsigned(words[++i], out);
    }
    if (w.size() > name.size() + 1 && w.substr(0, name.size()) == name &&
        w[name.size()] == '=')
      return parseUnsigned(w.substr(name.size() + 1), out);
    return false;
  };
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string_view w = words[i];
    int n = 0;
    if (w == "-lineinfo" || w == "--generate-line-info") {
      options.lineInfo = true;
    } else if (w == "-g" || w == "--device-debug") {
      options.debugInfo = true;
    } else if (w.size() == 3 && w.substr(0, 2) == "-O" &&
               parseUnsigned(w.substr(2), n) && n <= 4) {
      options.optimizationLevel = n;
    } else if (w.substr(0, 11) == "--opt-level") {
      if (!number(i, "--opt-level", n) || n > 4) {
        why = "bad option '" + std::string(w) + "'";
        return false;
      }
      options.optimizationLevel = n;
    } else if (w.substr(0, 14) == "--maxrregcount" ||
               w.substr(0, 13) == "-maxrregcount") {
      std::string_view name =
          w[1] == '-' ? std::string_view("--maxrregcount") : "-maxrregcount";
      if (!number(i, name, n) || n == 0) {
        why = "bad option '" + std::string(w) + "'";
        return false;
      }
      options.maxRegisters = n;
    } else {
      why = "option '" + std::string(w) + "' is not supported";
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// The cache directory
// ---------------------------------------------------------------------------

namespace {

constexpr char kMagic[8] = {'M', 'Y', 'C', 'C', 'J', 'I', 'T', '\0'};
constexpr std::size_t kOffFormat = 8, kOffHeaderSize = 12, kOffKey = 16,
                      kOffPayloadSize = 48, kOffPayloadHash = 56,
                      kOffReserved = 88;
constexpr std::string_view kEntrySuffix = ".jit";
constexpr std::string_view kTempPrefix = "tmp-";
constexpr int64_t kStaleTempSeconds = 3600;

std::string errnoText(int err) { return std::strerror(err); }

bool isEntryName(std::string_view name) {
  if (name.size() != 64 + kEntrySuffix.size() ||
      name.substr(64) != kEntrySuffix)
    return false;
  for (char c : name.substr(0, 64))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

bool writeAll(int fd, const char *data, std::size_t size) {
  while (size) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data += n;
    size -= std::size_t(n);
  }
  return true;
}

bool readAll(int fd, char *data, std::size_t size) {
  while (size) {
    ssize_t n = ::read(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    if (n == 0)
      return false; // shorter than fstat said
    data += n;
    size -= std::size_t(n);
  }
  return true;
}

// mkdir -p: what it creates gets mode 0700 (set again after mkdir, as the
// umask may have removed bits). Returns 0 or an errno.
int makeDirectories(const std::string &path) {
  std::size_t at = 0;
  while (at != std::string::npos) {
    at = path.find('/', at + 1);
    std::string part = path.substr(0, at);
    if (part.empty() || part.back() == '/')
      continue;
    if (::mkdir(part.c_str(), 0700) == 0)
      ::chmod(part.c_str(), 0700);
    else if (errno != EEXIST)
      return errno;
  }
  return 0;
}

int64_t mtimeNs(const struct stat &st) {
  return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

} // namespace

JitCache::JitCache(std::string dir, uint64_t maxSize)
    : dir_(std::move(dir)), maxSize_(maxSize) {
  while (dir_.size() > 1 && dir_.back() == '/')
    dir_.pop_back();
}

bool JitCache::open(std::string &why) {
  if (dir_.empty()) {
    why = "no cache directory";
    return false;
  }
  if (int err = makeDirectories(dir_)) {
    why = "cannot create " + dir_ + ": " + errnoText(err);
    return false;
  }
  struct stat st;
  // The directory itself, not what a link there points to: another user's
  // link to a victim's directory would have this program write and evict
  // there.
  if (::lstat(dir_.c_str(), &st) != 0) {
    why = "cannot use " + dir_ + ": " + errnoText(errno);
    return false;
  }
  if (S_ISLNK(st.st_mode)) {
    why = dir_ + " is a symbolic link";
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    why = dir_ + " is not a directory";
    return false;
  }
  // Each directory on the way: another user who may rename entries there
  // could swap the cache directory (sticky directories such as /tmp keep
  // others' entries safe).
  for (std::size_t at = dir_.find('/', 1); at != std::string::npos;
       at = dir_.find('/', at + 1)) {
    std::string up = dir_.substr(0, at);
    struct stat above;
    if (::stat(up.c_str(), &above) != 0)
      continue;
    bool shared = (above.st_mode & (S_IWGRP | S_IWOTH)) &&
                  !(above.st_mode & S_ISVTX);
    if ((above.st_uid != 0 && above.st_uid != ::geteuid()) || shared) {
      why = up + ", above the cache directory, can be changed by other users";
      return false;
    }
  }
  if (st.st_uid != ::geteuid()) {
    why = dir_ + " is owned by another user (uid " + std::to_string(st.st_uid) +
          ")";
    return false;
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    why = dir_ + " is writable by group or others (mode " + mode + ")";
    return false;
  }
  if (::access(dir_.c_str(), R_OK | W_OK | X_OK) != 0) {
    why = "cannot use " + dir_ + ": " + errnoText(errno);
    return false;
  }
  return true;
}

std::string JitCache::entryPath(const JitKey &key) const {
  return dir_ + "/" + toHex(key.data(), key.size()) + std::string(kEntrySuffix);
}

std::string JitCache::encodeEntry(const JitKey &key, std::string_view payload) {
  std::string out(kMagic, sizeof kMagic);
  putLE(out, kFormatVersion, 4);
  putLE(out, kHeaderSize, 4);
  out.append(reinterpret_cast<const char *>(key.data()), key.size());
  putLE(out, payload.size(), 8);
  std::array<uint8_t, 32> hash = Sha256::of(payload);
  out.append(reinterpret_cast<const char *>(hash.data()), hash.size());
  putLE(out, 0, 8);
  out.append(payload.data(), payload.size());
  return out;
}

JitCache::Lookup JitCache::load(const JitKey &key, std::string &payload,
                                std::string *why) {
  payload.clear();
  std::string path = entryPath(key);
  // O_NONBLOCK: a FIFO put there opens at once (and fails the regular-file
  // check below) instead of waiting for a writer forever.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    int err = errno;
    if (err == ELOOP) { // a symbolic link: never ours
      ::unlink(path.c_str());
      if (why)
        *why = "the entry is a symbolic link";
      return Lookup::Damaged;
    }
    if (why)
      *why = err == ENOENT ? "no entry"
                           : "cannot open " + path + ": " + errnoText(err);
    return Lookup::Miss;
  }
  std::string problem;
  std::string bytes;
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    problem = "cannot stat the entry";
  } else if (!S_ISREG(st.st_mode)) {
    problem = "the entry is not a regular file";
  } else if (st.st_uid != ::geteuid()) {
    problem = "the entry is owned by another user";
  } else if (uint64_t(st.st_size) < kHeaderSize) {
    problem =
        "the entry is truncated (" + std::to_string(st.st_size) + " bytes)";
  } else if (uint64_t(st.st_size) > maxSize_) {
    // Not damaged, but it cannot stay (the cap was lowered since): a miss.
    ::close(fd);
    ::unlink(path.c_str());
    if (why)
      *why = "the entry is larger than the cache size cap; removed";
    return Lookup::Miss;
  } else {
    bytes.resize(std::size_t(st.st_size));
    if (!readAll(fd, &bytes[0], bytes.size()))
      problem = "the entry cannot be read";
  }
  if (problem.empty()) {
    const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
    uint64_t payloadSize = getLE(p + kOffPayloadSize, 8);
    if (std::memcmp(p, kMagic, sizeof kMagic) != 0)
      problem = "bad magic";
    else if (getLE(p + kOffFormat, 4) != kFormatVersion)
      problem = "format version " + std::to_string(getLE(p + kOffFormat, 4));
    else if (getLE(p + kOffHeaderSize, 4) != kHeaderSize ||
             getLE(p + kOffReserved, 8) != 0)
      problem = "bad header";
    else if (std::memcmp(p + kOffKey, key.data(), key.size()) != 0)
      problem = "the entry holds another key";
    else if (payloadSize != bytes.size() - kHeaderSize)
      problem = "the entry is truncated (" +
                std::to_string(bytes.size() - kHeaderSize) + " of " +
                std::to_string(payloadSize) + " payload bytes)";
    else if (std::memcmp(
                 Sha256::of(std::string_view(bytes).substr(kHeaderSize)).data(),
                 p + kOffPayloadHash, 32) != 0)
      problem = "payload checksum mismatch";
  }
  if (!problem.empty()) {
    ::close(fd);
    ::unlink(path.c_str());
    if (why)
      *why = problem;
    return Lookup::Damaged;
  }
  ::futimens(fd, nullptr); // recently used: atime and mtime now
  ::close(fd);
  payload = bytes.substr(kHeaderSize);
  return Lookup::Hit;
}

bool JitCache::store(const JitKey &key, std::string_view payload,
                     std::string *why) {
  std::string bytes = encodeEntry(key, payload);
  if (bytes.size() > maxSize_) {
    if (why)
      *why = "the entry (" + std::to_string(bytes.size()) +
             " bytes) is larger than the cache size cap (" +
             std::to_string(maxSize_) + " bytes)";
    return false;
  }
  static std::atomic<unsigned> counter{0};
  std::string hex = toHex(key.data(), key.size());
  std::string temp =
      dir_ + "/" + std::string(kTempPrefix) + std::to_string(::getpid()) + "-" +
      std::to_string(counter.fetch_add(1)) + "-" + hex.substr(0, 16);
  int fd = ::open(temp.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    if (why)
      *why = "cannot create " + temp + ": " + errnoText(errno);
    return false;
  }
  bool ok = ::fchmod(fd, 0600) == 0 && writeAll(fd, bytes.data(), bytes.size());
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(temp.c_str(), entryPath(key).c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    if (why)
      *why = "cannot write the entry: " + errnoText(err);
    return false;
  }
  evict();
  return true;
}

uint64_t JitCache::evict() {
  struct Entry {
    int64_t mtime;
    uint64_t size;
    std::string name;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  DIR *d = ::opendir(dir_.c_str());
  if (!d)
    return 0;
  int dfd = ::dirfd(d);
  struct timespec now;
  ::clock_gettime(CLOCK_REALTIME, &now);
  while (struct dirent *e = ::readdir(d)) {
    std::string_view name(e->d_name);
    bool entry = isEntryName(name);
    bool temp = name.substr(0, kTempPrefix.size()) == kTempPrefix;
    if (!entry && !temp)
      continue;
    struct stat st;
    if (::fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode))
      continue;
    if (temp) {
      if (int64_t(now.tv_sec) - int64_t(st.st_mtim.tv_sec) > kStaleTempSeconds)
        ::unlinkat(dfd, e->d_name, 0);
      continue;
    }
    entries.push_back(Entry{mtimeNs(st), uint64_t(st.st_size), e->d_name});
    total += uint64_t(st.st_size);
  }
  if (total > maxSize_) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) {
                return a.mtime != b.mtime ? a.mtime < b.mtime : a.name < b.name;
              });
    for (const Entry &e : entries) {
      if (total <= maxSize_)
        break;
      if (::unlinkat(dfd, e.name.c_str(), 0) == 0 || errno == ENOENT)
        total -= e.size;
    }
  }
  ::closedir(d);
  return total;
}

} // namespace mycc::rt
