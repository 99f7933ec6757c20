# The wheel's compiler (pyproject.toml): zig c++ from the `ziglang` wheel, targeting glibc 2.28.
# This is what a manylinux_2_28 container gives (the wheel runs on any Linux with glibc 2.28 or
# newer) without a container: zig carries the headers and link stubs of each glibc release, and
# links its own libc++, libunwind and compiler-rt statically, so the executable needs nothing but
# glibc. The same approach as cargo-zigbuild.
#
# zig is found through the Python that runs the build (scikit-build-core passes
# Python_EXECUTABLE), or given as -DTILEC_ZIG=/path/to/zig.
if(NOT TILEC_ZIG)
  if(NOT Python_EXECUTABLE)
    message(FATAL_ERROR "zig-toolchain.cmake: set TILEC_ZIG, or Python_EXECUTABLE of a Python with the ziglang wheel")
  endif()
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c "import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))"
    OUTPUT_VARIABLE TILEC_ZIG OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE found)
  if(NOT found EQUAL 0)
    message(FATAL_ERROR "zig-toolchain.cmake: ${Python_EXECUTABLE} has no ziglang module (pip install ziglang)")
  endif()
endif()
# try_compile projects read this file again without the main project's cache.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TILEC_ZIG)

set(TILEC_ZIG_TARGET "${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu.2.28")
set(CMAKE_C_COMPILER "${TILEC_ZIG}" cc -target ${TILEC_ZIG_TARGET})
set(CMAKE_CXX_COMPILER "${TILEC_ZIG}" c++ -target ${TILEC_ZIG_TARGET})
