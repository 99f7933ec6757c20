// The -v timing of the compiler's stages. Optimizer passes and lowering steps trace their own
// lines from their tables (`pass <name> <time> us  (<kernel>)`, `lowering <step> ...`); the
// other stages use StageTimer: `stage <name> <time> us  (<subject>)`.
// tests/compile_time/linear.py reads these lines.
#pragma once

#include <time.h>

#include <string>
#include <utility>

#include <spdlog/spdlog.h>

namespace tilec {

/// CPU time of the calling thread in microseconds (CLOCK_THREAD_CPUTIME_ID). The -v timings
/// use it rather than wall time: each pass, step and stage runs on one thread, and its CPU time
/// is its cost whatever else the machine runs (wall times on a loaded machine are mostly the
/// scheduler's, which made growth ratios between kernel sizes meaningless).
inline double thread_cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) / 1e3;
}

/// Traces how long the scope it lives in took, when it ends (-v only; otherwise it costs two
/// clock reads). `name` is one word (parse, check, build-ir, emit, ...); `subject` says what
/// was processed (a file, a kernel, an entry and its target).
class StageTimer {
 public:
  StageTimer(const char* name, std::string subject)
      : name_(name), subject_(std::move(subject)), start_(thread_cpu_us()) {}
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;
  ~StageTimer() { spdlog::trace("stage {:<13} {:>8.1f} us  ({})", name_, thread_cpu_us() - start_, subject_); }

 private:
  const char* name_;
  std::string subject_;
  double start_;
};

}  // namespace tilec
