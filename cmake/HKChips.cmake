# The chips of the table in lib/Base/Chip.cpp, for what CMake builds per
# chip (the kernel library's artifacts) and for lit: tools/hk-chips/hk-chips.cpp
# is compiled with Chip.cpp and run here, so that the list is the table's,
# not restated. Editing Chip.cpp re-runs the configure step.
#   HK_CHIPS           gfx942;gfx950
#   HK_CHIP_TABLE      one "name family hipkittens-tree lds-bytes wave-size"
#                      per chip
function(hk_read_chip_table)
  set(probe ${PROJECT_BINARY_DIR}/CMakeFiles/hk-chips-probe)
  try_run(run_result compile_result ${probe}
    SOURCES ${PROJECT_SOURCE_DIR}/tools/hk-chips/hk-chips.cpp
            ${PROJECT_SOURCE_DIR}/lib/Base/Chip.cpp
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${PROJECT_SOURCE_DIR}/include"
    CXX_STANDARD 17
    COMPILE_OUTPUT_VARIABLE compile_output
    RUN_OUTPUT_VARIABLE table
    ARGS --table)
  if(NOT compile_result OR NOT run_result EQUAL 0)
    message(FATAL_ERROR "cannot build or run the chip table probe "
      "(tools/hk-chips/hk-chips.cpp with lib/Base/Chip.cpp):\n"
      "${compile_output}\n${table}")
  endif()
  string(STRIP "${table}" table)
  string(REPLACE "\n" ";" rows "${table}")
  set(chips)
  foreach(row ${rows})
    string(REGEX MATCH "^[^ ]+" name "${row}")
    list(APPEND chips ${name})
  endforeach()
  set(HK_CHIPS ${chips} PARENT_SCOPE)
  set(HK_CHIP_TABLE ${rows} PARENT_SCOPE)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY
    CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lib/Base/Chip.cpp
    ${PROJECT_SOURCE_DIR}/include/hk/Base/Chip.h
    ${PROJECT_SOURCE_DIR}/tools/hk-chips/hk-chips.cpp)
endfunction()
