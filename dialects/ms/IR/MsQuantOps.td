//===- MsQuantOps.td - quantization ops ms-decompose expands ---*- tablegen -*-===//
//
// ONNX quantization ops whose evaluation is more than a cast: `ms-decompose`
// (DecomposeQuantPatterns.cpp) expands them into reductions, divisions, rounding and clipping
// with ONNX's reference semantics.
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

#endif // MS_QUANT_OPS_TD
