//===- MsQuantOps.td - quantization ops ms-decompose expands ---*- tablegen -*-===//
//
// ONNX quantization ops whose evaluation is more than a cast: `ms-decompose`
// (DecomposeQuantPatterns.cpp) expands them into reductions, divisions, rounding and clipping
// with ONNX's reference semantics. A scale or zero point applies per tensor (a scalar or one
// element), per axis (1-D with the input's extent along `axis`) or per block (the input's rank,
// ceil(extent / block_size) along `axis`, the input's extent elsewhere).
//
//===----------------------------------------------------------------------===//

#ifndef MS_QUANT_OPS_TD
#define MS_QUANT_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_DynamicQuantizeLinearOp : Ms_InferredOp<"dynamic_quantize_linear"> {
  let summary = "Quantizes f32 to uint8 with a scale and zero point from its range (ONNX "
                "DynamicQuantizeLinear).";
  let description = [{
    y_scale = (max(x, 0) - min(x, 0)) / 255, y_zero_point = saturate(round(-min(x, 0) /
    y_scale)), y = saturate(round(x / y_scale) + y_zero_point), rounding half to even: `result`
    has the input's shape in uint8, `scale` (f32) and `zero_point` (uint8) are scalars.

    Example:
    ```mlir
    %y, %scale, %zero = ms.dynamic_quantize_linear %x
        : (tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>)
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$input);
  let results = (outs RankedTensorOf<[UI8]>:$result, RankedTensorOf<[F32]>:$scale,
                      RankedTensorOf<[UI8]>:$zero_point);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_QuantizeLinearOp : Ms_InferredOp<"quantize_linear"> {
  let summary = "Quantizes to an integer or narrow float type (ONNX QuantizeLinear).";
  let description = [{
    To an integer `element_type` (2 to 16 bits): saturate(round_half_even(x / scale) +
    zero_point), x / scale computed in x's type (f32 for integer x); to an 8-bit float:
    x / scale converted to it, saturating unless `saturate` is false, the zero point not read;
    to FLOAT4E2M1: x / scale + zero_point, saturating. `zero_point`, when present, has
    `element_type` and the scale's shape (or one element next to a one-element scale).

    Example:
    ```mlir
    %q = ms.quantize_linear %x, %scale, %zero {axis = 1 : i64, element_type = i8}
        : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, Ms_FloatTensor:$scale,
                   Optional<Ms_Tensor>:$zero_point, TypeAttr:$element_type,
                   DefaultValuedAttr<I64Attr, "1">:$axis,
                   DefaultValuedAttr<I64Attr, "0">:$block_size,
                   DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input `,` $scale (`,` $zero_point^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

def Ms_DequantizeLinearOp : Ms_InferredOp<"dequantize_linear"> {
  let summary = "Dequantizes an integer or narrow float tensor (ONNX DequantizeLinear).";
  let description = [{
    (x - zero_point) * scale, computed in f32 and converted to the scale's type; x is an integer
    (2 to 32 bits) or narrow float tensor, `zero_point` (optional: 0) has x's element type and
    the scale's shape (or one element next to a one-element scale). The result has x's shape.

    Example:
    ```mlir
    %x = ms.dequantize_linear %q, %scale {axis = 0 : i64}
        : (tensor<2x3xi8>, tensor<2xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, Ms_FloatTensor:$scale, Optional<Ms_Tensor>:$zero_point,
                   DefaultValuedAttr<I64Attr, "1">:$axis,
                   DefaultValuedAttr<I64Attr, "0">:$block_size);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale (`,` $zero_point^)? attr-dict `:` "
                       "functional-type(operands, results)";
}

#endif // MS_QUANT_OPS_TD
