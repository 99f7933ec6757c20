// tilec: the command-line driver. Parses options and calls the library.
#include <cstdio>
#include <exception>

#include "driver/options.h"
#include "driver/pipeline.h"

int main(int argc, char** argv) {
  tilec::Options opts;
  int code = tilec::parse_command_line(argc, argv, opts);
  if (code >= 0) return code;
  try {
    return tilec::compile(opts);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilec: %s\n", e.what());
    return 70;  // EX_SOFTWARE: an internal compiler error, never a user error
  }
}
