// RUN: ms-opt %s -mie-gpu-library-calls=libraries=mkl -verify-diagnostics

// Tests that a library the pass does not know is refused by name.
// expected-error @below {{mie-gpu-library-calls: unknown library 'mkl' (expected cublaslt, cudnn or none)}}
module attributes {mie.target = #mie.target<cuda, "sm_90">} {
}
