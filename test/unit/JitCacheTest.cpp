// The mycc runtime's persistent JIT cache (runtime/JitCache.h): key, entry
// format, checks, permissions, eviction and settings. Works in a temporary
// directory; no CUDA call and no GPU.
#include "JitCache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mycc::rt;

namespace {

std::string hex(const std::array<uint8_t, 32> &bytes) {
  return toHex(bytes.data(), bytes.size());
}

std::string removeTree(const std::string &path) {
  std::string command = "rm -rf '" + path + "'";
  (void)std::system(command.c_str());
  return path;
}

// A fresh directory under the system's temporary directory, removed again.
class TempDir {
public:
  TempDir() {
    std::string pattern = "/tmp/mycc-jit-cache-test-XXXXXX";
    char *made = ::mkdtemp(&pattern[0]);
    EXPECT_NE(made, nullptr);
    path_ = pattern;
  }
  ~TempDir() { removeTree(path_); }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (struct dirent *e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..")
        names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

mode_t modeOf(const std::string &path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

void setMtime(const std::string &path, time_t seconds) {
  struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

time_t mtimeOf(const std::string &path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mtim.tv_sec;
}

JitKey key(const std::string &ptx, unsigned sm = 90,
           const std::string &driver = "cuda 13000, kernel module 580.65.06",
           const std::string &options = "") {
  return jitCacheKey(JitKeyInput{ptx, sm, driver, options});
}

std::string fakeCubin(std::size_t size, char fill = 'c') {
  std::string cubin = "\x7f"
                      "ELF";
  cubin.resize(size, fill);
  return cubin;
}

const std::string kPtx = ".version 9.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry k() { ret; }\n";

// Sets the umask for one test (after its TempDir was made).
struct UmaskGuard {
  mode_t saved;
  explicit UmaskGuard(mode_t mask) : saved(::umask(mask)) {}
  ~UmaskGuard() { ::umask(saved); }
};

// Runs `body` with the portable compression function and, where the
// processor has them, with the SHA extensions.
template <typename F> void bothShaPaths(F body) {
  Sha256::useHardware(false);
  body("portable");
  Sha256::useHardware(true);
  if (Sha256::hardwareAvailable())
    body("SHA extensions");
}

} // namespace

// --- SHA-256 -----------------------------------------------------------------

TEST(JitCacheSha256, KnownVectors) {
  EXPECT_EQ(hex(Sha256::of("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(Sha256::of("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(Sha256::of(
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in uneven pieces to exercise the buffering.
  bothShaPaths([](const char *path) {
    Sha256 s;
    std::string chunk(997, 'a');
    std::size_t left = 1000000;
    while (left) {
      std::size_t n = std::min(left, chunk.size());
      s.update(chunk.data(), n);
      left -= n;
    }
    EXPECT_EQ(
        hex(s.finish()),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        << path;
  });
}

TEST(JitCacheSha256, BothImplementationsAgree) {
  std::string data;
  for (int i = 0; i < 100000; ++i)
    data.push_back(char(i * 7919 + (i >> 5)));
  std::vector<std::string> digests;
  bothShaPaths([&](const char *path) {
    EXPECT_EQ(
        hex(Sha256::of("abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        << path;
    for (std::size_t n : {0u, 63u, 64u, 65u, 1000u, 4096u, 99999u, 100000u})
      digests.push_back(hex(Sha256::of(std::string_view(data).substr(0, n))));
  });
  if (digests.size() == 16) { // both paths ran
    for (std::size_t i = 0; i < 8; ++i)
      EXPECT_EQ(digests[i], digests[i + 8]) << i;
  }
}

TEST(JitCacheSha256, AllPaddingLengths) {
  // 55, 56, 63, 64 and 65 bytes straddle the padding boundaries; compare the
  // one-shot digest with a byte-at-a-time one.
  for (std::size_t n :
       {0u, 1u, 55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u}) {
    std::string text(n, 'x');
    Sha256 s;
    for (char c : text)
      s.update(&c, 1);
    EXPECT_EQ(hex(s.finish()), hex(Sha256::of(text))) << n;
  }
  EXPECT_EQ(hex(Sha256::of(std::string(64, 'a'))),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

// --- Key
// -----------------------------------------------------------------------

TEST(JitCacheKey, SameInputsSameKey) {
  EXPECT_EQ(key(kPtx), key(kPtx));
  EXPECT_EQ(hex(key(kPtx)).size(), 64u);
}

TEST(JitCacheKey, EveryInputChangesTheKey) {
  const JitKey base = key(kPtx);
  std::string otherPtx = kPtx;
  otherPtx[otherPtx.size() - 3] ^= 1; // one bit of one byte
  EXPECT_NE(key(otherPtx), base);
  EXPECT_NE(key(kPtx + "\n"), base); // length
  EXPECT_NE(key(kPtx, 89), base);    // device compute capability
  EXPECT_NE(key(kPtx, 100), base);
  EXPECT_NE(key(kPtx, 90, "cuda 13000, kernel module 580.82.07"), base);
  EXPECT_NE(key(kPtx, 90, "cuda 13010, kernel module 580.65.06"), base);
  EXPECT_NE(key(kPtx, 90, "cuda 13000, kernel module 580.65.06", "-O2"), base);
  EXPECT_NE(key(kPtx, 90, "cuda 13000, kernel module 580.65.06", " "), base);
}

TEST(JitCacheKey, FieldsDoNotRunIntoEachOther) {
  // Moving bytes from one field to the next gives another key.
  EXPECT_NE(jitCacheKey(JitKeyInput{"abc", 90, "d", ""}),
            jitCacheKey(JitKeyInput{"ab", 90, "cd", ""}));
  EXPECT_NE(jitCacheKey(JitKeyInput{"p", 90, "dx", ""}),
            jitCacheKey(JitKeyInput{"p", 90, "d", "x"}));
  EXPECT_NE(jitCacheKey(JitKeyInput{"p", 9, "0d", ""}),
            jitCacheKey(JitKeyInput{"p", 90, "d", ""}));
}

TEST(JitCacheKey, DriverVersionText) {
  const std::string proc =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 "
      "07:09:14 UTC 2025\nGCC version:  gcc version 12.3.0\n";
  EXPECT_EQ(driverVersionText(13000, proc),
            "cuda 13000, kernel module 580.65.06");
  EXPECT_EQ(driverVersionText(13000, "NVRM version: NVIDIA UNIX Open Kernel "
                                     "Module for x86_64  580.82.07  Release "
                                     "Build\n"),
            "cuda 13000, kernel module 580.82.07");
  EXPECT_EQ(driverVersionText(12080, "something else\nsecond"),
            "cuda 12080, kernel module something else");
  EXPECT_EQ(driverVersionText(13000, ""), "cuda 13000");
}

// --- Entries
// -------------------------------------------------------------------

TEST(JitCacheEntry, StoreAndLoad) {
  TempDir tmp;
  JitCache cache(tmp.path() + "/cache", 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  const JitKey k = key(kPtx);
  std::string payload;
  EXPECT_EQ(cache.load(k, payload, &why), JitCache::Lookup::Miss);
  EXPECT_TRUE(payload.empty());

  const std::string cubin = fakeCubin(1000);
  ASSERT_TRUE(cache.store(k, cubin, &why)) << why;
  EXPECT_EQ(cache.entryPath(k), tmp.path() + "/cache/" + hex(k) + ".jit");
  EXPECT_EQ(readFile(cache.entryPath(k)).size(),
            JitCache::kHeaderSize + cubin.size());
  EXPECT_EQ(cache.load(k, payload, &why), JitCache::Lookup::Hit) << why;
  EXPECT_EQ(payload, cubin);

  // Another key is a miss; storing it leaves the first entry alone.
  const JitKey other = key(kPtx, 80);
  EXPECT_EQ(cache.load(other, payload), JitCache::Lookup::Miss);
  ASSERT_TRUE(cache.store(other, fakeCubin(500, 'd')));
  EXPECT_EQ(cache.load(other, payload), JitCache::Lookup::Hit);
  EXPECT_EQ(payload, fakeCubin(500, 'd'));
  EXPECT_EQ(cache.load(k, payload), JitCache::Lookup::Hit);
  EXPECT_EQ(payload, cubin);

  // Storing again replaces the entry.
  ASSERT_TRUE(cache.store(k, fakeCubin(300, 'e')));
  EXPECT_EQ(cache.load(k, payload), JitCache::Lookup::Hit);
  EXPECT_EQ(payload, fakeCubin(300, 'e'));

  // An empty payload round-trips too.
  const JitKey empty = key("");
  ASSERT_TRUE(cache.store(empty, ""));
  EXPECT_EQ(cache.load(empty, payload), JitCache::Lookup::Hit);
  EXPECT_TRUE(payload.empty());
}

TEST(JitCacheEntry, HeaderLayout) {
  const JitKey k = key(kPtx);
  std::string entry = JitCache::encodeEntry(k, "payload");
  ASSERT_EQ(entry.size(), JitCache::kHeaderSize + 7);
  EXPECT_EQ(entry.substr(0, 8), std::string("MYCCJIT\0", 8));
  EXPECT_EQ(entry[8], 1); // format version
  EXPECT_EQ(uint8_t(entry[12]), JitCache::kHeaderSize);
  EXPECT_EQ(entry.substr(16, 32),
            std::string(reinterpret_cast<const char *>(k.data()), 32));
  EXPECT_EQ(entry[48], 7); // payload size
  auto hash = Sha256::of("payload");
  EXPECT_EQ(entry.substr(56, 32),
            std::string(reinterpret_cast<const char *>(hash.data()), 32));
  EXPECT_EQ(entry.substr(96), "payload");
}

// Each kind of damage: the load reports it, removes the file, and the next
// load is a plain miss (the runtime then compiles and stores again).
class JitCacheDamage : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_TRUE(cache.open(why)) << why;
    ASSERT_TRUE(cache.store(k, cubin, &why)) << why;
    path = cache.entryPath(k);
    bytes = readFile(path);
    ASSERT_EQ(bytes.size(), JitCache::kHeaderSize + cubin.size());
  }
  void expectDiscarded(const std::string &damaged, const std::string &what) {
    writeFile(path, damaged);
    std::string payload = "stale", why;
    EXPECT_EQ(cache.load(k, payload, &why), JitCache::Lookup::Damaged) << what;
    EXPECT_TRUE(payload.empty()) << what;
    EXPECT_NE(why.find(what), std::string::npos) << why;
    EXPECT_NE(::access(path.c_str(), F_OK), 0) << "not removed: " << what;
    EXPECT_EQ(cache.load(k, payload, &why), JitCache::Lookup::Miss);
    // Rebuilt: a new store is read back.
    ASSERT_TRUE(cache.store(k, cubin, &why)) << why;
    EXPECT_EQ(cache.load(k, payload, &why), JitCache::Lookup::Hit) << why;
    EXPECT_EQ(payload, cubin);
  }

  TempDir tmp;
  JitCache cache{tmp.path(), 1 << 20};
  JitKey k = key(kPtx);
  std::string cubin = fakeCubin(4096);
  std::string path, bytes;
};

TEST_F(JitCacheDamage, FlippedPayloadByte) {
  std::string damaged = bytes;
  damaged[JitCache::kHeaderSize + 1234] ^= 0x10;
  expectDiscarded(damaged, "checksum");
}

TEST_F(JitCacheDamage, LastPayloadByte) {
  std::string damaged = bytes;
  damaged.back() ^= 1;
  expectDiscarded(damaged, "checksum");
}

TEST_F(JitCacheDamage, TruncatedPayload) {
  expectDiscarded(bytes.substr(0, bytes.size() - 1), "truncated");
}

TEST_F(JitCacheDamage, TruncatedHeader) {
  expectDiscarded(bytes.substr(0, 50), "truncated");
}

TEST_F(JitCacheDamage, EmptyFile) { expectDiscarded("", "truncated"); }

TEST_F(JitCacheDamage, TrailingBytes) {
  expectDiscarded(bytes + "x", "truncated");
}

TEST_F(JitCacheDamage, Magic) {
  std::string damaged = bytes;
  damaged[0] = 'X';
  expectDiscarded(damaged, "magic");
}

TEST_F(JitCacheDamage, FormatVersion) {
  std::string damaged = bytes;
  damaged[8] = 2;
  expectDiscarded(damaged, "format version 2");
}

TEST_F(JitCacheDamage, KeyEcho) {
  std::string damaged = bytes;
  damaged[16 + 31] ^= 1;
  expectDiscarded(damaged, "another key");
}

TEST_F(JitCacheDamage, StoredChecksum) {
  std::string damaged = bytes;
  damaged[56] ^= 1;
  expectDiscarded(damaged, "checksum");
}

TEST_F(JitCacheDamage, EntryOfAnotherKeyUnderThisName) {
  // A valid entry, renamed: the key echo does not match the name.
  expectDiscarded(JitCache::encodeEntry(key(kPtx, 80), cubin), "another key");
}

TEST_F(JitCacheDamage, SymbolicLink) {
  std::string target = tmp.path() + "/elsewhere";
  writeFile(target, bytes);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::symlink(target.c_str(), path.c_str()), 0);
  std::string payload, why;
  EXPECT_EQ(cache.load(k, payload, &why), JitCache::Lookup::Damaged);
  struct stat st;
  EXPECT_NE(::lstat(path.c_str(), &st), 0); // the link is gone
  EXPECT_EQ(readFile(target), bytes);       // its target is untouched
}

// --- Directory and files
// ---------------------------------------------------------

TEST(JitCacheFiles, DirectoryIs0700AndFilesAre0600) {
  TempDir tmp;
  UmaskGuard mask(0); // a permissive umask must not leak into the cache
  const std::string dir = tmp.path() + "/home/.cache/mycc";
  JitCache cache(dir, 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  EXPECT_EQ(modeOf(dir), 0700u);
  EXPECT_EQ(modeOf(tmp.path() + "/home/.cache"), 0700u); // created parents too
  ASSERT_TRUE(cache.store(key(kPtx), fakeCubin(100), &why)) << why;
  EXPECT_EQ(modeOf(cache.entryPath(key(kPtx))), 0600u);
  // Opening again is fine.
  JitCache again(dir + "/", 1 << 20);
  EXPECT_TRUE(again.open(why)) << why;
  EXPECT_EQ(again.dir(), dir);
}

TEST(JitCacheFiles, RestrictiveUmask) {
  TempDir tmp;
  UmaskGuard mask(0277); // would make the directory unusable
  JitCache cache(tmp.path() + "/c", 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  EXPECT_EQ(modeOf(tmp.path() + "/c"), 0700u);
  ASSERT_TRUE(cache.store(key(kPtx), fakeCubin(100), &why)) << why;
  EXPECT_EQ(modeOf(cache.entryPath(key(kPtx))), 0600u);
}

TEST(JitCacheFiles, ExistingPrivateDirectoryIsKept) {
  TempDir tmp;
  const std::string dir = tmp.path() + "/c";
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  JitCache cache(dir, 1 << 20);
  std::string why;
  EXPECT_TRUE(cache.open(why)) << why;
  EXPECT_EQ(modeOf(dir), 0755u); // not writable by others: used as it is
}

TEST(JitCacheFiles, RefusesGroupOrWorldWritableDirectory) {
  TempDir tmp;
  for (mode_t mode : {0770, 0702, 0777, 01777}) {
    const std::string dir = tmp.path() + "/c" + std::to_string(mode);
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    ASSERT_EQ(::chmod(dir.c_str(), mode), 0);
    JitCache cache(dir, 1 << 20);
    std::string why;
    EXPECT_FALSE(cache.open(why)) << std::oct << mode;
    EXPECT_NE(why.find("writable by group or others"), std::string::npos)
        << why;
    EXPECT_EQ(why.find('\n'), std::string::npos);
  }
}

TEST(JitCacheFiles, RefusesASymbolicLinkedDirectory) {
  TempDir tmp;
  const std::string victim = tmp.path() + "/victim", link = tmp.path() + "/c";
  ASSERT_EQ(::mkdir(victim.c_str(), 0700), 0);
  writeFile(victim + "/precious", "x");
  ASSERT_EQ(::symlink(victim.c_str(), link.c_str()), 0);
  JitCache cache(link, 1);
  std::string why;
  EXPECT_FALSE(cache.open(why));
  EXPECT_NE(why.find("symbolic link"), std::string::npos) << why;
  EXPECT_EQ(readFile(victim + "/precious"), "x");
}

TEST(JitCacheFiles, RefusesADirectoryBelowOneOthersCanChange) {
  TempDir tmp;
  const std::string shared = tmp.path() + "/shared";
  ASSERT_EQ(::mkdir(shared.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(shared.c_str(), 0777), 0); // no sticky bit
  JitCache cache(shared + "/c", 1 << 20);
  std::string why;
  EXPECT_FALSE(cache.open(why));
  EXPECT_NE(why.find("can be changed by other users"), std::string::npos) << why;
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0); // as /tmp: others' entries safe
  EXPECT_TRUE(cache.open(why)) << why;
}

TEST(JitCacheFiles, AFifoAtAnEntryIsDamagedNotAHang) {
  TempDir tmp;
  JitCache cache(tmp.path() + "/c", 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  const std::string path = cache.entryPath(key(kPtx));
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string payload;
  EXPECT_EQ(cache.load(key(kPtx), payload, &why), JitCache::Lookup::Damaged);
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
}

TEST(JitCacheFiles, RefusesDirectoryOfAnotherUser) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "needs root to give a directory away";
  TempDir tmp;
  const std::string dir = tmp.path() + "/c";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
  JitCache cache(dir, 1 << 20);
  std::string why;
  EXPECT_FALSE(cache.open(why));
  EXPECT_NE(why.find("owned by another user"), std::string::npos) << why;
}

TEST(JitCacheFiles, RefusesAFileAndAnUncreatableDirectory) {
  TempDir tmp;
  writeFile(tmp.path() + "/file", "x");
  std::string why;
  JitCache notDir(tmp.path() + "/file", 1 << 20);
  EXPECT_FALSE(notDir.open(why));
  EXPECT_NE(why.find("not a directory"), std::string::npos) << why;
  JitCache below(tmp.path() + "/file/sub", 1 << 20);
  EXPECT_FALSE(below.open(why));
  EXPECT_NE(why.find("cannot create"), std::string::npos) << why;
  JitCache none("", 1 << 20);
  EXPECT_FALSE(none.open(why));
}

TEST(JitCacheFiles, WritesLeaveNoTemporaryFiles) {
  TempDir tmp;
  JitCache cache(tmp.path(), 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  std::set<std::string> expected;
  for (unsigned sm : {75, 80, 86, 89, 90}) {
    ASSERT_TRUE(cache.store(key(kPtx, sm), fakeCubin(1000 + sm), &why)) << why;
    expected.insert(hex(key(kPtx, sm)) + ".jit");
  }
  ASSERT_TRUE(cache.store(key(kPtx, 90), fakeCubin(2000), &why)) << why;
  std::vector<std::string> names = listDir(tmp.path());
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), expected);
}

TEST(JitCacheFiles, FailedWriteLeavesNothing) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only directories";
  TempDir tmp;
  JitCache cache(tmp.path(), 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0500), 0);
  EXPECT_FALSE(cache.store(key(kPtx), fakeCubin(100), &why));
  EXPECT_NE(why.find("cannot create"), std::string::npos) << why;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0700), 0);
  EXPECT_TRUE(listDir(tmp.path()).empty());
}

TEST(JitCacheFiles, StaleTemporaryFilesAreRemoved) {
  TempDir tmp;
  JitCache cache(tmp.path(), 1 << 20);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  const std::string stale = tmp.path() + "/tmp-1-0-0123456789abcdef";
  const std::string fresh = tmp.path() + "/tmp-2-0-0123456789abcdef";
  const std::string foreign = tmp.path() + "/README";
  writeFile(stale, "partial");
  writeFile(fresh, "partial");
  writeFile(foreign, "not ours");
  setMtime(stale, ::time(nullptr) - 2 * 3600);
  cache.evict();
  EXPECT_NE(::access(stale.c_str(), F_OK), 0);   // a writer died long ago
  EXPECT_EQ(::access(fresh.c_str(), F_OK), 0);   // may still be written
  EXPECT_EQ(::access(foreign.c_str(), F_OK), 0); // not the cache's
}

// --- Eviction
// ----------------------------------------------------------------------

TEST(JitCacheEviction, StaysUnderTheCapLeastRecentlyUsedFirst) {
  TempDir tmp;
  const std::size_t payload = 1000;
  const uint64_t entry = JitCache::kHeaderSize + payload;
  JitCache cache(tmp.path(), 3 * entry + 10); // room for three entries
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  const JitKey a = key("a"), b = key("b"), c = key("c"), d = key("d"),
               e = key("e");
  ASSERT_TRUE(cache.store(a, fakeCubin(payload, 'a')));
  ASSERT_TRUE(cache.store(b, fakeCubin(payload, 'b')));
  ASSERT_TRUE(cache.store(c, fakeCubin(payload, 'c')));
  const time_t now = ::time(nullptr);
  setMtime(cache.entryPath(a), now - 300);
  setMtime(cache.entryPath(b), now - 200);
  setMtime(cache.entryPath(c), now - 100);
  EXPECT_EQ(cache.evict(), 3 * entry); // under the cap: nothing to do

  // Using `a` makes it the most recently used: `b` goes first.
  std::string out;
  ASSERT_EQ(cache.load(a, out), JitCache::Lookup::Hit);
  EXPECT_GE(mtimeOf(cache.entryPath(a)), now - 5);
  ASSERT_TRUE(cache.store(d, fakeCubin(payload, 'd')));
  EXPECT_EQ(cache.load(b, out), JitCache::Lookup::Miss);
  EXPECT_EQ(cache.load(c, out), JitCache::Lookup::Hit);
  EXPECT_EQ(cache.load(a, out), JitCache::Lookup::Hit);
  EXPECT_EQ(cache.load(d, out), JitCache::Lookup::Hit);
  EXPECT_EQ(cache.evict(), 3 * entry);

  // Now c, a, d were used in that order (same second at best): make it
  // explicit and add a fifth; c goes.
  setMtime(cache.entryPath(c), now - 30);
  setMtime(cache.entryPath(a), now - 20);
  setMtime(cache.entryPath(d), now - 10);
  ASSERT_TRUE(cache.store(e, fakeCubin(payload, 'e')));
  EXPECT_EQ(cache.load(c, out), JitCache::Lookup::Miss);
  std::vector<std::string> names = listDir(tmp.path());
  EXPECT_EQ(names.size(), 3u);
  EXPECT_LE(cache.evict(), cache.maxSize());
}

TEST(JitCacheEviction, ManyStoresNeverExceedTheCap) {
  TempDir tmp;
  JitCache cache(tmp.path(), 20000);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(cache.store(key("k" + std::to_string(i)),
                            fakeCubin(500 + 97 * (i % 7)), &why))
        << why;
    EXPECT_LE(cache.evict(), 20000u);
  }
  // The newest entry always survives its own store.
  std::string out;
  EXPECT_EQ(cache.load(key("k39"), out), JitCache::Lookup::Hit);
}

TEST(JitCacheEviction, EntryLargerThanTheCapIsNotStored) {
  TempDir tmp;
  JitCache cache(tmp.path(), 1000);
  std::string why;
  ASSERT_TRUE(cache.open(why)) << why;
  ASSERT_TRUE(cache.store(key("small"), fakeCubin(100)));
  EXPECT_FALSE(cache.store(key("big"), fakeCubin(1000), &why));
  EXPECT_NE(why.find("larger than the cache size cap"), std::string::npos)
      << why;
  std::string out;
  EXPECT_EQ(cache.load(key("big"), out), JitCache::Lookup::Miss);
  EXPECT_EQ(cache.load(key("small"), out), JitCache::Lookup::Hit);
}

TEST(JitCacheEviction, EntryOverALoweredCapIsRemovedAsAMiss) {
  TempDir tmp;
  std::string why, out;
  {
    JitCache big(tmp.path(), 1 << 20);
    ASSERT_TRUE(big.open(why)) << why;
    ASSERT_TRUE(big.store(key("x"), fakeCubin(5000), &why)) << why;
  }
  JitCache small(tmp.path(), 2000); // the cap was lowered since
  ASSERT_TRUE(small.open(why)) << why;
  EXPECT_EQ(small.load(key("x"), out, &why), JitCache::Lookup::Miss);
  EXPECT_NE(why.find("larger than the cache size cap"), std::string::npos)
      << why;
  EXPECT_NE(::access(small.entryPath(key("x")).c_str(), F_OK), 0);
}

// --- Settings
// ------------------------------------------------------------------------

TEST(JitCacheSettings, ByteSizes) {
  uint64_t n = 0;
  EXPECT_TRUE(parseByteSize("4096", n));
  EXPECT_EQ(n, 4096u);
  EXPECT_TRUE(parseByteSize("0", n));
  EXPECT_EQ(n, 0u);
  EXPECT_TRUE(parseByteSize("512k", n));
  EXPECT_EQ(n, 512u << 10);
  EXPECT_TRUE(parseByteSize("512K", n));
  EXPECT_EQ(n, 512u << 10);
  EXPECT_TRUE(parseByteSize("256M", n));
  EXPECT_EQ(n, uint64_t(256) << 20);
  EXPECT_TRUE(parseByteSize("2G", n));
  EXPECT_EQ(n, uint64_t(2) << 30);
  EXPECT_TRUE(parseByteSize("1T", n));
  EXPECT_EQ(n, uint64_t(1) << 40);
  EXPECT_TRUE(parseByteSize("64KiB", n));
  EXPECT_EQ(n, uint64_t(64) << 10);
  EXPECT_TRUE(parseByteSize("64MB", n));
  EXPECT_EQ(n, uint64_t(64) << 20);
  EXPECT_TRUE(parseByteSize(" 10m ", n));
  EXPECT_EQ(n, uint64_t(10) << 20);
  EXPECT_TRUE(parseByteSize("100B", n));
  EXPECT_EQ(n, 100u);

  n = 7;
  for (const char *bad :
       {"", "M", "-1", "1.5G", "10X", "10 M", "1e6", "0x10", "10MiBs", "100iB",
        "99999999999999999999", "17179869184G"})
    EXPECT_FALSE(parseByteSize(bad, n)) << bad;
  EXPECT_EQ(n, 7u); // untouched on failure
}

TEST(JitCacheSettings, Defaults) {
  JitCacheSettings s = jitCacheSettings(nullptr, nullptr, nullptr, "/home/u");
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.dir, "/home/u/.cache/mycc");
  EXPECT_EQ(s.maxSize, uint64_t(256) << 20);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(jitCacheSettings(nullptr, "", "", "/home/u/").dir,
            "/home/u/.cache/mycc");
  EXPECT_EQ(jitCacheSettings(nullptr, nullptr, nullptr, "/").dir,
            "/.cache/mycc");
}

TEST(JitCacheSettings, DirectoryAndSize) {
  JitCacheSettings s = jitCacheSettings("0", "/data/jit", "1G", "/home/u");
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.dir, "/data/jit");
  EXPECT_EQ(s.maxSize, uint64_t(1) << 30);
  EXPECT_TRUE(s.warnings.empty());
}

TEST(JitCacheSettings, BadSizeWarnsAndKeepsTheDefault) {
  JitCacheSettings s = jitCacheSettings(nullptr, nullptr, "lots", "/home/u");
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.maxSize, uint64_t(256) << 20);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], "warning: MYCC_CACHE_MAX_SIZE=lots is not a size "
                           "(e.g. 256M); using 256M");
}

TEST(JitCacheSettings, Disabled) {
  for (const char *flag : {"1", "yes", "true"}) {
    JitCacheSettings s = jitCacheSettings(flag, "/data/jit", "1G", "/home/u");
    EXPECT_FALSE(s.enabled) << flag;
    EXPECT_TRUE(s.warnings.empty());
  }
  // A size of 0 turns it off as well.
  JitCacheSettings zero = jitCacheSettings(nullptr, nullptr, "0", "/home/u");
  EXPECT_FALSE(zero.enabled);
  EXPECT_TRUE(zero.warnings.empty());
  // No directory at all: off, with a warning.
  JitCacheSettings homeless = jitCacheSettings(nullptr, nullptr, nullptr, "");
  EXPECT_FALSE(homeless.enabled);
  ASSERT_EQ(homeless.warnings.size(), 1u);
  EXPECT_NE(homeless.warnings[0].find("no home directory"), std::string::npos);
}

// The driver's CUDA_CACHE_* variables where mycc's are unset or empty.
TEST(JitCacheSettings, DriverVariablesStandInForMycc) {
  DriverCacheVariables driver{"1", "/scratch/nv", "64M"};
  EXPECT_FALSE(jitCacheSettings(nullptr, nullptr, nullptr, "/home/u", driver)
                   .enabled);
  // MYCC_CACHE_DISABLE, when given, decides alone.
  JitCacheSettings mine =
      jitCacheSettings("0", nullptr, nullptr, "/home/u", driver);
  EXPECT_TRUE(mine.enabled);
  EXPECT_EQ(mine.dir, "/scratch/nv/mycc");
  EXPECT_EQ(mine.maxSize, uint64_t(64) << 20);

  DriverCacheVariables pathOnly{nullptr, "/scratch/nv/", "1048576"};
  JitCacheSettings s =
      jitCacheSettings(nullptr, "", nullptr, "/home/u", pathOnly);
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.dir, "/scratch/nv/mycc");
  EXPECT_EQ(s.maxSize, uint64_t(1) << 20);
  // mycc's own variables win.
  JitCacheSettings own =
      jitCacheSettings(nullptr, "/data/jit", "1G", "/home/u", pathOnly);
  EXPECT_EQ(own.dir, "/data/jit");
  EXPECT_EQ(own.maxSize, uint64_t(1) << 30);
  // A bad driver size names the driver's variable.
  DriverCacheVariables bad{nullptr, nullptr, "lots"};
  JitCacheSettings warned =
      jitCacheSettings(nullptr, nullptr, nullptr, "/home/u", bad);
  ASSERT_EQ(warned.warnings.size(), 1u);
  EXPECT_EQ(warned.warnings[0], "warning: CUDA_CACHE_MAXSIZE=lots is not a "
                                "size (e.g. 256M); using 256M");
}

TEST(JitCacheSettings, FromTheEnvironment) {
  TempDir tmp;
  ::setenv("MYCC_CACHE_DIR", (tmp.path() + "/env").c_str(), 1);
  ::setenv("MYCC_CACHE_MAX_SIZE", "3M", 1);
  ::unsetenv("MYCC_CACHE_DISABLE");
  JitCacheSettings s = jitCacheSettingsFromEnvironment();
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.dir, tmp.path() + "/env");
  EXPECT_EQ(s.maxSize, uint64_t(3) << 20);
  ::setenv("MYCC_CACHE_DISABLE", "1", 1);
  EXPECT_FALSE(jitCacheSettingsFromEnvironment().enabled);
  ::unsetenv("MYCC_CACHE_DISABLE");
  ::unsetenv("MYCC_CACHE_DIR");
  ::unsetenv("MYCC_CACHE_MAX_SIZE");
}

// --- JIT options
// -------------------------------------------------------------------------

TEST(JitCacheOptions, Empty) {
  JitOptions o;
  std::string why;
  EXPECT_TRUE(parseJitOptions("", o, why));
  EXPECT_TRUE(parseJitOptions("  \t ", o, why));
  EXPECT_EQ(o.optimizationLevel, -1);
  EXPECT_EQ(o.maxRegisters, -1);
  EXPECT_FALSE(o.lineInfo);
  EXPECT_FALSE(o.debugInfo);
}

TEST(JitCacheOptions, Recognised) {
  JitOptions o;
  std::string why;
  ASSERT_TRUE(parseJitOptions("-O2 --maxrregcount=64 -lineinfo", o, why))
      << why;
  EXPECT_EQ(o.optimizationLevel, 2);
  EXPECT_EQ(o.maxRegisters, 64);
  EXPECT_TRUE(o.lineInfo);
  EXPECT_FALSE(o.debugInfo);
  ASSERT_TRUE(parseJitOptions("--opt-level 0 -maxrregcount 32 -g", o, why))
      << why;
  EXPECT_EQ(o.optimizationLevel, 0);
  EXPECT_EQ(o.maxRegisters, 32);
  EXPECT_TRUE(o.debugInfo);
  ASSERT_TRUE(parseJitOptions("--opt-level=3 --generate-line-info "
                              "--device-debug -maxrregcount=255",
                              o, why))
      << why;
  EXPECT_EQ(o.optimizationLevel, 3);
  EXPECT_EQ(o.maxRegisters, 255);
  EXPECT_TRUE(o.lineInfo);
  EXPECT_TRUE(o.debugInfo);
}

TEST(JitCacheOptions, Rejected) {
  JitOptions o;
  std::string why;
  for (const char *bad :
       {"-O9", "--opt-level", "--opt-level=x", "--maxrregcount",
        "--maxrregcount=0", "--maxrregcount=abc", "-v", "--compile-only",
        "-arch=sm_90", "-O2 --fmad=false"}) {
    why.clear();
    EXPECT_FALSE(parseJitOptions(bad, o, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}
