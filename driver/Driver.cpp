#include "Driver.h"

#include "AtomicFile.h"
#include "RunProgram.h"
#include "SignalCleanup.h"
#include "Frontend.h"
#include "InternalTools.h"
#include "Jobserver.h"
#include "Options.h"
#include "Planner.h"
#include "Scheduler.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <sys/statvfs.h>
#include <unistd.h>
#include <cstring>
#include <functional>
#include <mutex>
#include <regex>
#include <set>

namespace mycc::driver {
namespace {

int fail(const std::string &message) {
  if (!message.empty()) llvm::errs() << "mycc: error: " << message << "\n";
  return 1;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
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

// -run: like nvcc, the program runs through the shell, `command` (its path
// as written) followed by the -run-args words, and mycc exits with its status.
// Meson checks its CUDA compiler with `--run "<path>"`, the quotes being part
// of the argument: the shell removes them, as it does for nvcc.
int runProgram(const std::string &command, const Options &o) {
  std::string line = command;
  for (const std::string &arg : o.runArgs) line += " " + arg;
  if (o.verbose || o.dryrun)
    llvm::errs() << "#$ " << line << "\n";
  if (o.dryrun) return 0;
  llvm::outs().flush();
  llvm::errs().flush();
  llvm::StringRef args[] = {"sh", "-c", line};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait("/bin/sh", args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc < 0) return fail("-run: cannot run '" + command + "': " + message);
  return rc;
}

// The built program as a shell word: ./"a.out" in nvcc's spelling, single
// quotes here.
std::string shellWord(std::string path) {
  if (path.find('/') == std::string::npos) path = "./" + path;
  std::string quoted = "'";
  for (char c : path)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Why __nvcc_device_query failed, in one line without its directory.
std::string deviceQueryFailure(const std::string &name, int rc,
                               const std::string &err,
                               const std::string &execError) {
  llvm::StringRef why = llvm::StringRef(err).trim();
  why = why.take_until([](char c) { return c == '\n'; });
  // Some toolkits print the program's full path (not argv[0]) first; keep
  // the message the same everywhere by dropping the directory.
  size_t at = why.find(name);
  if (at != llvm::StringRef::npos && !why.take_front(at).contains(' '))
    why = why.drop_front(at);
  return !why.empty() ? why.str()
         : rc < 0     ? name + ": " + execError
                      : name + " exited with status " + std::to_string(rc);
}

// -arch=native: the installed GPUs, as the toolkit's own __nvcc_device_query
// reports them (nvcc runs the same program). On success it prints the
// compute capabilities ("90", or "80,90") and exits 0; otherwise it says why
// on stderr and exits 1. nvcc then falls back to its default target with a
// warning, and so does mycc (addNativeTargets); `message` says why, for it.
bool queryInstalledGpus(const std::string &cudaPath, std::vector<GpuArch> &gpus,
                        std::string &message) {
  const std::string name = "__nvcc_device_query";
  std::string program = cudaPath + "/bin/" + name;
  if (!llvm::sys::fs::can_execute(program)) {
    message = "cannot run " + program + ", which finds the installed GPUs";
    return false;
  }
  // argv[0] without the directory: the program's messages start with it.
  llvm::StringRef args[] = {name};
  support::ProgramOutput run =
      support::runCapturing(program, args, /*seconds=*/60);
  if (run.status != 0) {
    message = deviceQueryFailure(name, run.status, run.err, run.execError);
    return false;
  }
  const std::string &out = run.out;
  std::optional<std::vector<GpuArch>> found = parseDeviceQuery(out);
  if (!found) {
    message = "cannot read the output of " + name + ": '" +
              llvm::StringRef(out).trim().str() + "'";
    return false;
  }
  gpus = std::move(*found);
  return true;
}

// Requests answered without compiling (-h, -V, the architecture lists, -run
// of a program). Returns the exit code, or nullopt to go on.
std::optional<int> answerRequest(const Options &o) {
  if (o.showHelp) {
    llvm::outs() << helpText();
    return 0;
  }
  if (o.showVersion) {
    printVersion(cudaPathOf(o));
    return 0;
  }
  // -run with a single input that is not something to compile or link:
  // nvcc runs it as it is.
  if (o.run && o.inputs.size() == 1 && !isBuildInput(o, o.inputs[0]))
    return runProgram(o.inputs[0], o);
  if (!o.listGpuArch && !o.listGpuCode) return std::nullopt;
  // Like nvcc, the lists name the plain architectures only; the `a` and `f`
  // forms (sm_90a, sm_100f, ...) are accepted without being listed.
  for (const GpuArch &arch : knownArchs()) {
    if (arch.suffix != ArchSuffix::None) continue;
    if (o.listGpuArch) llvm::outs() << "compute_" << arch.str() << "\n";
    if (o.listGpuCode) llvm::outs() << "sm_" << arch.str() << "\n";
  }
  return 0;
}

bool addInstalledGpus(Options &o, const Toolkit &t, std::string &error) {
  std::vector<GpuArch> gpus;
  std::vector<std::string> warnings;
  // No driver or no GPU: as nvcc, the default architecture, with nvcc's
  // warning and the query's reason.
  std::string reason;
  if (!queryInstalledGpus(t.cudaPath, gpus, reason)) gpus.clear();
  error = addNativeTargets(o, gpus, warnings, reason);
  for (const std::string &warning : warnings)
    llvm::errs() << "mycc: warning: " << warning << "\n";
  return error.empty();
}

// The directory a file goes to: "." for a name without one.
std::string directoryOf(const std::string &path) {
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  return parent.empty() ? "." : parent.str();
}

// -objtemp with -c/-dc/-dw: intermediate files go beside the object, as
// nvcc's; else "". The object is -o's, else the first input's in -odir.
std::string objectDirectory(const Options &o) {
  if (!o.objectDirAsTemp || o.phase != Phase::Compile || o.inputs.empty())
    return "";
  std::string object = o.output.empty()
                           ? outputFile(o, llvm::sys::path::filename(o.inputs[0]).str())
                           : o.output;
  return directoryOf(object);
}

// Where intermediate files go: the keep directory, else a directory of the
// run's own (named but not created for --dryrun), in the system's temporary
// directory or, with -objtemp, beside the object. `owned`: remove it after.
bool makeTempDir(const Options &o, std::string &dir, bool &owned,
                 std::string &error) {
  owned = false;
  llvm::SmallString<256> path;
  std::string objectDir = objectDirectory(o);
  if (o.keep) {
    dir = !o.keepDir.empty() ? o.keepDir : !objectDir.empty() ? objectDir : ".";
    if (o.dryrun) return true;
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      error = "cannot create --keep-dir '" + dir + "': " + ec.message();
      return false;
    }
    return true;
  }
  if (o.dryrun || !objectDir.empty()) {
    // A name no other run uses; the printed commands create and remove it.
    llvm::SmallString<256> model(objectDir);
    if (objectDir.empty()) llvm::sys::path::system_temp_directory(true, model);
    llvm::sys::path::append(model, "mycc-%%%%%%");
    for (int attempt = 0;; ++attempt) {
      llvm::sys::fs::createUniquePath(model, path, /*MakeAbsolute=*/false);
      std::error_code ec;
      if (o.dryrun || !(ec = llvm::sys::fs::create_directory(path, /*IgnoreExisting=*/false)))
        break;
      if (ec != std::errc::file_exists || attempt == 100) {
        error = "cannot create a temporary directory in " + objectDir + ": " + ec.message();
        return false;
      }
    }
    owned = true;
  } else if (std::error_code ec =
                 llvm::sys::fs::createUniqueDirectory("mycc", path)) {
    error = "cannot create a temporary directory: " + ec.message();
    return false;
  } else {
    owned = true;
  }
  dir = std::string(path);
  return true;
}

// Runs a job: in-process tools in this process, with their diagnostics
// kept for the scheduler to print; external tools as processes, their
// output written beside its final name and renamed there on success.
class Runner : public JobRunner {
public:
  // `traced`: each job is an event of -fdevice-time-trace's profile, with
  // the front end's and LLVM's own events inside those run in process.
  explicit Runner(bool traced = false) : traced(traced) {}

  JobResult run(const Job &job) override {
    if (!traced) return run(job, false);
    // Each job runs on a thread of its own (Scheduler.cpp): its profile is
    // that thread's, handed to the main thread's when it ends.
    llvm::timeTraceProfilerInitialize(kTraceGranularityUs, "mycc");
    JobResult result;
    {
      llvm::TimeTraceScope scope(jobKindName(job.kind), [&] {
        std::string detail = job.outputs.empty() ? job.source : job.outputs[0];
        return job.target ? job.target->str() + " " + detail : detail;
      });
      result = run(job, false);
    }
    llvm::timeTraceProfilerFinishThread();
    return result;
  }

  // `quiet`: an external command's stderr is dropped (an in-process tool's
  // diagnostics are returned, never printed here).
  JobResult run(const Job &job, bool quiet) {
    auto start = std::chrono::steady_clock::now();
    JobResult result;
    if (job.inProcess) {
      llvm::raw_string_ostream diagnostics(result.diagnostics);
      runRecovering(jobKindName(job.kind), job.source, job.command, diagnostics,
                    result);
    } else {
      result.ok = runExternal(job, quiet, result.error);
    }
    result.milliseconds = millisecondsSince(start);
    return result;
  }

  // An in-process tool that crashes (a signal) or hits an LLVM fatal error
  // fails its job with one line naming the phase and the source, never a
  // stack dump (MYCC_CRASH_DIAGNOSTICS=1 keeps LLVM's) or a partial
  // output (outputs are written by rename, and the run stops).
  static void runRecovering(const std::string &phase, const std::string &source,
                            const std::vector<std::string> &command,
                            llvm::raw_ostream &diagnostics, JobResult &result) {
    fatalReason().clear();
    support::watchStackOverflow(phase + " while compiling " + source,
                                kInternalErrorExit);
    llvm::CrashRecoveryContext recovery;
    bool finished = recovery.RunSafely([&] {
      result.ok = runInternalTool(command, diagnostics, result.error);
    });
    if (finished) return;
    std::string reason = fatalReason();
    if (reason.empty()) {
      int sig = recovery.RetCode > 128 ? recovery.RetCode - 128 : recovery.RetCode;
      reason = std::string("signal ") + std::to_string(sig) +
               (sig > 0 && sig < NSIG ? std::string(" (") + strsignal(sig) + ")" : "");
    }
    result.ok = false;
    result.internalError = true;
    result.error = "internal error in " + phase + " while compiling " + source +
                   ": " + reason + "; please report";
  }

  // The message of an LLVM fatal error on this thread (recorded by the
  // handler enableCrashRecovery installs).
  static std::string &fatalReason() {
    thread_local std::string reason;
    return reason;
  }

  // Clang's default for -ftime-trace: events shorter than this are left out.
  static constexpr unsigned kTraceGranularityUs = 500;

private:
  bool traced;

  static bool runExternal(const Job &job, bool quiet, std::string &error) {
    std::vector<std::string> cmd = job.command;
    std::string output = job.outputs.empty() ? "" : job.outputs[0], temp;
    support::OutputPlace place = support::outputPlace(output);
    for (size_t i = 0; i + 1 < cmd.size(); ++i)
      if (cmd[i] == "-o" && cmd[i + 1] == output && !place.inPlace)
        cmd[i + 1] = temp = support::temporaryBeside(place.path);
    if (job.kind == JobKind::Archive && !place.inPlace) {
      // ar updates the library in place: it works on a copy, which replaces
      // the library when it succeeded.
      temp = support::temporaryBeside(place.path);
      if (llvm::sys::fs::exists(place.path) &&
          llvm::sys::fs::copy_file(place.path, temp)) {
        error = "cannot copy " + output + " to update it";
        return false;
      }
      std::replace(cmd.begin() + 1, cmd.end(), output, temp);
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
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt,
                                                  llvm::StringRef("")};
    int rc = llvm::sys::ExecuteAndWait(
        program, args, std::nullopt,
        quiet ? llvm::ArrayRef(redirects) : llvm::ArrayRef<std::optional<llvm::StringRef>>(),
        0, 0, &message);
    if (rc != 0) {
      if (!temp.empty()) llvm::sys::fs::remove(temp);
      error = rc < 0 ? "cannot run " + program + ": " + message
                     : std::string(jobKindName(job.kind)) + " failed: " +
                           llvm::sys::path::filename(cmd[0]).str() +
                           " exited with status " + std::to_string(rc);
      if (rc > 0)
        error += fullFileSystemNote(job.outputs);
      return false;
    }
    if (job.kind == JobKind::Ptxas && !place.inPlace &&
        !isElfFile(temp.empty() ? output : temp)) {
      // ptxas 13 exits 0 when it cannot write its cubin (a full disk),
      // leaving an empty file; nvcc then bundles or keeps that file.
      if (!temp.empty()) llvm::sys::fs::remove(temp);
      error = "ptxas failed: it exited with status 0 but wrote no cubin to " +
              output + " (is the disk full?)";
      return false;
    }
    return temp.empty() || support::renameIntoPlace(temp, place.path, error);
  }

  // "; no space left on the file system holding full" when a directory an
  // output goes to has none: the tool's own message may be lines above,
  // among others (the assembler's, the linker's).
  static std::string fullFileSystemNote(const std::vector<std::string> &outputs) {
    for (const std::string &out : outputs) {
      std::string dir = directoryOf(out);
      struct statvfs fs;
      if (::statvfs(dir.c_str(), &fs) == 0 && fs.f_bavail == 0)
        return "; no space left on the file system holding " + dir;
    }
    return {};
  }

  // Whether `path` starts with an ELF header (a cubin; -ewp's have an
  // e_type LLVM does not name).
  static bool isElfFile(const std::string &path) {
    llvm::file_magic magic;
    return !llvm::identify_magic(path, magic) &&
           magic >= llvm::file_magic::elf && magic <= llvm::file_magic::elf_core;
  }
};

// -time: nvcc's CSV, one row per job (measured with nvcc 13.0: a header
// when the file is empty or for stdout, then "source , phase , inputs ,
// output , arch , tool , time , ms", and a last row for the driver).
class TimeTable {
public:
  void add(const Job &job, double ms) {
    std::string inputs;
    for (const std::string &input : job.inputs) inputs += input + " ";
    std::string arch = job.target ? job.target->str() : "";
    rows += job.source + " , " + jobKindName(job.kind) + " , " + inputs +
            " , " + (job.outputs.empty() ? "" : job.outputs[0]) + " , " + arch +
            " , mycc , " + formatMs(ms) + " , ms\n";
  }
  bool write(const std::string &file, const std::string &output, double driverMs,
             std::string &error) {
    rows += " , mycc (driver) ,  , " + output + " ,  , mycc , " +
            formatMs(driverMs) + " , ms\n";
    const char *header = "source file name , phase name , phase input files , "
                         "phase output file , arch , tool, metric , unit\n";
    if (file == "-") {
      llvm::outs() << header << rows;
      return true;
    }
    uint64_t size = 0;
    bool empty = llvm::sys::fs::file_size(file, size) || size == 0;
    std::error_code ec;
    llvm::raw_fd_ostream out(file, ec, llvm::sys::fs::OF_Append);
    if (ec) {
      error = "-time: cannot write " + file + ": " + ec.message();
      return false;
    }
    out << (empty ? header : "") << rows;
    return true;
  }

private:
  static std::string formatMs(double ms) {
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%.4f", ms);
    return text;
  }
  std::string rows;
};

// -fdevice-time-trace: the profile, as nvcc names it (measured with nvcc
// 13.0): <name>.json, and for "-" the output's name and .json.
bool writeTimeTrace(const std::string &name, const std::string &output,
                    std::string &error) {
  llvm::SmallString<0> json;
  llvm::raw_svector_ostream out(json);
  llvm::timeTraceProfilerWrite(out);
  llvm::timeTraceProfilerCleanup();
  std::string file = (name == "-" ? output : name) + ".json";
  if (support::writeFileAtomic(file, json, error)) return true;
  error = "-fdevice-time-trace: " + error;
  return false;
}

// As with nvcc (and gcc, clang), a dependency rule whose preprocessing
// succeeded is written although a compile failed. The run stopped at the
// failure, maybe before the rule's jobs ran: each preprocessing a rule comes
// from runs again, quietly (its diagnostics, if any, were printed), and the
// rule is published if they all succeed. Rules of compile jobs (a .cpp's)
// are not: a compile is not run twice.
void publishRulesAfterFailure(const Graph &graph, Runner &runner,
                              const std::set<const Job *> &succeeded) {
  for (const Job &publish : graph.jobs()) {
    if (publish.kind != JobKind::Depfile || succeeded.count(&publish)) continue;
    bool ok = true;
    for (const std::string &rule : publish.inputs) {
      std::optional<unsigned> from = graph.producerOf(rule);
      if (!from) {
        ok = false;
        break;
      }
      const Job &producer = graph.jobs()[*from];
      ok = ok && (succeeded.count(&producer) ||
                  ((producer.kind == JobKind::PreprocessHost ||
                    producer.kind == JobKind::PreprocessDevice) &&
                   runner.run(producer, /*quiet=*/true).ok));
    }
    if (ok) runner.run(publish);
  }
}

unsigned parallelismOf(const Options &o) {
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  if (!o.threads || *o.threads == 0) return std::max(1u, cores);
  return *o.threads;
}

// Runs the graph; prints -v lines as jobs start and each job's diagnostics
// as it ends, then the failure, once.
int execute(Graph &graph, const Options &o, const Toolkit &t,
            TimeTable *times, bool traced) {
  for (const Job &job : graph.jobs())
    if (job.inProcess) prepareInternalTool(job.command);
  std::unique_ptr<Jobserver> jobserver;
  if (auto flags = llvm::sys::Process::GetEnv("MAKEFLAGS"))
    jobserver = Jobserver::fromMakeflags(*flags);
  ScheduleOptions options;
  options.parallelism = parallelismOf(o);
  options.jobserver = jobserver.get();
  options.started = [&](const Job &job) {
    if (o.verbose) llvm::errs() << "#$ " << commandText(job, t) << "\n";
  };
  std::set<const Job *> succeeded; // the scheduler calls `finished` under its lock
  options.finished = [&](const Job &job, const JobResult &result) {
    llvm::errs() << result.diagnostics;
    if (times) times->add(job, result.milliseconds);
    succeeded.insert(&job);
  };
  Runner runner(traced);
  ScheduleResult result = runJobs(graph, runner, options);
  if (result.ok) return 0;
  llvm::errs() << result.failure.diagnostics;
  if (result.failure.internalError) {
    fail(result.failure.error);
    return kInternalErrorExit;
  }
  publishRulesAfterFailure(graph, runner, succeeded);
  return fail(result.failure.error);
}

// Visits every job of the plan without running it (--dryrun, -clean). Jobs
// whose findings decide further jobs (scan-device-code) only read their
// inputs: they run, into the temporary directory, so that the jobs that
// follow them are visited too.
bool walkPlan(Graph &graph, const std::string &dir, bool ownDir,
              const std::function<void(const Job &)> &visit,
              std::string &error) {
  std::vector<std::string> scratch;
  bool ok = true;
  for (unsigned i = 0; ok && i < graph.jobs().size(); ++i) {
    const Job &job = graph.jobs()[i];
    visit(job);
    const Graph::Extension *extend = graph.extensionAfter(i);
    if (!extend) continue;
    llvm::sys::fs::create_directories(dir);
    scratch.insert(scratch.end(), job.outputs.begin(), job.outputs.end());
    ok = runInternalTool(job.command, llvm::errs(), error) &&
         (*extend)(graph, error);
  }
  for (const std::string &file : scratch) llvm::sys::fs::remove(file);
  if (!scratch.empty() && ownDir) llvm::sys::fs::remove_directories(dir);
  return ok;
}

// --dryrun: the jobs' commands, in plan order, which a shell can replay
// (the temporary directory made first and removed last, as a run does), on
// standard error as nvcc prints them (sccache reads them there).
bool printDryrun(Graph &graph, const Toolkit &t, const std::string &dir,
                 bool ownDir, std::string &error) {
  bool temporaries = !graph.temporaries.empty();
  if (temporaries)
    llvm::errs() << "#$ " << frontend::formatCommand("mkdir", {"-p", dir})
                 << "\n";
  auto print = [&](const Job &job) {
    llvm::errs() << "#$ " << commandText(job, t) << "\n";
  };
  if (!walkPlan(graph, dir, ownDir, print, error)) return false;
  if (temporaries && ownDir)
    llvm::errs() << "#$ " << frontend::formatCommand("rm", {"-rf", dir})
                 << "\n";
  return true;
}

// -clean: nothing runs; the files the plan would leave behind (not its
// temporaries) are deleted, each shown as `rm <file>` under --dryrun or -v,
// as nvcc shows them.
bool cleanTargets(Graph &graph, const Options &o, const std::string &dir,
                  bool ownDir, std::string &error) {
  std::vector<std::string> made;
  auto collect = [&](const Job &job) {
    for (const std::string &out : job.outputs)
      if (out != "-" &&
          std::find(graph.temporaries.begin(), graph.temporaries.end(), out) ==
              graph.temporaries.end() &&
          std::find(made.begin(), made.end(), out) == made.end())
        made.push_back(out);
  };
  if (!walkPlan(graph, dir, ownDir, collect, error)) return false;
  for (const std::string &file : made) {
    if (o.dryrun || o.verbose)
      llvm::errs() << "#$ " << frontend::formatCommand("rm", {file}) << "\n";
    if (!o.dryrun) llvm::sys::fs::remove(file);
  }
  return true;
}

// Plans and runs (or prints) the graph of a compiling invocation.
int compile(Options &o, const std::string &self) {
  auto start = std::chrono::steady_clock::now();
  Toolkit t;
  std::string error, tempDir;
  bool ownTempDir = false;
  if (!discoverToolkit(o, self, t, error)) return fail(error);
  if (o.nativeArch && !addInstalledGpus(o, t, error)) return fail(error);
  if (!makeTempDir(o, tempDir, ownTempDir, error)) return fail(error);
  // Interrupted (SIGINT, SIGTERM, SIGHUP), the run leaves no temporaries.
  if (ownTempDir && !o.dryrun) support::armTempDirCleanup(tempDir);
  // Like nvcc, the environment comes before the jobs, and before an input
  // is rejected: CMake runs `mycc -v __cmake_determine_cuda` only to read it.
  if (o.verbose || o.dryrun)
    printEnvironment(llvm::errs(), t);
  Graph graph;
  std::unique_ptr<InputProbe> probe = fileSystemProbe();
  if (!planGraph(o, t, tempDir, *probe, graph, error)) {
    if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
    return fail(error);
  }
  std::string output = outputFile(o, "a.out");
  if (o.cleanTargets) {
    bool ok = cleanTargets(graph, o, tempDir, ownTempDir, error);
    if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
    return ok ? 0 : fail(error);
  }
  // An output whose directory is missing or cannot be written: one line
  // before any job runs (the host compiler's assembler said it in three,
  // after the device compile). Outputs go to a temporary beside them, so
  // the directory is what must be writable.
  if (!o.dryrun)
    for (const Job &job : graph.jobs())
      for (const std::string &out : job.outputs) {
        if (out == "-" ||
            std::find(graph.temporaries.begin(), graph.temporaries.end(), out) !=
                graph.temporaries.end())
          continue;
        support::OutputPlace place = support::outputPlace(out);
        std::string dir = directoryOf(place.path);
        std::string why;
        if (place.inPlace) { // /dev/null: the file itself must be writable
          if (::access(place.path.c_str(), W_OK) != 0)
            why = std::strerror(errno);
        } else if (!llvm::sys::fs::is_directory(dir)) {
          why = "no directory " + dir;
        } else if (::access(dir.c_str(), W_OK | X_OK) != 0) {
          why = "directory " + dir + " is not writable (" + std::strerror(errno) + ")";
        }
        if (why.empty())
          continue;
        if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
        return fail("cannot write " + out + ": " + why);
      }
  if (o.dryrun) {
    if (!printDryrun(graph, t, tempDir, ownTempDir, error)) return fail(error);
    return o.run ? runProgram(shellWord(output), o) : 0;
  }
  TimeTable times;
  TimeTable *timing = o.timeFile.empty() ? nullptr : &times;
  double planMs = millisecondsSince(start);
  bool traced = !o.timeTraceFile.empty();
  if (traced) llvm::timeTraceProfilerInitialize(Runner::kTraceGranularityUs, "mycc");
  int rc = execute(graph, o, t, timing, traced);
  if (ownTempDir) llvm::sys::fs::remove_directories(tempDir);
  if (timing && !times.write(o.timeFile, output, planMs, error) && rc == 0)
    rc = fail(error);
  if (traced && !writeTimeTrace(o.timeTraceFile, output, error) && rc == 0)
    rc = fail(error);
  if (rc == 0 && o.run) return runProgram(shellWord(output), o);
  return rc;
}

// In-process tools run under llvm::CrashRecoveryContext (Runner): a crash
// or an LLVM fatal error becomes the job's failure, exit status 70, without
// LLVM's stack dump. MYCC_CRASH_DIAGNOSTICS=1 leaves LLVM's handling (the
// stack dump) in place, for a report.
void enableCrashRecovery() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (llvm::sys::Process::GetEnv("MYCC_CRASH_DIAGNOSTICS").value_or("") == "1")
      return;
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(
        [](void *, const char *reason, bool) {
          Runner::fatalReason() = reason;
          // Inside a job: back to its RunSafely, which reports it; elsewhere
          // (planning, the driver's own steps): reported here, exit 70.
          if (!llvm::CrashRecoveryContext::GetCurrent())
            llvm::errs() << "mycc: error: internal error: " << reason
                         << "; please report\n";
          llvm::sys::Process::Exit(kInternalErrorExit);
        },
        nullptr);
  });
}

void initializeLlvmTargets() {
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::InitializeAllAsmParsers();
}

} // namespace

std::string commandText(const Job &job, const Toolkit &t) {
  const std::vector<std::string> &cmd = job.command;
  if (job.kind == JobKind::Link) {
    const std::string stubs = "-L" + t.prefix + "/lib64/stubs";
    for (size_t i = 1; i + 1 < cmd.size(); ++i)
      if (cmd[i] == stubs && cmd[i + 1] == "-L" + t.prefix + "/lib64")
        return frontend::formatCommand(cmd[0],
                                       {cmd.begin() + 1, cmd.begin() + i}) +
               " " + librariesValue(t) +
               frontend::formatCommand("", {cmd.begin() + i + 2, cmd.end()});
  }
  return frontend::formatCommand(cmd[0], {cmd.begin() + 1, cmd.end()});
}

int runDriver(const std::vector<std::string> &args, const std::string &self) {
  auto env = [](const char *name) {
    return llvm::sys::Process::GetEnv(name).value_or("");
  };
  ParseResult parsed = parseCommandLine(withEnvironmentFlags(
      args, env("NVCC_PREPEND_FLAGS"), env("NVCC_APPEND_FLAGS")));
  if (!parsed) return fail(parsed.error);
  for (const std::string &warning : parsed.warnings)
    llvm::errs() << "mycc: warning: " << warning << "\n";
  if (std::optional<int> rc = answerRequest(parsed.options)) return *rc;
  initializeLlvmTargets();
  enableCrashRecovery();
  return compile(parsed.options, self);
}

int runInternalCommand(const std::vector<std::string> &argv) {
  initializeLlvmTargets();
  enableCrashRecovery();
  prepareInternalTool(argv);
  // The replayed step of a --dryrun: `mycc -cc1 <tool> ... -source <file>`.
  std::string source;
  for (size_t i = 2; i + 1 < argv.size(); ++i)
    if (argv[i] == "-source" || (source.empty() && argv[i] == "-o"))
      source = argv[i + 1];
  JobResult result;
  Runner::runRecovering(argv.size() > 2 ? argv[2] : "-cc1", source, argv,
                        llvm::errs(), result);
  if (result.ok) return 0;
  fail(result.error);
  return result.internalError ? kInternalErrorExit : 1;
}

} // namespace mycc::driver
