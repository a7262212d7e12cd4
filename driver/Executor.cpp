#include "Executor.h"

#include "DeviceCodegen.h"
#include "Fatbin.h"
#include "Frontend.h"
#include "HostLowering.h"
#include "HostObject.h"
#include "DeviceLink.h"
#include "Ptxas.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <map>
#include <mutex>
#include <thread>

namespace mycc::driver {
namespace {

// CMake identifies its CUDA compiler by compiling this file and reading the
// result of `#if defined(__NVCC__)` (docs/build-systems.md).
bool isCMakeIdSource(const std::string &input) {
  return llvm::sys::path::filename(input) == "CMakeCUDACompilerId.cu";
}

frontend::SourceOptions sourceOptions(const Options &o, const Toolkit &t) {
  frontend::SourceOptions s;
  s.cudaPath = t.cudaPath;
  s.includeDirs = o.includeDirs;
  s.systemIncludeDirs = o.systemIncludeDirs;
  s.preIncludes = o.preIncludes;
  s.macros = o.macros;
  s.std = o.std;
  for (const auto &pair : o.targets)
    s.gpuArchs.push_back("sm_" + pair.virtualArch.arch.str());
  s.hostOptLevel = o.hostOptLevel;
  s.hostDebug = o.debug;
  s.deviceLineInfo = o.lineInfo;
  s.deviceDebug = o.deviceDebug;
  s.noWarnings = o.noWarnings;
  s.warningsAsErrors = o.warningsAsErrors;
  s.hostCompilerFlags = o.xcompiler;
  s.prelude = t.prelude;
  s.errorLimit = o.errorLimit;
  s.rdc = o.rdc;
  s.cudaVerMajor = t.versionMajor;
  s.cudaVerMinor = t.versionMinor;
  s.cudaVerBuild = t.versionBuild;
  return s;
}

// The cc1 arguments of an in-process step.
bool cc1For(const Step &step, const Options &o, const Toolkit &t,
            std::vector<std::string> &cc1, std::string &error) {
  frontend::SourceOptions s = sourceOptions(o, t);
  s.cuid = step.unitId;
  s.defineNvcc = isCMakeIdSource(step.inputs[0]);
  switch (step.kind) {
  case StepKind::PreprocessHost: {
    if (step.depfile.empty())
      return frontend::Invocations::hostPreprocess(s, step.inputs[0], cc1, error);
    frontend::DependencyOutput deps;
    deps.file = step.depfile;
    deps.target = step.depsTarget;
    deps.systemHeaders = o.depsSystemHeaders;
    deps.phonyTargets = o.depsPhonyTargets;
    deps.rulesOnly = step.output.empty();
    return frontend::Invocations::hostPreprocess(s, step.inputs[0], cc1, error,
                                                 &deps);
  }
  case StepKind::LowerHost:
  case StepKind::CompileHost:
    return frontend::Invocations::hostCompile(s, step.inputs[0], cc1, error);
  case StepKind::DeviceLinkHost: // its unit is generated (dlinkUnitName)
    return frontend::Invocations::hostCompile(s, step.output + ".cpp", cc1,
                                              error);
  case StepKind::CompileDevice:
    return frontend::Invocations::device(
        s, step.inputs[0], "sm_" + step.target.arch.str(), cc1, error);
  default:
    return false;
  }
}

bool writeFileAtomic(const std::string &path, llvm::StringRef bytes,
                     std::string &error) {
  if (path == "-") {
    llvm::outs() << bytes;
    llvm::outs().flush();
    return true;
  }
  std::string temp = path + ".mycc-tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write " + path + ": " + ec.message();
      return false;
    }
    os << bytes;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(temp);
      error = "cannot write " + path;
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  return true;
}

bool readFile(const std::string &path, std::string &out, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + path + ": " + buffer.getError().message();
    return false;
  }
  out = (*buffer)->getBuffer().str();
  return true;
}

// A Depfile step: the rule a preprocessing step wrote to a temporary goes to
// its file, atomically (written beside it, then renamed: the temporary may
// be on another file system), or to stdout.
bool publishDepfile(const Step &step, std::string &error) {
  std::string rule;
  if (!readFile(step.inputs[0], rule, error)) return false;
  return writeFileAtomic(step.output, rule, error);
}

// Runs an external tool; its output goes to a temporary and is renamed into
// place only when the tool succeeds.
bool runTool(const Step &step, std::string &error) {
  std::vector<std::string> cmd = step.command;
  std::string temp;
  for (size_t i = 0; i + 1 < cmd.size(); ++i)
    if (cmd[i] == "-o" && cmd[i + 1] == step.output) {
      temp = step.output + ".mycc-tmp";
      cmd[i + 1] = temp;
    }
  std::string program = cmd[0];
  if (!llvm::sys::path::is_absolute(program)) {
    auto found = llvm::sys::findProgramByName(program);
    if (!found) {
      error = "cannot find " + program + " (set -ccbin)";
      return false;
    }
    program = *found;
  }
  std::vector<llvm::StringRef> args(cmd.begin(), cmd.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0) {
    if (!temp.empty()) llvm::sys::fs::remove(temp);
    error = rc < 0 ? "cannot run " + program + ": " + message
                   : std::string(stepName(step.kind)) + " failed: " +
                         llvm::sys::path::filename(cmd[0]).str() +
                         " exited with status " + std::to_string(rc);
    return false;
  }
  if (!temp.empty())
    if (std::error_code ec = llvm::sys::fs::rename(temp, step.output)) {
      error = "cannot write " + step.output + ": " + ec.message();
      return false;
    }
  return true;
}

// Clang's device invocations carry backend options (-mllvm), and code
// generation has its own; they are process-wide, so they are applied once,
// before any thread starts.
void applyBackendOptions(const std::vector<std::string> &cc1) {
  offload::applyBackendOptions();
  static std::once_flag once;
  std::call_once(once, [&] {
    std::vector<const char *> argv{"mycc"};
    for (size_t i = 0; i + 1 < cc1.size(); ++i)
      if (cc1[i] == "-mllvm") argv.push_back(cc1[i + 1].c_str());
    if (argv.size() > 1)
      llvm::cl::ParseCommandLineOptions(argv.size(), argv.data());
  });
}

// Writes the fat binary of a Bundle step's images.
bool bundle(const Step &s, std::vector<uint8_t> &fatbin, std::string &error) {
  std::vector<FatbinImage> images;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    FatbinImage image;
    image.kind = s.bundled[i].isVirtual ? ImageKind::Ptx : ImageKind::Elf;
    image.arch = s.bundled[i].arch;
    if (!readFile(s.inputs[i], image.payload, error)) return false;
    images.push_back(std::move(image));
  }
  fatbin = writeFatbin(images);
  return writeFileAtomic(
      s.output,
      llvm::StringRef(reinterpret_cast<const char *>(fatbin.data()),
                      fatbin.size()),
      error);
}

// What the runners share: -v announcements from several threads, and the
// ptxas runs that follow a PTX file.
class StepRunner {
protected:
  StepRunner(const Options &o, const Toolkit &t) : o(o), t(t) {}

  void verbose(const Step &s) {
    if (!o.verbose) return;
    std::lock_guard<std::mutex> lock(printMutex);
    llvm::errs() << "#$ " << describeStep(s, o, t) << "\n";
  }

  // Runs the Assemble steps of `steps` that read `ptx`.
  bool assemble(const std::string &ptx, const std::vector<const Step *> &steps,
                std::string &error) {
    for (const Step *s : steps)
      if (s->kind == StepKind::Assemble && s->inputs[0] == ptx) {
        verbose(*s);
        if (!runTool(*s, error)) return false;
      }
    return true;
  }

  const Options &o;
  const Toolkit &t;
  std::mutex printMutex;
};

class UnitRunner : StepRunner {
public:
  UnitRunner(const Options &o, const Toolkit &t) : StepRunner(o, t) {}

  bool run(const std::vector<const Step *> &steps, std::string &error) {
    // Device side: one thread per virtual arch, each assembling its cubins.
    std::vector<const Step *> devices;
    for (const Step *s : steps)
      if (s->kind == StepKind::CompileDevice) devices.push_back(s);
    std::vector<std::vector<std::string>> deviceCc1(devices.size());
    for (size_t i = 0; i < devices.size(); ++i) {
      if (!cc1For(*devices[i], o, t, deviceCc1[i], error)) return false;
      applyBackendOptions(deviceCc1[i]);
    }
    // Device diagnostics are held back: an error in code both sides parse
    // is reported once, by the host side.
    std::vector<std::string> deviceErrors(devices.size());
    std::vector<std::string> deviceDiagnostics(devices.size());
    std::vector<char> deviceOk(devices.size(), 0);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < devices.size(); ++i)
      threads.emplace_back([&, i] {
        llvm::raw_string_ostream diagnostics(deviceDiagnostics[i]);
        deviceOk[i] = runDevice(*devices[i], deviceCc1[i], steps,
                                deviceErrors[i], diagnostics);
      });

    bool hostOk = runHostFront(steps, error);
    for (auto &th : threads) th.join();
    if (!hostOk) return false;
    for (size_t i = 0; i < devices.size(); ++i) {
      llvm::errs() << deviceDiagnostics[i];
      if (!deviceOk[i]) {
        error = deviceErrors[i];
        return false;
      }
    }

    for (const Step *s : steps) {
      if (s->kind == StepKind::Bundle && !runBundle(*s, error)) return false;
      if (s->kind == StepKind::CompileHost) {
        verbose(*s);
        if (s->inputs.size() > 1 && isRelocatable(s->inputs[1])) {
          std::vector<std::string> images;
          for (size_t i = 1; i < s->inputs.size(); ++i)
            images.push_back(relocatable[s->inputs[i]]);
          if (!hostUnit->emitRelocatableObject(images, s->output, error))
            return false;
        } else if (!hostUnit->emitObject(fatbin, s->output, error)) {
          return false;
        }
      }
    }
    return true;
  }

private:
  bool runDevice(const Step &dev, const std::vector<std::string> &cc1,
                 const std::vector<const Step *> &steps, std::string &error,
                 llvm::raw_ostream &diagnostics) {
    verbose(dev);
    offload::DeviceCodegenOptions codegen;
    codegen.ptxTarget = "sm_" + dev.target.arch.str();
    if (o.deviceDebug) codegen.optLevel = 0; // -G
    if (isRelocatable(dev)) {
      offload::RelocatableImage image;
      offload::RelocatableDeviceCode code;
      if (!offload::compileDeviceToBitcode(cc1, codegen, code, error,
                                           &diagnostics))
        return false;
      image.unitId = dev.unitId;
      image.source = cuInput;
      image.virtualArch = dev.target;
      image.codes = dev.bundled;
      image.target = code.target;
      image.bitcode = std::move(code.bitcode);
      std::lock_guard<std::mutex> lock(printMutex);
      relocatable[dev.output] = offload::packRelocatableImage(image);
      return writeFileAtomic(dev.output, image.bitcode, error);
    }
    std::string ptx;
    if (!offload::compileDeviceToPtx(cc1, codegen, ptx, error, &diagnostics))
      return false;
    if (!writeFileAtomic(dev.output, ptx, error)) return false;
    return assemble(dev.output, steps, error);
  }

  bool runHostFront(const std::vector<const Step *> &steps, std::string &error) {
    for (const Step *s : steps) {
      switch (s->kind) {
      case StepKind::PreprocessHost:
        if (!preprocess(*s, error)) return false;
        break;
      case StepKind::LowerHost:
        if (!lower(*s, error)) return false;
        break;
      case StepKind::Depfile:
        verbose(*s);
        if (!publishDepfile(*s, error)) return false;
        break;
      case StepKind::CompileHost: {
        std::vector<std::string> cc1;
        if (!cc1For(*s, o, t, cc1, error)) return false;
        hostUnit = offload::HostUnit::generate(cc1, s->inputs[0], loweredText,
                                               error);
        if (!hostUnit) return false;
        break;
      }
      default:
        break;
      }
    }
    return true;
  }

  // The compiler instance of an in-process host step, announced with -v.
  std::unique_ptr<clang::CompilerInstance> instanceFor(const Step &s,
                                                       std::string &error) {
    verbose(s);
    std::vector<std::string> cc1;
    if (!cc1For(s, o, t, cc1, error)) return nullptr;
    return frontend::createCompilerInstance(cc1, {}, error);
  }

  // Preprocesses the host side. With -M/-MD Clang's preprocessor writes the
  // dependency rule to the step's temporary as well (even when the
  // preprocessing fails, but then no Depfile step publishes it). Without an
  // output file the step is there for the rule alone.
  bool preprocess(const Step &s, std::string &error) {
    auto ci = instanceFor(s, error);
    if (!ci) return false;
    std::unique_ptr<clang::FrontendAction> action;
    if (s.output.empty()) {
      action = std::make_unique<clang::PreprocessOnlyAction>();
    } else {
      ci->getFrontendOpts().OutputFile = s.output;
      action = std::make_unique<clang::PrintPreprocessedAction>();
    }
    if (!ci->ExecuteAction(*action) || ci->getDiagnostics().hasErrorOccurred()) {
      error.clear(); // the diagnostics say why
      return false;
    }
    return true;
  }

  bool lower(const Step &s, std::string &error) {
    auto ci = instanceFor(s, error);
    if (!ci) return false;
    lowering::LoweredUnit unit;
    lowering::LoweringOptions options;
    options.rdc = o.rdc;
    options.unitId = s.unitId;
    if (!lowering::lowerHostUnit(*ci, cuInput, options, unit)) {
      error.clear(); // the diagnostics say why
      return false;
    }
    loweredText = std::move(unit.text);
    return writeFileAtomic(s.output, loweredText, error);
  }

  bool runBundle(const Step &s, std::string &error) {
    verbose(s);
    return bundle(s, fatbin, error);
  }

  static bool isRelocatable(const Step &dev) {
    return isRelocatable(dev.output);
  }
  static bool isRelocatable(llvm::StringRef path) {
    return path.ends_with(".bc");
  }

public:
  std::string cuInput;

private:
  std::string loweredText;
  std::vector<uint8_t> fatbin;
  std::unique_ptr<offload::HostUnit> hostUnit;
  // -rdc=true: each virtual arch's image (offload binary), by bitcode file.
  std::map<std::string, std::string> relocatable;
};

// The device link: reads the relocatable device code of its inputs, links
// and generates code per virtual arch (in parallel, each assembling its
// cubins), bundles, and compiles the host object that registers the result.
class DeviceLinkRunner : StepRunner {
public:
  DeviceLinkRunner(const Options &o, const Toolkit &t) : StepRunner(o, t) {}

  bool run(const std::vector<const Step *> &steps, std::string &error) {
    const Step *host = nullptr;
    std::vector<const Step *> links;
    for (const Step *s : steps) {
      if (s->kind == StepKind::DeviceLink) links.push_back(s);
      if (s->kind == StepKind::DeviceLinkHost) host = s;
    }
    if (!host) return true;
    std::vector<offload::RelocatableImage> images;
    for (size_t i = 0; i + 1 < host->inputs.size(); ++i)
      if (!offload::readRelocatableImages(host->inputs[i], images, error))
        return false;
    // The units, in the order the inputs name them.
    std::vector<std::string> unitIds, sources;
    for (const auto &image : images)
      if (std::find(unitIds.begin(), unitIds.end(), image.unitId) ==
          unitIds.end()) {
        unitIds.push_back(image.unitId);
        sources.push_back(image.source);
      }

    std::vector<std::string> errors(links.size());
    std::vector<char> ok(links.size(), 0);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < links.size(); ++i)
      threads.emplace_back([&, i] {
        ok[i] = linkArch(*links[i], images, unitIds, steps, errors[i]);
      });
    for (auto &th : threads) th.join();
    for (size_t i = 0; i < links.size(); ++i)
      if (!ok[i]) {
        error = errors[i];
        return false;
      }

    std::vector<uint8_t> fatbin;
    for (const Step *s : steps)
      if (s->kind == StepKind::Bundle) {
        verbose(*s);
        if (!bundle(*s, fatbin, error)) return false;
      }
    verbose(*host);
    std::vector<std::string> cc1;
    if (!cc1For(*host, o, t, cc1, error)) return false;
    std::string name = "device link of ";
    for (size_t i = 0; i < sources.size(); ++i)
      name += (i ? ", " : "") + sources[i];
    if (sources.empty()) name += "no units";
    std::string unitName = host->output + ".cpp";
    auto unit = offload::HostUnit::generate(
        cc1, unitName, lowering::deviceLinkUnit(unitIds, name), error);
    if (!unit) return false;
    // Nothing to register without units: an object with no device code.
    return unitIds.empty() ? unit->emitRelocatableObject({}, host->output, error)
                           : unit->emitObject(fatbin, host->output, error);
  }

private:
  bool linkArch(const Step &link,
                const std::vector<offload::RelocatableImage> &images,
                const std::vector<std::string> &unitIds,
                const std::vector<const Step *> &steps, std::string &error) {
    verbose(link);
    std::vector<offload::DeviceBitcodeInput> inputs;
    offload::DeviceTarget target;
    for (const std::string &id : unitIds) {
      const offload::RelocatableImage *found = nullptr;
      std::string compiledFor;
      for (const auto &image : images)
        if (image.unitId == id) {
          compiledFor += (compiledFor.empty() ? "" : ", ") +
                         image.virtualArch.str();
          if (image.virtualArch == link.target) found = &image;
        }
      if (!found) {
        const auto &any = *std::find_if(
            images.begin(), images.end(),
            [&](const offload::RelocatableImage &i) { return i.unitId == id; });
        error = any.file + ": the device code of " + any.source +
                " was compiled for " + compiledFor + ", not for " +
                link.target.str() + "; recompile it with -gencode arch=" +
                link.target.str() + ",code=... or device-link for its " +
                "architectures";
        return false;
      }
      inputs.push_back({found->file, found->source, found->bitcode});
      target = found->target;
    }
    offload::DeviceCodegenOptions codegen;
    codegen.ptxTarget = "sm_" + link.target.arch.str();
    std::string ptx;
    if (inputs.empty()) {
      error = "no relocatable device code to link for " + link.target.str();
      return false;
    }
    if (!offload::linkDeviceToPtx(inputs, target, codegen, ptx, error) ||
        !writeFileAtomic(link.output, ptx, error))
      return false;
    return assemble(link.output, steps, error);
  }
};

} // namespace

std::string describeStep(const Step &step, const Options &o, const Toolkit &t) {
  if (step.kind == StepKind::Link) {
    // The LIBRARIES value appears verbatim, quotes included, as build systems
    // look for it (CMake takes the last line containing it as the link
    // command).
    const std::vector<std::string> &cmd = step.command;
    const std::string stubs = "-L" + t.prefix + "/lib64/stubs";
    for (size_t i = 1; i + 1 < cmd.size(); ++i)
      if (cmd[i] == stubs && cmd[i + 1] == "-L" + t.prefix + "/lib64")
        return frontend::formatCommand(cmd[0], {cmd.begin() + 1, cmd.begin() + i}) +
               " " + librariesValue(t) +
               frontend::formatCommand("", {cmd.begin() + i + 2, cmd.end()});
  }
  if (!step.command.empty())
    return frontend::formatCommand(step.command[0],
                                   {step.command.begin() + 1, step.command.end()});
  std::string head = std::string(stepName(step.kind)) + " (in-process): ";
  if (step.kind == StepKind::DeviceLink) {
    std::string text = head + "link-bitcode " + step.target.str();
    for (const auto &input : step.inputs) text += " " + input;
    return text + " => " + step.output;
  }
  if (step.kind == StepKind::Depfile)
    return head + step.inputs[0] + " => " + step.output;
  if (step.kind == StepKind::Bundle) {
    std::string images;
    for (size_t i = 0; i < step.inputs.size(); ++i)
      images += " --image=" + step.bundled[i].str() + "," + step.inputs[i];
    return head + "fatbin" + images + " -o " + step.output;
  }
  std::vector<std::string> cc1;
  std::string error;
  if (!cc1For(step, o, t, cc1, error)) return head + "<" + error + ">";
  cc1.insert(cc1.begin(), "-cc1");
  std::string text = head + frontend::formatCommand("clang", cc1);
  if (step.kind == StepKind::LowerHost) text += " | mycc-lower";
  std::string gpu = "sm_" + step.target.arch.str();
  if (step.kind == StepKind::CompileDevice && frontend::clangGpuName(gpu) != gpu)
    text += " | ptx-target " + gpu; // the PTX names the family (DeviceCodegen)
  if (step.output.empty()) return text; // -M: the rule is the only output
  text += " => " + step.output;
  // nvcc's words for the virtual architecture, which CMake reads from `-v`
  // to learn the default architecture ("-arch compute_NN").
  if (step.kind == StepKind::CompileDevice)
    text += " (-arch " + step.target.str() + ")";
  return text;
}

int executePlan(const Plan &plan, const Options &o, const Toolkit &t) {
  std::string error;
  // An empty message: the compiler's diagnostics already said why.
  auto fail = [&](const std::string &message) {
    if (!message.empty()) llvm::errs() << "mycc: error: " << message << "\n";
    return 1;
  };
  for (unsigned unit = 0; unit < plan.cuInputs.size(); ++unit) {
    std::vector<const Step *> steps;
    for (const Step &s : plan.steps)
      if (s.unit == unit && !s.deviceLink && s.command.empty() &&
          s.kind != StepKind::Link && s.kind != StepKind::CompileSource)
        steps.push_back(&s);
    for (const Step &s : plan.steps)
      if (s.unit == unit && !s.deviceLink && s.kind == StepKind::Assemble)
        steps.push_back(&s);
    UnitRunner runner(o, t);
    runner.cuInput = plan.cuInputs[unit];
    if (!runner.run(steps, error)) return fail(error);
  }
  auto runExternal = [&](StepKind kind) {
    for (const Step &s : plan.steps) {
      // The rules the host compiler wrote for C/C++ sources follow them.
      bool depfile = kind == StepKind::CompileSource &&
                     s.kind == StepKind::Depfile && s.unit == kNoUnit;
      if (s.kind != kind && !depfile) continue;
      if (o.verbose) llvm::errs() << "#$ " << describeStep(s, o, t) << "\n";
      if (depfile ? !publishDepfile(s, error) : !runTool(s, error))
        return false;
    }
    return true;
  };
  if (!runExternal(StepKind::CompileSource)) return fail(error);
  std::vector<const Step *> deviceLinkSteps;
  for (const Step &s : plan.steps)
    if (s.deviceLink) deviceLinkSteps.push_back(&s);
  if (!deviceLinkSteps.empty() &&
      !DeviceLinkRunner(o, t).run(deviceLinkSteps, error))
    return fail(error);
  if (!runExternal(StepKind::Link)) return fail(error);
  return 0;
}

} // namespace mycc::driver
