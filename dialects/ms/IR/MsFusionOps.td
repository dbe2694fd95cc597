//===- MsFusionOps.td - fused groups and recognized composites ------------===//
//
// Ops that the fusion passes create: `ms.fused` (a group of ms ops that lowers to one kernel) with its
// terminator, and `ms.attention` (scaled-dot-product attention recognized from its MatMul/Softmax
// chain).
//
//===----------------------------------------------------------------------===//

#ifndef MS_FUSION_OPS_TD
#define MS_FUSION_OPS_TD

include "dialects/ms/IR/MsBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Ms_FusedOp : Ms_Op<"fused", [IsolatedFromAbove, Pure, SingleBlock]> {
  let summary = "A group of ms ops that is lowered to one kernel.";
  let description = [{
    Holds ms ops that the fusion passes grouped so that they run as one kernel: its intermediate values
    never reach memory. The region is isolated from above: the group's external operands are `inputs`,
    bound to the block arguments in order; `ms.yield` returns the one value that leaves the group.
    `name` is the kernel name the lowering uses (the members' op names joined by `_`).

    Groups are of two kinds, told apart by their first op: an *anchored* group starts with
    `ms.conv2d`, `ms.gemm` or `ms.matmul` followed by an epilogue chain (bias add, residual add, one
    activation, a clamp), and lowers to one library kernel with that epilogue; any other group holds
    elementwise ops, optionally ending in one reduction, and lowers to one generated kernel.

    Example:
    ```mlir
    %r = ms.fused "add_relu" ins(%a, %b : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
      %s = ms.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %t = ms.relu %s : tensor<4xf32>
      ms.yield %t : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<Ms_Tensor>:$inputs);
  let results = (outs Ms_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`ins` `(` $inputs^ `:` type($inputs) `)`)? attr-dict `->` type($result) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The ops of the group in order, without the terminator.
    ::llvm::SmallVector<::mlir::Operation *> getMembers();
    /// The value the group yields (inside the region).
    ::mlir::Value getYieldedValue();
  }];
}

def Ms_YieldOp : Ms_Op<"yield", [Pure, Terminator, ReturnLike, HasParent<"FusedOp">]> {
  let summary = "Returns the value that leaves an `ms.fused` group.";
  let description = [{
    Terminates the body of `ms.fused`; its operand's type must be the group's result type.

    Example:
    ```mlir
    ms.yield %t : tensor<4xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Ms_AttentionOp : Ms_InferredOp<"attention"> {
  let summary = "Scaled-dot-product attention: softmax(Q Kᵀ · scale + mask) V.";
  let description = [{
    For every batch index (all dims but the last two, equal across `query`, `key` and `value`) and
    every query row: scores = `scale` · Q Kᵀ (`query` is [..., S, D], `key` is [..., T, D]), plus
    `mask` when given (broadcast to [..., S, T] with numpy rules, added to the scores), a softmax over
    the T scores, and the weighted sum of the rows of `value` ([..., T, Dv]). The result is
    [..., S, Dv]. Recognized from the exporters' MatMul/Mul/Add/Softmax/MatMul chain; lowers to one
    kernel that keeps the scores of one row in registers/stack instead of an [S, T] tensor.

    Grouped-query (and multi-query) attention: `key` and `value` may have fewer heads than
    `query`, Hkv dividing H in the last batch dim (dim -3 of the logical shape); query head h then
    reads key/value head h / (H / Hkv). The exporters' head repetition (Llama's repeat_kv:
    Unsqueeze, Expand, Reshape) and MatMul's broadcast of a single key/value head fold into it.

    With `causal` query row i sees only the keys j <= i + (T - S) (T >= S, so every row sees a
    key), besides any `mask`: a decoder's constant causal mask folds into it, and the kernel skips
    the hidden keys instead of adding -inf to their scores.

    With `token_major` the heads dim follows the sequence dim, as the projections produce them:
    `query` is [..., S, H, D], `key` [..., T, H, D], `value` [..., T, H, Dv] and the result
    [..., S, H, Dv] (the batch dims of the description above are then [..., H]; the mask still
    broadcasts to the scores [..., H, S, T]). The head split and merge transposes around the
    attention fold into it this way.

    Example:
    ```mlir
    %o = ms.attention %q, %k, %v {scale = 0.125 : f64}
        : (tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>)
        -> tensor<1x12x128x64xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$query, Ms_FloatTensor:$key, Ms_FloatTensor:$value,
                   Optional<Ms_FloatTensor>:$mask, F64Attr:$scale, UnitAttr:$token_major,
                   UnitAttr:$causal);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
}

#endif // MS_FUSION_OPS_TD
