# hk_add_c_library(<target> <source.mlir> [NAME <name>] [CHIPS <chip>...])
#
# Compiles a tile program with the installed hkc --emit=c-library at build
# time and adds the static library <target> of the generated C source: its
# header <name>.h (default name: the source's file name without .mlir), with
# one typed launch function per kernel, is on the target's include path, and
# it links HK::hkrt. CHIPS (default: hkc's default chip) are the chips whose
# code objects it embeds. docs/hkc.md, "Export for C and C++".
function(hk_add_c_library target source)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "NAME" "CHIPS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "hk_add_c_library: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  if(NOT ARG_NAME)
    get_filename_component(ARG_NAME "${source}" NAME_WE)
  endif()
  set(chips)
  if(ARG_CHIPS)
    list(JOIN ARG_CHIPS "," joined)
    set(chips --chip "${joined}")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}-hk")
  add_custom_command(
    OUTPUT "${dir}/${ARG_NAME}.h" "${dir}/${ARG_NAME}.c"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND "${HK_HKC_EXECUTABLE}" "${source}" ${chips} --emit=c-library
            -o "${dir}/${ARG_NAME}"
    DEPENDS "${source}" "${HK_HKC_EXECUTABLE}"
    COMMENT "hkc --emit=c-library ${source}"
    VERBATIM)
  add_library(${target} STATIC "${dir}/${ARG_NAME}.c" "${dir}/${ARG_NAME}.h")
  target_include_directories(${target} PUBLIC "${dir}")
  target_link_libraries(${target} PUBLIC HK::hkrt)
endfunction()
