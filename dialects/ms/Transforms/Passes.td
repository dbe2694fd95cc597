//===- Passes.td - ms graph-level passes ----------------------------------===//
//
// The graph optimizations that run on `ms` before lowering: folding into weights, recognition of
// composite ops, and fusion into `ms.fused` groups (each of which lowers to one kernel).
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRANSFORMS_PASSES_TD
#define MS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MsDecomposePass : Pass<"ms-decompose", "func::FuncOp"> {
  let summary = "Expand the composite ops the importer emits into ms primitives";
  let description = [{
    The importer maps some ONNX ops one-to-one onto composite ms ops with ONNX's semantics
    (dialects/ms/IR/MsCompositeOps.td) instead of expanding them itself; this pass, first in the
    pipeline, rewrites each into primitives that the rest of the pipeline fuses and lowers:
    - `ms.tile`: reshape to [1, size] pairs, expand to [repeats, size], reshape;
    - `ms.depth_to_space` / `ms.space_to_depth`: reshape, transpose, reshape;
    - `ms.trilu`: a select between the input and zero on `column - row >= k` (`<= k` lower), the
      row and column indices as broadcast constants;
    - `ms.instance_norm`, `ms.group_norm`, `ms.mean_variance_norm`: mean and variance reductions,
      then the per-channel scale and bias; `ms.lp_normalization`: a division by the norm;
    - `ms.lrn`: an average pool over the channels of the squares, a power and a division;
    - `ms.conv3d`: one `ms.conv2d` over the input's depth taps stacked as channels, the output
      depths in the batch;
    - `ms.conv_transpose`: zero insertion (reshape, pad), a pad or crop, and a stride-1
      `ms.conv2d` / `ms.conv3d` with the filter regrouped and flipped (model data: a new resource);
    - `ms.einsum`: diagonals, sums and one batched `ms.matmul` per pair of operands;
    - 3-D (5-D input) `ms.max_pool` / `ms.avg_pool`: a 2-D pool over (H, W), then one over D;
    - `ms.grid_sample`, `ms.roi_align`, `ms.deform_conv`: per-dim tap indices and weights, one
      `ms.gather_elements` per combination of taps, weighted and summed (deform_conv: then one
      batched `ms.matmul`); `ms.affine_grid`: a constant base grid times theta transposed;
    - `ms.dft`, `ms.stft`: products with cos / sin matrices in f64 (STFT: the frames gathered
      first, times the window);
    - `ms.nll_loss`: a gather_elements of each sample's class, the weights gathered, the ignored
      samples masked, then the reduction;
    - `ms.col2im`: one `ms.scatter_elements` (add) of the blocks into a zero padded image, a slice;
    - `ms.tree_ensemble`: every tree walked one level per step (gathers, comparisons, selects),
      the leaves' votes gathered from a dense table and aggregated; `ms.svm`: the kernel, one
      product per pair of classes, the votes, the pairwise coupling as an `ms.loop`;
      `ms.post_transform`: the ai.onnx.ml score transforms (DecomposeMlPatterns.cpp);
    - `ms.interpolate`: one product per resized axis with its interpolation matrix;
    - `ms.det`: unrolled Gaussian elimination; `ms.hardmax`: a prefix sum of the maxima;
    - `ms.onnx_attention`, `ms.rotary_embedding`: ONNX's function bodies; `ms.tfidf`: token
      comparisons with the n-gram pool and a one-hot product per n-gram length;
    - `ms.reduce_l1` / `l2` / `sum_square` / `log_sum` / `log_sum_exp`: an elementwise transform
      around `ms.reduce_sum` (the stable max-shifted form for log-sum-exp); `ms.log_softmax`,
      `ms.rms_norm`: ONNX's function bodies (DecomposeNormPatterns.cpp);
    - `ms.one_hot`: a comparison with a constant range and a select; `ms.reverse_sequence`,
      `ms.tensor_scatter`: one `ms.gather_elements` by computed indices; `ms.max_unpool`: one
      `ms.scatter_elements` into zeros; `ms.max_pool_indices`: strided slices of the input padded
      with -inf, the first maximum's constant plane index kept (DecomposeIndexingPatterns.cpp).
    - `ms.linear_regressor`, `ms.linear_classifier`: one product by the transposed coefficients,
      the label by argmax or onnxruntime's binary rule; `ms.scaler`, `ms.normalizer`,
      `ms.imputer`, `ms.one_hot_encoder`, `ms.label_encoder`: elementwise ops, comparisons with
      the categories or keys, a dense table lookup (DecomposeMlEncoderPatterns.cpp);
    - `ms.adagrad`, `ms.momentum`, `ms.adam`: the optimizer updates as elementwise ops;
    - `ms.bernoulli`, `ms.multinomial`: an `ms.random_uniform` of the op's stream, a comparison
      with the probabilities or a count of the cumulative sums below the draw;
    - `ms.dynamic_quantize_linear`: the range by reductions, the scale, zero point and values
      rounded and clipped to uint8.
    The ops the importer used to expand itself (grid_sample through col2im, nll_loss and the ops
    after col2im above) are expanded first, in program order, each op folded as it is built, and
    the dense constants those folds leave unused erased, as the importer did; the rest follows
    with folding. The greedy driver hoists and merges constants in the order it meets them, which
    is the weights' layout in the package, so it starts from the IR the importer emitted before.
  }];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsFoldBatchNormPass : Pass<"ms-fold-batchnorm", "func::FuncOp"> {
  let summary = "Fold inference batch_norm and per-channel Mul/Add by constants into conv weights";
  let description = [{
    Rewrites `ms.conv2d` followed by an inference `ms.batch_norm` with constant parameters, or by an
    `ms.mul` / `ms.add` with a constant that varies only along the output channels (or is a scalar),
    into one `ms.conv2d` with new weight and bias constants (new `dense_resource` blobs). The conv must
    be the only user-visible producer (its result has that one use) so no value is computed twice.
    Every other `ms.batch_norm` with constant parameters becomes `x * s + t` with per-channel
    constants, which elementwise fusion then merges with its neighbours. Only f32 data is folded.
  }];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsRecognizeCompositesPass : Pass<"ms-recognize-composites", "func::FuncOp"> {
  let summary = "Recognize GELU, LayerNorm, Softmax and attention from their decompositions";
  let description = [{
    Replaces the chains that exporters emit by the one ms op that lowers to one kernel:
    - GELU: `x * 0.5 * (1 + erf(x / sqrt(2)))` (any association of the product, `x * (1/sqrt(2))`
      too) and the tanh form `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))` -> `ms.gelu`;
    - LayerNorm: `d = x - reduce_mean(x)`, `d / sqrt(reduce_mean(d^2) + eps)` (or `* rsqrt`), with an
      optional `* gamma + beta` over the last axes -> `ms.layer_norm`;
    - Softmax: `exp(x - reduce_max(x)) / reduce_sum(exp(..))` (or without the max) -> `ms.softmax`;
    - attention: `softmax(Q·Kᵀ · c [+ mask]) · V` over batched matmuls with a constant scalar `c`
      (Mul or Div) -> `ms.attention` (Kᵀ is given back its [.., T, D] layout by a transpose that
      canonicalization merges with the exporter's).
    Intermediate values must have no other users; otherwise the chain is left alone.
  }];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsIntegerQdqPass : Pass<"ms-integer-qdq", "func::FuncOp"> {
  let summary = "Run QDQ convolutions on uint8 x int8 integers (ms.qconv2d)";
  let description = [{
    Rewrites a QDQ model's DequantizeLinear -> Conv -> QuantizeLinear, as the importer builds it
    (docs/quantized-models.md), into one `ms.qconv2d`:
    - the activation: `(x - zx) * sx` where x holds integers in [0, 255] (a QuantizeLinear's
      `clip(round(..) [+ zp], 0, 255)`, or a uint8 tensor converted to f32) and `sx`, `zx` are
      scalar constants; the qconv2d reads x as uint8;
    - the weights: an f32 constant the importer dequantized from int8 (its `ms.quantization`
      attribute: scales per tensor or per output channel, zero points 0), whose values are
      recovered exactly as `w / scale`;
    - the bias (optional): an f32 constant that is an int32 times `sx * scale[f]`;
    - one group; the result used only by an optional `ms.relu` and the QuantizeLinear
      `clip(round(v / sy) [+ zy], 0, 255)` with scalar constants `sy`, `zy`.
    The QuantizeLinear's clipped value is replaced by the qconv2d's uint8 result converted to f32,
    so a following DequantizeLinear keeps working and a following integer convolution reads the
    uint8 tensor itself (cast(cast(u8 -> f32) -> u8) folds). The multiplier is `sx * scale[f] / sy`
    in f32 and the bias absorbs `-zx * sum_k w[f, k]`, as onnxruntime's QLinearConv computes them.
    A QuantizeLinear's value that an integer convolution reads as uint8 and others read in f32
    (the residual branch of a ResNet block) is read as uint8 by all, converted back to f32 where
    needed (exact), so that it crosses kernels as one byte per element.
    Anything else (depthwise and grouped convolutions, int8 activations, weight zero points) stays
    as it is. The cpu pipeline runs this pass when every target has AVX512-VNNI.
  }];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsAssignPrecisionPass : Pass<"ms-assign-precision", "func::FuncOp"> {
  let summary = "Assign f32/bf16/f16 element types under a precision policy and minimize casts";
  let description = [{
    Chooses an element type for every op with f32 data under `precision` (TVM's always / follow /
    never classes):
    - `fp32`: nothing changes (unless `quantize-method` is set).
    - `mixed`: conv2d, matmul and gemm compute in `mixed-type` (bf16 or fp16) with
      `acc_type = f32`; softmax, layer_norm, batch_norm, the reductions (reduce_*, global_avg_pool,
      cumsum), exp, log, pow, gather from a constant table (embedding lookups) and attention stay
      f32; every other op follows its operands: reduced when all its non-constant float operands
      are, f32 otherwise (so the statistics of a decomposed instance/group norm stay f32).
    - `bf16` / `fp16`: every op with f32 data is reduced except what must stay f32: attention
      (its kernels are f32 only), is_inf (a value rounded to the narrow type may overflow to
      infinity where the f32 one is finite), and under fp16, whose largest finite value is 65504,
      exp, pow, reduce_sum, reduce_prod and cumsum (their results overflow it where f32's do not).
    `keep-fp32` and `force-reduced` override the policy per op; an entry is an ONNX op type
    (`Softmax`, `MatMul`, ...), an ms op name (`ms.softmax`) or an ONNX node name (any node the op
    was built from, as its location records). Keeping wins over forcing; attention cannot be
    forced (its kernels are f32 only; a warning says so); an entry that matches no op is warned
    about.

    Guarantees: the function's signature is unchanged (inputs and outputs keep their declared
    types; `ms.cast`s convert at the boundary); a reduced conv2d/matmul/gemm has reduced operands,
    a reduced result and `acc_type = f32`; casts are minimized:
    - a value is converted at most once per type (one cast right after its producer, shared by all
      consumers), and a conversion back to a type the value was widened from reuses the original
      (no back-to-back cast pairs);
    - casts of constants are folded at compile time: reduced weights are stored as bf16/f16
      constants (new `dense_resource` blobs, rounded to nearest even);
    - a cast moves past a data-movement op (slice, gather, max_pool, expand, pad, ...) to its side
      where fewer elements flow; rounding commutes with moving and selecting data, so this is exact.

    `quantize-method=dynamic_fp16` (with `precision=fp32` only) stores every f32 weight (a
    `dense_resource` constant of at least 16 elements; one with a finite value beyond f16's range
    keeps f32) as f16 and converts it back to f32 where it is used; a cast of a weight feeding a
    gather moves behind the gather.

    The function gets an `ms.precision` dictionary: the policy, ops per element type, casts
    inserted (conversions the policy needed, folded ones included), casts removed (folded or
    merged away) and constant bytes before and after; `mie-compile --report=precision` prints it.
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "fp32, fp16, bf16 or mixed">,
    Option<"mixedType", "mixed-type", "std::string", /*default=*/"\"bf16\"",
           "The reduced type of `mixed`: bf16 (x86-64) or fp16 (aarch64)">,
    ListOption<"keepFp32", "keep-fp32", "std::string",
               "ONNX op types, ms op names or ONNX node names kept in f32">,
    ListOption<"forceReduced", "force-reduced", "std::string",
               "ONNX op types, ms op names or ONNX node names computed in the reduced type">,
    Option<"quantizeMethod", "quantize-method", "std::string", /*default=*/"\"\"",
           "dynamic_fp16: weights stored as f16, computed in f32">,
  ];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsAssignLayoutPass : Pass<"ms-assign-layout", "func::FuncOp"> {
  let summary = "Run depthwise-separable parts of the graph channels last (NHWC)";
  let description = [{
    Picks the activation layout of the graph. With `layout=nhwc` it looks for the connected parts
    of the graph (components) whose 4-D values flow only through ops that run as well or better
    channels last:
    - 1x1 stride-1 convolutions of one group, which become `ms.matmul` of the [N, H, W, C]
      activation by the [C, F] weight (plus the bias): a GEMM whose rows are pixels, so threads
      that split rows each own a contiguous block of every activation;
    - depthwise convolutions (`groups = C = F`), which get `channels_last`;
    - global average pooling, which becomes `ms.reduce_mean` over H and W;
    - elementwise ops, casts included, whose other operands are constants (transposed at compile
      time) or values of the same component.
    A component is converted when it has at least one such convolution and its layout changes are
    only where they cost nothing or belong: at graph inputs and outputs, after a convolution that
    stays NCHW (the stem of a MobileNet: its output is transposed once), and on values whose
    spatial dims are 1x1 ([N, C, 1, 1] and [N, 1, 1, C] are the same bytes: a reshape). Any other
    use of a component's value by an op that needs NCHW (a 3x3 convolution of a ResNet, a pooling
    window, a reshape of a feature map) leaves the component NCHW, so no transposes appear
    between kernels. `layout=nchw` changes nothing.
  }];
  let options = [
    Option<"layout", "layout", "std::string", /*default=*/"\"nhwc\"",
           "The layout to give eligible components: nhwc, or nchw (no change)">,
  ];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsFuseEpiloguesPass : Pass<"ms-fuse-epilogues", "func::FuncOp"> {
  let summary = "Group conv2d/gemm/matmul with their bias, residual, activation and clamp";
  let description = [{
    Starting at each `ms.conv2d`, `ms.gemm` (rank-1 `c` or none) and `ms.matmul` whose right operand
    is a matrix, follows the chain of single users and takes, in this order: a bias `ms.add` (a
    per-output-channel vector, when the anchor has no bias yet), a residual `ms.add` (an operand of
    the result's shape), one activation (relu, sigmoid, tanh, hard_sigmoid with alpha 1/6 and beta
    0.5, hard_swish, also as `x * hard_sigmoid(x)`, silu as `x * sigmoid(x)`, gelu in both forms)
    and a clamp (`ms.clip` with constant bounds; relu6 when they are 0 and 6). The anchor and the
    taken ops move into one `ms.fused` group, which lowers to one library kernel with that epilogue
    (a [1, C, 1, 1] bias is read through a 1-D view of its buffer).
  }];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsFuseElementwisePass : Pass<"ms-fuse-elementwise", "func::FuncOp"> {
  let summary = "Group chains of elementwise ops, and elementwise producers of a reduction";
  let description = [{
    Forms `ms.fused` groups that lower to one generated kernel. A group has a root: an elementwise op,
    or a reduction (`ms.reduce_sum/mean/max/min`) on floats. Producers join the group of a consumer
    when all of this holds (the legality rule):
    - the producer is elementwise and in the same block;
    - its result has the shape of the root's iteration space (the root's result for an elementwise
      root, the reduced input for a reduction), so nothing is recomputed per element: intermediate
      values are computed exactly once, and operands that broadcast stay group inputs;
    - every user of the producer is already in the group. Then only the root's value leaves the group,
      so no value is needed outside that is not computed there, a value with several consumers is
      computed once and used by all of them, and no cycle through outside ops can form.
    Groups of one op are left alone. Runs after ms-fuse-epilogues.

    A group holds at most `max-ops` ops: the root and the producers reached first from it. The rest
    of a longer chain forms the next groups, each of them legal by the same rule (a producer whose
    user sits in a full group is a root of its own). The body of a group becomes one basic block of
    straight-line code in one LLVM function, and LLVM's code generation takes time superlinear in
    the size of such a block (a chain of 1,000 sigmoids in one kernel: about 15 s, 5,000: minutes);
    capped, compile time grows linearly with the graph. Each split costs one round trip of the
    intermediate value through memory.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"64",
           "The most ops one fused group may hold (at least 2)">,
  ];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

def MsSpecializeDimsPass : Pass<"ms-specialize-dims", "func::FuncOp"> {
  let summary = "Give the symbolic dims of a function sizes: every type static";
  let description = [{
    A function whose import kept symbolic dims (`ms.symbols`, `ms.shape` on its arguments; see
    docs/dynamic-shapes.md) gets a size for each symbol: from `sizes` ("batch=8"), else
    `default-size` with a warning naming the symbol and the flag that sets it (0: an error). Every
    value's dims are evaluated over those sizes (ms::SymbolicShapes), so every type becomes
    static, an `ms.reshape`'s `symbolic_shape` becomes its static `shape`, and the function's
    symbol attributes go. A `?` that is no expression of the symbols, or evaluates below 0, is an
    error at the op that makes it. Functions without `ms.symbols` are left as they are.

    The pipeline runs it after the graph passes, which decide on the symbolic graph, and before
    the lowering to mie, which takes static shapes.
  }];
  let options = [
    ListOption<"sizes", "sizes", "std::string", "Sizes of symbols, as name=N">,
    Option<"defaultSize", "default-size", "int64_t", /*default=*/"1",
           "The size of a symbol `sizes` does not give (0: such a symbol is an error)">,
  ];
  let dependentDialects = ["::mlir::ms::MsDialect"];
}

#endif // MS_TRANSFORMS_PASSES_TD
