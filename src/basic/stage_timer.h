// The -v timing line of a compiler stage that is neither an optimizer pass nor a lowering step
// (those trace their own, from their tables): `stage <name> <time> us  (<subject>)`.
// tests/lit/robustness/Inputs/compile_time.py reads these lines.
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

namespace tilec {

/// Traces how long the scope it lives in took, when it ends (-v only; otherwise it costs two
/// clock reads). `name` is one word (parse, check, build-ir, emit, ...); `subject` says what
/// was processed (a file, a kernel, an entry and its target).
class StageTimer {
 public:
  StageTimer(const char* name, std::string subject)
      : name_(name), subject_(std::move(subject)), start_(std::chrono::steady_clock::now()) {}
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;
  ~StageTimer() {
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
    spdlog::trace("stage {:<13} {:>8.1f} us  ({})", name_, us, subject_);
  }

 private:
  const char* name_;
  std::string subject_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tilec
