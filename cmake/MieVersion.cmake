# The project's one version: MIE_RT_VERSION_STRING in runtime/include/mie/mie_rt.h. The C++ tools print
# it (--version), the runtime reports it (mie_runtime_version), CMake uses it for project() and the
# shared library's VERSION, and the Python wheel's metadata reads the same line (python-bindings/
# pyproject.toml), so a release changes that one line. Sets MIE_VERSION ("0.1.0"). Included before
# project() by the top-level, runtime and python-bindings builds.
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../runtime/include/mie/mie_rt.h" _mie_version_line
     REGEX "^#define MIE_RT_VERSION_STRING \"[0-9]+\\.[0-9]+\\.[0-9]+\"")
if(NOT _mie_version_line MATCHES "\"([0-9]+\\.[0-9]+\\.[0-9]+)\"")
  message(FATAL_ERROR "MIE_RT_VERSION_STRING not found in runtime/include/mie/mie_rt.h")
endif()
set(MIE_VERSION ${CMAKE_MATCH_1})
unset(_mie_version_line)
