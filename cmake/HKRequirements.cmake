# Everything the build, the tests and the README's commands need from the
# system, each with the Debian package that provides it (scripts/setup.sh
# installs them all). Anything missing stops the configure step with the
# package's name: nothing is skipped or linked conditionally.

function(hk_missing what package)
  message(FATAL_ERROR
    "hk-mlir needs ${what}, from the Debian package ${package}. "
    "Run scripts/setup.sh, or: apt-get install ${package}")
endfunction()

function(hk_require_file path package)
  if(NOT EXISTS "${path}")
    hk_missing("${path}" ${package})
  endif()
endfunction()

# lld's static libraries: the in-process link of code and host objects.
foreach(lib lldELF lldCommon)
  hk_require_file(${LLVM_LIBRARY_DIR}/lib${lib}.a liblld-22-dev)
endforeach()
# lld calls zlib and zstd directly (compressed sections).
find_library(HK_ZLIB z)
find_library(HK_ZSTD zstd)
if(NOT HK_ZLIB)
  hk_missing("zlib (libz.so)" zlib1g-dev)
endif()
if(NOT HK_ZSTD)
  hk_missing("zstd (libzstd.so)" libzstd-dev)
endif()

# The test suite's tools.
foreach(tool lit FileCheck not count split-file)
  hk_require_file(${LLVM_TOOLS_BINARY_DIR}/${tool} llvm-22-tools)
endforeach()
foreach(tool llvm-readelf llvm-nm)
  hk_require_file(${LLVM_TOOLS_BINARY_DIR}/${tool} llvm-22)
endforeach()
foreach(tool mlir-opt mlir-runner)
  hk_require_file(${LLVM_TOOLS_BINARY_DIR}/${tool} mlir-22-tools)
endforeach()
hk_require_file(${LLVM_TOOLS_BINARY_DIR}/clang clang-22)
# test/Format checks that the sources are formatted as .clang-format says.
hk_require_file(${LLVM_TOOLS_BINARY_DIR}/clang-format clang-format-22)
find_package(GTest)
if(NOT GTest_FOUND)
  hk_missing("GoogleTest (GTestConfig.cmake)" libgtest-dev)
endif()
# The installed-tree test builds a program with pkg-config.
find_program(HK_PKG_CONFIG pkg-config)
if(NOT HK_PKG_CONFIG)
  hk_missing("pkg-config" pkgconf)
endif()
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_FOUND)
  hk_missing("Python 3 (lit runs on it)" python3)
endif()
# The Python package (python/hk) runs on NumPy, accepts PyTorch tensors, and
# its tests run under pytest (scripts/test.sh): Debian's modules, so Debian's
# interpreter, whatever python3 comes first in PATH.
find_program(HK_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT HK_PYTHON)
  hk_missing("Debian's Python 3 (/usr/bin/python3)" python3)
endif()
foreach(module_package numpy:python3-numpy pytest:python3-pytest
                       torch:python3-torch)
  string(REPLACE ":" ";" module_package ${module_package})
  list(GET module_package 0 module)
  list(GET module_package 1 package)
  execute_process(COMMAND ${HK_PYTHON} -c "import ${module}"
    RESULT_VARIABLE import_failed OUTPUT_QUIET ERROR_QUIET)
  if(import_failed)
    hk_missing("the Python module ${module}" ${package})
  endif()
endforeach()

# test/Target/HipKittens compiles the HipKittens translations against both
# HipKittens trees and the HIP headers (no ROCm needed). By default they are
# the copies in shared/third_party (its README.md), found beside the source
# tree (../shared/third_party) or, for a clone of a local repository, beside
# that repository; the environment variable HK_THIRD_PARTY or the cache
# variables below point at other copies.
set(hk_third_party_candidates "$ENV{HK_THIRD_PARTY}"
  "${PROJECT_SOURCE_DIR}/../shared/third_party")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} config --get remote.origin.url
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE hk_origin
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REGEX REPLACE "^file://" "" hk_origin "${hk_origin}")
  if(hk_origin MATCHES "^/" AND IS_DIRECTORY "${hk_origin}")
    list(APPEND hk_third_party_candidates "${hk_origin}/../shared/third_party")
  endif()
endif()
set(HK_THIRD_PARTY_DIR "${PROJECT_SOURCE_DIR}/../shared/third_party")
foreach(candidate IN LISTS hk_third_party_candidates)
  if(candidate AND EXISTS "${candidate}/hipkittens-main/include/kittens.cuh")
    set(HK_THIRD_PARTY_DIR "${candidate}")
    break()
  endif()
endforeach()
get_filename_component(HK_THIRD_PARTY_DIR "${HK_THIRD_PARTY_DIR}" ABSOLUTE)
set(HK_HIPKITTENS_MAIN_DIR "${HK_THIRD_PARTY_DIR}/hipkittens-main" CACHE PATH
  "HipKittens checkout of branch main (CDNA4, gfx950)")
set(HK_HIPKITTENS_CDNA3_DIR "${HK_THIRD_PARTY_DIR}/hipkittens-cdna3" CACHE PATH
  "HipKittens checkout of branch cdna3 (gfx942)")
set(HK_HIP_DIR "${HK_THIRD_PARTY_DIR}/hip" CACHE PATH
  "HIP headers (include/hip/hip_runtime.h) for compiling HipKittens C++")
foreach(tree HK_HIPKITTENS_MAIN_DIR HK_HIPKITTENS_CDNA3_DIR)
  if(NOT EXISTS "${${tree}}/include/kittens.cuh")
    message(FATAL_ERROR
      "hk-mlir's tests compile HipKittens C++ and need HipKittens' headers: "
      "${${tree}}/include/kittens.cuh does not exist. Set ${tree} to a "
      "HipKittens checkout, or HK_THIRD_PARTY to a copy of shared/third_party "
      "(see ../shared/third_party/README.md).")
  endif()
endforeach()
if(NOT EXISTS "${HK_HIP_DIR}/include/hip/hip_runtime.h")
  message(FATAL_ERROR
    "hk-mlir's tests compile HipKittens C++ and need the HIP headers: "
    "${HK_HIP_DIR}/include/hip/hip_runtime.h does not exist. Set HK_HIP_DIR "
    "(see ../shared/third_party/README.md).")
endif()
hk_require_file(${LLVM_TOOLS_BINARY_DIR}/clang++ clang-22)
hk_require_file(${LLVM_TOOLS_BINARY_DIR}/ld.lld lld-22)
