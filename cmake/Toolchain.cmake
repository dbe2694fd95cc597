# Build-speed defaults: lld for linking and ccache for compiling, when present.

if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  find_program(MIE_LLD NAMES ld.lld-22 ld.lld)
  if(MIE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

option(MIE_USE_CCACHE "Compile through ccache when it is installed" ON)
if(MIE_USE_CCACHE)
  find_program(MIE_CCACHE ccache)
  if(MIE_CCACHE)
    message(STATUS "Compiling through ${MIE_CCACHE}")
    set(CMAKE_C_COMPILER_LAUNCHER ${MIE_CCACHE})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${MIE_CCACHE})
  endif()
endif()
