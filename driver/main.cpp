// mycc: an nvcc-compatible CUDA compiler driver.
#include "Executor.h"
#include "Options.h"
#include "Plan.h"
#include "ToolkitVersion.h"

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

int error(const std::string &message) {
  llvm::errs() << "mycc: error: " << message << "\n";
  return 1;
}

std::string resolveCudaPath(const Options &o) {
  if (!o.cudaPath.empty()) return o.cudaPath;
  if (auto env = llvm::sys::Process::GetEnv("CUDA_PATH"); env && !env->empty())
    return *env;
  return MYCC_DEFAULT_CUDA_PATH;
}

// The toolkit-shaped prefix: the directory above the bin/ that holds mycc's
// executable (symbolic links resolved, so bin/nvcc -> mycc finds the same).
std::string prefixDir() {
  std::string self = llvm::sys::fs::getMainExecutable("mycc", (void *)&prefixDir);
  return llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)).str();
}

// A file installed beside mycc: <prefix>/<a>/<b>/... (the prelude header in
// include/mycc/; the runtime library is lib64/libmycc_rt.a).
std::string installedFile(std::initializer_list<llvm::StringRef> parts) {
  llvm::SmallString<256> path(prefixDir());
  for (llvm::StringRef part : parts) llvm::sys::path::append(path, part);
  return std::string(path);
}

// --version: what mycc is, then nvcc's identification for build systems.
// CMake (3.25 to 4.0) recognises nvcc by the literal "nvcc: NVIDIA (R) Cuda
// compiler driver" and takes the first V<d>.<d>.<d> as the toolkit version;
// Meson takes the word after the last capital V of the whole output. So the
// nvcc lines come last, the release line last of all, and nothing before it
// reads as V<d>.<d>.<d> (docs/build-systems.md).
void printVersion(const std::string &cudaPath) {
  std::string source;
  std::optional<CudaVersion> version = readToolkitVersion(cudaPath, &source);
  llvm::raw_ostream &out = llvm::outs();
  out << "mycc: the mycc CUDA compiler driver\n"
      << "mycc version " << MYCC_VERSION << ", built on Clang/LLVM "
      << MYCC_LLVM_VERSION << "\n";
  std::string toolkit = "CUDA toolkit " + cudaPath;
  if (version) toolkit += " (nvcc " + version->str() + ", from " + source + ")";
  if (!std::regex_search(toolkit, std::regex("V[0-9]+\\.[0-9]+\\.[0-9]+")))
    out << toolkit << "\n";
  out << "nvcc: NVIDIA (R) Cuda compiler driver (compatibility line for build "
         "systems; this is mycc, not NVIDIA's nvcc)\n";
  if (version)
    out << "Cuda compilation tools, release " << version->major << "."
        << version->minor << ", V" << version->str() << "\n";
  else
    out << "Cuda compilation tools: no toolkit version found in " << cudaPath
        << "\n";
}

// nvcc's environment lines, printed once before the steps with -v and
// --dryrun. Build systems read them (CMake: TOP, NVVMIR_LIBRARY_DIR, PATH,
// INCLUDES, SYSTEM_INCLUDES, LIBRARIES; docs/build-systems.md); they
// describe the toolkit-shaped prefix, whose LIBRARIES value the link command
// repeats verbatim.
void printToolkitVariables(llvm::raw_ostream &out, const Toolkit &t) {
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

// -run: like nvcc, the program runs through the shell, `command` (its path
// as written) followed by the -run-args words, and mycc exits with its status.
// Meson checks its CUDA compiler with `--run "<path>"`, the quotes being part
// of the argument: the shell removes them, as it does for nvcc.
int runProgram(const std::string &command, const Options &o) {
  std::string line = command;
  for (const std::string &arg : o.runArgs) line += " " + arg;
  if (o.verbose || o.dryrun)
    (o.dryrun ? llvm::outs() : llvm::errs()) << "#$ " << line << "\n";
  if (o.dryrun) return 0;
  llvm::outs().flush();
  llvm::errs().flush();
  llvm::StringRef args[] = {"sh", "-c", line};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait("/bin/sh", args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc < 0) return error("-run: cannot run '" + command + "': " + message);
  return rc;
}

// -run with a single input that is not something to compile or link: nvcc
// runs it as it is.
bool isProgramToRun(const Options &o) {
  return o.run && o.inputs.size() == 1 && !isBuildInput(o, o.inputs[0]);
}

// The built program as a shell word: ./"a.out" in nvcc's spelling, single
// quotes here.
std::string shellWord(std::string path) {
  if (path.find('/') == std::string::npos) path = "./" + path;
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The host compiler: -ccbin as given (a directory means its g++), else g++
// from PATH, by its absolute path.
std::string hostCompiler(const Options &o) {
  if (!o.ccbin.empty()) {
    if (llvm::sys::fs::is_directory(o.ccbin)) return o.ccbin + "/g++";
    return o.ccbin;
  }
  if (auto found = llvm::sys::findProgramByName("g++")) return *found;
  return "g++";
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
    printVersion(cudaPath);
    return 0;
  }
  if (isProgramToRun(o)) return runProgram(o.inputs[0], o);
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

  Toolkit toolkit;
  toolkit.cudaPath = cudaPath;
  toolkit.ptxas = cudaPath + "/bin/ptxas";
  toolkit.hostCompiler = hostCompiler(o);
  toolkit.prefix = prefixDir();

  if (!llvm::sys::fs::exists(cudaPath + "/include/cuda_runtime.h"))
    return error("no CUDA toolkit at '" + cudaPath +
                 "' (set --cuda-path or CUDA_PATH)");
  if (std::optional<CudaVersion> v = readToolkitVersion(cudaPath)) {
    toolkit.versionMajor = v->major;
    toolkit.versionMinor = v->minor;
    toolkit.versionBuild = v->build;
  }
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

  // Like nvcc, the environment comes before the steps, and before an input
  // is rejected: CMake runs `mycc -v __cmake_determine_cuda` only to read it.
  if (o.verbose || o.dryrun)
    printToolkitVariables(o.dryrun ? llvm::outs() : llvm::errs(), toolkit);

  Plan plan;
  std::string planError;
  if (!buildPlan(o, toolkit, tempDir, plan, planError)) {
    if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
    return error(planError);
  }
  if (o.dryrun) {
    for (const Step &s : plan.steps)
      llvm::outs() << "#$ " << describeStep(s, o, toolkit) << "\n";
    if (o.run) runProgram(shellWord(o.output.empty() ? "a.out" : o.output), o);
    return 0;
  }

  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::InitializeAllAsmParsers();
  int rc = executePlan(plan, o, toolkit);
  if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
  if (rc == 0 && o.run)
    return runProgram(shellWord(o.output.empty() ? "a.out" : o.output), o);
  return rc;
}
