// Running independent pieces of one compilation side by side (entries of a PTX module, the
// lowerings of kernels and targets): a bounded number of threads, results in a fixed order.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace tilec::codegen {

/// Calls `fn(i)` for every i in [0, n) on at most `threads` threads (the calling thread is one
/// of them; with `threads` <= 1 or n <= 1 everything runs on it, in order). The calls must not
/// share mutable state. Returns, per i, the exception `fn(i)` threw (null when none), so that
/// the caller can handle the pieces in their order and rethrow the first as the sequential
/// loop would have.
template <class Fn>
std::vector<std::exception_ptr> parallel_for(size_t n, int threads, Fn&& fn) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  size_t helpers = threads > 1 && n > 1 ? std::min(n, size_t(threads)) - 1 : 0;
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  for (size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return errors;
}

}  // namespace tilec::codegen
