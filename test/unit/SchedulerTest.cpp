// The scheduler on graphs of fake jobs: order, the parallelism limit, the
// jobserver's tokens, and the first failure stopping the run.
#include "Graph.h"
#include "IdleSlots.h"
#include "Jobserver.h"
#include "Scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

using namespace mycc::driver;

namespace {

// Jobs named by their output; a job whose output starts with "fail" fails.
class FakeRunner : public JobRunner {
public:
  JobResult run(const Job &job) override {
    int now = ++running;
    for (int seen = peak; now > seen && !peak.compare_exchange_weak(seen, now);)
      ;
    unsigned threads = 1;
    {
      // An in-process job borrowing idle slots while it runs.
      std::optional<mycc::support::BorrowedSlots> borrowed;
      if (job.borrowsThreads) {
        borrowed.emplace(8);
        threads += borrowed->count();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(job.outputs[0]);
      borrowedThreads[job.outputs[0]] = threads;
    }
    --running;
    JobResult result;
    result.ok = job.outputs[0].rfind("fail", 0) != 0;
    if (!result.ok) result.error = job.outputs[0] + " failed";
    return result;
  }
  std::atomic<int> running{0}, peak{0};
  std::mutex mutex;
  std::vector<std::string> order;
  std::map<std::string, unsigned> borrowedThreads; // 1 + slots borrowed
};

Job job(const std::string &output, std::vector<std::string> inputs = {}) {
  Job j{JobKind::Bundle};
  j.outputs = {output};
  j.inputs = std::move(inputs);
  return j;
}

// Three independent device compiles, each followed by its ptxas; the
// host object needs all of them.
Graph diamond() {
  Graph g;
  for (const char *arch : {"80", "89", "90"}) {
    g.add(job(std::string("ptx") + arch));
    g.add(job(std::string("cubin") + arch, {std::string("ptx") + arch}));
  }
  g.add(job("object", {"cubin80", "cubin89", "cubin90"}));
  return g;
}

TEST(Scheduler, EdgesComeFromFiles) {
  Graph g = diamond();
  EXPECT_EQ(g.jobs()[1].deps, std::vector<unsigned>{0});
  EXPECT_EQ(g.jobs()[6].deps, (std::vector<unsigned>{1, 3, 5}));
}

TEST(Scheduler, OneAtATimeRunsInPlanOrder) {
  Graph g = diamond();
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 1;
  ScheduleResult r = runJobs(g, runner, o);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(runner.peak, 1);
  EXPECT_EQ(runner.order, (std::vector<std::string>{"ptx80", "cubin80", "ptx89",
                                                    "cubin89", "ptx90", "cubin90",
                                                    "object"}));
}

TEST(Scheduler, LimitBoundsParallelism) {
  Graph g = diamond();
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 2;
  EXPECT_TRUE(runJobs(g, runner, o).ok);
  EXPECT_EQ(runner.peak, 2);
  EXPECT_EQ(runner.order.back(), "object");

  FakeRunner wide;
  o.parallelism = 8;
  EXPECT_TRUE(runJobs(g, wide, o).ok);
  EXPECT_EQ(wide.peak, 3); // three independent compiles
}

TEST(Scheduler, FirstFailureStopsNewJobs) {
  Graph g;
  g.add(job("fail-ptx80"));
  g.add(job("cubin80", {"fail-ptx80"}));
  g.add(job("ptx90"));
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 1;
  ScheduleResult r = runJobs(g, runner, o);
  EXPECT_FALSE(r.ok);
  ASSERT_TRUE(r.failedJob);
  EXPECT_EQ(*r.failedJob, 0u);
  EXPECT_EQ(r.failure.error, "fail-ptx80 failed");
  EXPECT_EQ(runner.order, std::vector<std::string>{"fail-ptx80"});
}

TEST(Scheduler, ReportsTheFirstFailureInPlanOrder) {
  Graph g;
  g.add(job("fail-host"));
  g.add(job("fail-device"));
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 2;
  ScheduleResult r = runJobs(g, runner, o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure.error, "fail-host failed");
}

// A make jobserver holding one token in a pipe; at the end the token must
// be back in it.
struct OneTokenJobserver {
  OneTokenJobserver() {
    if (pipe(fds) != 0 || write(fds[1], "+", 1) != 1) return;
    jobserver = Jobserver::fromMakeflags(" -j2 --jobserver-auth=" +
                                         std::to_string(fds[0]) + "," +
                                         std::to_string(fds[1]));
  }
  ~OneTokenJobserver() {
    jobserver.reset();
    char token = 0;
    EXPECT_EQ(read(fds[0], &token, 1), 1);
    EXPECT_EQ(token, '+');
    close(fds[0]);
    close(fds[1]);
  }
  int fds[2] = {-1, -1};
  std::unique_ptr<Jobserver> jobserver;
};

// A make jobserver with one token: two jobs at once at most (the implicit
// token and the one from the pipe), whatever -t says; the token goes back.
TEST(Scheduler, JobserverTokensBoundParallelism) {
  OneTokenJobserver make;
  ASSERT_TRUE(make.jobserver);
  Graph g = diamond();
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 8;
  o.jobserver = make.jobserver.get();
  EXPECT_TRUE(runJobs(g, runner, o).ok);
  EXPECT_EQ(runner.peak, 2);
}

// A job's extension adds jobs that then run, after it, and after the jobs
// they read from.
TEST(Scheduler, ExtensionsAddJobsThatRun) {
  Graph g;
  g.add(job("object"));
  unsigned scan = g.add(job("scan"));
  g.extendAfter(scan, [](Graph &graph, std::string &) {
    graph.add(job("dlink", {"scan", "object"}));
    graph.add(job("app", {"dlink", "object"}));
    return true;
  });
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 4;
  EXPECT_TRUE(runJobs(g, runner, o).ok);
  ASSERT_EQ(runner.order.size(), 4u);
  EXPECT_EQ(runner.order[2], "dlink");
  EXPECT_EQ(runner.order[3], "app");
  EXPECT_EQ(g.jobs()[3].deps, (std::vector<unsigned>{2, 0}));
}

TEST(Scheduler, AFailingExtensionFailsItsJob) {
  Graph g;
  unsigned scan = g.add(job("scan"));
  g.extendAfter(scan, [](Graph &, std::string &error) {
    error = "cannot read scan";
    return false;
  });
  FakeRunner runner;
  ScheduleOptions o;
  ScheduleResult r = runJobs(g, runner, o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure.error, "cannot read scan");
}

// In-process jobs borrow idle slots while they run, shared among the jobs
// that can use them; outside a run there is nothing to borrow.
TEST(Scheduler, RunningJobsBorrowTheirShareOfIdleSlots) {
  auto borrowing = [](const std::string &output) {
    Job j = job(output);
    j.borrowsThreads = true;
    return j;
  };
  Graph one;
  one.add(borrowing("ptx"));
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 4;
  EXPECT_TRUE(runJobs(one, runner, o).ok);
  EXPECT_EQ(runner.borrowedThreads["ptx"], 4u);

  Graph two;
  two.add(borrowing("ptx80"));
  two.add(borrowing("ptx90"));
  FakeRunner both;
  EXPECT_TRUE(runJobs(two, both, o).ok);
  EXPECT_EQ(both.borrowedThreads["ptx80"], 2u);
  EXPECT_EQ(both.borrowedThreads["ptx90"], 2u);
  EXPECT_EQ(both.peak, 2);

  mycc::support::BorrowedSlots none(8);
  EXPECT_EQ(none.count(), 0u);
}

// Under make, each borrowed slot is a jobserver token, given back.
TEST(Scheduler, BorrowedSlotsTakeJobserverTokens) {
  OneTokenJobserver make;
  ASSERT_TRUE(make.jobserver);
  Graph g;
  Job ptx = job("ptx");
  ptx.borrowsThreads = true;
  g.add(ptx);
  FakeRunner runner;
  ScheduleOptions o;
  o.parallelism = 8;
  o.jobserver = make.jobserver.get();
  EXPECT_TRUE(runJobs(g, runner, o).ok);
  EXPECT_EQ(runner.borrowedThreads["ptx"], 2u);
}

TEST(Scheduler, NoJobserverWithoutOne) {
  EXPECT_FALSE(Jobserver::fromMakeflags(" -j4"));
  EXPECT_FALSE(Jobserver::fromMakeflags("--jobserver-auth=900,901"));
}

} // namespace
