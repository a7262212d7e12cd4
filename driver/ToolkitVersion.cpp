#include "ToolkitVersion.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <regex>

namespace mycc::driver {

std::string CudaVersion::str() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(build);
}

std::optional<CudaVersion> parseCudaVersion(const std::string &text) {
  std::smatch m;
  static const std::regex re(R"(^\s*(\d{1,4})\.(\d{1,4})(?:\.(\d{1,9}))?\s*$)");
  if (!std::regex_match(text, m, re)) return std::nullopt;
  CudaVersion v;
  v.major = std::stoul(m[1]);
  v.minor = std::stoul(m[2]);
  v.build = m[3].matched ? std::stoul(m[3]) : 0;
  return v;
}

namespace {

std::optional<std::string> readText(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) return std::nullopt;
  return (*buffer)->getBuffer().str();
}

// {"cuda_nvcc": {"name": "CUDA NVCC", "version": "13.0.88"}, ...}
std::optional<CudaVersion> fromVersionJson(const std::string &cudaPath) {
  std::optional<std::string> text = readText(cudaPath + "/version.json");
  if (!text) return std::nullopt;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(*text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *top = json->getAsObject();
  if (!top) return std::nullopt;
  // The nvcc component's version is what nvcc prints; "cuda" (the whole
  // release) is the fallback for hand-made files.
  for (const char *key : {"cuda_nvcc", "cuda"})
    if (const llvm::json::Object *entry = top->getObject(key))
      if (std::optional<llvm::StringRef> v = entry->getString("version"))
        if (auto parsed = parseCudaVersion(v->str())) return parsed;
  return std::nullopt;
}

// A toolkit assembled from NVIDIA's wheels records them in dist-info/.
std::optional<CudaVersion> fromDistInfo(const std::string &cudaPath) {
  std::error_code ec;
  const llvm::StringRef prefix = "nvidia_cuda_nvcc-", suffix = ".dist-info";
  for (llvm::sys::fs::directory_iterator it(cudaPath + "/dist-info", ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.consume_front(prefix) && name.consume_back(suffix))
      if (auto parsed = parseCudaVersion(name.str())) return parsed;
  }
  return std::nullopt;
}

bool sameFile(const std::string &a, const std::string &b) {
  llvm::SmallString<256> ra, rb;
  return !llvm::sys::fs::real_path(a, ra) && !llvm::sys::fs::real_path(b, rb) &&
         ra == rb;
}

// "Cuda compilation tools, release 13.0, V13.0.88": the token after the last
// " V", as build systems read it.
std::optional<CudaVersion> fromNvcc(const std::string &cudaPath) {
  std::string nvcc = cudaPath + "/bin/nvcc";
  if (!llvm::sys::fs::can_execute(nvcc)) return std::nullopt;
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&readToolkitVersion));
  if (sameFile(nvcc, self)) return std::nullopt;
  llvm::SmallString<128> outPath;
  if (llvm::sys::fs::createTemporaryFile("mycc-nvcc-version", "txt", outPath))
    return std::nullopt;
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                outPath.str(), outPath.str()};
  llvm::StringRef args[] = {"nvcc", "--version"};
  int rc = llvm::sys::ExecuteAndWait(nvcc, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/30);
  std::optional<std::string> out = readText(std::string(outPath));
  llvm::sys::fs::remove(outPath);
  if (rc != 0 || !out) return std::nullopt;
  size_t at = out->rfind(" V");
  if (at == std::string::npos) return std::nullopt;
  llvm::StringRef token = llvm::StringRef(*out).substr(at + 2);
  token = token.take_until([](char c) { return std::isspace((unsigned char)c); });
  return parseCudaVersion(token.str());
}

std::optional<CudaVersion> fromCudaHeader(const std::string &cudaPath) {
  std::optional<std::string> text = readText(cudaPath + "/include/cuda.h");
  if (!text) return std::nullopt;
  std::smatch m;
  if (!std::regex_search(*text, m, std::regex(R"(#define\s+CUDA_VERSION\s+(\d+))")))
    return std::nullopt;
  unsigned v = std::stoul(m[1]);
  return CudaVersion{v / 1000, v % 1000 / 10, 0};
}

} // namespace

std::optional<CudaVersion> readToolkitVersion(const std::string &cudaPath,
                                              std::string *source) {
  struct Reader {
    const char *what;
    std::optional<CudaVersion> (*read)(const std::string &);
  };
  const Reader readers[] = {
      {"version.json", fromVersionJson},
      {"dist-info", fromDistInfo},
      {"bin/nvcc --version", fromNvcc},
      {"include/cuda.h", fromCudaHeader},
  };
  for (const Reader &reader : readers)
    if (std::optional<CudaVersion> v = reader.read(cudaPath)) {
      if (source) *source = reader.what;
      return v;
    }
  return std::nullopt;
}

} // namespace mycc::driver
