# Toolchain file: cross-build for 64-bit ARM Linux with Debian's gcc-aarch64-linux-gnu and run the results
# (gtest discovery, ctest) through qemu-user.
#   cmake -S runtime -B build-rt-arm -G Ninja -DCMAKE_TOOLCHAIN_FILE=$PWD/cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

# clang-22 when present (the microkernels use clang's vector extensions; Debian's GCC cross libraries and
# headers serve it), else Debian's GCC cross compiler.
if(EXISTS /usr/bin/clang++-22)
  set(CMAKE_C_COMPILER /usr/bin/clang-22)
  set(CMAKE_CXX_COMPILER /usr/bin/clang++-22)
  set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
  set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
  set(CMAKE_EXE_LINKER_FLAGS_INIT -fuse-ld=lld)
  set(CMAKE_SHARED_LINKER_FLAGS_INIT -fuse-ld=lld)
  set(CMAKE_MODULE_LINKER_FLAGS_INIT -fuse-ld=lld)
else()
  set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
  set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
endif()

set(MIE_AARCH64_SYSROOT /usr/aarch64-linux-gnu CACHE PATH "Target libraries for qemu-aarch64 -L")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;${MIE_AARCH64_SYSROOT})

# Look for libraries and headers only in the target environment, programs only on the host.
set(CMAKE_FIND_ROOT_PATH ${MIE_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
