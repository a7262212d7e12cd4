// Planning: the job graph of one invocation, from the options and the
// toolkit. Planning runs no tool, writes nothing and reads no file: whether
// an input exists comes through an InputProbe (the driver's asks the file
// system; tests describe the files), and what existing objects hold is a
// job's to find.
#pragma once

#include "Graph.h"
#include "Options.h"
#include "Toolkit.h"

#include <memory>
#include <string>
#include <vector>

namespace mycc::driver {

// What planning asks about input files: whether they exist. What they hold
// (the relocatable device code of objects and -l archives) is found by a
// job (scan-device-code), after which the device link is planned
// (Graph::extendAfter).
class InputProbe {
public:
  virtual ~InputProbe() = default;
  virtual bool exists(const std::string &path) const = 0;
  virtual bool isDirectory(const std::string &) const { return false; }
  // Why an existing input cannot be read ("permission denied"), or empty.
  virtual std::string unreadable(const std::string &) const { return {}; }
};

// The probe that asks the file system.
std::unique_ptr<InputProbe> fileSystemProbe();

// Whether mycc compiles or links `path` (a .cu/.c/.cpp source, an object or a
// library, or any source under -x), rather than not knowing what it is.
bool isBuildInput(const Options &options, const std::string &path);

// Whether mycc compiles `path` as CUDA (a .cu, or any source under -x cu).
bool isCudaSource(const Options &options, const std::string &path);

// An output's file: -o when given, else `name` (nvcc's name for it: x.o,
// a.out, a.a, ...) in -odir; "-" (stdout) stays as it is.
std::string outputFile(const Options &options, const std::string &name);

// Builds the graph. `tempDir` is where intermediate files go (the keep
// directory with --keep). False with a one-line `error` for inputs or option
// combinations that cannot be planned. A link of existing objects or -l
// libraries ends with a scan-device-code job whose extension plans the
// device link and the link once it has run; `toolkit`, `options` and
// `tempDir` must outlive the graph's run.
bool planGraph(const Options &options, const Toolkit &toolkit,
               const std::string &tempDir, const InputProbe &probe,
               Graph &graph, std::string &error);

} // namespace mycc::driver
