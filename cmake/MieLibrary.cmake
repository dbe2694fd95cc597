# mie_add_library(name SOURCES... [DEPENDS tblgen-targets...] [LINK_LIBS libs...])
#
# Like add_mlir_library, but links MLIR and LLVM through the one shared libMLIR.so (which itself links
# libLLVM.so): add_mlir_library's LINK_LIBS ignores MLIR_LINK_MLIR_DYLIB, and static MLIR*.a would make
# every tool ~100 MB and every link take tens of seconds.
function(mie_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  llvm_update_compile_flags(${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
endfunction()

# mie_add_tool(name SOURCES... [LINK_LIBS libs...]): a thin main linked against our libraries + libMLIR.so.
function(mie_add_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} MLIR LLVM)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
endfunction()
