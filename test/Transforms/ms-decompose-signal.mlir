// RUN: ms-opt %s -split-input-file -ms-decompose | FileCheck %s

// ms.dft and ms.stft (DecomposeSignalPatterns.cpp): products with cos / sin matrices in f64.

// DFT of a real signal [1, 6, 3, 1] along axis 1, zero-padded to 8 and onesided (5 bins): the
// axis moved last, then products with the two [6, 5] cos / sin matrices in f64 (the padding
// only shortens the matrices), the parts interleaved and the bins moved back.
// CHECK-LABEL: func.func @dft_real_padded
// CHECK-DAG: %[[SIN:.+]] = ms.constant dense<{{.+}}> : tensor<6x5xf64>
// CHECK-DAG: %[[COS:.+]] = ms.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, {{.+}}> : tensor<6x5xf64>
// CHECK: %[[T:.+]] = ms.transpose %{{.+}} {perms = array<i64: 0, 2, 1>} : (tensor<1x6x3xf32>) -> tensor<1x3x6xf32>
// CHECK-NEXT: %[[RE:.+]] = ms.cast %[[T]] : tensor<1x3x6xf32> to tensor<1x3x6xf64>
// CHECK-NEXT: ms.matmul %[[RE]], %[[COS]] : (tensor<1x3x6xf64>, tensor<6x5xf64>) -> tensor<1x3x5xf64>
// CHECK-NEXT: ms.matmul %[[RE]], %[[SIN]] : (tensor<1x3x6xf64>, tensor<6x5xf64>) -> tensor<1x3x5xf64>
// CHECK: ms.concat {{.+}} -> tensor<1x3x5x2xf32>
// CHECK-NEXT: %[[Y:.+]] = ms.transpose %{{.+}} {perms = array<i64: 0, 2, 1, 3>} : (tensor<1x3x5x2xf32>) -> tensor<1x5x3x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @dft_real_padded(%x: tensor<1x6x3x1xf32>) -> tensor<1x5x3x2xf32> {
  %y = ms.dft %x {axis = 1, length = 8, onesided} : (tensor<1x6x3x1xf32>) -> tensor<1x5x3x2xf32>
  return %y : tensor<1x5x3x2xf32>
}

// -----

// An inverse complex DFT truncated to 4 samples: the parts sliced, truncated, and combined as
// (re cos - im sin) + i (re sin + im cos); f64 data needs no casts.
// CHECK-LABEL: func.func @dft_complex_inverse_truncated
// CHECK: %[[RE:.+]] = ms.slice %{{.+}} {sizes = array<i64: 2, 4>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[IM:.+]] = ms.slice %{{.+}} {sizes = array<i64: 2, 4>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[RC:.+]] = ms.matmul %[[RE]], %[[COS:.+]] :
// CHECK-NEXT: %[[RS:.+]] = ms.matmul %[[RE]], %[[SIN:.+]] :
// CHECK-NEXT: %[[IS:.+]] = ms.matmul %[[IM]], %[[SIN]] :
// CHECK-NEXT: %[[OUTRE:.+]] = ms.sub %[[RC]], %[[IS]]
// CHECK-NEXT: %[[IC:.+]] = ms.matmul %[[IM]], %[[COS]] :
// CHECK-NEXT: %[[OUTIM:.+]] = ms.add %[[RS]], %[[IC]]
// CHECK-NOT: ms.cast
// CHECK: ms.concat {{.+}} -> tensor<2x4x2xf64>
func.func @dft_complex_inverse_truncated(%x: tensor<2x6x2xf64>) -> tensor<2x4x2xf64> {
  %y = ms.dft %x {axis = 1, length = 4, inverse} : (tensor<2x6x2xf64>) -> tensor<2x4x2xf64>
  return %y : tensor<2x4x2xf64>
}

// -----

// STFT: the frames are one gather by a constant [frames, frame_length] index, each weighted by
// the window (cast to the signal's type), then the DFT products.
// CHECK-LABEL: func.func @stft_window
// CHECK-DAG: %[[IDX:.+]] = ms.constant dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi64>
// CHECK: %[[F:.+]] = ms.gather %arg0, %[[IDX]] {axis = 1 : i64} : (tensor<1x16x1xf32>, tensor<4x4xi64>) -> tensor<1x4x4x1xf32>
// CHECK-NEXT: %[[WC:.+]] = ms.cast %arg1 : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: %[[W:.+]] = ms.reshape %[[WC]] {shape = array<i64: 1, 1, 4>}
// CHECK-NEXT: %[[P:.+]] = ms.reshape %[[F]] {shape = array<i64: 1, 4, 4>}
// CHECK-NEXT: ms.mul %[[P]], %[[W]]
// CHECK-COUNT-2: ms.matmul %{{.+}}, %{{.+}} : (tensor<1x4x4xf64>, tensor<4x3xf64>) -> tensor<1x4x3xf64>
// CHECK: return %{{.+}} : tensor<1x4x3x2xf32>
func.func @stft_window(%x: tensor<1x16x1xf32>, %w: tensor<4xf16>) -> tensor<1x4x3x2xf32> {
  %y = ms.stft %x, %w {frame_step = 4, frame_length = 4, onesided} : (tensor<1x16x1xf32>, tensor<4xf16>) -> tensor<1x4x3x2xf32>
  return %y : tensor<1x4x3x2xf32>
}

// -----

// A complex signal without a window: frames of 4 every 3 samples, both parts transformed.
// CHECK-LABEL: func.func @stft_complex
// CHECK: ms.gather %arg0, %{{.+}} {axis = 1 : i64} : (tensor<2x10x2xf32>, tensor<3x4xi64>) -> tensor<2x3x4x2xf32>
// CHECK-NOT: ms.mul
// CHECK-COUNT-4: ms.matmul
// CHECK: return %{{.+}} : tensor<2x3x4x2xf32>
func.func @stft_complex(%x: tensor<2x10x2xf32>) -> tensor<2x3x4x2xf32> {
  %y = ms.stft %x {frame_step = 3, frame_length = 4} : (tensor<2x10x2xf32>) -> tensor<2x3x4x2xf32>
  return %y : tensor<2x3x4x2xf32>
}
