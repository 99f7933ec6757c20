// Runs the C++ check of the asserts of asserts_ops.cpp (from Inputs/asserts.tile), the function
// tilec_check_asserts cut out of it into asserts.inc, over the grid of fake_asserts.py, and prints
// the same lines: the extents, then "ok" or the error's message. Call stands in for the runtime's
// class (the real one needs PyTorch's headers), with the same three members the function uses
// and the same message prefix as Call::fail; the conditions and messages are the generated ones,
// and their helpers (tilec_floordiv_wrap ...) come from the generated header.
//   c++ -std=c++17 -I<folder of asserts.h and asserts.inc> run_asserts.cpp -lcuda
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "asserts.h"

namespace tilec_torch {
struct Call {
  int64_t extents[5];
  int build() const { return 0; }
  int64_t extent(int symbol) const { return extents[symbol]; }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("asserts::k.out (tilec kernel 'k'): " + what);
  }
};
}  // namespace tilec_torch

#include "asserts.inc"

int main() {
  const int64_t ms[] = {0, 1, 600000}, ns[] = {0, 7, 9, 256, 257, 65543, 65545}, hs[] = {0, 8, 12, 64},
                ds[] = {1, 300}, hks[] = {0, 3, 4};
  for (int64_t m : ms)
    for (int64_t n : ns)
      for (int64_t h : hs)
        for (int64_t d : ds)
          for (int64_t hk : hks) {
            tilec_torch::Call call{{m, n, h, d, hk}};
            std::string result = "ok";
            try {
              tilec_check_asserts(call);
            } catch (const std::runtime_error& e) {
              result = e.what();
            }
            std::printf("m=%lld n=%lld h=%lld d=%lld hk=%lld: %s\n", (long long)m, (long long)n, (long long)h,
                        (long long)d, (long long)hk, result.c_str());
          }
}
