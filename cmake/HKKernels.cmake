# The kernel library is the set of directories of kernels/ (docs/kernels.md).
# kernels/<name>/ holds <name>.mlir, the tile program, and Reference.cpp,
# which defines hk::kernels::entries::<name>(): the float64 reference, the
# problem setup, the tolerance and the test shape. Nothing lists the kernels
# by hand: runtime/kernels builds them and generates the kernel table from
# the list found here, and lit gets the same list (test/lit.site.cfg.py.in).

# Stops the configuration unless kernels/<name>/ is a well-formed kernel.
function(hk_check_kernel_dir dir name)
  # The name becomes a C++ function name and a file name.
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "kernels/${name}: a kernel directory's name must "
      "match [a-z][a-z0-9_]*: it names hk::kernels::entries::<name>() and "
      "build/kernels/<name>.hkrt (docs/kernels.md)")
  endif()
  foreach(file ${name}.mlir Reference.cpp)
    if(NOT EXISTS ${dir}/${file})
      message(FATAL_ERROR "kernels/${name}: no ${file}; a kernel directory "
        "holds <name>.mlir and Reference.cpp (docs/kernels.md)")
    endif()
  endforeach()
endfunction()

# Sets <names_var> to the kernels' names in byte order (the order of
# hk-run --list and of scripts/examples.sh) and <sources_var> to the .cpp
# files of their directories.
function(hk_find_kernels names_var sources_var)
  set(root ${PROJECT_SOURCE_DIR}/kernels)
  # CONFIGURE_DEPENDS: adding or removing a directory, or a .cpp or .mlir in
  # one, re-runs CMake at the next build (the .mlir glob is only watched).
  file(GLOB children LIST_DIRECTORIES true CONFIGURE_DEPENDS ${root}/*)
  file(GLOB sources CONFIGURE_DEPENDS ${root}/*/*.cpp)
  file(GLOB watched CONFIGURE_DEPENDS ${root}/*/*.mlir)
  set(names)
  foreach(child ${children})
    if(IS_DIRECTORY ${child})
      get_filename_component(name ${child} NAME)
      hk_check_kernel_dir(${child} ${name})
      list(APPEND names ${name})
    endif()
  endforeach()
  list(SORT names)
  list(SORT sources)
  set(${names_var} ${names} PARENT_SCOPE)
  set(${sources_var} ${sources} PARENT_SCOPE)
endfunction()

# The chips each kernel runs on. A kernel directory may hold chips.txt, the
# names of the chips of the table it supports (whitespace-separated; a line
# starting with # is a comment), for a kernel built on instructions only
# some chips have (gemm_mx: gfx950's scaled MFMAs); without it, every chip
# of the table (HK_CHIPS, from hk_read_chip_table, which must run first).
# Sets HK_KERNEL_CHIPS_<name> for every kernel and <map_var> to one
# "<name>=<chip>,<chip>" entry per kernel, in HK_KERNELS's order (for lit).
function(hk_read_kernel_chips names map_var)
  set(root ${PROJECT_SOURCE_DIR}/kernels)
  # Adding or removing a chips.txt re-runs CMake at the next build; editing
  # one does too (CMAKE_CONFIGURE_DEPENDS below).
  file(GLOB declared CONFIGURE_DEPENDS ${root}/*/chips.txt)
  set(map)
  foreach(name ${names})
    set(file ${root}/${name}/chips.txt)
    if(EXISTS ${file})
      set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY
        CMAKE_CONFIGURE_DEPENDS ${file})
      file(STRINGS ${file} lines REGEX "^[^#]")
      string(REGEX MATCHALL "[^ \t;]+" chips "${lines}")
      if(NOT chips)
        message(FATAL_ERROR "kernels/${name}/chips.txt names no chip; it "
          "lists the chips of the table (${HK_CHIPS}) the kernel supports")
      endif()
      foreach(chip ${chips})
        if(NOT chip IN_LIST HK_CHIPS)
          message(FATAL_ERROR "kernels/${name}/chips.txt: '${chip}' is not "
            "a chip of the table (${HK_CHIPS})")
        endif()
      endforeach()
    else()
      set(chips ${HK_CHIPS})
    endif()
    set(HK_KERNEL_CHIPS_${name} ${chips} PARENT_SCOPE)
    list(JOIN chips "," joined)
    list(APPEND map "${name}=${joined}")
  endforeach()
  set(${map_var} ${map} PARENT_SCOPE)
endfunction()
