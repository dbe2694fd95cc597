// RUN: ms-opt %s -split-input-file -mie-gpu-merge-modules -verify-diagnostics | FileCheck %s
// RUN: ms-opt %s -split-input-file -mie-gpu-merge-modules=module-name=kernels -verify-diagnostics | FileCheck %s --check-prefix=NAMED

// Tests that the modules outlining makes (one per launch; two launches of one function give two
// modules holding a kernel of the same name) become one module @mie_gpu, each kernel renamed after
// its module, and that the launches follow.
// CHECK-LABEL: func.func private @f
// CHECK: gpu.launch_func @mie_gpu::@f_kernel blocks
// CHECK: gpu.launch_func @mie_gpu::@f_kernel_0 blocks
// CHECK: gpu.module @mie_gpu {
// CHECK: gpu.func @f_kernel(%{{.+}}: memref<4xf32>) kernel
// CHECK: gpu.func @f_kernel_0(%{{.+}}: memref<4xf32>) kernel
// CHECK-NOT: gpu.module
// NAMED: gpu.launch_func @kernels::@f_kernel blocks
// NAMED: gpu.launch_func @kernels::@f_kernel_0 blocks
// NAMED: gpu.module @kernels {
module attributes {gpu.container_module} {
  func.func private @f(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Tests that modules for different targets are not merged.
module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_80">] {
    gpu.func @a(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  // expected-error @+1 {{mie-gpu-merge-modules: modules for different targets}}
  gpu.module @b [#nvvm.target<chip = "sm_90">] {
    gpu.func @b(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
