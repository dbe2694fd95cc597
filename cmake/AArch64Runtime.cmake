# The runtime (and mie-run) cross-built for aarch64, as an external project of the main build, so that
# end-to-end tests can run aarch64 packages under qemu-aarch64 and the runtime's gtests run there too.
# Needs Debian's g++-aarch64-linux-gnu and qemu-user; skipped with a message otherwise.
option(MIE_BUILD_AARCH64_RUNTIME "Cross-build the runtime for aarch64 (tests run under qemu)" ON)

find_program(MIE_AARCH64_CXX aarch64-linux-gnu-g++)
find_program(MIE_QEMU_AARCH64 qemu-aarch64)
set(MIE_AARCH64_RUNTIME_DIR "")
if(MIE_BUILD_AARCH64_RUNTIME AND MIE_AARCH64_CXX AND MIE_QEMU_AARCH64)
  include(ExternalProject)
  set(MIE_AARCH64_RUNTIME_DIR ${CMAKE_BINARY_DIR}/runtime-aarch64)
  ExternalProject_Add(runtime-aarch64
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/runtime
    BINARY_DIR ${MIE_AARCH64_RUNTIME_DIR}
    CMAKE_GENERATOR Ninja
    CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/aarch64-linux-gnu.cmake
               -DCMAKE_BUILD_TYPE=Release
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    USES_TERMINAL_BUILD ON)
  # Its own ctest suite (gtests + mie-run checks under qemu) as one test of the main suite.
  add_test(NAME runtime-aarch64-under-qemu
           COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${MIE_AARCH64_RUNTIME_DIR} --output-on-failure)
  set_tests_properties(runtime-aarch64-under-qemu PROPERTIES TIMEOUT 900)
else()
  message(STATUS "aarch64 runtime: not built (needs aarch64-linux-gnu-g++ and qemu-aarch64)")
endif()
