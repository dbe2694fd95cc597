//===- MsRecurrentOps.td - RNN, GRU and LSTM recurrences ------------------===//
//
// The recurrent layers are split in two where they are imported: the input projection of every
// time step, X Wᵀ plus the biases, is one ordinary ms.gemm before the recurrence (so it is fused,
// packed, typed and run on the GEMM microkernels like any other product), and these ops hold what
// must run step by step: the product of the previous hidden state with the recurrence weights and
// the gate math. Keeping the recurrence one op (rather than an importer-built loop of ms ops) lets
// the verifier check the whole layer at once and lets the lowering keep the state in one buffer
// across steps (docs/recurrent.md).
//
//===----------------------------------------------------------------------===//

#ifndef MS_RECURRENT_OPS_TD
#define MS_RECURRENT_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_RnnDirection : I32EnumAttr<"RnnDirection", "direction of a recurrence", [
    I32EnumAttrCase<"forward", 0>, I32EnumAttrCase<"reverse", 1>,
    I32EnumAttrCase<"bidirectional", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_RnnDirectionAttr : EnumAttr<Ms_Dialect, Ms_RnnDirection, "rnn_direction">;

// Attributes every recurrence has. `activations` holds exactly (activations per cell) x D lower-case
// names (the forward direction's first), `activation_alpha` / `activation_beta` one value per
// activation (the importer fills in the ONNX defaults).
defvar Ms_RecurrentAttrs = (ins
    DefaultValuedAttr<Ms_RnnDirectionAttr, "::mlir::ms::RnnDirection::forward">:$direction,
    StrArrayAttr:$activations,
    DenseF64ArrayAttr:$activation_alpha,
    DenseF64ArrayAttr:$activation_beta,
    OptionalAttr<F64Attr>:$clip);

class Ms_RecurrentOp<string mnemonic, dag operands, dag extraAttrs, dag resultList>
    : Ms_InferredOp<mnemonic, [AttrSizedOperandSegments]> {
  let arguments = !con(operands, Ms_RecurrentAttrs, extraAttrs);
  let results = resultList;
  let extraClassDeclaration = [{
    /// Activations per direction (3 for an LSTM, 2 for a GRU, 1 for an RNN).
    static int64_t getActivationsPerDirection();
    /// Gates per hidden unit (4, 3, 1): the columns of `gates` and rows of `recurrence` are
    /// getNumGates() x hidden size per direction.
    static int64_t getNumGates();
  }];
}

def Ms_RnnOp : Ms_RecurrentOp<"rnn",
    (ins Ms_FloatTensor:$gates, Ms_FloatTensor:$recurrence, Optional<Ms_FloatTensor>:$initial_h,
         Optional<Ms_IndexTensor>:$sequence_lens),
    (ins), (outs Ms_FloatTensor:$y, Ms_FloatTensor:$y_h)> {
  let summary = "The recurrence of an ONNX RNN layer: Hₜ = f(gatesₜ + Hₜ₋₁ Rᵀ).";
  let description = [{
    `gates` [T, B, D, H] holds the input projection of every step and direction, Xₜ Wᵀ + Wb + Rb;
    `recurrence` is R [D, H, H]. For each direction d (D = 2 for `bidirectional`, else 1) and batch
    row b the op runs over the first `sequence_lens[b]` steps (all T without it; a length is clamped
    into [0, T]), in order for the forward direction and from the last valid step back for the
    reverse one, from `initial_h` [D, B, H] (zeros without it):
    Hₜ = f(clip(gatesₜ + Hₜ₋₁ Rᵀ)), with f = activations[d] and clip applied when `clip` is set.
    `y` [T, D, B, H] holds every step's state, zeros past a row's length; `y_h` [D, B, H] the last.

    Example:
    ```mlir
    %y, %yh = ms.rnn %g, %r initial_h(%h0) {activations = ["tanh"],
        activation_alpha = array<f64: 0.0>, activation_beta = array<f64: 0.0>}
        : (tensor<5x2x1x8xf32>, tensor<1x8x8xf32>, tensor<1x2x8xf32>)
        -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
    ```
  }];
  let assemblyFormat = [{
    $gates `,` $recurrence (`initial_h` `(` $initial_h^ `)`)?
    (`sequence_lens` `(` $sequence_lens^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_GruOp : Ms_RecurrentOp<"gru",
    (ins Ms_FloatTensor:$gates, Ms_FloatTensor:$recurrence,
         Optional<Ms_FloatTensor>:$recurrence_bias, Optional<Ms_FloatTensor>:$initial_h,
         Optional<Ms_IndexTensor>:$sequence_lens),
    (ins UnitAttr:$linear_before_reset), (outs Ms_FloatTensor:$y, Ms_FloatTensor:$y_h)> {
  let summary = "The recurrence of an ONNX GRU layer (gates z, r, h).";
  let description = [{
    `gates` [T, B, D, 3H] holds Xₜ Wᵀ + biases for the gates z, r, h in that order (for z and r:
    Wb + Rb; for h: Wbh, plus Rbh unless `linear_before_reset`); `recurrence` is R [D, 3H, H].
    With `linear_before_reset`, `recurrence_bias` [D, H] is Rbh (zeros when absent), added to the
    recurrent product before the reset gate scales it; it is only allowed then. Per step, with
    f, g = activations of the direction:
      z = f(gz + H Rzᵀ), r = f(gr + H Rrᵀ),
      h = g(gh + (r ⊙ H) Rhᵀ)            (default)
      h = g(gh + r ⊙ (H Rhᵀ + Rbh))     (linear_before_reset),
      H' = (1 - z) ⊙ h + z ⊙ H.
    `clip` bounds every gate's input. Directions, `sequence_lens`, `initial_h`, `y` and `y_h` are as
    for ms.rnn.

    Example:
    ```mlir
    %y, %yh = ms.gru %g, %r {linear_before_reset, activations = ["sigmoid", "tanh"],
        activation_alpha = array<f64: 0.0, 0.0>, activation_beta = array<f64: 0.0, 0.0>}
        : (tensor<5x2x1x24xf32>, tensor<1x24x8xf32>) -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>)
    ```
  }];
  let assemblyFormat = [{
    $gates `,` $recurrence (`recurrence_bias` `(` $recurrence_bias^ `)`)?
    (`initial_h` `(` $initial_h^ `)`)? (`sequence_lens` `(` $sequence_lens^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_LstmOp : Ms_RecurrentOp<"lstm",
    (ins Ms_FloatTensor:$gates, Ms_FloatTensor:$recurrence, Optional<Ms_FloatTensor>:$initial_h,
         Optional<Ms_FloatTensor>:$initial_c, Optional<Ms_FloatTensor>:$peepholes,
         Optional<Ms_IndexTensor>:$sequence_lens),
    (ins UnitAttr:$input_forget),
    (outs Ms_FloatTensor:$y, Ms_FloatTensor:$y_h, Ms_FloatTensor:$y_c)> {
  let summary = "The recurrence of an ONNX LSTM layer (gates i, o, f, c).";
  let description = [{
    `gates` [T, B, D, 4H] holds Xₜ Wᵀ + Wb + Rb for the gates i, o, f, c in ONNX's order;
    `recurrence` is R [D, 4H, H]; `peepholes` P [D, 3H] (i, o, f; zeros when absent). Per step,
    with f, g, h = activations of the direction and C the cell state:
      i = f(gi + H Riᵀ + Pi ⊙ C), f = f(gf + H Rfᵀ + Pf ⊙ C)  (f = 1 - i with `input_forget`),
      c = g(gc + H Rcᵀ), C' = f ⊙ C + i ⊙ c,
      o = f(go + H Roᵀ + Po ⊙ C'), H' = o ⊙ h(C').
    `clip` bounds every gate's input. `initial_c` [D, B, H] starts C (zeros without it); `y_c`
    [D, B, H] is the last C. The rest is as for ms.rnn.

    Example:
    ```mlir
    %y, %yh, %yc = ms.lstm %g, %r sequence_lens(%len) {direction = #ms<rnn_direction reverse>,
        activations = ["sigmoid", "tanh", "tanh"], activation_alpha = array<f64: 0.0, 0.0, 0.0>,
        activation_beta = array<f64: 0.0, 0.0, 0.0>}
        : (tensor<5x2x1x32xf32>, tensor<1x32x8xf32>, tensor<2xi32>)
        -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
    ```
  }];
  let assemblyFormat = [{
    $gates `,` $recurrence (`initial_h` `(` $initial_h^ `)`)? (`initial_c` `(` $initial_c^ `)`)?
    (`peepholes` `(` $peepholes^ `)`)? (`sequence_lens` `(` $sequence_lens^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

#endif // MS_RECURRENT_OPS_TD
