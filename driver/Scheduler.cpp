#include "Scheduler.h"

#include "IdleSlots.h"
#include "Jobserver.h"
#include "SignalCleanup.h"

#include "llvm/Support/thread.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

namespace mycc::driver {
namespace {

// The scheduler is also the run's lender of idle job slots (IdleSlots.h),
// to in-process jobs that ask while they run.
class Scheduler : public support::IdleSlots {
public:
  Scheduler(Graph &graph, JobRunner &runner, const ScheduleOptions &o)
      : graph(graph), runner(runner), o(o) {
    admitNewJobs();
    support::setIdleSlots(this);
  }
  ~Scheduler() override { support::setIdleSlots(nullptr); }

  unsigned borrow(unsigned most) override {
    std::lock_guard<std::mutex> lock(mutex);
    unsigned lent = failed ? 0 : idleSlots(std::min(most, fairShare() - 1));
    running += lent;
    return lent;
  }

  void giveBack(unsigned count) override {
    std::lock_guard<std::mutex> lock(mutex);
    running -= count;
    if (o.jobserver)
      for (unsigned i = 0; i < count; ++i) o.jobserver->release();
    done.notify_one();
  }

  ScheduleResult run() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      bool starved = startReady();
      if (running == 0 && (failed || ready.empty())) break;
      // Waiting for a token: look again soon (the jobserver has no event
      // to wait on without blocking).
      if (starved)
        done.wait_for(lock, std::chrono::milliseconds(10));
      else
        done.wait(lock);
    }
    lock.unlock();
    for (auto &thread : threads) thread.join();
    return result;
  }

private:
  // Starts ready jobs while the limit allows; true if a token was missing.
  bool startReady() {
    while (!failed && !ready.empty() && running < o.parallelism) {
      bool token = false;
      if (running > 0 && o.jobserver) {
        if (!o.jobserver->tryAcquire()) return true;
        token = true;
      }
      unsigned index = *ready.begin();
      ready.erase(ready.begin());
      ++running;
      active[index] = true;
      if (o.started) o.started(graph.jobs()[index]);
      threads.emplace_back(std::optional<unsigned>(support::jobStackBytes()),
                           [this, index, token] { runOne(index, token); });
    }
    return false;
  }

  // The slots each job that borrows may have: the limit shared among those
  // running or ready (three targets' code generation on 16 cores: 5 each,
  // not all to the first to ask).
  unsigned fairShare() const {
    const std::deque<Job> &jobs = graph.jobs();
    unsigned sharing = 0;
    for (unsigned i = 0; i < active.size(); ++i)
      if ((active[i] || ready.count(i)) && jobs[i].borrowsThreads) ++sharing;
    return std::max(1u, o.parallelism / std::max(1u, sharing));
  }

  // Up to `most` of the slots idle now, if no job is ready to take them,
  // each with a jobserver token under make (a running job holds the
  // process's own). The caller counts them as running until they are given
  // back, so the limit holds.
  unsigned idleSlots(unsigned most) {
    unsigned lent = 0;
    if (!ready.empty()) return 0;
    while (lent < most && running + lent < o.parallelism) {
      if (o.jobserver && !o.jobserver->tryAcquire()) break;
      ++lent;
    }
    return lent;
  }

  // Takes in the jobs added since the last call (all of them at first, then
  // those an extension adds): each waits for its unfinished dependencies.
  void admitNewJobs() {
    const std::deque<Job> &jobs = graph.jobs();
    for (unsigned i = waiting.size(); i < jobs.size(); ++i) {
      waiting.push_back(0);
      active.push_back(false);
      dependents.emplace_back();
      finished.push_back(false);
      for (unsigned dep : jobs[i].deps)
        if (!finished[dep]) {
          ++waiting[i];
          dependents[dep].push_back(i);
        }
      if (waiting[i] == 0) ready.insert(i);
    }
  }

  void runOne(unsigned index, bool token) {
    const Job &job = graph.jobs()[index];
    JobResult outcome = runner.run(job);
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    active[index] = false;
    if (token) o.jobserver->release();
    if (outcome.ok) extend(index, outcome);
    if (outcome.ok) {
      if (o.finished) o.finished(job, outcome);
      finished[index] = true;
      for (unsigned next : dependents[index])
        if (--waiting[next] == 0) ready.insert(next);
      admitNewJobs();
    } else if (!result.failedJob || index < *result.failedJob) {
      failed = true;
      result.ok = false;
      result.failedJob = index;
      result.failure = std::move(outcome);
    }
    done.notify_one();
  }

  // The jobs that follow from what job `index` found (Graph::extendAfter).
  void extend(unsigned index, JobResult &outcome) {
    if (const Graph::Extension *extension = graph.extensionAfter(index)) {
      outcome.ok = (*extension)(graph, outcome.error);
      if (!outcome.ok && outcome.error.empty())
        outcome.error = "internal error: cannot plan what follows job " +
                        std::to_string(index);
    }
  }

  Graph &graph;
  JobRunner &runner;
  const ScheduleOptions &o;
  std::vector<unsigned> waiting; // unfinished jobs each job depends on
  std::vector<std::vector<unsigned>> dependents;
  std::vector<bool> finished;
  std::vector<bool> active; // running now
  std::set<unsigned> ready; // ordered: plan order among ready jobs
  unsigned running = 0;
  bool failed = false;
  std::vector<llvm::thread> threads;
  std::mutex mutex;
  std::condition_variable done;
  ScheduleResult result;
};

} // namespace

ScheduleResult runJobs(Graph &graph, JobRunner &runner,
                       const ScheduleOptions &options) {
  ScheduleOptions o = options;
  if (o.parallelism == 0) o.parallelism = 1;
  return Scheduler(graph, runner, o).run();
}

} // namespace mycc::driver
