# run(COMMAND...): runs a command in a cmake -P test script and stops the script with the
# command's output when it fails (shared by cmake_kernel.cmake and cmake_install.cmake).
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGV}\n${out}${err}")
  endif()
endfunction()
