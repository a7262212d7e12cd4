# Used by run.sh only while mycc does not accept nvcc's -MD/-MT/-MF: CMake
# (CUDA compiler version >= 10.2.89) compiles with them so that the compiler
# writes the dependency file. Loaded through CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA,
# which try_compile projects inherit, it turns compiler depfiles off.
set(CMAKE_DEPFILE_FLAGS_CUDA "")
