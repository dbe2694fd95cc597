//===- MsTrainingOps.td - optimizer steps of ai.onnx.preview.training -*- tablegen -*-===//
//
// The optimizer steps of ONNX's ai.onnx.preview.training domain (Adagrad, Momentum, Adam), each
// over one or more tensors: the learning rate R and the step count T are scalars read at run
// time, the tensors come in groups (X, G and the optimizer's state), one tensor per group for
// each optimized tensor. `ms-decompose` (DecomposeTrainingPatterns.cpp) expands them into
// elementwise ops, the step-dependent factors computed from T in the graph.
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRAINING_OPS_TD
#define MS_TRAINING_OPS_TD

include "dialects/ms/IR/MsBase.td"

class Ms_OptimizerOp<string mnemonic> : Ms_InferredOp<mnemonic> {
  let results = (outs Variadic<Ms_FloatTensor>:$results);
  let assemblyFormat = "$rate `,` $step `,` $tensors attr-dict `:` functional-type(operands, results)";
}

def Ms_AdagradOp : Ms_OptimizerOp<"adagrad"> {
  let summary = "One Adagrad step over tensors X with gradients G and sums of squares H.";
  let description = [{
    ONNX Adagrad: `tensors` are X..., G..., H... (one of each per optimized tensor);
    r = R / (1 + T * decay_factor), G' = norm_coefficient * X + G, H' = H + G' * G',
    X' = X - r * G' / (sqrt(H') + epsilon). Results X'..., H'....

    Example:
    ```mlir
    %x1, %h1 = ms.adagrad %r, %t, %x, %g, %h {decay_factor = 0.1, epsilon = 1.0e-06,
        norm_coefficient = 0.0} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>,
        tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$rate, RankedTensorOf<[I64]>:$step,
                   Variadic<Ms_FloatTensor>:$tensors, F64Attr:$decay_factor, F64Attr:$epsilon,
                   F64Attr:$norm_coefficient);
}

def Ms_MomentumOp : Ms_OptimizerOp<"momentum"> {
  let summary = "One Momentum step (standard or Nesterov) over tensors X with gradients G and "
                "momenta V.";
  let description = [{
    ONNX Momentum: `tensors` are X..., G..., V...; G' = norm_coefficient * X + G,
    V' = alpha * V + (T > 0 ? beta : 1) * G', X' = X - R * V' or, with `nesterov`,
    X - R * (G' + alpha * V'). Results X'..., V'....

    Example:
    ```mlir
    %x1, %v1 = ms.momentum %r, %t, %x, %g, %v {alpha = 0.9, beta = 0.1, norm_coefficient = 0.0}
        : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
        -> (tensor<2xf32>, tensor<2xf32>)
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$rate, RankedTensorOf<[I64]>:$step,
                   Variadic<Ms_FloatTensor>:$tensors, F64Attr:$alpha, F64Attr:$beta,
                   F64Attr:$norm_coefficient, UnitAttr:$nesterov);
}

def Ms_AdamOp : Ms_OptimizerOp<"adam"> {
  let summary = "One Adam step over tensors X with gradients G, first moments V and second "
                "moments H.";
  let description = [{
    ONNX Adam: `tensors` are X..., G..., V..., H...; G' = norm_coefficient * X + G,
    V' = alpha * V + (1 - alpha) * G', H' = beta * H + (1 - beta) * G'^2,
    r = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R,
    X' = (1 - norm_coefficient_post) * (X - r * V' / (sqrt(H') + epsilon)).
    Results X'..., V'..., H'....

    Example:
    ```mlir
    %x1, %v1, %h1 = ms.adam %r, %t, %x, %g, %v, %h {alpha = 0.9, beta = 0.999, epsilon = 1.0e-06,
        norm_coefficient = 0.0, norm_coefficient_post = 0.0}
        : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
        -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$rate, RankedTensorOf<[I64]>:$step,
                   Variadic<Ms_FloatTensor>:$tensors, F64Attr:$alpha, F64Attr:$beta,
                   F64Attr:$epsilon, F64Attr:$norm_coefficient, F64Attr:$norm_coefficient_post);
}

#endif // MS_TRAINING_OPS_TD
