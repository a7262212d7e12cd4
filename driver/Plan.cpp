#include "Plan.h"

#include "DeviceLink.h"
#include "Ptxas.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <functional>
#include <map>

namespace mycc::driver {

const char *stepName(StepKind kind) {
  switch (kind) {
  case StepKind::PreprocessHost: return "preprocess-host";
  case StepKind::LowerHost: return "lower-host";
  case StepKind::CompileDevice: return "compile-device";
  case StepKind::Assemble: return "assemble";
  case StepKind::Bundle: return "bundle";
  case StepKind::CompileHost: return "compile-host";
  case StepKind::CompileSource: return "compile-source";
  case StepKind::DeviceLink: return "device-link";
  case StepKind::DeviceLinkHost: return "device-link-host";
  case StepKind::Link: return "link";
  case StepKind::Depfile: return "depfile";
  }
  return "?";
}

std::string librariesValue(const Toolkit &t) {
  return "\"-L" + t.prefix + "/lib64/stubs\" \"-L" + t.prefix + "/lib64\"";
}

namespace {

enum class InputKind { Cuda, Cxx, C, Object, Unknown };

InputKind classify(const Options &o, llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".o" || ext == ".a" || ext == ".so" ||
      llvm::sys::path::filename(path).contains(".so."))
    return InputKind::Object;
  // -x names the language of every source input, whatever its name.
  if (o.language) {
    if (*o.language == "cu") return InputKind::Cuda;
    if (*o.language == "c") return InputKind::C;
    return InputKind::Cxx;
  }
  if (ext == ".cu") return InputKind::Cuda;
  if (ext == ".c") return InputKind::C;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C")
    return InputKind::Cxx;
  return InputKind::Unknown;
}

std::string joinPath(const std::string &dir, const std::string &name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

// Host compiler flags that nvcc forwards for non-CUDA sources.
void addHostSourceFlags(const Options &o, const Toolkit &t, InputKind kind,
                        std::vector<std::string> &cmd) {
  for (const auto &d : o.includeDirs) cmd.push_back("-I" + d);
  for (const auto &d : o.systemIncludeDirs) {
    cmd.push_back("-isystem");
    cmd.push_back(d);
  }
  cmd.push_back("-I" + t.cudaPath + "/include");
  for (const auto &m : o.macros) cmd.push_back(m);
  for (const auto &f : o.preIncludes) {
    cmd.push_back("-include");
    cmd.push_back(f);
  }
  if (!o.std.empty() && kind == InputKind::Cxx) cmd.push_back("-std=" + o.std);
  cmd.push_back("-O" + std::to_string(o.hostOptLevel));
  if (o.debug) cmd.push_back("-g");
  if (o.noWarnings) cmd.push_back("-w");
  cmd.insert(cmd.end(), o.xcompiler.begin(), o.xcompiler.end());
}

// Assemble steps for the real archs of `pair` (from `ptx`), and what the fat
// binary then holds from it, in `bundleInputs`/`bundled`.
void addAssembleSteps(const Options &o, const Toolkit &t, const TargetPair &pair,
                      const std::string &ptx,
                      const std::function<std::string(const Target &)> &cubinPath,
                      Step proto, std::vector<Step> &steps,
                      std::vector<std::string> &bundleInputs,
                      std::vector<Target> &bundled) {
  for (const auto &code : pair.codes) {
    if (code.isVirtual) {
      bundleInputs.push_back(ptx);
      bundled.push_back(code);
      continue;
    }
    Step as = proto;
    as.kind = StepKind::Assemble;
    as.inputs = {ptx};
    as.target = code;
    as.output = cubinPath(code);
    offload::PtxasJob job{t.ptxas,      ptx,           code.str(), as.output,
                          o.lineInfo, o.deviceDebug, o.xptxas};
    as.command = offload::ptxasCommand(job);
    steps.push_back(as);
    bundleInputs.push_back(as.output);
    bundled.push_back(code);
  }
}

// The bundle step: nvcc's container order, cubins first, then PTX.
Step bundleStep(const std::vector<std::string> &inputs,
                const std::vector<Target> &images, Step proto) {
  Step bundle = proto;
  bundle.kind = StepKind::Bundle;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < images.size(); ++i)
      if (images[i].isVirtual == (pass == 1)) {
        bundle.inputs.push_back(inputs[i]);
        bundle.bundled.push_back(images[i]);
      }
  return bundle;
}

// Static archives named by -l in the -L directories: a device link reads
// their relocatable device code (nvlink does the same).
std::vector<std::string> archivesOfLibs(const Options &o) {
  std::vector<std::string> found;
  for (const auto &lib : o.libs)
    for (const auto &dir : o.libDirs) {
      std::string path = joinPath(dir, "lib" + lib + ".a");
      if (llvm::sys::fs::exists(path)) {
        found.push_back(path);
        break;
      }
    }
  return found;
}

// The device link's targets when the command line gives none: what the
// units were compiled for (the union over all of them).
std::vector<TargetPair>
targetsOfImages(const std::vector<offload::RelocatableImage> &images) {
  std::vector<TargetPair> pairs;
  for (const auto &image : images) {
    auto it = std::find_if(pairs.begin(), pairs.end(), [&](const TargetPair &p) {
      return p.virtualArch == image.virtualArch;
    });
    if (it == pairs.end()) {
      pairs.push_back({image.virtualArch, {}});
      it = pairs.end() - 1;
    }
    for (const Target &code : image.codes)
      if (std::find(it->codes.begin(), it->codes.end(), code) == it->codes.end())
        it->codes.push_back(code);
  }
  return pairs;
}

} // namespace

bool isBuildInput(const Options &o, const std::string &path) {
  return classify(o, path) != InputKind::Unknown;
}

bool buildPlan(const Options &o, const Toolkit &t, const std::string &tempDir,
               Plan &plan, std::string &error) {
  plan.tempDir = tempDir;
  if (o.inputs.empty()) {
    error = "no input files";
    return false;
  }
  // Dependency rules (-M, -MM, -MD, -MMD): one file per source input, so
  // -MF (and -o, which names the file or, with -MD, the object it is named
  // after) cannot serve several sources; object inputs have no rule.
  bool deps = o.phase == Phase::Dependencies || o.depsWithCompile;
  unsigned sources = 0;
  for (const auto &input : o.inputs)
    if (classify(o, input) != InputKind::Object) ++sources;
  if (deps && sources > 1) {
    const char *what = !o.depsFile.empty() ? "-MF"
                       : !o.output.empty() ? "-o"
                                           : nullptr;
    if (what) {
      error = std::string(what) + " cannot name the dependency file of " +
              std::to_string(sources) + " inputs with " +
              (o.phase == Phase::Dependencies ? "-M or -MM" : "-MD or -MMD");
      return false;
    }
  }
  // Phases that write one file per input cannot take -o with several inputs.
  bool singleOutputPhase =
      o.phase != Phase::Link && o.phase != Phase::DeviceLink &&
      o.phase != Phase::Dependencies;
  if (singleOutputPhase && !o.output.empty() && o.inputs.size() > 1) {
    error = "-o cannot name the output of " + std::to_string(o.inputs.size()) +
            " inputs with -c, -E, -ptx, -cubin, -fatbin or -cuda";
    return false;
  }

  std::vector<Target> reals;
  for (const auto &pair : o.targets)
    for (const auto &code : pair.codes)
      if (!code.isVirtual) reals.push_back(code);
  // -ptx writes one file. -arch=sm_90a (sm_100f) also asks for compute_90
  // (compute_100) PTX; like nvcc, -ptx then keeps the arch that carries the
  // real target.
  std::vector<TargetPair> targets = o.targets;
  if (o.phase == Phase::Ptx && targets.size() > 1) {
    std::vector<TargetPair> withCubin;
    for (const auto &pair : targets)
      for (const auto &code : pair.codes)
        if (!code.isVirtual) {
          withCubin.push_back(pair);
          break;
        }
    if (withCubin.size() == 1) targets = withCubin;
  }
  if (o.phase == Phase::Ptx && targets.size() != 1) {
    error = "-ptx is not allowed when compiling for multiple GPU "
            "architectures (" +
            std::to_string(targets.size()) + " given)";
    return false;
  }
  if (o.phase == Phase::Cubin && reals.size() != 1) {
    error = "-cubin is not allowed when compiling for multiple GPU code "
            "instances (" +
            std::to_string(reals.size()) + " given)";
    return false;
  }

  std::vector<std::string> linkInputs;
  // What a device link reads: the objects given and, with -rdc=true, the
  // units' objects of this run (not those compiled from .c/.cpp inputs).
  std::vector<std::string> deviceLinkInputs;
  bool rdcUnits = false; // a unit of this run has relocatable device code
  // -rdc=true units, for -c and for a link, carry bitcode (relocatable
  // device code); -ptx still writes the unit's (relocatable) PTX.
  bool rdcObject = o.rdc && (o.phase == Phase::Compile || o.phase == Phase::Link);
  if (o.rdc && (o.phase == Phase::Cubin || o.phase == Phase::Fatbin)) {
    error = std::string(o.phase == Phase::Cubin ? "-cubin" : "-fatbin") +
            " with -rdc=true is not supported by mycc: relocatable device "
            "code stays LLVM bitcode until the device link";
    return false;
  }
  std::map<std::string, unsigned> baseCount;
  for (const auto &input : o.inputs) {
    InputKind kind = classify(o, input);
    if (kind == InputKind::Unknown) {
      error = input + ": unknown input file type (expected .cu, .c, .cpp, .o "
                      "or .a; use -x cu to compile another name as CUDA)";
      return false;
    }
    if (!llvm::sys::fs::exists(input)) {
      error = input + ": no such file";
      return false;
    }
    std::string base = llvm::sys::path::stem(input).str();
    // Intermediate names stay unique when two inputs share a base name.
    std::string tempBase = base;
    if (unsigned n = baseCount[base]++) tempBase += "." + std::to_string(n);
    auto temp = [&](const std::string &suffix) {
      std::string path = joinPath(tempDir, tempBase + suffix);
      plan.temporaries.push_back(path);
      return path;
    };
    auto finalOr = [&](const std::string &dflt) {
      return o.output.empty() ? dflt : o.output;
    };
    // The dependency rule's target and file, as nvcc 13 names them: the
    // target is -MT, else the output file (-o; not with -M, where -o names
    // the rule's file), else x.o; -M writes to -o, else -MF, else stdout;
    // -MD to -MF, else to -o with its suffix replaced by .d, else to x.d.
    std::string depsTarget, depsFile;
    if (deps) {
      depsTarget = !o.depsTarget.empty() ? o.depsTarget
                   : o.phase != Phase::Dependencies && !o.output.empty()
                       ? o.output
                       : base + ".o";
      if (o.phase == Phase::Dependencies) {
        depsFile = !o.output.empty()     ? o.output
                   : !o.depsFile.empty() ? o.depsFile
                                         : "-";
      } else if (!o.depsFile.empty()) {
        depsFile = o.depsFile;
      } else if (!o.output.empty()) {
        llvm::SmallString<256> p(o.output);
        llvm::sys::path::replace_extension(p, ".d");
        depsFile = std::string(p);
      } else {
        depsFile = base + ".d";
      }
    }
    // A step that writes the rule to a temporary, then the step that puts
    // it in place (atomically, and only if the step succeeded).
    auto addDepfile = [&](Step &producer) {
      producer.depfile = temp(".cpp1.d");
      producer.depsTarget = depsTarget;
      Step d{StepKind::Depfile};
      d.inputs = {producer.depfile};
      d.output = depsFile;
      d.unit = producer.unit;
      return d;
    };

    if (kind == InputKind::Object) {
      // As with nvcc, -M passes over objects.
      if (o.phase != Phase::Dependencies) {
        linkInputs.push_back(input);
        deviceLinkInputs.push_back(input);
      }
      continue;
    }
    if (o.phase == Phase::DeviceLink) {
      error = input + ": -dlink links objects and libraries; compile it with "
                      "-dc (or -rdc=true -c) first";
      return false;
    }
    if (kind != InputKind::Cuda) {
      if (o.phase != Phase::Compile && o.phase != Phase::Link &&
          o.phase != Phase::Dependencies) {
        error = input + ": -E, -ptx, -cubin, -fatbin and -cuda apply to CUDA "
                        "sources only";
        return false;
      }
      // The host compiler writes the rule of a C/C++ source (gcc's -M...
      // options, which nvcc's are modelled on).
      Step s{StepKind::CompileSource};
      s.inputs = {input};
      s.unit = kNoUnit;
      s.command = {t.hostCompiler};
      if (kind == InputKind::C) s.command.insert(s.command.end(), {"-x", "c"});
      addHostSourceFlags(o, t, kind, s.command);
      Step depfile{StepKind::Depfile};
      if (deps) {
        depfile = addDepfile(s);
        const char *mode = o.phase == Phase::Dependencies
                               ? (o.depsSystemHeaders ? "-M" : "-MM")
                               : (o.depsSystemHeaders ? "-MD" : "-MMD");
        s.command.insert(s.command.end(),
                         {mode, "-MF", s.depfile, "-MT", s.depsTarget});
        if (o.depsPhonyTargets) s.command.push_back("-MP");
      }
      if (o.phase == Phase::Dependencies) {
        s.output = s.depfile;
        s.command.push_back(input);
      } else {
        s.output = o.phase == Phase::Compile ? finalOr(base + ".o") : temp(".o");
        s.command.insert(s.command.end(), {"-c", input, "-o", s.output});
        linkInputs.push_back(s.output);
      }
      plan.steps.push_back(s);
      if (deps) plan.steps.push_back(depfile);
      continue;
    }

    unsigned unit = plan.cuInputs.size();
    plan.cuInputs.push_back(input);

    if (o.phase == Phase::Preprocess) {
      Step s{StepKind::PreprocessHost};
      s.inputs = {input};
      s.output = finalOr("-");
      s.unit = unit;
      plan.steps.push_back(s);
      continue;
    }

    bool wantsHost = o.phase == Phase::Cuda || o.phase == Phase::Compile ||
                     o.phase == Phase::Link;
    bool wantsDevice = o.phase != Phase::Cuda && o.phase != Phase::Dependencies;
    // The rule comes from the host side's preprocessing; without a host side
    // (-M, or -MD with -ptx, -cubin, -fatbin) it runs for the rule alone.
    if (deps && !wantsHost) {
      Step pp{StepKind::PreprocessHost};
      pp.inputs = {input};
      pp.unit = unit;
      Step depfile = addDepfile(pp);
      plan.steps.push_back(pp);
      plan.steps.push_back(depfile);
    }
    std::string lowered;
    if (wantsHost) {
      Step pp{StepKind::PreprocessHost};
      pp.inputs = {input};
      pp.output = temp(".cpp1.ii");
      pp.unit = unit;
      Step depfile{StepKind::Depfile};
      if (deps) depfile = addDepfile(pp);
      plan.steps.push_back(pp);
      if (deps) plan.steps.push_back(depfile);
      Step lower{StepKind::LowerHost};
      lower.inputs = {pp.output};
      lower.output = o.phase == Phase::Cuda ? finalOr(base + ".cu.cpp.ii")
                                            : temp(".cu.cpp.ii");
      lower.unit = unit;
      plan.steps.push_back(lower);
      lowered = lower.output;
    }
    if (!wantsDevice) continue;

    std::vector<std::string> bundleInputs;
    std::vector<Target> bundled;
    std::vector<std::string> relocatable; // -rdc -c: bitcode per virtual arch
    for (const auto &pair : targets) {
      Step dev{StepKind::CompileDevice};
      dev.inputs = {input};
      dev.target = pair.virtualArch;
      dev.unit = unit;
      if (rdcObject) {
        // The unit's device code stays LLVM bitcode; the device link
        // generates code. What it was compiled for goes with it.
        dev.output = temp("." + pair.virtualArch.str() + ".bc");
        dev.bundled = pair.codes;
        plan.steps.push_back(dev);
        relocatable.push_back(dev.output);
        continue;
      }
      dev.output = o.phase == Phase::Ptx
                       ? finalOr(base + ".ptx")
                       : temp("." + pair.virtualArch.str() + ".ptx");
      plan.steps.push_back(dev);
      if (o.phase == Phase::Ptx) continue;
      Step proto{StepKind::Assemble};
      proto.unit = unit;
      addAssembleSteps(
          o, t, pair, dev.output,
          [&](const Target &code) {
            return o.phase == Phase::Cubin ? finalOr(base + ".cubin")
                                           : temp("." + code.str() + ".cubin");
          },
          proto, plan.steps, bundleInputs, bundled);
    }
    if (o.phase == Phase::Ptx || o.phase == Phase::Cubin) continue;

    // What the host object embeds: the unit's bitcode, or its fat binary.
    std::vector<std::string> deviceCode = relocatable;
    if (!rdcObject) {
      Step proto{StepKind::Bundle};
      proto.unit = unit;
      Step bundle = bundleStep(bundleInputs, bundled, proto);
      bundle.output = o.phase == Phase::Fatbin ? finalOr(base + ".fatbin")
                                               : temp(".fatbin");
      plan.steps.push_back(bundle);
      if (o.phase == Phase::Fatbin) continue;
      deviceCode = {bundle.output};
    }

    Step host{StepKind::CompileHost};
    host.inputs = {lowered};
    host.inputs.insert(host.inputs.end(), deviceCode.begin(), deviceCode.end());
    host.unit = unit;
    host.output = o.phase == Phase::Compile ? finalOr(base + ".o") : temp(".o");
    plan.steps.push_back(host);
    linkInputs.push_back(host.output);
    if (rdcObject) {
      rdcUnits = true;
      deviceLinkInputs.push_back(host.output);
    }
  }

  if (o.rdc) {
    // Each unit's id: stable for the same source, output and options,
    // distinct for two units of one program (even of one source).
    std::vector<std::string> unitIds;
    for (unsigned unit = 0; unit < plan.cuInputs.size(); ++unit) {
      llvm::SmallString<256> src(plan.cuInputs[unit]), out(o.output);
      llvm::sys::fs::make_absolute(src);
      if (!o.output.empty()) llvm::sys::fs::make_absolute(out);
      std::string key = std::string(src) + '\0' + std::string(out) + '\0' +
                        std::to_string(unit);
      for (const auto &pair : o.targets) key += '\0' + pair.virtualArch.str();
      unitIds.push_back(llvm::utohexstr(
          llvm::xxh3_64bits(llvm::arrayRefFromStringRef(key)),
          /*LowerCase=*/true, 16));
    }
    for (Step &step : plan.steps)
      if (!step.deviceLink && step.command.empty() &&
          step.unit < unitIds.size())
        step.unitId = unitIds[step.unit];
  }

  bool deviceLink = o.phase == Phase::DeviceLink;
  std::vector<TargetPair> linkTargets = o.targets;
  if (o.phase == Phase::Link || deviceLink) {
    for (const auto &archive : archivesOfLibs(o))
      deviceLinkInputs.push_back(archive);
    // The relocatable device code of the files that exist already: nvcc
    // device-links whenever it links, so objects or -l archives with it need
    // a device link even without -rdc on this command line; and without
    // targets on the command line, the device link builds theirs.
    std::vector<offload::RelocatableImage> images;
    for (const auto &input : deviceLinkInputs)
      if (llvm::sys::fs::exists(input) &&
          !offload::readRelocatableImages(input, images, error))
        return false;
    deviceLink = deviceLink || rdcUnits || !images.empty();
    if (!o.targetsGiven && !rdcUnits) linkTargets = targetsOfImages(images);
  }
  std::string dlinkObject;
  if (deviceLink) {
    const std::vector<std::string> &sources = deviceLinkInputs;
    std::string base = "a_dlink";
    auto temp = [&](const std::string &suffix) {
      std::string path = joinPath(tempDir, base + suffix);
      plan.temporaries.push_back(path);
      return path;
    };
    std::vector<std::string> bundleInputs;
    std::vector<Target> bundled;
    Step proto{StepKind::Assemble};
    proto.deviceLink = true;
    for (const auto &pair : linkTargets) {
      Step link{StepKind::DeviceLink};
      link.deviceLink = true;
      link.inputs = sources;
      link.target = pair.virtualArch;
      link.output = temp("." + pair.virtualArch.str() + ".ptx");
      plan.steps.push_back(link);
      addAssembleSteps(
          o, t, pair, link.output,
          [&](const Target &code) { return temp("." + code.str() + ".cubin"); },
          proto, plan.steps, bundleInputs, bundled);
    }
    Step bundle = bundleStep(bundleInputs, bundled, proto);
    bundle.output = temp(".fatbin");
    plan.steps.push_back(bundle);
    Step host{StepKind::DeviceLinkHost};
    host.deviceLink = true;
    host.inputs = sources;
    host.inputs.push_back(bundle.output);
    host.output = o.phase == Phase::DeviceLink
                      ? (o.output.empty() ? "a_dlink.o" : o.output)
                      : temp(".o");
    plan.steps.push_back(host);
    dlinkObject = host.output;
  }

  if (o.phase != Phase::Link) return true;
  // nvcc's host link, measured with nvcc 13.0 --dryrun: the host compiler
  // with the -Xcompiler options, the objects, the -Xlinker options, the
  // user's -L/-l, the toolkit's LIBRARIES ("-L.../stubs" "-L..."), the CUDA
  // runtime (-lcudadevrt -lcudart_static -lrt -lpthread -ldl; -lcudadevrt
  // -lcudart for -cudart shared; nothing for none), -o. mycc's LIBRARIES
  // directories are the prefix's lib64/ (docs/build-systems.md), which also
  // holds mycc's runtime, linked as -lmycc_rt ahead of the CUDA runtime it
  // calls; build systems that link by themselves (CMake) read this command
  // to learn the libraries.
  // nvcc puts the device link's object first.
  if (!dlinkObject.empty()) linkInputs.insert(linkInputs.begin(), dlinkObject);
  Step link{StepKind::Link};
  link.inputs = linkInputs;
  link.output = o.output.empty() ? "a.out" : o.output;
  link.command = {t.hostCompiler};
  link.command.insert(link.command.end(), o.xcompiler.begin(), o.xcompiler.end());
  if (o.shared) link.command.push_back("-shared");
  if (o.debug) link.command.push_back("-g");
  link.command.insert(link.command.end(), linkInputs.begin(), linkInputs.end());
  for (const auto &x : o.xlinker) {
    link.command.push_back("-Xlinker");
    link.command.push_back(x);
  }
  for (const auto &d : o.libDirs) link.command.push_back("-L" + d);
  for (const auto &l : o.libs) link.command.push_back("-l" + l);
  // librariesValue(), unquoted.
  link.command.push_back("-L" + t.prefix + "/lib64/stubs");
  link.command.push_back("-L" + t.prefix + "/lib64");
  link.command.push_back("-lmycc_rt");
  switch (o.cudart) {
  case CudartKind::Static:
    link.command.insert(link.command.end(), {"-lcudadevrt", "-lcudart_static",
                                             "-lrt", "-lpthread", "-ldl"});
    break;
  case CudartKind::Shared:
    link.command.insert(link.command.end(), {"-lcudadevrt", "-lcudart"});
    break;
  case CudartKind::None:
    break;
  }
  link.command.insert(link.command.end(), {"-o", link.output});
  plan.steps.push_back(link);
  return true;
}

} // namespace mycc::driver
