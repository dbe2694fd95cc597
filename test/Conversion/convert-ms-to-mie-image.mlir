// RUN: ms-opt %s -split-input-file -convert-ms-to-mie | FileCheck %s
// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -mie-outline-kernels -mie-parallelize-loops | FileCheck %s --check-prefix=ENV

// Tests that ms.image_decode is one kernel calling the runtime service mie_host_decode_image with
// the bytes' address and count, the output's address, height, width, channels, the pixel format
// (RGB 0, BGR 1, Grayscale 2) and the node's name (a NUL-terminated constant, for the runtime's
// message): the codecs are the runtime's, not generated code.

// CHECK-LABEL: func.func @decode
// CHECK: %[[OUT:.+]] = mie.alloc : memref<32x24x3xi8>
// CHECK: mie.kernel "image_decode" ins(%{{.+}} : memref<1058xi8>) outs(%[[OUT]] : memref<32x24x3xi8>)
// CHECK-DAG: %[[NAME:.+]] = llvm.mlir.addressof @mie_host_text_0
// CHECK-DAG: %[[IN:.+]] = llvm.inttoptr
// CHECK-DAG: %[[SIZE:.+]] = arith.constant 1058 : i64
// CHECK-DAG: %[[H:.+]] = arith.constant 32 : i64
// CHECK-DAG: %[[W:.+]] = arith.constant 24 : i64
// CHECK-DAG: %[[C:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[F:.+]] = arith.constant 1 : i64
// CHECK: call @mie_host_decode_image(%[[IN]], %[[SIZE]], %{{.+}}, %[[H]], %[[W]], %[[C]], %[[F]], %[[NAME]])
// CHECK-DAG: func.func private @mie_host_decode_image(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @mie_host_text_0("decode\00")

// Tests that mie-parallelize-loops hands the service the environment: the declaration, the kernel
// that calls it and the call each get it first.

// ENV: func.func @decode(%[[ENV:[^:]+]]: !llvm.ptr,
// ENV: call @decode_k0_image_decode(%[[ENV]],
// ENV: func.func private @decode_k0_image_decode(%[[KENV:[^:]+]]: !llvm.ptr,
// ENV: call @mie_host_decode_image(%[[KENV]],
// ENV: func.func private @mie_host_decode_image(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr)
func.func @decode(%bytes: tensor<1058xui8>) -> tensor<32x24x3xui8> {
  %0 = ms.image_decode %bytes {height = 32, width = 24, pixel_format = #ms<pixel_format bgr>} : (tensor<1058xui8>) -> tensor<32x24x3xui8> loc("decode")
  return %0 : tensor<32x24x3xui8>
}

// -----

// Tests that two decodes share the declaration and get a name constant each; grayscale is one
// channel and format 2.

// CHECK-LABEL: func.func @two
// CHECK: call @mie_host_decode_image
// CHECK: arith.constant 2 : i64
// CHECK: call @mie_host_decode_image
// CHECK-DAG: llvm.mlir.global internal constant @mie_host_text_0("first\00")
// CHECK-DAG: llvm.mlir.global internal constant @mie_host_text_1("second\00")
func.func @two(%bytes: tensor<100xui8>) -> (tensor<4x4x3xui8>, tensor<4x4x1xui8>) {
  %0 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format rgb>} : (tensor<100xui8>) -> tensor<4x4x3xui8> loc("first")
  %1 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format grayscale>} : (tensor<100xui8>) -> tensor<4x4x1xui8> loc("second")
  return %0, %1 : tensor<4x4x3xui8>, tensor<4x4x1xui8>
}
