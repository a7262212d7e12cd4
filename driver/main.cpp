// mycc: an nvcc-compatible CUDA compiler driver.
#include "Executor.h"
#include "Options.h"
#include "Plan.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <regex>

using namespace mycc;
using namespace mycc::driver;

namespace {

// The toolkit version from cuda.h's CUDA_VERSION (e.g. 13000 → "13.0").
std::string toolkitVersion(const std::string &cudaPath) {
  auto buffer = llvm::MemoryBuffer::getFile(cudaPath + "/include/cuda.h");
  if (!buffer) return "unknown";
  std::string text = (*buffer)->getBuffer().str();
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(#define\s+CUDA_VERSION\s+(\d+))")))
    return "unknown";
  int v = std::stoi(m[1]);
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string resolveCudaPath(const Options &o) {
  if (!o.cudaPath.empty()) return o.cudaPath;
  if (auto env = llvm::sys::Process::GetEnv("CUDA_PATH"); env && !env->empty())
    return *env;
  return MYCC_DEFAULT_CUDA_PATH;
}

// A file installed beside mycc: <bin>/../<a>/<b>/... (the runtime library
// in lib/, the prelude header in include/mycc/).
std::string installedFile(std::initializer_list<llvm::StringRef> parts) {
  std::string self = llvm::sys::fs::getMainExecutable("mycc", (void *)&installedFile);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(self)));
  for (llvm::StringRef part : parts) llvm::sys::path::append(path, part);
  return std::string(path);
}

int error(const std::string &message) {
  llvm::errs() << "mycc: error: " << message << "\n";
  return 1;
}

// -arch=native: the installed GPUs, as the toolkit's own __nvcc_device_query
// reports them (nvcc runs the same program). On success it prints the
// compute capabilities ("90", or "80,90" for several GPUs) and exits 0;
// otherwise it says why on stderr ("... failed to call cudaLoader::cuInit(0)
// with error 0x64 (CUDA_ERROR_NO_DEVICE)") and exits 1. nvcc then falls back
// to its default target with a warning; mycc stops, since code for a GPU
// nobody asked for is rarely what -arch=native meant.
bool queryInstalledGpus(const std::string &cudaPath, std::vector<GpuArch> &gpus,
                        std::string &message) {
  const std::string name = "__nvcc_device_query";
  std::string program = cudaPath + "/bin/" + name;
  if (!llvm::sys::fs::can_execute(program)) {
    message = "-arch=native: cannot run " + program +
              ", which finds the installed GPUs";
    return false;
  }
  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("mycc-device-query", "out", outPath) ||
      llvm::sys::fs::createTemporaryFile("mycc-device-query", "err", errPath)) {
    message = "-arch=native: cannot create a temporary file";
    return false;
  }
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                outPath.str(), errPath.str()};
  // argv[0] without the directory: the program's messages start with it.
  llvm::StringRef args[] = {name};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/60, 0, &execError);
  auto readAll = [](const llvm::SmallString<128> &path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  std::string out = readAll(outPath), err = readAll(errPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);

  if (rc != 0) {
    llvm::StringRef why = llvm::StringRef(err).trim();
    why = why.take_until([](char c) { return c == '\n'; });
    // Some toolkits print the program's full path (not argv[0]) first; keep
    // the message the same everywhere by dropping the directory.
    size_t at = why.find(name);
    if (at != llvm::StringRef::npos && !why.take_front(at).contains(' '))
      why = why.drop_front(at);
    std::string detail = !why.empty() ? why.str()
                         : rc < 0     ? name + ": " + execError
                                      : name + " exited with status " +
                                        std::to_string(rc);
    message = "-arch=native: no GPU found (" + detail + ")";
    return false;
  }
  std::optional<std::vector<GpuArch>> found = parseDeviceQuery(out);
  if (!found) {
    message = "-arch=native: cannot read the output of " + name + ": '" +
              llvm::StringRef(out).trim().str() + "'";
    return false;
  }
  gpus = std::move(*found);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  ParseResult parsed = parseCommandLine(args);
  if (!parsed) return error(parsed.error);
  for (const std::string &warning : parsed.warnings)
    llvm::errs() << "mycc: warning: " << warning << "\n";
  Options &o = parsed.options;

  std::string cudaPath = resolveCudaPath(o);
  if (o.showHelp) {
    llvm::outs() << helpText();
    return 0;
  }
  if (o.showVersion) {
    llvm::outs() << "mycc: the mycc CUDA compiler driver\n"
                 << "mycc version " << MYCC_VERSION << " (LLVM "
                 << MYCC_LLVM_VERSION << ")\n"
                 << "Cuda compilation tools, release "
                 << toolkitVersion(cudaPath) << " (toolkit at " << cudaPath
                 << ")\n";
    return 0;
  }
  if (o.listGpuArch || o.listGpuCode) {
    // Like nvcc, the lists name the plain architectures only; the `a` and
    // `f` forms (sm_90a, sm_100f, ...) are accepted without being listed.
    for (const GpuArch &arch : knownArchs()) {
      if (arch.suffix != ArchSuffix::None) continue;
      if (o.listGpuArch) llvm::outs() << "compute_" << arch.str() << "\n";
      if (o.listGpuCode) llvm::outs() << "sm_" << arch.str() << "\n";
    }
    return 0;
  }

  if (!llvm::sys::fs::exists(cudaPath + "/include/cuda_runtime.h"))
    return error("no CUDA toolkit at '" + cudaPath +
                 "' (set --cuda-path or CUDA_PATH)");
  Toolkit toolkit;
  toolkit.cudaPath = cudaPath;
  toolkit.ptxas = cudaPath + "/bin/ptxas";
  toolkit.hostCompiler = o.ccbin.empty() ? "g++" : o.ccbin;
  toolkit.runtimeLibrary = installedFile({"lib", "libmycc_rt.a"});
  // The prelude every .cu is compiled with (include/mycc/prelude.h).
  toolkit.prelude = installedFile({"include", "mycc", "prelude.h"});
  if (!llvm::sys::fs::exists(toolkit.prelude))
    return error("mycc's prelude header is missing: " + toolkit.prelude);

  if (o.nativeArch) {
    std::vector<GpuArch> gpus;
    std::string message;
    if (!queryInstalledGpus(cudaPath, gpus, message)) return error(message);
    std::vector<std::string> warnings;
    message = addNativeTargets(o, gpus, warnings);
    for (const std::string &warning : warnings)
      llvm::errs() << "mycc: warning: " << warning << "\n";
    if (!message.empty()) return error(message);
  }

  std::string tempDir;
  bool ownTempDir = false;
  if (o.keep) {
    tempDir = o.keepDir.empty() ? "." : o.keepDir;
    if (!o.dryrun)
      if (std::error_code ec = llvm::sys::fs::create_directories(tempDir))
        return error("cannot create --keep-dir '" + tempDir + "': " + ec.message());
  } else if (o.dryrun) {
    llvm::SmallString<256> dir;
    llvm::sys::path::system_temp_directory(true, dir);
    llvm::sys::path::append(dir, "mycc-XXXXXX");
    tempDir = std::string(dir);
  } else {
    llvm::SmallString<256> dir;
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("mycc", dir))
      return error("cannot create a temporary directory: " + ec.message());
    tempDir = std::string(dir);
    ownTempDir = true;
  }

  Plan plan;
  std::string planError;
  if (!buildPlan(o, toolkit, tempDir, plan, planError)) {
    if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
    return error(planError);
  }
  if (o.dryrun) {
    for (const Step &s : plan.steps)
      llvm::outs() << "#$ " << describeStep(s, o, toolkit) << "\n";
    return 0;
  }

  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::InitializeAllAsmParsers();
  int rc = executePlan(plan, o, toolkit);
  if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
  return rc;
}
