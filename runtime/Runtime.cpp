// The mycc runtime: implements runtime/mycc_abi.h on top of NVIDIA's CUDA
// runtime. docs/runtime.md describes the behaviour.
//
// __mycc_register_module hands each module to cudart at once (cudart only
// records it; loading happens lazily at first use). __mycc_launch pops the
// launch configuration and calls cudaLaunchKernel; on the first launch of a
// module on a device it also works out which image the binary-compatibility
// rules pick, to report it (MYCC_LOG=select) or to explain why none fits, and
// when that is PTX, it takes the cubin from the JIT cache (JitCache.h) or
// compiles and stores it, and points the module's wrapper at a container
// that holds it, before cudart loads the module.

#include "JitCache.h"
#include "RuntimeInternal.h"

#include "mycc_abi.h"

#include <cuda.h> // types and prototypes only: the driver is reached through
                  // cudaGetDriverEntryPointByVersion, never linked
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                       size_t *sharedMem, void *stream);
// The C++ ABI's exit-handler registration (what atexit does, with an
// argument): unregistration runs per module, in reverse order of
// registration, interleaved with static destructors like nvcc's atexit.
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
extern void *__dso_handle __attribute__((visibility("hidden")));
}

namespace mycc::rt {

namespace {

void emit(std::string line) {
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

bool logSelect() {
  static const bool on = logTopicEnabled(std::getenv("MYCC_LOG"), "select");
  return on;
}

const JitEnvironment &processJitEnvironment() {
  static const JitEnvironment env = jitEnvironment(
      std::getenv("MYCC_FORCE_PTX"), std::getenv("CUDA_FORCE_PTX_JIT"),
      std::getenv("CUDA_DISABLE_PTX_JIT"));
  return env;
}

// describeModule, with what the process environment says about PTX JIT.
ModuleInfo describeModuleHere(const std::string &name,
                              const FatbinReadResult &read) {
  ModuleInfo info = describeModule(name, read);
  const JitEnvironment &jit = processJitEnvironment();
  if (!jit.forcedBy.empty()) info.forcedBy = jit.forcedBy;
  info.ptxJitDisabled = jit.ptxJitDisabled;
  return info;
}

constexpr unsigned kMaskDevices = 64;

struct Module {
  std::string name;
  const uint8_t *container = nullptr; // the module's own container
  std::size_t containerSize = 0;
  void **handle = nullptr;
  std::vector<const void *> stubs;
  // __managed__ variables: cudart sets their host pointers when it loads the
  // module, which the first host access asks for (__mycc_init_managed).
  bool hasManaged = false;
  std::once_flag loadOnce;
  std::atomic<bool> loadedEarly{false}; // by __mycc_init_managed

  // The wrapper registered with cudart: a copy the runtime owns (the one in
  // the object's .nvFatBinSegment may be read-only), whose data pointer the
  // first launch may change before cudart loads the module.
  FatbinWrapper wrapper{};
  // The container the JIT cache's containers are built on: the module's
  // own, or under MYCC_FORCE_PTX its PTX-only copy `forcedData`.
  const uint8_t *basis = nullptr;
  std::size_t basisSize = 0;
  std::vector<uint8_t> forcedData;
  // JIT cache: the cubins obtained so far (one per SM, guarded by `mutex`),
  // and every container the wrapper pointed at, kept until unregistration.
  std::vector<FatbinImage> jitCubins;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> jitContainers;

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
      // The entry headers alone: no image is copied to choose one.
      FatbinReadOptions headers;
      headers.payloads = FatbinReadOptions::Payloads::None;
      info = describeModuleHere(name, readFatbin(container, containerSize, headers));
      if (!info.readError.empty())
        emit("mycc: error: cannot read the fat binary of " + name + ": " +
             info.readError);
    });
    return info;
  }
};

// Units of relocatable device code share the device link's image. Like
// nvcc's link stub, the image is registered with the CUDA runtime once every
// unit it linked has registered itself, with all their kernels and variables
// on one handle (so a variable one unit defines is the one another unit's
// kernels use).
struct LinkedGroup {
  std::vector<const __mycc_module_desc *> units;
  bool registered = false;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void *, Module *> byStub;
  std::atomic<uint64_t> generation{1};
  std::unordered_map<const __mycc_linked_image *, LinkedGroup> linked;
  // Kernels of groups still waiting for units: a unit the device link saw
  // may be missing from the program (an archive member the host link did not
  // take); the first launch of a waiting kernel registers what is there.
  std::unordered_map<const void *, const __mycc_linked_image *> waiting;
  // The module each unit's descriptor was registered in.
  std::unordered_map<const __mycc_module_desc *, Module *> byUnit;
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
  // cudart no longer reads the copies; the Module itself stays (a thread may
  // still hold a pointer to it).
  std::lock_guard<std::mutex> lock(m->mutex);
  std::vector<uint8_t>().swap(m->forcedData);
  m->jitContainers.clear();
  m->jitCubins.clear();
}

// ---------------------------------------------------------------------------
// PTX JIT through the JIT cache
// ---------------------------------------------------------------------------

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

// The cache, opened at the first PTX JIT of the process; null when it is off
// (MYCC_CACHE_DISABLE, or a directory it must not use: warned once).
struct JitState {
  std::unique_ptr<JitCache> cache;
  std::string driver; // driverVersionText
};

JitState &jitState() {
  static JitState *state = [] {
    auto *s = new JitState;
    JitCacheSettings settings = jitCacheSettingsFromEnvironment();
    for (const std::string &warning : settings.warnings)
      emit("mycc: " + warning);
    if (!settings.enabled)
      return s;
    auto cache = std::make_unique<JitCache>(settings.dir, settings.maxSize);
    std::string why;
    if (!cache->open(why)) {
      emit("mycc: warning: JIT cache disabled: " + why);
      return s;
    }
    int version = 0;
    quietly([&] { return cudaDriverGetVersion(&version); });
    std::string proc;
    if (FILE *f = std::fopen("/proc/driver/nvidia/version", "r")) {
      char buffer[512];
      std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
      proc.assign(buffer, n);
      std::fclose(f);
    }
    s->driver = driverVersionText(version, proc);
    s->cache = std::move(cache);
    return s;
  }();
  return *state;
}

// The driver's JIT linker, looked up once through cudart.
struct DriverLinker {
  decltype(&::cuLinkCreate) create = nullptr;
  decltype(&::cuLinkAddData) addData = nullptr;
  decltype(&::cuLinkComplete) complete = nullptr;
  decltype(&::cuLinkDestroy) destroy = nullptr;
  decltype(&::cuGetErrorName) errorName = nullptr;
  std::string error; // set when an entry point is missing
};

template <typename F>
void driverEntryPoint(const char *symbol, F &fn, std::string &error) {
  void *p = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  cudaError_t err = quietly([&] {
    return cudaGetDriverEntryPointByVersion(symbol, &p, CUDART_VERSION,
                                            cudaEnableDefault, &status);
  });
  if (err == cudaSuccess && status == cudaDriverEntryPointSuccess && p)
    fn = reinterpret_cast<F>(p);
  else if (error.empty())
    error =
        std::string("the driver has no entry point ") + symbol +
        (err != cudaSuccess ? std::string(" (") + cudaGetErrorName(err) + ")"
                            : std::string());
}

const DriverLinker &driverLinker() {
  static const DriverLinker *linker = [] {
    auto *l = new DriverLinker;
    driverEntryPoint("cuLinkCreate", l->create, l->error);
    driverEntryPoint("cuLinkAddData", l->addData, l->error);
    driverEntryPoint("cuLinkComplete", l->complete, l->error);
    driverEntryPoint("cuLinkDestroy", l->destroy, l->error);
    driverEntryPoint("cuGetErrorName", l->errorName, l->error);
    return l;
  }();
  return *linker;
}

// Compiles `ptx` for the device of the current context with the driver's JIT
// linker (cuLinkCreate / cuLinkAddData / cuLinkComplete / cuLinkDestroy).
bool jitCompile(const std::string &ptx, const JitOptions &options,
                std::string &cubin, std::string &error) {
  const DriverLinker &l = driverLinker();
  if (!l.error.empty()) {
    error = l.error;
    return false;
  }
  char log[4096] = {};
  CUjit_option keys[8];
  void *values[8];
  unsigned n = 0;
  auto add = [&](CUjit_option key, uintptr_t value) {
    keys[n] = key;
    values[n] = reinterpret_cast<void *>(value);
    ++n;
  };
  add(CU_JIT_ERROR_LOG_BUFFER, reinterpret_cast<uintptr_t>(log));
  add(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, sizeof log - 1);
  if (options.optimizationLevel >= 0)
    add(CU_JIT_OPTIMIZATION_LEVEL, unsigned(options.optimizationLevel));
  if (options.maxRegisters > 0)
    add(CU_JIT_MAX_REGISTERS, unsigned(options.maxRegisters));
  if (options.lineInfo)
    add(CU_JIT_GENERATE_LINE_INFO, 1);
  if (options.debugInfo)
    add(CU_JIT_GENERATE_DEBUG_INFO, 1);

  auto failed = [&](const char *call, CUresult r) {
    const char *name = nullptr;
    if (l.errorName(r, &name) != CUDA_SUCCESS || !name)
      name = "unknown error";
    error = std::string(call) + ": " + name;
    std::string_view first(log);
    first = first.substr(0, first.find('\n'));
    if (!first.empty())
      error += ": " + std::string(first);
  };
  CUlinkState state = nullptr;
  CUresult r = l.create(n, keys, values, &state);
  if (r != CUDA_SUCCESS) {
    failed("cuLinkCreate", r);
    return false;
  }
  r = l.addData(state, CU_JIT_INPUT_PTX, const_cast<char *>(ptx.c_str()),
                ptx.size() + 1, "mycc-jit.ptx", 0, nullptr, nullptr);
  if (r != CUDA_SUCCESS)
    failed("cuLinkAddData", r);
  void *out = nullptr;
  size_t outSize = 0;
  if (r == CUDA_SUCCESS) {
    r = l.complete(state, &out, &outSize);
    if (r != CUDA_SUCCESS)
      failed("cuLinkComplete", r);
    else if (!out || outSize < 4 || std::memcmp(out, "\177ELF", 4) != 0) {
      error = "the JIT linker returned no cubin";
      r = CUDA_ERROR_UNKNOWN;
    } else
      cubin.assign(static_cast<const char *>(out), outSize);
  }
  l.destroy(state);
  return r == CUDA_SUCCESS;
}

// At the first launch of module `m` on a device of compute capability `sm`,
// when the selection is PTX `selection.index`: the cubin for `sm`, from the
// cache or compiled and stored, goes in front of the module's images in a new
// container, and the wrapper cudart was given points at it from now on. The
// note for the log line ("JIT cache hit, 0.4 ms"); empty when the cache is
// off. Runs under m->mutex.
std::string jitThroughCache(Module &m, unsigned sm,
                            const Selection &selection) {
  const auto start = std::chrono::steady_clock::now();
  for (const FatbinImage &image : m.jitCubins)
    if (image.arch.sm == sm)
      return "JIT cache: cubin already in use on another device";
  JitState &state = jitState();
  if (!state.cache)
    return {};
  if (m.wrapper.version != 1)
    return "JIT cache not used: device-linked fat binary";
  if (m.loadedEarly.load(std::memory_order_acquire))
    return "JIT cache not used: the module was loaded at the first host "
           "access to a __managed__ variable";
  if (processJitEnvironment().strictForce)
    return "JIT cache not used: under CUDA_FORCE_PTX_JIT the driver "
           "JIT-compiles the PTX itself";
  const char *loading = std::getenv("CUDA_MODULE_LOADING");
  if (loading && std::string_view(loading) == "EAGER")
    return "JIT cache not used: CUDA_MODULE_LOADING=EAGER loads modules "
           "before their first launch";
  FatbinReadOptions chosen; // the chosen PTX's payload, no other
  chosen.payloads = FatbinReadOptions::Payloads::One;
  chosen.payloadIndex = selection.index;
  FatbinReadResult read = readFatbin(m.container, m.containerSize, chosen);
  if (!read || selection.index >= read.images.size() ||
      read.images[selection.index].kind != ImageKind::Ptx)
    return "JIT cache not used: the PTX image cannot be read";
  FatbinImage &ptx = read.images[selection.index];
  std::string undecoded;
  if (!decompressImage(ptx, undecoded))
    return "JIT cache not used: " + undecoded;
  if (ptx.debug)
    return "JIT cache not used: debug PTX";
  JitOptions options;
  std::string why;
  if (!parseJitOptions(ptx.options, options, why))
    return "JIT cache not used: JIT options \"" + ptx.options + "\": " + why;

  JitKey key =
      jitCacheKey(JitKeyInput{ptx.payload, sm, state.driver, ptx.options});
  std::string cubin, note;
  JitCache::Lookup found = state.cache->load(key, cubin, &why);
  if (found != JitCache::Lookup::Hit) {
    if (found == JitCache::Lookup::Damaged)
      note = "JIT cache entry damaged (" + why + ") and removed; ";
    else
      note = "JIT cache miss: ";
    // The JIT linker compiles for the current context's device: make sure
    // the primary context exists and is current (the launch needs it
    // anyway; with lazy loading this loads no module).
    cudaError_t err = quietly([] { return cudaFree(nullptr); });
    if (err != cudaSuccess)
      return note + "no CUDA context (" + cudaGetErrorName(err) +
             "), left to the driver";
    const auto compileStart = std::chrono::steady_clock::now();
    std::string error;
    if (!jitCompile(ptx.payload, options, cubin, error))
      return note + "JIT compilation failed (" + error +
             "), left to the driver";
    note += "compiled in " + millisecondsText(msSince(compileStart));
    if (state.cache->store(key, cubin, &why))
      note += ", stored";
    else
      note += ", not stored: " + why;
  }

  FatbinImage image;
  image.kind = ImageKind::Elf;
  image.arch = GpuArch{sm, ArchSuffix::None};
  image.payload = std::move(cubin);
  m.jitCubins.push_back(std::move(image));
  auto data = std::make_unique<std::vector<uint8_t>>(
      prependImages(m.jitCubins, m.basis, m.basisSize));
  if (data->empty()) {
    m.jitCubins.pop_back();
    return note + (note.empty() ? "" : "; ") +
           "JIT cache: the container could not be built, left to the driver";
  }
  __atomic_store_n(&m.wrapper.data,
                   reinterpret_cast<const unsigned long long *>(data->data()),
                   __ATOMIC_RELEASE);
  m.jitContainers.push_back(std::move(data));
  if (found == JitCache::Lookup::Hit)
    note = "JIT cache hit, " + millisecondsText(msSince(start));
  return note;
}

// The launch itself, with the first-launch work around it when the stub
// belongs to a module not yet seen on this device.
// The runtime's own queries at a first launch must not invalidate a stream
// capture the launch is part of: this thread's capture mode is relaxed while
// they run (CUDA forbids "unsafe" calls during a global-mode capture).
class RelaxedCaptureMode {
public:
  RelaxedCaptureMode() { cudaThreadExchangeStreamCaptureMode(&mode); }
  ~RelaxedCaptureMode() { cudaThreadExchangeStreamCaptureMode(&mode); }

private:
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
};

bool isCapturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  return quietly([&] { return cudaStreamIsCapturing(stream, &status); }) ==
             cudaSuccess &&
         status != cudaStreamCaptureStatusNone;
}

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
    RelaxedCaptureMode relaxed;
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
      std::string jitNote;
      // Inside a stream capture the JIT cache stands aside: compiling needs
      // the context (cudaFree) and the driver JITs at instantiation anyway.
      if (st.selection.kind == Selection::Kind::PtxJit && !isCapturing(stream))
        jitNote = jitThroughCache(*m, st.sm, st.selection);
      if (logSelect() || none) {
        Explanation ex =
            explainSelection(info, device, deviceName(device), st.sm, jitNote);
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
    RelaxedCaptureMode relaxed;
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

namespace {

std::string unitName(const __mycc_module_desc *desc) {
  return desc->source_name && *desc->source_name ? desc->source_name
                                                 : "<unnamed module>";
}

void registerEntries(Module &module,
                     const std::vector<const __mycc_module_desc *> &units);

// Registers one fat binary and the kernels and variables of `units` with the
// CUDA runtime.
void registerModule(const std::string &name, const void *fatbinWrapper,
                    const std::vector<const __mycc_module_desc *> &units) {
  std::string error;
  std::size_t size = 0;
  const uint8_t *container = wrapperContainer(fatbinWrapper, size, error);
  if (!container) {
    emit("mycc: error: module " + name + ": " + error +
         "; its kernels will not launch");
    return;
  }

  auto *m = new Module; // lives until the process exits
  m->name = name;
  m->container = container;
  m->containerSize = size;
  m->basis = container;
  m->basisSize = size;
  const auto *wrapper = static_cast<const FatbinWrapper *>(fatbinWrapper);
  // A version-1 wrapper is {magic, 1, data, NULL}; a version-2 one keeps its
  // fourth field.
  m->wrapper = FatbinWrapper{kWrapperMagic, wrapper->version, wrapper->data,
                             wrapper->filenameOrFatbins};

  const JitEnvironment &jit = processJitEnvironment();
  if (!jit.forcedBy.empty()) {
    FatbinReadResult read = readFatbin(container, size);
    std::call_once(m->infoOnce,
                   [&] { m->info = describeModuleHere(name, read); });
    std::string why;
    if (!read) {
      why = "its fat binary is unreadable (" + read.error + ")";
    } else if (wrapper->version != 1) {
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
      m->wrapper.data =
          reinterpret_cast<const unsigned long long *>(m->forcedData.data());
      m->basis = m->forcedData.data();
      m->basisSize = m->forcedData.size();
      m->info.cubinsRemoved = true;
    } else if (jit.strictForce && why == kCarriesNoPtx) {
      // The driver, which reads the variable too, ignores the cubins.
      emit("mycc: error: CUDA_FORCE_PTX_JIT is set and " + name +
           " carries no PTX: the driver will not load its cubins");
    } else if (!why.empty()) {
      // Left to the driver, which JIT-compiles under CUDA_FORCE_PTX_JIT.
      emit("mycc: warning: " + jit.forcedBy + " ignored for " + name + ": " +
           why);
    }
  }

  m->handle = __cudaRegisterFatBinary(&m->wrapper);
  if (!m->handle) {
    emit("mycc: error: the CUDA runtime refused the fat binary of " + name);
    return;
  }
  registerEntries(*m, units);
  __cudaRegisterFatBinaryEnd(m->handle);

  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const void *stub : m->stubs)
      r.byStub.emplace(stub, m); // the first module to register a stub wins
    for (const __mycc_module_desc *desc : units) r.byUnit[desc] = m;
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  __cxa_atexit(unregisterModule, m, &__dso_handle);
}

// The kernels and variables of `units` on the module's handle.
void registerEntries(Module &module,
                     const std::vector<const __mycc_module_desc *> &units) {
  Module *m = &module;
  for (const __mycc_module_desc *desc : units) {
    for (unsigned i = 0; i < desc->num_kernels; ++i) {
      const __mycc_kernel_entry &k = desc->kernels[i];
      // A kernel template's stub the host compiler did not instantiate (a
      // weak reference): nothing on the host can launch it.
      if (!k.stub && k.device_name) continue;
      if (!k.stub || !k.device_name) {
        emit("mycc: error: module " + unitName(desc) +
             " has a malformed kernel entry " + std::to_string(i) +
             "; skipped");
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
        emit("mycc: error: module " + unitName(desc) +
             " has a malformed variable entry " + std::to_string(i) +
             "; skipped");
        continue;
      }
      if (v.flags & __MYCC_VAR_MANAGED) {
        __cudaRegisterManagedVar(m->handle, static_cast<void **>(v.shadow),
                                 const_cast<char *>(v.device_name),
                                 v.device_name, 0, static_cast<size_t>(v.size),
                                 0, 0);
        m->hasManaged = true;
      } else {
        __cudaRegisterVar(m->handle, static_cast<char *>(v.shadow),
                          const_cast<char *>(v.device_name), v.device_name, 0,
                          static_cast<size_t>(v.size),
                          (v.flags & __MYCC_VAR_CONSTANT) ? 1 : 0, 0);
      }
    }
  }
}

// Registers the units of `image` that have arrived (all of them, unless a
// launch could not wait). Called without the registry's lock.
void registerLinkedGroup(const __mycc_linked_image *image,
                         std::vector<const __mycc_module_desc *> units) {
  std::string name = image->name && *image->name ? image->name
                                                 : "<device link>";
  registerModule(name, image->fatbin_wrapper, units);
}

// Marks `group` registered and hands out its units, whose kernels stop
// waiting. Called with the registry's lock held.
std::vector<const __mycc_module_desc *> takeUnits(Registry &r,
                                                  LinkedGroup &group) {
  group.registered = true;
  std::vector<const __mycc_module_desc *> units;
  units.swap(group.units);
  for (const __mycc_module_desc *unit : units)
    for (unsigned i = 0; i < unit->num_kernels; ++i)
      r.waiting.erase(unit->kernels[i].stub);
  return units;
}

void registerLinkedUnit(const __mycc_module_desc *desc) {
  const __mycc_linked_image *image = desc->linked;
  if (image->abi_version != MYCC_ABI_VERSION) {
    emit("mycc: error: the device link of " + unitName(desc) +
         " was made for runtime interface version " +
         std::to_string(image->abi_version) + ", this runtime implements " +
         std::to_string(MYCC_ABI_VERSION) + "; rebuild it with the matching mycc");
    return;
  }
  std::vector<const __mycc_module_desc *> ready;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    LinkedGroup &group = r.linked[image];
    if (group.registered) {
      emit("mycc: error: " + unitName(desc) +
           " registered after its device link was complete (the device link "
           "holds " + std::to_string(image->num_units) +
           " units); its kernels will not launch");
      return;
    }
    group.units.push_back(desc);
    if (group.units.size() < image->num_units) {
      for (unsigned i = 0; i < desc->num_kernels; ++i)
        if (desc->kernels[i].stub) r.waiting[desc->kernels[i].stub] = image;
      return;
    }
    ready = takeUnits(r, group);
  }
  registerLinkedGroup(image, std::move(ready));
}

// A device link still waiting for units when the program needs it (`why`:
// a launch, a host access to a managed variable): registers the units that
// are there. Returns whether it registered anything.
bool registerWaitingGroup(const __mycc_linked_image *image, const char *why) {
  std::vector<const __mycc_module_desc *> ready;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.linked.find(image);
    if (it == r.linked.end() || it->second.registered) return false;
    ready = takeUnits(r, it->second);
  }
  if (logSelect())
    emit("mycc: select: device link " + std::string(image->name ? image->name : "") +
         ": " + std::to_string(ready.size()) + " of its " +
         std::to_string(image->num_units) +
         " units are in the program; registered at " + why);
  registerLinkedGroup(image, std::move(ready));
  return true;
}

bool registerWaitingGroupOf(const void *stub) {
  const __mycc_linked_image *image = nullptr;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.waiting.find(stub);
    if (it == r.waiting.end()) return false;
    image = it->second;
  }
  return registerWaitingGroup(image, "the first launch");
}

Module *moduleOfUnit(const __mycc_module_desc *desc) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byUnit.find(desc);
  return it == r.byUnit.end() ? nullptr : it->second;
}

} // namespace

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
  std::string name = unitName(desc);
  if ((desc->num_kernels && !desc->kernels) ||
      (desc->num_vars && !desc->vars)) {
    emit("mycc: error: module " + name +
         " has a malformed descriptor; its kernels will not launch");
    return;
  }
  if (desc->linked) {
    registerLinkedUnit(desc);
    return;
  }
  registerModule(name, desc->fatbin_wrapper, {desc});
}

// nvcc's relocatable device code: the device link's registration (the
// toolkit's link.stub, which nvlink's list of units feeds) has registered
// the linked image with the CUDA runtime and calls each unit back with its
// handle. The CUDA runtime chooses the image; launches go to it directly.
extern "C" void __mycc_register_linked_unit(
    void **handle, const struct __mycc_module_desc *desc) {
  if (!handle || !desc || desc->abi_version != MYCC_ABI_VERSION) {
    emit("mycc: error: a unit of relocatable device code registered itself "
         "without a handle or with another runtime interface version; "
         "rebuild it with the matching mycc");
    return;
  }
  auto *m = new Module; // lives until the process exits
  m->name = unitName(desc);
  m->handle = handle;
  registerEntries(*m, {desc});
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.byUnit[desc] = m;
  if (logSelect())
    emit("mycc: select: module " + m->name +
         ": relocatable device code, registered on its device link's image "
         "(the CUDA runtime chooses the cubin)");
}

extern "C" void __mycc_init_managed(const struct __mycc_module_desc *desc) {
  Module *m = moduleOfUnit(desc);
  if (!m && desc && desc->linked &&
      registerWaitingGroup(desc->linked,
                           "the first host access to a managed variable"))
    m = moduleOfUnit(desc);
  if (!m) {
    emit("mycc: error: " + std::string(desc ? unitName(desc) : "a module") +
         " accesses a __managed__ variable, but its module is not "
         "registered; the access fails");
    return;
  }
  std::call_once(m->loadOnce, [m] {
    if (!m->hasManaged) return;
    if (__cudaInitModule(m->handle))
      m->loadedEarly.store(true, std::memory_order_release);
    else
      emit("mycc: error: the CUDA runtime could not load " + m->name +
           "; its __managed__ variables are not accessible from the host");
  });
}

namespace {

int launch(const void *stub, void **args, bool perThreadStream) {
  dim3 grid, block;
  size_t shmem = 0;
  cudaStream_t stream = nullptr;
  cudaError_t err =
      __cudaPopCallConfiguration(&grid, &block, &shmem, &stream);
  if (err != cudaSuccess)
    return err;
  if (perThreadStream && stream == nullptr) stream = cudaStreamPerThread;

  Module *m = findModule(stub);
  if (!m && registerWaitingGroupOf(stub)) m = findModule(stub);
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

} // namespace

extern "C" int __mycc_launch(const void *stub, void **args) {
  return launch(stub, args, false);
}

extern "C" int __mycc_launch_ptsz(const void *stub, void **args) {
  return launch(stub, args, true);
}
