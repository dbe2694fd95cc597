// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=mixed" 2>/dev/null | FileCheck %s --check-prefix=MIXED
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=bf16" 2>/dev/null | FileCheck %s --check-prefix=BF16
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=fp16" 2>/dev/null | FileCheck %s --check-prefix=FP16
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=mixed mixed-type=fp16" 2>/dev/null | FileCheck %s --check-prefix=MIXED16
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=mixed keep-fp32=/l0/MatMul force-reduced=Softmax" 2>/dev/null | FileCheck %s --check-prefix=OVR
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=mixed keep-fp32=MatMul" 2>/dev/null | FileCheck %s --check-prefix=KEEPTYPE
// RUN: ms-opt %s -split-input-file -ms-assign-precision="quantize-method=dynamic_fp16" 2>/dev/null | FileCheck %s --check-prefix=DYN
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=fp32" 2>/dev/null | FileCheck %s --check-prefix=FP32
// RUN: ms-opt %s -split-input-file -ms-assign-precision="precision=fp16 force-reduced=ms.attention" 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not ms-opt %s -ms-assign-precision="precision=fp64" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ms-opt %s -ms-assign-precision="precision=bf16 quantize-method=dynamic_fp16" 2>&1 | FileCheck %s --check-prefix=BADQ
// RUN: not ms-opt %s -ms-assign-precision="precision=fp32 force-reduced=Conv" 2>&1 | FileCheck %s --check-prefix=BADF

// BAD: error: ms-assign-precision: precision must be fp32, fp16, bf16 or mixed, got 'fp64'
// BADQ: error: ms-assign-precision: quantize-method=dynamic_fp16 computes in f32: it needs precision=fp32, got 'bf16'
// BADF: error: ms-assign-precision: force-reduced needs a reduced precision (fp16, bf16 or mixed), not fp32

// A CNN tail. mixed: the conv computes in bf16 with an f32 accumulator on bf16 weights folded at
// compile time (1, 2, ..., 8 as bf16: 0x3F80, 0x4000, ...; a 2-byte alignment word first), relu
// follows it, softmax and exp stay f32 with one cast between. bf16: everything but the function's
// boundary is bf16. fp16: exp stays f32 (it overflows f16's 65504 where f32 does not).

// MIXED-LABEL: func.func @cnn_tail
// MIXED-SAME: casts_inserted = 3 : i64, casts_left = 2 : i64, casts_removed = 1 : i64, ops = {bf16 = 2 : i64, f32 = 2 : i64}, policy = "mixed(bf16)", weight_bytes_after = 16 : i64, weight_bytes_before = 32 : i64
// MIXED: %[[W:.+]] = ms.constant dense_resource<w0_bf16> : tensor<4x2x1x1xbf16>
// MIXED: %[[X:.+]] = ms.cast %arg0 : tensor<1x2x4x4xf32> to tensor<1x2x4x4xbf16>
// MIXED: %[[C:.+]] = ms.conv2d %[[X]], %[[W]] {acc_type = f32} : (tensor<1x2x4x4xbf16>, tensor<4x2x1x1xbf16>) -> tensor<1x4x4x4xbf16>
// MIXED: %[[R:.+]] = ms.relu %[[C]] : tensor<1x4x4x4xbf16>
// MIXED: %[[RW:.+]] = ms.cast %[[R]] : tensor<1x4x4x4xbf16> to tensor<1x4x4x4xf32>
// MIXED: %[[S:.+]] = ms.softmax %[[RW]]
// MIXED-SAME: -> tensor<1x4x4x4xf32>
// MIXED: %[[E:.+]] = ms.exp %[[S]] : tensor<1x4x4x4xf32>
// MIXED: return %[[E]] : tensor<1x4x4x4xf32>
// MIXED: w0_bf16: "0x02000000803F004040408040A040C040E0400041"

// MIXED16-LABEL: func.func @cnn_tail
// MIXED16: ms.conv2d {{.*}} {acc_type = f32} : (tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) -> tensor<1x4x4x4xf16>
// MIXED16: w0_f16: "0x02000000003C0040004200440045004600470048"

// BF16-LABEL: func.func @cnn_tail
// BF16: ms.cast %arg0 : tensor<1x2x4x4xf32> to tensor<1x2x4x4xbf16>
// BF16: ms.conv2d {{.*}} {acc_type = f32} : (tensor<1x2x4x4xbf16>, tensor<4x2x1x1xbf16>) -> tensor<1x4x4x4xbf16>
// BF16: ms.softmax {{.*}} -> tensor<1x4x4x4xbf16>
// BF16: %[[E:.+]] = ms.exp {{.*}} : tensor<1x4x4x4xbf16>
// BF16: %[[O:.+]] = ms.cast %[[E]] : tensor<1x4x4x4xbf16> to tensor<1x4x4x4xf32>
// BF16: return %[[O]]

// FP16-LABEL: func.func @cnn_tail
// FP16: ms.softmax {{.*}} -> tensor<1x4x4x4xf16>
// FP16: ms.cast {{.*}} : tensor<1x4x4x4xf16> to tensor<1x4x4x4xf32>
// FP16: ms.exp {{.*}} : tensor<1x4x4x4xf32>

// FP32-LABEL: func.func @cnn_tail
// FP32-NOT: xbf16
// FP32-NOT: ms.cast
// FP32: ms.conv2d %arg0
// FP32-NOT: acc_type
// FP32: return
func.func @cnn_tail(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = ms.constant dense_resource<w0> : tensor<4x2x1x1xf32>
  %c = ms.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  %r = ms.relu %c : tensor<1x4x4x4xf32>
  %s = ms.softmax %r {axis = 1 : i64} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e = ms.exp %s : tensor<1x4x4x4xf32>
  return %e : tensor<1x4x4x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}

// -----

// An encoder's first steps. mixed: the embedding lookup and the layer norm stay f32, both matmuls
// are bf16 and share one folded weight; the add of a bf16 product and an f32 input computes in f32
// (a follow op is reduced only when all its non-constant operands are); tanh follows the second
// product. bf16: the table is stored in bf16 too. dynamic_fp16: every weight of >= 16 elements is
// stored as f16 (the 8x8 splat stays: one stored element) and the widening cast moves behind the
// gather, so it converts 32 elements instead of the whole table.

// MIXED-LABEL: func.func @encoder_start
// MIXED: %[[W:.+]] = ms.constant dense<5.000000e-01> : tensor<8x8xbf16>
// MIXED: %[[T:.+]] = ms.constant dense_resource<emb> : tensor<16x8xf32>
// MIXED: %[[G:.+]] = ms.gather %[[T]], %arg0 : (tensor<16x8xf32>, tensor<1x4xi64>) -> tensor<1x4x8xf32>
// MIXED: %[[N:.+]] = ms.layer_norm %[[G]]
// MIXED-SAME: -> tensor<1x4x8xf32>
// MIXED: %[[NB:.+]] = ms.cast %[[N]] : tensor<1x4x8xf32> to tensor<1x4x8xbf16>
// MIXED: %[[P:.+]] = ms.matmul %[[NB]], %[[W]] {acc_type = f32}
// MIXED: %[[PW:.+]] = ms.cast %[[P]] : tensor<1x4x8xbf16> to tensor<1x4x8xf32>
// MIXED: %[[A:.+]] = ms.add %[[PW]], %arg1 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
// MIXED: %[[AB:.+]] = ms.cast %[[A]] : tensor<1x4x8xf32> to tensor<1x4x8xbf16>
// MIXED: %[[Q:.+]] = ms.matmul %[[AB]], %[[W]] {acc_type = f32}
// MIXED: %[[H:.+]] = ms.tanh %[[Q]] : tensor<1x4x8xbf16>
// MIXED: ms.cast %[[H]] : tensor<1x4x8xbf16> to tensor<1x4x8xf32>

// BF16-LABEL: func.func @encoder_start
// BF16-SAME: weight_bytes_after = 260 : i64, weight_bytes_before = 520 : i64
// BF16: %[[T:.+]] = ms.constant dense_resource<emb_bf16> : tensor<16x8xbf16>
// BF16: ms.gather %[[T]], %arg0 : (tensor<16x8xbf16>, tensor<1x4xi64>) -> tensor<1x4x8xbf16>
// BF16: ms.layer_norm {{.*}} -> tensor<1x4x8xbf16>

// DYN-LABEL: func.func @encoder_start
// DYN-SAME: casts_inserted = 1 : i64, casts_left = 1 : i64, casts_removed = 0 : i64, ops = {f16 = 1 : i64, f32 = 5 : i64}, policy = "dynamic_fp16", weight_bytes_after = 264 : i64, weight_bytes_before = 520 : i64
// DYN: ms.constant dense<5.000000e-01> : tensor<8x8xf32>
// DYN: %[[T:.+]] = ms.constant dense_resource<emb_f16> : tensor<16x8xf16>
// DYN: %[[G:.+]] = ms.gather %[[T]], %arg0 : (tensor<16x8xf16>, tensor<1x4xi64>) -> tensor<1x4x8xf16>
// DYN: %[[GW:.+]] = ms.cast %[[G]] : tensor<1x4x8xf16> to tensor<1x4x8xf32>
// DYN: ms.layer_norm %[[GW]]
// DYN-NOT: ms.cast
// DYN: return
func.func @encoder_start(%ids: tensor<1x4xi64>, %m: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %table = ms.constant dense_resource<emb> : tensor<16x8xf32>
  %e = ms.gather %table, %ids {axis = 0 : i64} : (tensor<16x8xf32>, tensor<1x4xi64>) -> tensor<1x4x8xf32>
  %g = ms.constant dense<1.0> : tensor<8xf32>
  %n = ms.layer_norm %e, %g {axis = -1 : i64, epsilon = 1.0e-5 : f64} : (tensor<1x4x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %w = ms.constant dense<0.5> : tensor<8x8xf32>
  %p = ms.matmul %n, %w : (tensor<1x4x8xf32>, tensor<8x8xf32>) -> tensor<1x4x8xf32>
  %a = ms.add %p, %m : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %q = ms.matmul %a, %w : (tensor<1x4x8xf32>, tensor<8x8xf32>) -> tensor<1x4x8xf32>
  %t = ms.tanh %q : tensor<1x4x8xf32>
  return %t : tensor<1x4x8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      emb: "0x04000000000000000000803E0000003F0000403F0000803F0000A03F0000C03F0000E03F0000004000001040000020400000304000004040000050400000604000007040000080400000884000009040000098400000A0400000A8400000B0400000B8400000C0400000C8400000D0400000D8400000E0400000E8400000F0400000F84000000041000004410000084100000C4100001041000014410000184100001C4100002041000024410000284100002C4100003041000034410000384100003C4100004041000044410000484100004C4100005041000054410000584100005C4100006041000064410000684100006C4100007041000074410000784100007C41000080410000824100008441000086410000884100008A4100008C4100008E41000090410000924100009441000096410000984100009A4100009C4100009E410000A0410000A2410000A4410000A6410000A8410000AA410000AC410000AE410000B0410000B2410000B4410000B6410000B8410000BA410000BC410000BE410000C0410000C2410000C4410000C6410000C8410000CA410000CC410000CE410000D0410000D2410000D4410000D6410000D8410000DA410000DC410000DE410000E0410000E2410000E4410000E6410000E8410000EA410000EC410000EE410000F0410000F2410000F4410000F6410000F8410000FA410000FC410000FE41"
    }
  }
#-}

// -----

// Overrides: by node name (/l0/MatMul kept in f32 while /l1/MatMul is reduced, so their weight is
// stored both ways) and by ONNX op type (Softmax forced into bf16, MatMul kept in f32).

// OVR-LABEL: func.func @overrides
// OVR: %[[W32:.+]] = ms.constant dense<5.000000e-01> : tensor<8x8xf32>
// OVR: %[[W16:.+]] = ms.constant dense<5.000000e-01> : tensor<8x8xbf16>
// OVR: %[[A:.+]] = ms.matmul %arg0, %[[W32]] : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// OVR: %[[AB:.+]] = ms.cast %[[A]] : tensor<2x8xf32> to tensor<2x8xbf16>
// OVR: %[[B:.+]] = ms.matmul %[[AB]], %[[W16]] {acc_type = f32}
// OVR: %[[S:.+]] = ms.softmax %[[B]] : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// OVR: ms.cast %[[S]] : tensor<2x8xbf16> to tensor<2x8xf32>

// KEEPTYPE-LABEL: func.func @overrides
// KEEPTYPE-NOT: xbf16
// KEEPTYPE: return

// MIXED-LABEL: func.func @overrides
// MIXED: ms.matmul {{.*}} -> tensor<2x8xbf16>
// MIXED: ms.matmul {{.*}} -> tensor<2x8xbf16>
// MIXED: ms.softmax {{.*}} -> tensor<2x8xf32>
func.func @overrides(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %w = ms.constant dense<0.5> : tensor<8x8xf32>
  %a = ms.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32> loc("/l0/MatMul")
  %b = ms.matmul %a, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32> loc("/l1/MatMul")
  %s = ms.softmax %b {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("/l1/Softmax")
  return %s : tensor<2x8xf32>
}

// -----

// Casts move to the side of a data-movement op where fewer elements flow: the conversion of the
// broadcast row happens before the expand (8 elements, not 32); the one of the sliced rows after
// the slice (16 elements, not 512).

// MIXED-LABEL: func.func @moves
// MIXED: %[[XB:.+]] = ms.cast %arg0 : tensor<1x8xf32> to tensor<1x8xbf16>
// MIXED: %[[E:.+]] = ms.expand %[[XB]] {{.*}} : (tensor<1x8xbf16>) -> tensor<4x8xbf16>
// MIXED: ms.gemm %[[E]]
// MIXED: %[[S:.+]] = ms.slice %arg1 {{.*}} : (tensor<64x8xf32>) -> tensor<2x8xf32>
// MIXED: %[[SB:.+]] = ms.cast %[[S]] : tensor<2x8xf32> to tensor<2x8xbf16>
// MIXED: ms.gemm %[[SB]]
func.func @moves(%x: tensor<1x8xf32>, %y: tensor<64x8xf32>) -> (tensor<4x8xf32>, tensor<2x8xf32>) {
  %w = ms.constant dense<0.5> : tensor<8x8xf32>
  %e = ms.expand %x {shape = array<i64: 4, 8>} : (tensor<1x8xf32>) -> tensor<4x8xf32>
  %m = ms.gemm %e, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = ms.slice %y {starts = array<i64: 0, 0>, sizes = array<i64: 2, 8>, steps = array<i64: 1, 1>} : (tensor<64x8xf32>) -> tensor<2x8xf32>
  %n = ms.gemm %s, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  return %m, %n : tensor<4x8xf32>, tensor<2x8xf32>
}

// -----

// A cast moved past a data-movement op keeps ONNX Cast's saturate (and round_mode): the 8-bit float
// conversion after the slice saturates as the one before it did.

// MIXED-LABEL: func.func @moves_keep_saturate
// MIXED: %[[S:.+]] = ms.slice %arg0 {{.*}} : (tensor<64x8xf32>) -> tensor<2x8xf32>
// MIXED: ms.cast %[[S]] {saturate} : tensor<2x8xf32> to tensor<2x8xf8E4M3FN>
// MIXED: %[[X:.+]] = ms.cast %arg1 {round_mode = "nearest", saturate} : tensor<1x8xf32> to tensor<1x8xf8E8M0FNU>
// MIXED: ms.expand %[[X]] {{.*}} : (tensor<1x8xf8E8M0FNU>) -> tensor<4x8xf8E8M0FNU>
func.func @moves_keep_saturate(%y: tensor<64x8xf32>, %x: tensor<1x8xf32>) -> (tensor<2x8xf8E4M3FN>, tensor<4x8xf8E8M0FNU>) {
  %c = ms.cast %y {saturate} : tensor<64x8xf32> to tensor<64x8xf8E4M3FN>
  %s = ms.slice %c {starts = array<i64: 0, 0>, sizes = array<i64: 2, 8>, steps = array<i64: 1, 1>} : (tensor<64x8xf8E4M3FN>) -> tensor<2x8xf8E4M3FN>
  %e = ms.expand %x {shape = array<i64: 4, 8>} : (tensor<1x8xf32>) -> tensor<4x8xf32>
  %r = ms.cast %e {round_mode = "nearest", saturate} : tensor<4x8xf32> to tensor<4x8xf8E8M0FNU>
  return %s, %r : tensor<2x8xf8E4M3FN>, tensor<4x8xf8E8M0FNU>
}

// -----

// fp16 keeps exp and reduce_sum in f32 (range); relu and mul between them are reduced: one cast
// into f16, one shared widening of relu's result for the sum, one before the second exp. mixed keeps
// everything in f32 (relu and mul follow f32 operands).

// FP16-LABEL: func.func @fp16_range
// FP16: %[[E:.+]] = ms.exp %arg0 : tensor<4xf32>
// FP16: %[[EH:.+]] = ms.cast %[[E]] : tensor<4xf32> to tensor<4xf16>
// FP16: %[[R:.+]] = ms.relu %[[EH]] : tensor<4xf16>
// FP16: %[[RW:.+]] = ms.cast %[[R]] : tensor<4xf16> to tensor<4xf32>
// FP16: ms.reduce_sum %[[RW]] : (tensor<4xf32>) -> tensor<f32>
// FP16: %[[M:.+]] = ms.mul %[[R]], %[[R]] : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
// FP16: %[[MW:.+]] = ms.cast %[[M]] : tensor<4xf16> to tensor<4xf32>
// FP16: ms.exp %[[MW]] : tensor<4xf32>

// MIXED-LABEL: func.func @fp16_range
// MIXED-NOT: ms.cast
// MIXED: return
func.func @fp16_range(%x: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %e = ms.exp %x : tensor<4xf32>
  %r = ms.relu %e : tensor<4xf32>
  %s = ms.reduce_sum %r : (tensor<4xf32>) -> tensor<f32>
  %q = ms.mul %r, %r : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = ms.exp %q : tensor<4xf32>
  return %s, %t : tensor<f32>, tensor<4xf32>
}

// -----

// Attention's kernels are f32 only: it stays f32 under every policy, and forcing it is warned about.

// WARN: warning: stays f32 although --force-reduced names it: attention kernels are f32 only
// FP16-LABEL: func.func @attention
// FP16-NOT: xf16
// FP16: return
func.func @attention(%q: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %o = ms.attention %q, %q, %q {scale = 0.35 : f64} : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// No back-to-back cast pairs: the model's own f16 -> f32 cast is not followed by an f32 -> f16 one;
// the reduced relu reads the f16 value it was widened from, and the cast is gone.

// FP16-LABEL: func.func @existing_cast
// FP16-SAME: casts_inserted = 2 : i64, casts_left = 1 : i64, casts_removed = 2 : i64
// FP16: %[[R:.+]] = ms.relu %arg0 : tensor<4xf16>
// FP16: %[[O:.+]] = ms.cast %[[R]] : tensor<4xf16> to tensor<4xf32>
// FP16: return %[[O]]
func.func @existing_cast(%x: tensor<4xf16>) -> tensor<4xf32> {
  %c = ms.cast %x : tensor<4xf16> to tensor<4xf32>
  %r = ms.relu %c : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// is_inf answers for the f32 value: 1e5 rounds to +inf in f16, so under fp16 (and bf16) it stays
// f32 while the relu next to it is reduced.

// FP16-LABEL: func.func @is_inf
// FP16: ms.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
// FP16: ms.relu %{{.+}} : tensor<4xf16>
// BF16-LABEL: func.func @is_inf
// BF16: ms.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
func.func @is_inf(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xf32>) {
  %i = ms.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %r = ms.relu %x : tensor<4xf32>
  return %i, %r : tensor<4xi1>, tensor<4xf32>
}

// -----

// `ms.keep_fp32` on an op (what --precision=auto marks on the products it keeps) keeps it f32 like
// a --keep-fp32 entry naming it; its unmarked twin is reduced.

// MIXED-LABEL: func.func @marked_keep
// MIXED: ms.matmul %arg0, %{{.+}} {ms.keep_fp32} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
// MIXED: ms.matmul %{{.+}}, %{{.+}} {acc_type = f32} : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16>
func.func @marked_keep(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %w = ms.constant dense<0.5> : tensor<8x8xf32>
  %a = ms.matmul %x, %w {ms.keep_fp32} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %b = ms.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  return %a, %b : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// A QDQ conv: the QuantizeLinear arithmetic (x / scale, round, + zero point, clip) is converted to
// uint8, so it stays f32 under bf16 (a bf16 quotient lands on other integers); the convolution
// before it, which the backward walk from the cast does not cross, is reduced.

// BF16-LABEL: func.func @quantize
// BF16: ms.conv2d %{{.+}}, %{{.+}} {acc_type = f32} : (tensor<1x2x4x4xbf16>, tensor<2x2x1x1xbf16>) -> tensor<1x2x4x4xbf16>
// BF16: %[[D:.+]] = ms.div %{{.+}}, %{{.+}} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
// BF16-NEXT: %[[R:.+]] = ms.round %[[D]] : tensor<1x2x4x4xf32>
// BF16-NEXT: %[[A:.+]] = ms.add %[[R]], %{{.+}} : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
// BF16-NEXT: %[[C:.+]] = ms.clip %[[A]] {{.+}} : tensor<1x2x4x4xf32>
// BF16-NEXT: ms.cast %[[C]] : tensor<1x2x4x4xf32> to tensor<1x2x4x4xui8>
func.func @quantize(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %s: tensor<f32>, %zp: tensor<f32>) -> tensor<1x2x4x4xui8> {
  %c = ms.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %d = ms.div %c, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %r = ms.round %d : tensor<1x2x4x4xf32>
  %a = ms.add %r, %zp : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %k = ms.clip %a {min = 0.0 : f64, max = 255.0 : f64} : tensor<1x2x4x4xf32>
  %q = ms.cast %k : tensor<1x2x4x4xf32> to tensor<1x2x4x4xui8>
  return %q : tensor<1x2x4x4xui8>
}

// -----

// Control flow stays f32, its regions included: a reduced value that a branch uses (here captured
// from the function) is widened before the ms.if, whose result is narrowed again for the relu.
// BF16-LABEL: func.func @control_flow_stays_f32
// BF16: %[[M:.+]] = ms.mul %{{.+}}, %{{.+}} : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// BF16: %[[W:.+]] = ms.cast %[[M]] : tensor<4xbf16> to tensor<4xf32>
// BF16: %[[R:.+]] = ms.if %arg0 : tensor<i1> -> (tensor<4xf32>) {
// BF16-NEXT: ms.add %[[W]], %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// BF16: } else {
// BF16-NEXT: ms.region_yield %[[W]] : tensor<4xf32>
// BF16: %[[N:.+]] = ms.cast %[[R]] : tensor<4xf32> to tensor<4xbf16>
// BF16: ms.relu %[[N]] : tensor<4xbf16>
func.func @control_flow_stays_f32(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %m = ms.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = ms.if %c : tensor<i1> -> (tensor<4xf32>) {
    %s = ms.add %m, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ms.region_yield %s : tensor<4xf32>
  } else {
    ms.region_yield %m : tensor<4xf32>
  }
  %r = ms.relu %0 : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Random draws stay f32 (their element type is an attribute; Bernoulli and Dropout compare them
// with probabilities): the mul that consumes one is reduced with the draw rounded.
// BF16-LABEL: func.func @random_stays_f32
// BF16: %[[U:.+]] = ms.random_uniform {element_type = f32, shape = array<i64: 4>, stream = 0 : i64} : tensor<4xf32>
// BF16: %[[C:.+]] = ms.cast %[[U]] : tensor<4xf32> to tensor<4xbf16>
// BF16: ms.mul %{{.+}}, %[[C]] : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
func.func @random_stays_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %u = ms.random_uniform {shape = array<i64: 4>, element_type = f32, stream = 0} : tensor<4xf32>
  %m = ms.mul %x, %u : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}
