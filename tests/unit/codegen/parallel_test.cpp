// parallel_for (basic/parallel.h): every piece runs once, on up to the threads asked for, and
// each piece's exception comes back at its index, whatever the thread count.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "basic/parallel.h"

using tilec::parallel_for;

TEST_CASE("parallel_for runs every piece once, on at most the threads asked for") {
  for (int threads : {1, 2, 8}) {
    std::vector<int> runs(100, 0);
    std::mutex m;
    std::set<std::thread::id> ids;
    std::vector<std::exception_ptr> errors = parallel_for(runs.size(), threads, [&](size_t i) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      ++runs[i];
      std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    });
    REQUIRE(errors.size() == runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
      CHECK(runs[i] == 1);
      CHECK(!errors[i]);
    }
    CHECK(ids.size() <= size_t(threads));
    if (threads == 1) CHECK(*ids.begin() == std::this_thread::get_id());
  }
}

TEST_CASE("parallel_for returns each piece's exception at its index") {
  for (int threads : {1, 4}) {
    std::atomic<int> ran{0};
    std::vector<std::exception_ptr> errors = parallel_for(10, threads, [&](size_t i) {
      ++ran;
      if (i == 3 || i == 7) throw std::runtime_error("piece " + std::to_string(i));
    });
    CHECK(ran == 10);  // the others still run: the caller decides in index order
    for (size_t i = 0; i < errors.size(); ++i) {
      if (i != 3 && i != 7) {
        CHECK(!errors[i]);
        continue;
      }
      REQUIRE(errors[i]);
      try {
        std::rethrow_exception(errors[i]);
      } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "piece " + std::to_string(i));
      }
    }
  }
}

TEST_CASE("parallel_for with no pieces or one") {
  CHECK(parallel_for(0, 4, [](size_t) { FAIL("no piece to run"); }).empty());
  int runs = 0;
  CHECK(parallel_for(1, 4, [&](size_t i) { runs += int(i) + 1; }).size() == 1);
  CHECK(runs == 1);
}
