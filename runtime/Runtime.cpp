// The mycc runtime: implements runtime/mycc_abi.h on top of NVIDIA's CUDA
// runtime. docs/runtime.md describes the behaviour.
//
// __mycc_register_module hands each module to cudart at once (cudart only
// records it; loading happens lazily at first use). __mycc_launch pops the
// launch configuration and calls cudaLaunchKernel; on the first launch of a
// module on a device it also works out which image the binary-compatibility
// rules pick, to report it (MYCC_LOG=select) or to explain why none fits.

#include "RuntimeInternal.h"

#include "mycc_abi.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

// The registration entry points of libcudart. They are exported by both the
// static and the shared library, but declared only in crt/host_runtime.h,
// which is meant for nvcc's generated code; the signatures are CUDA's.
extern "C" {
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                            char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
                       char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                       size_t *sharedMem, void *stream);
// The C++ ABI's exit-handler registration (what atexit does, with an
// argument): unregistration runs per module, in reverse order of
// registration, interleaved with static destructors like nvcc's atexit.
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
extern void *__dso_handle __attribute__((visibility("hidden")));
}

namespace mycc::rt {

// ---------------------------------------------------------------------------
// GPU-free part (see RuntimeInternal.h)
// ---------------------------------------------------------------------------

namespace {

// Wrappers carry no size; containers are bounded by their own header. The
// bound only keeps pointer arithmetic in the reader meaningful.
constexpr std::size_t kContainerBound = std::size_t(1) << 40;

std::string smName(unsigned sm) { return "sm_" + std::to_string(sm); }

std::string kindWord(ImageKind kind) {
  switch (kind) {
  case ImageKind::Elf:
    return "cubin";
  case ImageKind::Ptx:
    return "PTX";
  case ImageKind::LtoIr:
    return "LTO-IR";
  }
  return "kind-" + std::to_string(static_cast<unsigned>(kind));
}

std::string targetName(const ModuleImage &image) {
  if (image.kind == ImageKind::LtoIr)
    return "lto_" + image.target.arch.str();
  return image.target.str();
}

// Whether the CUDA runtime was given this image (selection considers only
// those).
bool registered(const ModuleInfo &info, const ModuleImage &image) {
  if (image.kind == ImageKind::Ptx)
    return true;
  if (image.kind == ImageKind::Elf)
    return !info.cubinsRemoved;
  return false;
}

std::string withoutFinalPeriod(std::string text) {
  while (!text.empty() && (text.back() == '.' || text.back() == ' '))
    text.pop_back();
  return text;
}

std::string deviceText(int device, const std::string &deviceName,
                       unsigned sm) {
  return "device " + std::to_string(device) + " (" +
         (deviceName.empty() ? std::string("unknown GPU") : deviceName) +
         ", " + smName(sm) + ")";
}

} // namespace

const uint8_t *wrapperContainer(const void *wrapper, std::size_t &size,
                                std::string &error) {
  size = 0;
  if (!wrapper) {
    error = "no fat binary wrapper";
    return nullptr;
  }
  const auto *w = static_cast<const FatbinWrapper *>(wrapper);
  if (w->magic != kWrapperMagic) {
    char buf[96];
    std::snprintf(buf, sizeof buf,
                  "fat binary wrapper has magic 0x%08X, expected 0x%08X",
                  static_cast<unsigned>(w->magic),
                  static_cast<unsigned>(kWrapperMagic));
    error = buf;
    return nullptr;
  }
  if (w->version != 1 && w->version != 2) {
    error = "fat binary wrapper has version " + std::to_string(w->version) +
            ", expected 1 or 2";
    return nullptr;
  }
  if (!w->data) {
    error = "fat binary wrapper has no data";
    return nullptr;
  }
  const auto *data = reinterpret_cast<const uint8_t *>(w->data);
  if (reinterpret_cast<uintptr_t>(data) % 8 != 0) {
    error = "fat binary is not 8-byte aligned";
    return nullptr;
  }
  size = fatbinContainerSize(data, kContainerBound);
  if (size == 0) {
    error = "the wrapper does not point at a fat binary container";
    return nullptr;
  }
  return data;
}

ModuleInfo describeModule(std::string sourceName,
                          const FatbinReadResult &read) {
  ModuleInfo info;
  info.sourceName = std::move(sourceName);
  if (!read) {
    info.readError = read.error;
    return info;
  }
  for (const FatbinImage &image : read.images) {
    ModuleImage m;
    m.kind = image.kind;
    m.target.isVirtual = image.kind == ImageKind::Ptx;
    m.target.arch = image.arch;
    info.images.push_back(m);
  }
  return info;
}

std::string imageLabel(const ModuleImage &image) {
  return targetName(image) + " " + kindWord(image.kind);
}

Selection selectForModule(const ModuleInfo &info, unsigned sm) {
  std::vector<ImageDesc> candidates;
  std::vector<std::size_t> original;
  for (std::size_t i = 0; i < info.images.size(); ++i) {
    if (!registered(info, info.images[i]))
      continue;
    candidates.push_back(ImageDesc{info.images[i].target});
    original.push_back(i);
  }
  SelectionPolicy policy;
  policy.forcePtx = info.cubinsRemoved;
  Selection s = selectImage(sm, candidates, policy);
  if (s.kind != Selection::Kind::None) {
    if (s.index < original.size()) {
      s.index = original[s.index];
    } else { // a selection library bug: report nothing rather than garbage
      s.kind = Selection::Kind::None;
      s.index = 0;
    }
  }
  return s;
}

Explanation explainSelection(const ModuleInfo &info, int device,
                             const std::string &deviceName, unsigned sm) {
  Explanation ex;
  ex.selection = selectForModule(info, sm);
  const Selection &s = ex.selection;
  const std::string where = deviceText(device, deviceName, sm);

  // The log line.
  std::string line = "mycc: select: module " + info.sourceName + " on " +
                     where + ": images ";
  if (info.images.empty())
    line += "none";
  for (std::size_t i = 0; i < info.images.size(); ++i) {
    if (i)
      line += ", ";
    line += imageLabel(info.images[i]);
    if (info.cubinsRemoved && info.images[i].kind == ImageKind::Elf)
      line += " (removed by MYCC_FORCE_PTX)";
  }
  line += " -> ";
  std::string reason = withoutFinalPeriod(s.reason);
  if (s.kind == Selection::Kind::None) {
    line += "none";
  } else {
    line += imageLabel(info.images[s.index]);
    if (s.kind == Selection::Kind::PtxJit)
      line += ", JIT-compiled for " + smName(sm);
  }
  if (!reason.empty())
    line += " (" + reason + ")";
  ex.logLine = std::move(line);

  if (s.kind != Selection::Kind::None)
    return ex;

  // Nothing fits: say what the module carries and how to fix the build.
  std::string err = "mycc: error: no image in " + info.sourceName +
                    " runs on " + where + ": ";
  std::string carried;
  unsigned ptxArch = 0; // highest image arch the device could JIT from
  for (const ModuleImage &image : info.images) {
    if (image.kind != ImageKind::Elf && image.kind != ImageKind::Ptx)
      continue;
    if (!carried.empty())
      carried += ", ";
    carried += targetName(image) + " (" + kindWord(image.kind);
    if (info.cubinsRemoved && image.kind == ImageKind::Elf)
      carried += ", removed by MYCC_FORCE_PTX";
    carried += ")";
    if (image.target.arch.sm <= sm)
      ptxArch = std::max(ptxArch, image.target.arch.sm);
  }
  if (carried.empty())
    err += "it carries no cubin and no PTX.";
  else
    err += "it carries " + carried + ".";
  err += " Rebuild with " + suggestGencode(sm);
  if (ptxArch != 0 && ptxArch != sm) {
    std::string a = std::to_string(ptxArch);
    err += ", or add PTX with -gencode arch=compute_" + a + ",code=compute_" +
           a;
  }
  err += ".";
  if (info.cubinsRemoved)
    err += " Or unset MYCC_FORCE_PTX.";
  ex.error = std::move(err);
  return ex;
}

std::string describeLoaded(const ModuleInfo &info, const Selection &selection,
                           int device, unsigned sm, int binaryVersion,
                           int ptxVersion) {
  std::string line = "mycc: select: module " + info.sourceName +
                     " on device " + std::to_string(device) +
                     ": loaded binaryVersion " +
                     std::to_string(binaryVersion) + " ptxVersion " +
                     std::to_string(ptxVersion);
  if (selection.kind == Selection::Kind::None ||
      selection.index >= info.images.size())
    return line;
  const ModuleImage &image = info.images[selection.index];
  const int arch = static_cast<int>(image.target.arch.sm);
  std::string expected;
  if (selection.kind == Selection::Kind::Cubin) {
    if (binaryVersion != arch)
      expected = "binaryVersion " + std::to_string(arch);
  } else {
    if (ptxVersion != arch || binaryVersion != static_cast<int>(sm))
      expected = "binaryVersion " + std::to_string(sm) + " ptxVersion " +
                 std::to_string(arch);
  }
  if (expected.empty())
    line += ", as selected";
  else
    line += "; differs from the selection: " + imageLabel(image) +
            " would give " + expected;
  return line;
}

bool logTopicEnabled(const char *value, std::string_view topic) {
  if (!value)
    return false;
  std::string_view rest(value);
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
      item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
      item.remove_suffix(1);
    if (item == topic)
      return true;
    if (comma == std::string_view::npos)
      break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

bool envFlagSet(const char *value) {
  return value && *value && std::string_view(value) != "0";
}

std::vector<uint8_t> withoutCubins(const std::vector<FatbinImage> &images,
                                   std::string &why) {
  std::vector<FatbinImage> kept;
  bool anyPtx = false;
  for (const FatbinImage &image : images) {
    if (image.kind == ImageKind::Elf)
      continue;
    if (image.compression != FatbinImage::Compression::None) {
      why = "its " + kindWord(image.kind) + " " + image.arch.str() +
            " image is stored compressed";
      return {};
    }
    anyPtx |= image.kind == ImageKind::Ptx;
    kept.push_back(image);
  }
  if (!anyPtx) {
    why = "it carries no PTX";
    return {};
  }
  if (kept.size() == images.size()) {
    why = "it carries no cubin";
    return {};
  }
  for (FatbinImage &image : kept) { // reader-only fields
    image.flags = 0;
    image.storedSize = 0;
  }
  std::vector<uint8_t> out = writeFatbin(kept);
  if (out.empty())
    why = "the fat binary writer failed";
  return out;
}

// ---------------------------------------------------------------------------
// The runtime proper
// ---------------------------------------------------------------------------

namespace {

void emit(std::string line) {
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

bool logSelect() {
  static const bool on = logTopicEnabled(std::getenv("MYCC_LOG"), "select");
  return on;
}

bool forcePtx() {
  static const bool on = envFlagSet(std::getenv("MYCC_FORCE_PTX"));
  return on;
}

constexpr unsigned kMaskDevices = 64;

struct Module {
  std::string name;
  const uint8_t *container = nullptr; // the module's own container
  std::size_t containerSize = 0;
  void **handle = nullptr;
  std::vector<const void *> stubs;

  // MYCC_FORCE_PTX: the PTX-only copy cudart was given instead.
  std::vector<uint8_t> forcedData;
  FatbinWrapper forcedWrapper{};

  // Read at first launch (or at registration under MYCC_FORCE_PTX).
  std::once_flag infoOnce;
  ModuleInfo info;

  // First-launch work, per device. `done` bit d: nothing left to do on
  // device d (d < 64), read without the lock on every launch.
  std::atomic<uint64_t> done{0};
  std::mutex mutex; // guards the fields below
  struct DeviceState {
    bool checked = false; // selection computed, messages printed
    bool done = false;
    Selection selection;
    unsigned sm = 0;
  };
  std::vector<DeviceState> devices;

  const ModuleInfo &moduleInfo() {
    // Under MYCC_FORCE_PTX the registration has run the once-call already.
    std::call_once(infoOnce, [this] {
      info = describeModule(name, readFatbin(container, containerSize));
      if (!info.readError.empty())
        emit("mycc: error: cannot read the fat binary of " + name + ": " +
             info.readError);
    });
    return info;
  }
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void *, Module *> byStub;
  std::atomic<uint64_t> generation{1};
};

// Never destroyed: launches may come from static destructors and other
// threads while the process exits.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

struct StubCache {
  const void *stub;
  Module *module;
  uint64_t generation;
};
thread_local StubCache tlsStubCache{nullptr, nullptr, 0};

Module *findModule(const void *stub) {
  Registry &r = registry();
  if (tlsStubCache.stub == stub &&
      tlsStubCache.generation == r.generation.load(std::memory_order_acquire))
    return tlsStubCache.module;
  Module *m = nullptr;
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.byStub.find(stub);
    if (it != r.byStub.end())
      m = it->second;
    gen = r.generation.load(std::memory_order_relaxed);
  }
  tlsStubCache = StubCache{stub, m, gen};
  return m;
}

std::atomic<int> gDeviceCount{-1};

// Calls a CUDA function for the runtime's own information without leaving
// its error behind for cudaGetLastError (unless one was already pending).
template <typename F> cudaError_t quietly(F &&f) {
  cudaError_t before = cudaPeekAtLastError();
  cudaError_t err = f();
  if (err != cudaSuccess && before == cudaSuccess)
    (void)cudaGetLastError();
  return err;
}

std::string deviceName(int device) {
  cudaDeviceProp prop;
  if (quietly([&] { return cudaGetDeviceProperties(&prop, device); }) !=
      cudaSuccess)
    return {};
  prop.name[sizeof prop.name - 1] = '\0';
  return prop.name;
}

void unregisterModule(void *p) {
  Module *m = static_cast<Module *>(p);
  Registry &r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const void *stub : m->stubs) {
      auto it = r.byStub.find(stub);
      if (it != r.byStub.end() && it->second == m)
        r.byStub.erase(it);
    }
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  if (m->handle)
    __cudaUnregisterFatBinary(m->handle);
  m->handle = nullptr;
  // cudart no longer reads the copy; the Module itself stays (a thread may
  // still hold a pointer to it).
  std::vector<uint8_t>().swap(m->forcedData);
}

// The launch itself, with the first-launch work around it when the stub
// belongs to a module not yet seen on this device.
cudaError_t launchChecked(Module *m, int device, const void *stub, dim3 grid,
                          dim3 block, void **args, size_t shmem,
                          cudaStream_t stream) {
  std::unique_lock<std::mutex> lock(m->mutex);
  if (m->devices.size() <= static_cast<std::size_t>(device))
    m->devices.resize(device + 1);
  Module::DeviceState &st = m->devices[device];
  if (st.done) {
    lock.unlock();
    return cudaLaunchKernel(stub, grid, block, args, shmem, stream);
  }

  if (!st.checked) {
    int major = 0, minor = 0;
    if (quietly([&] {
          return cudaDeviceGetAttribute(
              &major, cudaDevAttrComputeCapabilityMajor, device);
        }) != cudaSuccess ||
        quietly([&] {
          return cudaDeviceGetAttribute(
              &minor, cudaDevAttrComputeCapabilityMinor, device);
        }) != cudaSuccess) {
      lock.unlock(); // try again next time; cudart reports the problem
      return cudaLaunchKernel(stub, grid, block, args, shmem, stream);
    }
    st.sm = static_cast<unsigned>(major * 10 + minor);
    const ModuleInfo &info = m->moduleInfo();
    st.checked = true;
    if (info.readError.empty()) {
      st.selection = selectForModule(info, st.sm);
      bool none = st.selection.kind == Selection::Kind::None;
      if (logSelect() || none) {
        Explanation ex =
            explainSelection(info, device, deviceName(device), st.sm);
        if (logSelect())
          emit(ex.logLine);
        if (!ex.error.empty())
          emit(ex.error);
      }
    }
    // Only the "loaded" line can remain to be printed.
    st.done = !logSelect() || !info.readError.empty() ||
              st.selection.kind == Selection::Kind::None;
  }

  cudaError_t err = cudaLaunchKernel(stub, grid, block, args, shmem, stream);

  if (!st.done && err == cudaSuccess) {
    cudaFuncAttributes attr;
    if (quietly([&] { return cudaFuncGetAttributes(&attr, stub); }) ==
        cudaSuccess)
      emit(describeLoaded(m->moduleInfo(), st.selection, device, st.sm,
                          attr.binaryVersion, attr.ptxVersion));
    else
      emit("mycc: select: module " + m->name + " on device " +
           std::to_string(device) +
           ": cudaFuncGetAttributes failed after the first launch");
    st.done = true;
  }
  if (st.done && static_cast<unsigned>(device) < kMaskDevices)
    m->done.fetch_or(uint64_t(1) << device, std::memory_order_release);
  return err;
}

} // namespace

} // namespace mycc::rt

using namespace mycc;
using namespace mycc::rt;

extern "C" void __mycc_register_module(const struct __mycc_module_desc *desc) {
  if (!desc) {
    emit("mycc: error: a module registered itself without a descriptor");
    return;
  }
  if (desc->abi_version != MYCC_ABI_VERSION) {
    emit("mycc: error: a module was built for runtime interface version " +
         std::to_string(desc->abi_version) + ", this runtime implements " +
         std::to_string(MYCC_ABI_VERSION) +
         "; rebuild it with the matching mycc (its kernels will not launch)");
    return;
  }
  std::string name = desc->source_name && *desc->source_name
                         ? desc->source_name
                         : "<unnamed module>";
  if ((desc->num_kernels && !desc->kernels) ||
      (desc->num_vars && !desc->vars)) {
    emit("mycc: error: module " + name +
         " has a malformed descriptor; its kernels will not launch");
    return;
  }
  std::string error;
  std::size_t size = 0;
  const uint8_t *container =
      wrapperContainer(desc->fatbin_wrapper, size, error);
  if (!container) {
    emit("mycc: error: module " + name + ": " + error +
         "; its kernels will not launch");
    return;
  }

  auto *m = new Module; // lives until the process exits
  m->name = name;
  m->container = container;
  m->containerSize = size;
  void *wrapper = const_cast<void *>(desc->fatbin_wrapper);

  if (forcePtx()) {
    FatbinReadResult read = readFatbin(container, size);
    std::call_once(m->infoOnce, [&] { m->info = describeModule(name, read); });
    std::string why;
    if (!read) {
      why = "its fat binary is unreadable (" + read.error + ")";
    } else if (static_cast<const FatbinWrapper *>(wrapper)->version != 1) {
      why = "it is a device-linked fat binary";
    } else if (std::none_of(read.images.begin(), read.images.end(),
                            [](const FatbinImage &image) {
                              return image.kind == ImageKind::Elf;
                            })) {
      why.clear(); // nothing to remove
    } else {
      m->forcedData = withoutCubins(read.images, why);
    }
    if (!m->forcedData.empty()) {
      m->forcedWrapper = FatbinWrapper{
          kWrapperMagic, 1,
          reinterpret_cast<const unsigned long long *>(m->forcedData.data()),
          nullptr};
      wrapper = &m->forcedWrapper;
      m->info.cubinsRemoved = true;
    } else if (!why.empty()) {
      emit("mycc: warning: MYCC_FORCE_PTX ignored for " + name + ": " + why);
    }
  }

  m->handle = __cudaRegisterFatBinary(wrapper);
  if (!m->handle) {
    emit("mycc: error: the CUDA runtime refused the fat binary of " + name);
    return;
  }
  for (unsigned i = 0; i < desc->num_kernels; ++i) {
    const __mycc_kernel_entry &k = desc->kernels[i];
    if (!k.stub || !k.device_name) {
      emit("mycc: error: module " + name + " has a malformed kernel entry " +
           std::to_string(i) + "; skipped");
      continue;
    }
    __cudaRegisterFunction(m->handle, static_cast<const char *>(k.stub),
                           const_cast<char *>(k.device_name), k.device_name,
                           -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    m->stubs.push_back(k.stub);
  }
  for (unsigned i = 0; i < desc->num_vars; ++i) {
    const __mycc_var_entry &v = desc->vars[i];
    if (!v.shadow || !v.device_name) {
      emit("mycc: error: module " + name +
           " has a malformed variable entry " + std::to_string(i) +
           "; skipped");
      continue;
    }
    __cudaRegisterVar(m->handle, static_cast<char *>(v.shadow),
                      const_cast<char *>(v.device_name), v.device_name, 0,
                      static_cast<size_t>(v.size), v.is_constant ? 1 : 0, 0);
  }
  __cudaRegisterFatBinaryEnd(m->handle);

  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const void *stub : m->stubs)
      r.byStub.emplace(stub, m); // the first module to register a stub wins
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  __cxa_atexit(unregisterModule, m, &__dso_handle);
}

extern "C" int __mycc_launch(const void *stub, void **args) {
  dim3 grid, block;
  size_t shmem = 0;
  cudaStream_t stream = nullptr;
  cudaError_t err =
      __cudaPopCallConfiguration(&grid, &block, &shmem, &stream);
  if (err != cudaSuccess)
    return err;

  Module *m = findModule(stub);
  if (m) {
    uint64_t done = m->done.load(std::memory_order_acquire);
    // One device, already handled: no CUDA call beyond the launch.
    if (!((done & 1) && gDeviceCount.load(std::memory_order_relaxed) == 1)) {
      int device = 0;
      if (cudaGetDevice(&device) == cudaSuccess && device >= 0 &&
          !(static_cast<unsigned>(device) < kMaskDevices &&
            (done >> device) & 1)) {
        if (gDeviceCount.load(std::memory_order_relaxed) < 0) {
          int count = 0;
          if (quietly([&] { return cudaGetDeviceCount(&count); }) ==
              cudaSuccess)
            gDeviceCount.store(count, std::memory_order_relaxed);
        }
        return launchChecked(m, device, stub, grid, block, args, shmem,
                             stream);
      }
    }
  }
  return cudaLaunchKernel(stub, grid, block, args, shmem, stream);
}
