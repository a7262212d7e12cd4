#include "Toolkit.h"

#include "Options.h"
#include "Planner.h"
#include "RunProgram.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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
  llvm::StringRef args[] = {"nvcc", "--version"};
  support::ProgramOutput run = support::runCapturing(nvcc, args, /*seconds=*/30);
  if (run.status != 0) return std::nullopt;
  std::string out = run.out + run.err;
  size_t at = out.rfind(" V");
  if (at == std::string::npos) return std::nullopt;
  llvm::StringRef token = llvm::StringRef(out).substr(at + 2);
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

std::string cudaPathOf(const Options &o) {
  if (!o.cudaPath.empty()) return o.cudaPath;
  if (auto env = llvm::sys::Process::GetEnv("CUDA_PATH"); env && !env->empty())
    return *env;
  return MYCC_DEFAULT_CUDA_PATH;
}

namespace {

// -ccbin, else NVCC_CCBIN, as nvcc reads them; empty when neither is set.
std::string hostCompilerRequest(const Options &o) {
  if (!o.ccbin.empty()) return o.ccbin;
  if (auto env = llvm::sys::Process::GetEnv("NVCC_CCBIN"); env && !env->empty())
    return *env;
  return {};
}

// A directory means its g++ (else c++, clang++); anything else is used as
// given.
std::string hostCompilerOf(const std::string &request) {
  if (request.empty()) {
    if (auto found = llvm::sys::findProgramByName("g++")) return *found;
    return "g++";
  }
  if (llvm::sys::fs::is_directory(request)) {
    for (const char *name : {"g++", "c++", "clang++"}) {
      llvm::SmallString<256> path(request);
      llvm::sys::path::append(path, name);
      if (llvm::sys::fs::can_execute(path)) return std::string(path);
    }
    return request + "/g++";
  }
  return request; // as given, as nvcc prints it
}

// `<compiler> -print-file-name=include`, if it names a directory.
std::string hostCompilerIncludeDir(const std::string &compiler) {
  std::string program = compiler;
  if (!llvm::sys::path::is_absolute(program))
    if (auto found = llvm::sys::findProgramByName(program)) program = *found;
  llvm::StringRef args[] = {compiler, "-print-file-name=include"};
  support::ProgramOutput run =
      support::runCapturing(program, args, /*seconds=*/30);
  std::string dir = llvm::StringRef(run.out).trim().str();
  if (run.status != 0 || !llvm::sys::path::is_absolute(dir) ||
      !llvm::sys::fs::is_directory(dir))
    return {};
  return dir;
}

// A file of the toolkit's own tree, such as bin/crt/link.stub. A prefix may
// only mirror a toolkit (/usr/local with bin/nvcc a wrapper script and
// include/ symlinks into /usr/local/cuda-13.0), so where the prefix lacks
// the file, the toolkit the headers really live in is asked: the directory
// above the real include/ of cuda_runtime.h (above targets/<triple>/ where
// the headers live there). Empty if none has it.
std::string toolkitFile(const std::string &cudaPath, llvm::StringRef relative) {
  std::vector<std::string> roots = {cudaPath};
  llvm::SmallString<256> header;
  if (!llvm::sys::fs::real_path(cudaPath + "/include/cuda_runtime.h", header)) {
    llvm::StringRef root =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(header));
    roots.push_back(root.str());
    llvm::StringRef above = llvm::sys::path::parent_path(root);
    if (llvm::sys::path::filename(above) == "targets")
      roots.push_back(llvm::sys::path::parent_path(above).str());
  }
  for (const std::string &root : roots) {
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, relative);
    if (llvm::sys::fs::exists(path)) return std::string(path);
  }
  return {};
}

} // namespace

bool discoverToolkit(const Options &o, const std::string &self, Toolkit &t,
                     std::string &error) {
  t.cudaPath = cudaPathOf(o);
  if (!llvm::sys::fs::exists(t.cudaPath + "/include/cuda_runtime.h")) {
    error = "no CUDA toolkit at '" + t.cudaPath +
            "' (set --cuda-path or CUDA_PATH)";
    return false;
  }
  // -target-dir, checked as nvcc checks it; mycc's paths are x86-64's.
  if (!o.targetDir.empty()) {
    if (toolkitFile(t.cudaPath, "targets/" + o.targetDir).empty()) {
      error = "invalid target directory: " + o.targetDir;
      return false;
    }
    if (o.targetDir != "x86_64-linux") {
      error = "-target-dir " + o.targetDir + ": mycc compiles for x86_64-linux only";
      return false;
    }
  }
  if (!o.libdeviceDir.empty()) {
    t.libdevice = o.libdeviceDir + "/libdevice.10.bc";
    if (!llvm::sys::fs::exists(t.libdevice)) {
      error = "-ldir: no libdevice.10.bc in " + o.libdeviceDir;
      return false;
    }
  }
  // A prefix that mirrors the toolkit (mycc's own, given as CUDA_PATH by a
  // Makefile that runs $(CUDA_PATH)/bin/nvcc) may have no ptxas or nvlink:
  // then the toolkit its headers lead to has them.
  for (auto [tool, name] : {std::pair{&t.ptxas, "bin/ptxas"}, {&t.nvlink, "bin/nvlink"}}) {
    *tool = toolkitFile(t.cudaPath, name);
    if (tool->empty()) *tool = t.cudaPath + "/" + name;
  }
  t.linkStub = toolkitFile(t.cudaPath, "bin/crt/link.stub");
  t.prelinkStub = toolkitFile(t.cudaPath, "bin/crt/prelink.stub");
  std::string request = hostCompilerRequest(o);
  t.hostCompiler = hostCompilerOf(request);
  t.hostCompilerPipeline = !o.hostInProcess;
  // Only device sides search it: a link or device link does not ask the
  // host compiler (a process) for it.
  bool cudaSources =
      std::any_of(o.inputs.begin(), o.inputs.end(),
                  [&](const std::string &in) { return isCudaSource(o, in); });
  if (t.hostCompilerPipeline && cudaSources)
    t.hostCompilerIncludeDir = hostCompilerIncludeDir(t.hostCompiler);
  t.self = self;
  t.prefix =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)).str();
  if (std::optional<CudaVersion> v =
          readToolkitVersion(t.cudaPath, &t.versionSource))
    t.version = *v;
  llvm::SmallString<256> prelude(t.prefix);
  llvm::sys::path::append(prelude, "include", "mycc", "prelude.h");
  t.prelude = std::string(prelude);
  t.hostHeader = (llvm::sys::path::parent_path(prelude) + "/host.h").str();
  if (!llvm::sys::fs::exists(t.prelude)) {
    error = "mycc's prelude header is missing: " + t.prelude;
    return false;
  }
  return true;
}

std::string librariesValue(const Toolkit &t) {
  return "\"-L" + t.prefix + "/lib64/stubs\" \"-L" + t.prefix + "/lib64\"";
}

// They describe the toolkit-shaped prefix, whose LIBRARIES value the link
// command repeats verbatim (CMake: TOP, NVVMIR_LIBRARY_DIR, PATH, INCLUDES,
// SYSTEM_INCLUDES, LIBRARIES; docs/build-systems.md). Like nvcc's, they are
// a report, not commands: LIBRARIES and SYSTEM_INCLUDES are not shell
// assignments.
void printEnvironment(llvm::raw_ostream &out, const Toolkit &t) {
  // nvcc reports the flags it took from the environment first.
  for (const char *name : {"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"})
    if (auto env = llvm::sys::Process::GetEnv(name); env && !env->empty())
      out << "#$ " << name << "=\"" << *env << "\"\n";
  out << "#$ TOP=" << t.prefix << "\n";
  out << "#$ NVVMIR_LIBRARY_DIR=" << t.prefix << "/nvvm/libdevice\n";
  std::string path = t.prefix + "/bin";
  if (auto env = llvm::sys::Process::GetEnv("PATH"); env && !env->empty())
    path += ":" + *env;
  out << "#$ PATH=" << path << "\n";
  out << "#$ INCLUDES=\"-I" << t.prefix << "/include\"\n";
  if (llvm::sys::fs::is_directory(t.prefix + "/include/cccl"))
    out << "#$ SYSTEM_INCLUDES=\"-isystem\" \"" << t.prefix
        << "/include/cccl\"\n";
  out << "#$ LIBRARIES=  " << librariesValue(t) << "\n";
}

} // namespace mycc::driver
