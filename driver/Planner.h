// Planning: the job graph of one invocation, from the options and the
// toolkit. Planning runs no tool and writes nothing; what it must know about
// files given on the command line comes through an InputProbe (the driver's
// reads the file system; tests describe the files).
#pragma once

#include "Graph.h"
#include "Options.h"
#include "Toolkit.h"

#include <memory>
#include <string>
#include <vector>

namespace mycc::driver {

// What planning asks about existing input files.
class InputProbe {
public:
  virtual ~InputProbe() = default;
  virtual bool exists(const std::string &path) const = 0;
  // The relocatable device code in an object or archive: each virtual arch
  // with what it was compiled for from it (none: no device code). False,
  // with a one-line `error`, for a malformed file.
  virtual bool deviceCodeOf(const std::string &path,
                            std::vector<TargetPair> &targets,
                            std::string &error) const = 0;
};

// The probe that reads the files (lib/Offload's reader).
std::unique_ptr<InputProbe> fileSystemProbe();

// Whether mycc compiles or links `path` (a .cu/.c/.cpp source, an object or a
// library, or any source under -x), rather than not knowing what it is.
bool isBuildInput(const Options &options, const std::string &path);

// Builds the graph. `tempDir` is where intermediate files go (the keep
// directory with --keep). False with a one-line `error` for inputs or option
// combinations that cannot be planned.
bool planGraph(const Options &options, const Toolkit &toolkit,
               const std::string &tempDir, const InputProbe &probe,
               Graph &graph, std::string &error);

} // namespace mycc::driver
