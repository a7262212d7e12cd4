// The job graph: what one mycc invocation runs. Jobs read and write files
// (artifacts); an edge goes from the job that writes a file to each job that
// reads it, and is derived here, once, from the artifacts. Every job has a
// command line: external tools (ptxas, the host compiler) run it as a
// process, and in-process jobs have the form `mycc -cc1 <tool> ...`
// (InternalTools.h), which the scheduler runs inside this process and which
// a shell can replay. --dryrun, -v, -time and the scheduler all read this
// one structure.
#pragma once

#include "Targets.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mycc::driver {

enum class JobKind {
  PreprocessHost, // .cu → preprocessed host unit            (in-process)
  PreprocessDevice, // .cu → a virtual arch's dependency rule  (in-process)
  LowerHost,      // host unit → lowered unit (.cu.cpp.ii)    (in-process)
  CompileDevice,  // .cu → PTX (-dlto: bitcode), a virtual arch (in-process)
  Ptxas,          // PTX → cubin for one real arch            (ptxas)
  Bundle,         // cubins + PTX → fat binary                (in-process)
  HostIR,         // lowered unit → host IR (LLVM bitcode)     (in-process)
  CompileHost,    // host IR + device code → host object      (in-process)
                  // or lowered unit → host object          (host compiler)
  EmbedDeviceCode, // host object + device code → object     (in-process)
  CompileSource,  // a .c/.cpp input → object                 (host compiler)
  ScanDeviceCode, // objects, -l archives → which device code they hold (in-process)
  DeviceLink,     // relocatable device code → linked cubin, one real arch
                  // (nvlink); -dlto: → PTX, one virtual arch (in-process)
  DeviceLinkHost, // linked fat binary → host object registering it (the
                  // host compiler on link.stub; -dlto: in-process)
  Link,           // objects → executable                     (host compiler)
  Archive,        // objects → static library (-lib)          (ar)
  Depfile,        // dependency rule → -MF / .d file / stdout (in-process)
  Join,           // -E of a .cu: every side's text → output  (in-process)
  LinkerScript,   // -hls: the host linker's script             (nvlink)
  Remove,         // a kept file a tool would not overwrite     (rm -f)
};

// The job kind's name, as -time reports the phase and tests name it.
const char *jobKindName(JobKind kind);

struct Job {
  JobKind kind;
  std::vector<std::string> inputs;  // files read
  std::vector<std::string> outputs; // files written; "-" is stdout
  std::optional<Target> target;     // compute_XY (device), sm_XY (ptxas)
  // The user's input the job works for (-time's "source file name"); for
  // the device link and the link, those of every unit, space-separated.
  std::string source;
  std::vector<std::string> command; // argv, tool first
  bool inProcess = false;           // command is `mycc -cc1 <tool> ...`
  // An in-process job that may borrow idle job slots for threads while it
  // runs (support::IdleSlots: a large module's code generation).
  bool borrowsThreads = false;
  std::vector<unsigned> deps;       // the jobs writing this job's inputs
};

class Graph {
public:
  // Adds a job after the jobs it depends on (plan order is a topological
  // order); returns its index.
  unsigned add(Job job);
  // The jobs, in plan order. A deque: jobs added while others run (below)
  // leave the running ones where they are.
  const std::deque<Job> &jobs() const { return list; }

  // What some jobs find decides further jobs (which relocatable device code
  // existing objects and libraries hold decides the device link, as Ninja's
  // dyndep files decide edges): once such a job has run, `extend` adds the
  // jobs that follow from its output. The scheduler calls it; --dryrun runs
  // such jobs (they only read) to print the rest.
  using Extension = std::function<bool(Graph &graph, std::string &error)>;
  void extendAfter(unsigned job, Extension extend) {
    extensions[job] = std::move(extend);
  }
  const Extension *extensionAfter(unsigned job) const {
    auto it = extensions.find(job);
    return it == extensions.end() ? nullptr : &it->second;
  }
  // The job that writes `file`, if any.
  std::optional<unsigned> producerOf(const std::string &file) const;

  // Intermediate files, removed after the run unless --keep.
  std::vector<std::string> temporaries;

private:
  std::deque<Job> list;
  std::map<unsigned, Extension> extensions;
  std::map<std::string, unsigned> producers;
  std::optional<unsigned> lastStdoutWriter;
};

} // namespace mycc::driver
