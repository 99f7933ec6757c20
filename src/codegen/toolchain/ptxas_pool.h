// Many ptxas runs at once: a pool of worker threads bounded by -j, and each distinct module
// assembled once (a register cap that is dropped gives back PTX assembled before).
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "codegen/toolchain/toolchain.h"

namespace tilec {

/// What one PtxasPool job gave: the cubin, or ptxas's error as assemble_cubin words it.
struct PtxasResult {
  bool ok = false;
  Cubin cubin;
  std::string error;
  double seconds = 0;  ///< how long the ptxas run took (wall clock)
};

/// Runs ptxas on several modules at once, at most `opts.jobs` runs at a time (each on a worker
/// thread, each with assemble_cubin and its private folder), and assembles each distinct (arch,
/// PTX) once: submitting PTX that was assembled before, or is being assembled, gives that job's
/// number back and runs nothing. Jobs start in the order submitted; a result is the same
/// whichever run finishes first. One thread submits and waits; the workers only run ptxas.
class PtxasPool {
 public:
  PtxasPool(const CudaToolkit& tk, AssembleOptions opts);
  /// Waits for the runs under way; queued jobs that have not started are dropped.
  ~PtxasPool();
  PtxasPool(const PtxasPool&) = delete;
  PtxasPool& operator=(const PtxasPool&) = delete;

  /// Queues `ptx` for `arch`; returns the job's number (an earlier job's for the same arch and
  /// PTX, which is then not assembled again).
  size_t submit(const std::string& arch, const std::string& ptx);
  /// Whether job `id` has finished (its result() is ready).
  bool finished(size_t id) const;
  /// Blocks until one of `ids` (job numbers) has finished; returns the first finished one in
  /// the order of `ids`. `ids` must not be empty.
  size_t wait_any(const std::vector<size_t>& ids);
  /// The result of a finished job.
  const PtxasResult& result(size_t id) const;
  /// How many times submit() was called, and how many ptxas runs that took.
  int submitted() const { return submitted_; }
  int runs() const { return int(jobs_.size()); }
  /// The most runs at a time.
  int max_jobs() const { return max_jobs_; }

 private:
  struct Job {
    std::string arch;
    std::string ptx;
    bool done = false;
    PtxasResult result;
  };
  void work();

  CudaToolkit tk_;
  AssembleOptions opts_;
  int max_jobs_ = 1;
  int submitted_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable queued_;    ///< a job was queued, or the pool is stopping
  std::condition_variable finished_;  ///< a job finished
  std::vector<std::unique_ptr<Job>> jobs_;                    ///< by job number
  std::map<std::pair<std::string, std::string>, size_t> by_input_;  ///< (arch, PTX) → job number
  std::deque<size_t> queue_;
  std::vector<std::thread> workers_;
  int idle_ = 0;  ///< workers waiting for a job
  bool stopping_ = false;
};

/// The CPUs this process may run on (sched_getaffinity), at least 1: the default for -j.
int available_cpus();

}  // namespace tilec
