# Sanitizer and fuzzing builds (scripts/test-sanitizers.sh, docs/fuzzing.md).
#
#   HK_SANITIZE  a comma-separated list of clang sanitizers for every target
#                of the build ("address,undefined"); empty: none. UBSan is
#                made fatal (-fno-sanitize-recover=all), so that a report
#                fails the test that caused it instead of scrolling past.
#   HK_FUZZ      build the libFuzzer targets of fuzz/ (needs clang, and
#                instruments the libraries for coverage guidance); off: the
#                same targets are plain programs that replay their inputs.
#
# The runtimes come from Debian's libclang-rt-22-dev: a link of a test
# program with the flags decides, so that a missing runtime stops the
# configure step with the package's name instead of failing the build later.

set(HK_SANITIZE "" CACHE STRING
  "clang sanitizers for the whole build, e.g. address,undefined")
option(HK_FUZZ "build the libFuzzer targets of fuzz/" OFF)

include(CheckCXXSourceCompiles)

# Stops the configure step unless a program links with `flags`.
function(hk_require_sanitizer_link flags source what)
  string(MAKE_C_IDENTIFIER "HK_LINKS_${flags}" result)
  set(CMAKE_REQUIRED_FLAGS "${flags}")
  separate_arguments(link_flags UNIX_COMMAND "${flags}")
  set(CMAKE_REQUIRED_LINK_OPTIONS ${link_flags})
  set(CMAKE_REQUIRED_QUIET ON)
  # Checked at every configure: a runtime installed since the last one counts.
  unset(${result} CACHE)
  check_cxx_source_compiles("${source}" ${result})
  if(NOT ${result})
    message(FATAL_ERROR
      "${what} needs clang's runtime for ${flags}, which does not link: it "
      "comes from the Debian package libclang-rt-22-dev. Run "
      "scripts/setup.sh, or: apt-get install libclang-rt-22-dev")
  endif()
endfunction()

if(HK_SANITIZE OR HK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HK_SANITIZE and HK_FUZZ need clang (clang-22), "
      "not ${CMAKE_CXX_COMPILER_ID}: configure with "
      "-DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++")
  endif()
endif()

if(HK_SANITIZE)
  set(hk_sanitize_flags -fsanitize=${HK_SANITIZE} -fno-omit-frame-pointer)
  if(HK_SANITIZE MATCHES "undefined")
    list(APPEND hk_sanitize_flags -fno-sanitize-recover=all)
  endif()
  string(JOIN " " hk_flags ${hk_sanitize_flags})
  hk_require_sanitizer_link("${hk_flags}" "int main() { return 0; }"
    "HK_SANITIZE=${HK_SANITIZE}")
  add_compile_options(${hk_sanitize_flags})
  add_link_options(-fsanitize=${HK_SANITIZE})
  # Shared libraries leave the sanitizer runtime's symbols to the program
  # that loads them, so HandleLLVMOptions' -z defs (which it drops itself
  # for LLVM_USE_SANITIZER) cannot hold.
  string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
    "${CMAKE_SHARED_LINKER_FLAGS}")
  message(STATUS "Sanitizers: ${HK_SANITIZE}")
endif()

if(HK_FUZZ)
  hk_require_sanitizer_link("-fsanitize=fuzzer"
    "#include <cstddef>
     #include <cstdint>
     extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) {
       return 0;
     }" "HK_FUZZ")
  # Coverage counters everywhere, libFuzzer's main only in the fuzz targets
  # (fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
  message(STATUS "libFuzzer targets: on")
endif()
