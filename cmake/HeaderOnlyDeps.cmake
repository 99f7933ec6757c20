# fmt, spdlog, CLI11 and xxHash as header-only libraries, for the wheel's build (pyproject.toml).
# Its compiler (cmake/zig-toolchain.cmake) must see these libraries' headers but not the build
# machine's C library headers beside them in /usr/include, which are for a newer glibc than the
# wheel's: the headers are reached through a folder holding links to them alone. fmt is compiled
# into every user (FMT_HEADER_ONLY), spdlog too (without SPDLOG_COMPILED_LIB it is header-only;
# Debian's tweakme.h sets SPDLOG_FMT_EXTERNAL, so it uses this fmt). Nothing is linked, so the
# executable needs no shared library of them.
set(deps_include ${CMAKE_CURRENT_BINARY_DIR}/header-only-deps)
file(MAKE_DIRECTORY ${deps_include})
foreach(entry fmt/format.h spdlog/spdlog.h CLI/CLI.hpp xxhash.h)
  string(MAKE_C_IDENTIFIER "${entry}" var)
  find_path(TILEC_DIR_OF_${var} ${entry} REQUIRED)
  string(REGEX REPLACE "/.*" "" top "${entry}")  # fmt/format.h -> fmt; xxhash.h stays
  file(CREATE_LINK ${TILEC_DIR_OF_${var}}/${top} ${deps_include}/${top} SYMBOLIC)
endforeach()

add_library(fmt::fmt INTERFACE IMPORTED)
target_include_directories(fmt::fmt SYSTEM INTERFACE ${deps_include})
target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY)
add_library(spdlog::spdlog INTERFACE IMPORTED)
target_link_libraries(spdlog::spdlog INTERFACE fmt::fmt)
add_library(CLI11::CLI11 INTERFACE IMPORTED)
target_include_directories(CLI11::CLI11 SYSTEM INTERFACE ${deps_include})
set(XXHASH_INCLUDE_DIR ${deps_include})
