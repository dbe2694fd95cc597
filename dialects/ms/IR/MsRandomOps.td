//===- MsRandomOps.td - random number generation -------------*- tablegen -*-===//
//
// Tensors of random numbers (ONNX RandomUniform, RandomNormal and their *Like forms; Bernoulli,
// Multinomial and Dropout in training mode are built on them). Each op draws from a counter-based
// generator (Philox-4x32-10) keyed by the run: the runtime hands every run a 64-bit key and a run
// counter (docs/random.md), so two runs draw different numbers, and a session given a seed
// (mie_session_set_random_seed) draws the same sequence again. `stream` tells the ops of one model
// apart (the importer numbers them), which is why two ops with the same attributes are never merged;
// within one run an op is a pure function of its attributes, and so marked Pure. An op with `seed`
// ignores the session's key and uses the seed instead (ONNX: the same seed, the same numbers), still
// varied by the run counter, as onnxruntime's seeded generators advance from run to run. In a loop
// body the op takes the iteration (`iteration`, the enclosing loops' iteration numbers combined), which
// derives a key of its own per iteration, so that every iteration draws new numbers.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RANDOM_OPS_TD
#define MS_RANDOM_OPS_TD

include "dialects/ms/IR/MsBase.td"

class Ms_RandomOp<string mnemonic> : Ms_InferredOp<mnemonic> {
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat =
      "(`iteration` `(` $iteration^ `:` type($iteration) `)`)? attr-dict `:` type($result)";
}

def Ms_RandomUniformOp : Ms_RandomOp<"random_uniform"> {
  let summary = "A tensor of numbers drawn uniformly from [low, high).";
  let description = [{
    ONNX RandomUniform(Like): every element is `low + (high - low) * u` with `u` uniform in [0, 1)
    (24 random bits for f32, f16 and bf16, 53 for f64).

    Example:
    ```mlir
    %u = ms.random_uniform {shape = array<i64: 2, 3>, element_type = f32, low = 0.0, high = 1.0,
                            stream = 0} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Optional<0DTensorOf<[I64]>>:$iteration, DenseI64ArrayAttr:$shape,
                   TypeAttr:$element_type, DefaultValuedAttr<F64Attr, "0.0">:$low,
                   DefaultValuedAttr<F64Attr, "1.0">:$high, OptionalAttr<F64Attr>:$seed,
                   I64Attr:$stream);
}

def Ms_RandomNormalOp : Ms_RandomOp<"random_normal"> {
  let summary = "A tensor of numbers drawn from the normal distribution N(mean, scale^2).";
  let description = [{
    ONNX RandomNormal(Like): every element is `mean + scale * z` with `z` standard normal (the
    Box-Muller transform of two uniform draws).

    Example:
    ```mlir
    %z = ms.random_normal {shape = array<i64: 4>, element_type = f32, mean = 0.0, scale = 1.0,
                           seed = 5.0, stream = 1} : tensor<4xf32>
    // In a loop body: the iteration keys the draw.
    %w = ms.random_normal iteration(%i : tensor<i64>) {shape = array<i64: 4>, element_type = f32,
                                                       stream = 2} : tensor<4xf32>
    ```
  }];
  let arguments = (ins Optional<0DTensorOf<[I64]>>:$iteration, DenseI64ArrayAttr:$shape,
                   TypeAttr:$element_type, DefaultValuedAttr<F64Attr, "0.0">:$mean,
                   DefaultValuedAttr<F64Attr, "1.0">:$scale, OptionalAttr<F64Attr>:$seed,
                   I64Attr:$stream);
}

// Draws built on a uniform draw, expanded by `ms-decompose` (DecomposeRandomPatterns.cpp) into an
// ms.random_uniform of the op's `seed` and `stream` and the ops that turn it into the
// distribution. Not Pure: two such ops of equal operands draw different numbers, and `stream`
// alone tells them apart only once the importer has numbered them.
class Ms_RandomDrawOp<string mnemonic>
    : Ms_Op<mnemonic, [InferTypeOpAdaptor]> {
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      ::llvm::SmallVector<::mlir::Type> inferred;
      return inferReturnTypes(getContext(), getLoc(), Adaptor(*this), inferred);
    }
  }];
  let assemblyFormat = "$input (`iteration` `(` $iteration^ `:` type($iteration) `)`)? attr-dict "
                       "`:` functional-type($input, $result)";
}

def Ms_BernoulliOp : Ms_RandomDrawOp<"bernoulli"> {
  let summary = "1 with probability p, drawn per element (ONNX Bernoulli).";
  let description = [{
    Each element is 1 where a uniform draw in [0, 1) is below the element of `input` (the
    probabilities), else 0, in `element_type`. f16 and bf16 probabilities are compared with f32
    draws, whose rounding would otherwise turn draws just below 1 into 1.

    Example:
    ```mlir
    %y = ms.bernoulli %p {element_type = f32, stream = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Optional<0DTensorOf<[I64]>>:$iteration,
                   TypeAttr:$element_type, OptionalAttr<F64Attr>:$seed, I64Attr:$stream);
  let results = (outs Ms_Tensor:$result);
}

def Ms_MultinomialOp : Ms_RandomDrawOp<"multinomial"> {
  let summary = "Class indices drawn from unnormalized log-probabilities (ONNX Multinomial).";
  let description = [{
    `sample_size` class indices per row of `input` [batch, classes]: a draw t = u * total (u
    uniform in [0, 1), total the sum of the row's exp(x - max)) picks the class whose interval of
    the cumulative sums holds it, clamped to the last class against rounding. The result
    [batch, sample_size] is of `element_type` (i32 or i64).

    Example:
    ```mlir
    %y = ms.multinomial %x {sample_size = 4 : i64, element_type = i64, stream = 1}
        : (tensor<2x3xf32>) -> tensor<2x4xi64>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Optional<0DTensorOf<[I64]>>:$iteration,
                   I64Attr:$sample_size, TypeAttr:$element_type, OptionalAttr<F64Attr>:$seed,
                   I64Attr:$stream);
  let results = (outs Ms_IndexTensor:$result);
}

#endif // MS_RANDOM_OPS_TD
