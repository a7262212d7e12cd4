// One scheduler for every job, in-process or external (the shape of Ninja's
// Plan/Builder/CommandRunner): a job becomes ready when the jobs writing its
// inputs are done; ready jobs start in plan order while fewer than the limit
// run (and, under make, while the jobserver gives tokens). The first failure
// stops new jobs; running ones finish; the failure is reported once.
#pragma once

#include "Graph.h"

#include <functional>
#include <optional>
#include <string>

namespace mycc::driver {

class Jobserver;

struct JobResult {
  bool ok = false;
  std::string diagnostics; // what the job printed about the source
  std::string error;       // one line, or empty when diagnostics say it
  bool internalError = false; // the tool crashed (exit status 70)
  double milliseconds = 0;
};

// Runs one job; called from several threads at once.
class JobRunner {
public:
  virtual ~JobRunner() = default;
  virtual JobResult run(const Job &job) = 0;
};

struct ScheduleOptions {
  unsigned parallelism = 1;          // at least 1
  Jobserver *jobserver = nullptr;    // tokens for jobs beyond the first
  // Called (one at a time) when a job starts and when it has finished.
  std::function<void(const Job &)> started;
  std::function<void(const Job &, const JobResult &)> finished;
};

struct ScheduleResult {
  bool ok = true;
  // The failure to report: of the failed jobs, the first in plan order (a
  // unit's host side before its device side, as with nvcc).
  std::optional<unsigned> failedJob;
  JobResult failure;
};

// Jobs an extension adds (Graph::extendAfter) join the run.
ScheduleResult runJobs(Graph &graph, JobRunner &runner,
                       const ScheduleOptions &options);

} // namespace mycc::driver
