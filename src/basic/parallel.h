// Running independent pieces of one compilation side by side (entries of a PTX module, the
// lowerings of kernels and targets): a bounded number of threads, results in a fixed order.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace tilec {

/// Calls `fn(i)` for every i in [0, n) on at most `threads` threads (the calling thread is one
/// of them; with `threads` <= 1 or n <= 1 everything runs on it, in order). The calls must not
/// share mutable state. Returns, per i, the exception `fn(i)` threw (null when none), so that
/// the caller can handle the pieces in their order and rethrow the first as the sequential
/// loop would have.
///
/// The caller waits for the pieces, not for the helper threads: a helper that the OS starts
/// only after the caller has taken every piece finds none left and ends without touching `fn`
/// (on a loaded machine, waiting for such a helper to be scheduled cost more than small
/// kernels' whole lowering). Helpers are detached and share only a counted state.
template <class Fn>
std::vector<std::exception_ptr> parallel_for(size_t n, int threads, Fn&& fn) {
  std::vector<std::exception_ptr> errors(n);
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
    return errors;
  }
  struct State {
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::condition_variable finished;
    size_t done = 0;
  };
  auto state = std::make_shared<State>();
  // Takes pieces until none is left; fn and errors are touched only for a piece taken, and the
  // caller returns only after every taken piece is done.
  auto work = [n, &fn, &errors](State& st) {
    for (size_t i; (i = st.next.fetch_add(1)) < n;) {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(st.mutex);
      if (++st.done == n) st.finished.notify_all();
    }
  };
  size_t helpers = std::min(n, size_t(threads)) - 1;
  for (size_t t = 0; t < helpers; ++t) std::thread([state, work] { work(*state); }).detach();
  work(*state);
  std::unique_lock<std::mutex> lock(state->mutex);
  state->finished.wait(lock, [&] { return state->done == n; });
  return errors;
}

}  // namespace tilec
