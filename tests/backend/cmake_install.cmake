# backend.cmake_install: what a user does after `cmake --install`. Installs this build into a
# fresh prefix, then configures and builds a small project whose CMakeLists.txt is the README's
# CMake snippet (with /usr/local replaced by that prefix), with a PATH that does not hold the
# prefix's bin/: TilecKernel.cmake must find the tilec installed beside it (a new user met
# "Could not find TILEC_EXECUTABLE" here). The built app is not run (no GPU needed).
#   cmake -DBUILD=<build dir> -DSOURCE=<source dir> -DWORK=<dir> -P cmake_install.cmake
file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
set(project "${WORK}/project")
include("${CMAKE_CURRENT_LIST_DIR}/run_or_fail.cmake")

run(${CMAKE_COMMAND} --install "${BUILD}" --prefix "${prefix}")

file(READ "${SOURCE}/README.md" readme)
string(REGEX MATCH "```cmake\n([^`]*)```" snippet "${readme}")
if(NOT snippet)
  message(FATAL_ERROR "no ```cmake block in README.md")
endif()
string(REPLACE "/usr/local" "${prefix}" snippet "${CMAKE_MATCH_1}")
file(WRITE "${project}/CMakeLists.txt"
     "cmake_minimum_required(VERSION 3.25)\nproject(readme_snippet C)\n${snippet}")
file(COPY "${SOURCE}/examples/vector_add_main.c" DESTINATION "${project}")
file(RENAME "${project}/vector_add_main.c" "${project}/main.c")
file(COPY "${SOURCE}/samples/vector_add.tile" DESTINATION "${project}/kernels")

# A PATH without the prefix (nor /usr/local/bin, where an earlier install could be).
run(${CMAKE_COMMAND} -E env PATH=/usr/bin:/bin
    ${CMAKE_COMMAND} -S "${project}" -B "${WORK}/build" -G Ninja)
file(STRINGS "${WORK}/build/CMakeCache.txt" found REGEX "^TILEC_EXECUTABLE:")
if(NOT found STREQUAL "TILEC_EXECUTABLE:FILEPATH=${prefix}/bin/tilec")
  message(FATAL_ERROR "the project found '${found}', not the installed ${prefix}/bin/tilec")
endif()
run(${CMAKE_COMMAND} -E env PATH=/usr/bin:/bin ${CMAKE_COMMAND} --build "${WORK}/build")
if(NOT EXISTS "${WORK}/build/tilec/vector_add.h")
  message(FATAL_ERROR "the build made no tilec/vector_add.h")
endif()
