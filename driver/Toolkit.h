// The toolkit as one unit: where the CUDA toolkit is, its version, the tools
// mycc runs from it (ptxas), the host compiler, and mycc's own installation
// (the toolkit-shaped prefix with the prelude header and the runtime). The
// driver plans with it, --version prints it, and -v/--dryrun print its
// environment lines, all from this one discovery.
#pragma once

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
}

namespace mycc::driver {

struct Options;

struct CudaVersion {
  unsigned major = 0, minor = 0, build = 0;
  std::string str() const; // "13.0.88"
};

// Reads the version of the toolkit at `cudaPath`, from the first of:
//  1. version.json, its "cuda_nvcc" entry (every toolkit installer writes it);
//  2. a pip-assembled toolkit's dist-info/nvidia_cuda_nvcc-X.Y.Z.dist-info;
//  3. the release line of `<cudaPath>/bin/nvcc --version` (skipped when that
//     nvcc is mycc itself);
//  4. CUDA_VERSION in include/cuda.h (major and minor only, build 0).
// `source` names where the version came from. nullopt if none says.
std::optional<CudaVersion> readToolkitVersion(const std::string &cudaPath,
                                              std::string *source = nullptr);

// "13.0.88" → {13, 0, 88}; also accepts "13.0" (build 0).
std::optional<CudaVersion> parseCudaVersion(const std::string &text);

struct Toolkit {
  std::string cudaPath;
  std::string ptxas;
  // The device linker of nvcc's relocatable device code, and the source of
  // the registration its output needs (bin/crt/link.stub; -r's output:
  // bin/crt/prelink.stub).
  std::string nvlink, linkStub, prelinkStub;
  std::string libdevice; // -ldir's libdevice.10.bc; empty: Clang finds the toolkit's
  // The host compiler that compiles .c/.cpp inputs and links: -ccbin, else
  // NVCC_CCBIN as given (a directory means its g++),
  // else g++ found on PATH (an absolute path: build systems take the link
  // command's first word as their link driver).
  std::string hostCompiler;
  // Whether the host half of each .cu goes through the host compiler
  // (preprocess, lower, compile: docs/design.md, "The host half"), as with
  // nvcc; with --host-in-process, Clang compiles it in process.
  bool hostCompilerPipeline = true;
  // With it, the host compiler's own header directory (`<compiler>
  // -print-file-name=include`: GCC's omp.h), which the device side searches
  // last, as nvcc's device preprocessing by the host compiler does; empty
  // if it names none.
  std::string hostCompilerIncludeDir;
  std::string hostHeader; // include/mycc/host.h, for the host compiler
  // The toolkit-shaped prefix: the directory above mycc's bin/, whose lib64/
  // holds mycc's runtime (libmycc_rt.a) and links to the toolkit's libraries
  // (docs/build-systems.md).
  std::string prefix;
  std::string self;    // mycc's executable: in-process jobs' command lines
  std::string prelude; // include/mycc/prelude.h, injected into each .cu
  // The toolkit's nvcc version (nvcc's __CUDACC_VER_*__); major 0: unknown.
  CudaVersion version;
  std::string versionSource; // where the version was read from
};

// The CUDA toolkit directory: --cuda-path, else CUDA_PATH, else the one mycc
// was built with.
std::string cudaPathOf(const Options &options);

// Finds everything. False with a one-line `error` when there is no toolkit
// at the path or mycc's installation is incomplete. `self` is mycc's
// executable (symbolic links resolved: bin/nvcc -> mycc finds the same
// prefix).
bool discoverToolkit(const Options &options, const std::string &self,
                     Toolkit &toolkit, std::string &error);

// nvcc's LIBRARIES value, as `-v` prints it and as the link command contains
// it verbatim: "-L<prefix>/lib64/stubs" "-L<prefix>/lib64".
std::string librariesValue(const Toolkit &toolkit);

// nvcc's environment lines (#$ TOP=..., INCLUDES, LIBRARIES, ...), printed
// once before the jobs with -v and --dryrun; build systems read them.
void printEnvironment(llvm::raw_ostream &out, const Toolkit &toolkit);

} // namespace mycc::driver
