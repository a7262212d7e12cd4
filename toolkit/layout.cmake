# Makes PREFIX look like a CUDA toolkit to build systems (docs/build-systems.md,
# "The toolkit-shaped prefix"). Run as a script, at build time on the build
# tree and at install time on the install prefix:
#
#   cmake -DPREFIX=<dir> -DTOOLKIT=<cuda> -DTOOLKIT_LIB=<cuda lib dir>
#         -DMYCC=<mycc executable> -P layout.cmake
#
#   PREFIX/bin/nvcc     -> mycc (relative link)
#   PREFIX/libexec/mycc/{cicc,cudafe++,fatbinary} -> mycc (nvcc's step
#                          names for mycc's steps of a --keep plan)
#   PREFIX/include/X    -> TOOLKIT/include/X for every entry X, next to
#                          mycc's own include/mycc
#   PREFIX/lib64/X      -> TOOLKIT_LIB/X for every entry X (libcudart*,
#                          libcudadevrt.a, stubs/, the math libraries, ...),
#                          next to mycc's own lib64/libmycc_rt.a
#   PREFIX/nvvm         -> TOOLKIT/nvvm
#   PREFIX/version.json    the toolkit's, or one written from `mycc --version`
#
# Links point at the toolkit given here (the one found when mycc was
# configured). Existing correct links are left alone, so that repeated runs
# change nothing; mycc's own files are never replaced.
cmake_minimum_required(VERSION 3.20)
foreach(var PREFIX TOOLKIT TOOLKIT_LIB MYCC)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "layout.cmake: ${var} is not set")
  endif()
endforeach()

# Makes `link` a symbolic link to `target` unless it already is one, or is a
# real file or directory (mycc's own, which wins).
function(mycc_link target link)
  if(IS_SYMLINK "${link}")
    file(READ_SYMLINK "${link}" current)
    if(current STREQUAL target)
      return()
    endif()
    file(REMOVE "${link}")
  elseif(EXISTS "${link}")
    return()
  endif()
  file(CREATE_LINK "${target}" "${link}" SYMBOLIC)
endfunction()

# One link per entry of `from` in directory `into`, except `skip` (a regex).
function(mycc_link_entries from into skip)
  file(MAKE_DIRECTORY "${into}")
  file(GLOB entries LIST_DIRECTORIES true RELATIVE "${from}" "${from}/*")
  foreach(entry ${entries})
    if(skip AND entry MATCHES "${skip}")
      continue()
    endif()
    mycc_link("${from}/${entry}" "${into}/${entry}")
  endforeach()
endfunction()

file(MAKE_DIRECTORY "${PREFIX}/bin")
get_filename_component(mycc_name "${MYCC}" NAME)
get_filename_component(mycc_dir "${MYCC}" DIRECTORY)
get_filename_component(mycc_dir "${mycc_dir}" REALPATH)
get_filename_component(bin_dir "${PREFIX}/bin" REALPATH)
if(mycc_dir STREQUAL bin_dir)
  mycc_link("${mycc_name}" "${PREFIX}/bin/nvcc")
else()
  mycc_link("${MYCC}" "${PREFIX}/bin/nvcc")
endif()

# nvcc's step names for mycc's own steps, which a --keep plan spells so
# (driver/InternalTools.h; docs/build-systems.md, "sccache").
file(MAKE_DIRECTORY "${PREFIX}/libexec/mycc")
foreach(step cicc cudafe++ fatbinary)
  if(mycc_dir STREQUAL bin_dir)
    mycc_link("../../bin/${mycc_name}" "${PREFIX}/libexec/mycc/${step}")
  else()
    mycc_link("${MYCC}" "${PREFIX}/libexec/mycc/${step}")
  endif()
endforeach()

mycc_link_entries("${TOOLKIT}/include" "${PREFIX}/include" "^mycc$")
mycc_link_entries("${TOOLKIT_LIB}" "${PREFIX}/lib64" "^libmycc_rt")
mycc_link("${TOOLKIT}/nvvm" "${PREFIX}/nvvm")

# version.json: FindCUDAToolkit and mycc itself read the nvcc version there.
set(version_json "${PREFIX}/version.json")
if(EXISTS "${TOOLKIT}/version.json")
  file(READ "${TOOLKIT}/version.json" text)
else()
  execute_process(COMMAND "${MYCC}" --version
                  OUTPUT_VARIABLE banner RESULT_VARIABLE rc)
  # The token after the last capital V, as Meson reads it.
  if(NOT rc EQUAL 0 OR NOT banner MATCHES ".*V([0-9]+\\.[0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "layout.cmake: no toolkit version in `${MYCC} --version`:\n${banner}")
  endif()
  set(v "${CMAKE_MATCH_1}")
  set(text "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"${v}\"\n   },\n"
           "   \"cuda_nvcc\" : {\n      \"name\" : \"CUDA NVCC\",\n      \"version\" : \"${v}\"\n   }\n}\n")
  string(JOIN "" text ${text})
endif()
if(EXISTS "${version_json}")
  file(READ "${version_json}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${version_json}.tmp" "${text}")
  file(RENAME "${version_json}.tmp" "${version_json}")
endif()
