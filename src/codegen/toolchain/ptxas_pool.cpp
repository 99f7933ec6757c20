// The ptxas worker pool (ptxas_pool.h).
#include "codegen/toolchain/ptxas_pool.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <system_error>

#include "basic/diagnostics.h"
#include "codegen/toolchain/cleanup.h"

namespace tilec {

PtxasPool::PtxasPool(const CudaToolkit& tk, AssembleOptions opts)
    : tk_(tk), opts_(std::move(opts)), max_jobs_(std::clamp(opts_.jobs, 1, kMaxToolRuns)) {}

PtxasPool::~PtxasPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  queued_.notify_all();
  for (std::thread& w : workers_) w.join();
}

size_t PtxasPool::submit(const std::string& arch, const std::string& ptx) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++submitted_;
  auto [it, fresh] = by_input_.try_emplace({arch, ptx}, jobs_.size());
  if (!fresh) return it->second;
  auto job = std::make_unique<Job>();
  job->arch = arch;
  job->ptx = ptx;
  jobs_.push_back(std::move(job));
  queue_.push_back(it->second);
  // A worker more only when none is idle; never more than -j of them.
  if (idle_ > 0 || int(workers_.size()) >= max_jobs_) {
    queued_.notify_one();
    return it->second;
  }
  try {
    workers_.emplace_back([this] { work(); });
  } catch (const std::system_error& e) {
    if (workers_.empty()) {  // nobody will run the job: it fails
      queue_.pop_back();
      Job& j = *jobs_.back();
      j.result.error = std::string("cannot start a thread to run ptxas: ") + e.what();
      j.done = true;
    }
  }
  return it->second;
}

bool PtxasPool::finished(size_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  TILEC_ASSERT(id < jobs_.size(), "no ptxas job " + std::to_string(id));
  return jobs_[id]->done;
}

size_t PtxasPool::wait_any(const std::vector<size_t>& ids) {
  TILEC_ASSERT(!ids.empty(), "waiting for no ptxas job");
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    for (size_t id : ids) {
      TILEC_ASSERT(id < jobs_.size(), "no ptxas job " + std::to_string(id));
      if (jobs_[id]->done) return id;
    }
    finished_.wait(lock);
  }
}

const PtxasResult& PtxasPool::result(size_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  TILEC_ASSERT(id < jobs_.size() && jobs_[id]->done, "the result of ptxas job " + std::to_string(id) + " is not ready");
  return jobs_[id]->result;  // never written again once done
}

void PtxasPool::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    ++idle_;
    queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (stopping_) return;
    Job* job = jobs_[queue_.front()].get();
    queue_.pop_front();
    lock.unlock();
    // The job's arch and PTX are not written after submit(): no lock is needed to read them.
    PtxasResult r;
    auto start = std::chrono::steady_clock::now();
    try {
      r.ok = assemble_cubin(tk_, job->ptx, job->arch, opts_, r.cubin, r.error);
    } catch (const std::exception& e) {  // never let an exception end the process from a worker
      r.ok = false;
      r.error = std::string("internal compiler error: assembling for ") + job->arch + ": " + e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    lock.lock();
    job->result = std::move(r);
    job->done = true;
    finished_.notify_all();
  }
}

int available_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace tilec
