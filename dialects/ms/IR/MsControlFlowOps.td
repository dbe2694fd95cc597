//===- MsControlFlowOps.td - ms.if, ms.loop, ms.scan -------*- tablegen -*-===//
//
// ONNX If, Loop and Scan with their subgraphs as regions. The regions are not isolated from above:
// a subgraph's references to values of an enclosing graph (implicit captures) are plain uses of
// those SSA values.
//
//===----------------------------------------------------------------------===//

#ifndef MS_CONTROL_FLOW_OPS_TD
#define MS_CONTROL_FLOW_OPS_TD

include "dialects/ms/IR/MsBase.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Ms_IfOp : Ms_Op<"if", [RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "Runs one of two regions, chosen by a boolean (ONNX If).";
  let description = [{
    `cond` holds one element. When it is true the `then` region runs, otherwise the `else` region;
    the results are the values the region that ran yields with `ms.region_yield`. Both regions yield
    exactly the result types: this compiler is static-shape, so branches whose outputs differ in
    shape cannot be one op.

    Example:
    ```mlir
    %r = ms.if %c : tensor<i1> -> (tensor<2xf32>) {
      ms.region_yield %a : tensor<2xf32>
    } else {
      ms.region_yield %b : tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins Ms_BoolTensor:$cond);
  let results = (outs Variadic<Ms_Tensor>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $cond attr-dict `:` type($cond) (`->` `(` type($results)^ `)`)? $thenRegion `else` $elseRegion
  }];
  let hasVerifier = 1;
}

// Loops are LoopLikeOpInterface so that -loop-invariant-code-motion hoists what does not depend on
// the iteration out of their bodies.
def Ms_LoopOp : Ms_Op<"loop", [RecursiveMemoryEffects, AttrSizedOperandSegments,
                                DeclareOpInterfaceMethods<LoopLikeOpInterface>]> {
  let summary = "A loop with a trip count and/or a condition (ONNX Loop).";
  let description = [{
    Runs the body while `i < max_trip_count` (when given) and the condition holds (when `cond` is
    given: first its value, then the one the previous iteration yielded). The body's arguments are
    the iteration number (`tensor<i64>`), the condition (`tensor<i1>`) and the loop-carried values
    (initially `init_values`); it yields the next condition (one i1 element; ignored without
    `cond`), the next carried values (of the same types: carried values keep static shapes) and one
    element per scan output. The results are the final carried values, then the scan outputs: the
    elements of every iteration stacked along a new leading dim.

    Scan outputs need their length at compile time: an op with scan outputs has `max_trip_count`,
    no `cond`, and a leading dim equal to the trip count where that is a constant.

    Example:
    ```mlir
    %v, %s = ms.loop trip %m : tensor<i64> iter_args(%x : tensor<2xf32>)
        -> (tensor<2xf32>, tensor<5x2xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %y: tensor<2xf32>):
      %z = ms.add %y, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      ms.region_yield %c, %z, %z : tensor<i1>, tensor<2xf32>, tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins Optional<Ms_IntegerTensor>:$maxTripCount, Optional<Ms_BoolTensor>:$cond,
                       Variadic<Ms_Tensor>:$initValues);
  let results = (outs Variadic<Ms_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`trip` $maxTripCount^ `:` type($maxTripCount))? (`cond` $cond^ `:` type($cond))?
    (`iter_args` `(` $initValues^ `:` type($initValues) `)`)? attr-dict-with-keyword
    (`->` `(` type($results)^ `)`)? $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getNumCarried() { return getInitValues().size(); }
    unsigned getNumScanOutputs() { return getNumResults() - getNumCarried(); }
  }];
}

def Ms_ScanOp : Ms_Op<"scan", [RecursiveMemoryEffects, AttrSizedOperandSegments,
                                DeclareOpInterfaceMethods<LoopLikeOpInterface>]> {
  let summary = "Runs a body over slices of sequences, with state (ONNX Scan, opset 9+).";
  let description = [{
    Every scan input is sliced along its axis `scan_input_axes[i]` (all of the same length T, read
    from the end where `scan_input_directions[i]` is 1). For each step the body gets the states
    (initially `init_states`), then one slice per scan input, and yields the next states (of the
    same types), then one element per scan output. The results are the final states, then the scan
    outputs: the elements stacked along `scan_output_axes[j]` (in reverse step order where
    `scan_output_directions[j]` is 1). Axes are normalized (non-negative).

    Example:
    ```mlir
    %s, %o = ms.scan states(%init : tensor<2xf32>) inputs(%x : tensor<3x2xf32>)
        {scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 0>,
         scan_output_axes = array<i64: 0>, scan_output_directions = array<i64: 0>}
        -> (tensor<2xf32>, tensor<3x2xf32>) {
    ^bb0(%acc: tensor<2xf32>, %row: tensor<2xf32>):
      %n = ms.add %acc, %row : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      ms.region_yield %n, %n : tensor<2xf32>, tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Ms_Tensor>:$initStates, Variadic<Ms_Tensor>:$scanInputs,
                       DenseI64ArrayAttr:$scan_input_axes, DenseI64ArrayAttr:$scan_input_directions,
                       DenseI64ArrayAttr:$scan_output_axes,
                       DenseI64ArrayAttr:$scan_output_directions);
  let results = (outs Variadic<Ms_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`states` `(` $initStates^ `:` type($initStates) `)`)?
    `inputs` `(` $scanInputs `:` type($scanInputs) `)` attr-dict `->` `(` type($results) `)` $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getNumStates() { return getInitStates().size(); }
    unsigned getNumScanOutputs() { return getNumResults() - getNumStates(); }
    /// The number of steps (the length of the scan inputs along their axes).
    int64_t getSequenceLength();
  }];
}

def Ms_RegionYieldOp : Ms_Op<"region_yield",
    [Pure, Terminator, ReturnLike, ParentOneOf<["IfOp", "LoopOp", "ScanOp"]>]> {
  let summary = "Ends a region of ms.if, ms.loop or ms.scan with the values it produces.";
  let description = [{
    The values a region produces: an `ms.if` branch's results; an `ms.loop` body's next condition,
    next carried values and scan elements; an `ms.scan` body's next states and scan elements. The
    parent's verifier checks them against its operands and results.

    Example:
    ```mlir
    ms.region_yield %a, %b : tensor<2xf32>, tensor<i1>
    ```
  }];
  let arguments = (ins Variadic<Ms_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // MS_CONTROL_FLOW_OPS_TD
