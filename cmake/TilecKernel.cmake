# tilec_add_kernel: compile a .tile file into a C header as a build step and let a target use it.
#
#   include(TilecKernel)   # after list(APPEND CMAKE_MODULE_PATH <prefix>/share/tilec/cmake)
#   tilec_add_kernel(<target> <file.tile>
#                    [ARCH sm_90a [sm_80 ...]]     # -arch values; omitted: tilec's default, sm_90
#                                                  # (SASS for sm_90a and sm_80, PTX for later GPUs)
#                    [PREFIX <prefix>]             # --prefix for the header's symbols
#                    [OUTPUT <name.h>]             # default: <file stem>.h
#                    [OPTIONS <flags>...])         # more tilec flags (-O3, -lineinfo, -DNAME=V ...)
#
# The header is written to ${CMAKE_CURRENT_BINARY_DIR}/tilec/<name.h> by `tilec FILE -o OUT
# -arch ... -MD -MF OUT.d`; the depfile makes Ninja and Makefile generators rebuild it when the
# .tile file or anything it imports changes. That folder is added to <target>'s include path,
# and <target> links CUDA::cuda_driver (find_package(CUDAToolkit)), which is all the header
# needs (docs/header.md). The tilec executable is TILEC_EXECUTABLE, else the `tilec` target of
# the same build, else the `tilec` installed with this file (<prefix>/bin beside
# <prefix>/share/tilec/cmake, where `cmake --install` puts both), else `tilec` on PATH.
include_guard(GLOBAL)

# This file's folder, kept when it is included: inside the function CMAKE_CURRENT_LIST_DIR is
# the caller's. A global property, because include_guard(GLOBAL) skips a second include() from
# another directory, which would not see a variable set by the first.
set_property(GLOBAL PROPERTY TILEC_KERNEL_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(tilec_add_kernel target source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "PREFIX;OUTPUT" "ARCH;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernel: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tilec_add_kernel: '${target}' is not a target")
  endif()

  # Which tilec: a cache variable the user can set, else the in-tree target, else the one
  # installed beside this module (searched before PATH, so that an installed module runs its
  # own tilec whether or not <prefix>/bin is on PATH), else PATH.
  if(NOT TILEC_EXECUTABLE)
    if(TARGET tilec)
      set(TILEC_EXECUTABLE $<TARGET_FILE:tilec>)
      set(tilec_depends tilec)
    else()
      get_property(module_dir GLOBAL PROPERTY TILEC_KERNEL_MODULE_DIR)
      get_filename_component(installed_bin "${module_dir}/../../../bin" ABSOLUTE)
      find_program(TILEC_EXECUTABLE tilec HINTS "${installed_bin}" REQUIRED)
    endif()
  endif()
  if(NOT TARGET CUDA::cuda_driver)
    find_package(CUDAToolkit REQUIRED)
  endif()

  get_filename_component(source_abs "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(arg_OUTPUT)
    set(name "${arg_OUTPUT}")
  else()
    get_filename_component(stem "${source}" NAME_WE)
    set(name "${stem}.h")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tilec")
  set(header "${dir}/${name}")
  set(depfile "${header}.d")

  set(flags)
  foreach(arch IN LISTS arg_ARCH)
    list(APPEND flags -arch ${arch})
  endforeach()
  if(DEFINED arg_PREFIX)
    list(APPEND flags --prefix ${arg_PREFIX})
  endif()
  list(APPEND flags ${arg_OPTIONS})

  set(depfile_args)
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    set(depfile_args DEPFILE "${depfile}")
  endif()
  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${header}"
    COMMAND ${TILEC_EXECUTABLE} "${source_abs}" -o "${header}" ${flags} -MD -MF "${depfile}"
    DEPENDS "${source_abs}" ${tilec_depends}
    ${depfile_args}
    COMMENT "tilec ${source} -> ${name}"
    VERBATIM COMMAND_EXPAND_LISTS)

  # A target per header, so the header exists before any source of <target> compiles.
  string(MAKE_C_IDENTIFIER "tilec_${target}_${name}" header_target)
  add_custom_target(${header_target} DEPENDS "${header}")
  add_dependencies(${target} ${header_target})
  target_sources(${target} PRIVATE "${header}")
  target_include_directories(${target} PRIVATE "${dir}")
  target_link_libraries(${target} PRIVATE CUDA::cuda_driver)
endfunction()
