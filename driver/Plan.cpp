#include "Plan.h"

#include "Ptxas.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
  case StepKind::Link: return "link";
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

} // namespace

bool buildPlan(const Options &o, const Toolkit &t, const std::string &tempDir,
               Plan &plan, std::string &error) {
  plan.tempDir = tempDir;
  if (o.inputs.empty()) {
    error = "no input files";
    return false;
  }
  // Phases that write one file per input cannot take -o with several inputs.
  bool singleOutputPhase = o.phase != Phase::Link;
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

    if (kind == InputKind::Object) {
      linkInputs.push_back(input);
      continue;
    }
    if (kind != InputKind::Cuda) {
      if (o.phase != Phase::Compile && o.phase != Phase::Link) {
        error = input + ": -E, -ptx, -cubin, -fatbin and -cuda apply to CUDA "
                        "sources only";
        return false;
      }
      Step s{StepKind::CompileSource};
      s.inputs = {input};
      s.output = o.phase == Phase::Compile ? finalOr(base + ".o") : temp(".o");
      s.command = {t.hostCompiler};
      if (kind == InputKind::C) s.command.insert(s.command.end(), {"-x", "c"});
      addHostSourceFlags(o, t, kind, s.command);
      s.command.insert(s.command.end(), {"-c", input, "-o", s.output});
      plan.steps.push_back(s);
      linkInputs.push_back(s.output);
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
    bool wantsDevice = o.phase != Phase::Cuda;
    std::string lowered;
    if (wantsHost) {
      Step pp{StepKind::PreprocessHost};
      pp.inputs = {input};
      pp.output = temp(".cpp1.ii");
      pp.unit = unit;
      plan.steps.push_back(pp);
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
    for (const auto &pair : targets) {
      Step dev{StepKind::CompileDevice};
      dev.inputs = {input};
      dev.target = pair.virtualArch;
      dev.unit = unit;
      dev.output = o.phase == Phase::Ptx
                       ? finalOr(base + ".ptx")
                       : temp("." + pair.virtualArch.str() + ".ptx");
      plan.steps.push_back(dev);
      if (o.phase == Phase::Ptx) continue;
      for (const auto &code : pair.codes) {
        if (code.isVirtual) {
          bundleInputs.push_back(dev.output);
          bundled.push_back(code);
          continue;
        }
        Step as{StepKind::Assemble};
        as.inputs = {dev.output};
        as.target = code;
        as.unit = unit;
        as.output = o.phase == Phase::Cubin ? finalOr(base + ".cubin")
                                            : temp("." + code.str() + ".cubin");
        offload::PtxasJob job{t.ptxas, dev.output, code.str(), as.output,
                              o.lineInfo, o.deviceDebug, o.xptxas};
        as.command = offload::ptxasCommand(job);
        plan.steps.push_back(as);
        bundleInputs.push_back(as.output);
        bundled.push_back(code);
      }
    }
    if (o.phase == Phase::Ptx || o.phase == Phase::Cubin) continue;

    // nvcc's container order: cubins first, then PTX.
    Step bundle{StepKind::Bundle};
    bundle.unit = unit;
    for (int pass = 0; pass < 2; ++pass)
      for (size_t i = 0; i < bundled.size(); ++i)
        if (bundled[i].isVirtual == (pass == 1)) {
          bundle.inputs.push_back(bundleInputs[i]);
          bundle.bundled.push_back(bundled[i]);
        }
    bundle.output = o.phase == Phase::Fatbin ? finalOr(base + ".fatbin")
                                             : temp(".fatbin");
    plan.steps.push_back(bundle);
    if (o.phase == Phase::Fatbin) continue;

    Step host{StepKind::CompileHost};
    host.inputs = {lowered, bundle.output};
    host.unit = unit;
    host.output = o.phase == Phase::Compile ? finalOr(base + ".o") : temp(".o");
    plan.steps.push_back(host);
    linkInputs.push_back(host.output);
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
