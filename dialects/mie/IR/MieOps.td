//===- MieOps.td - all mie ops --------------------------------------------===//

#ifndef MIE_OPS_TD
#define MIE_OPS_TD

include "dialects/mie/IR/MieBase.td"
include "dialects/mie/IR/MieAttrs.td"

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def Mie_AllocOp : Mie_Op<"alloc"> {
  let summary = "A kernel buffer that memory planning has not placed yet.";
  let description = [{
    Declares a buffer of a static shape with the identity layout, aligned to `alignment` bytes (a power
    of two, 64 by default). Memory planning replaces every `mie.alloc` by a `mie.view` of the arena;
    until then the op only allocates its result, so an unused one is dead code.

    A buffer of code compiled for symbolic dims (docs/dynamic-shapes.md) may have dynamic dims: one
    `index` operand per `?`, in order, gives its extent for the run.

    Example:
    ```mlir
    %b = mie.alloc : memref<1x64x56x56xf32>
    %c = mie.alloc {alignment = 128 : i64} : memref<1024xf16>
    %d = mie.alloc(%rows) : memref<?x768xf32>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicSizes, DefaultValuedAttr<I64Attr, "64">:$alignment);
  let results = (outs Res<AnyMemRef, "", [MemAlloc<DefaultResource, 0, FullEffect>]>:$memref);
  let assemblyFormat = "(`(` $dynamicSizes^ `)`)? attr-dict `:` type($memref)";
  let builders = [
    OpBuilder<(ins "MemRefType":$type), [{
      build($_builder, $_state, type, ValueRange{}, IntegerAttr());
    }]>,
    OpBuilder<(ins "MemRefType":$type, "IntegerAttr":$alignment), [{
      build($_builder, $_state, type, ValueRange{}, alignment);
    }]>,
  ];
  let hasVerifier = 1;
}

def Mie_SymbolOp : Mie_Op<"symbol", [Pure]> {
  let summary = "The run's value of one of the function's symbolic dims.";
  let description = [{
    Code compiled for symbolic dims (docs/dynamic-shapes.md) sizes its buffers and loops from the
    values a run gives the function's symbols (`ms.symbols`): this op is symbol `index`'s value.
    `mie-bind-symbols` replaces it by a load from the entry's `dims` argument, which the runtime
    fills from the bound input shapes.

    Example:
    ```mlir
    %seq = mie.symbol 1 : index
    ```
  }];
  let arguments = (ins I64Attr:$index);
  let results = (outs Index:$value);
  let assemblyFormat = "$index attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Mie_SymbolValuesOp : Mie_Op<"symbol_values", [Pure]> {
  let summary = "The run's values of all the function's symbolic dims, as a buffer.";
  let description = [{
    A kernel's body is isolated from above and reads no `mie.symbol`; one whose computation needs a
    symbol value that none of its buffers has as an extent (a Range starting at a KV cache's past
    length, a Slice starting there) takes this buffer as an input instead: element `i` (i64) is
    symbol `i`'s value. `mie-bind-symbols` replaces it by the entry's `dims` argument.

    Example:
    ```mlir
    %dims = mie.symbol_values : memref<2xi64>
    ```
  }];
  let results = (outs AnyMemRef:$values);
  let assemblyFormat = "attr-dict `:` type($values)";
  let hasVerifier = 1;
}

def Mie_ViewOp : Mie_Op<"view", [Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "A buffer placed at a static byte offset inside a 1-D i8 base buffer.";
  let description = [{
    Places a statically shaped buffer with the identity layout at byte `offset` of `base`, a 1-D static
    `i8` buffer (the arena, or the weights blob). The offset is a multiple of the result element size
    and, when `aligned` is present, of 64; the buffer lies entirely inside the base. A view of a view
    folds into one view of the root base.

    Example:
    ```mlir
    %b = mie.view %arena[1024] : memref<65536xi8> to memref<1x64xf32>
    %w = mie.view %weights[4096] {aligned} : memref<1048576xi8> to memref<64x64x3x3xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$base, I64Attr:$offset, UnitAttr:$aligned);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$base `[` $offset `]` attr-dict `:` type($base) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Library kernels
//===----------------------------------------------------------------------===//

def Mie_Conv2dOp : Mie_Op<"conv2d", [AttrSizedOperandSegments]> {
  let summary = "Library-backed 2-D convolution (NCHW) with a fused epilogue.";
  let description = [{
    Writes into `output` [N, F, OH, OW] the convolution of `input` [N, C, H, W] with `filter`
    [F, C / groups, KH, KW], then applies `epilogue`: adds `bias` [F] per output channel, adds
    `residual` (shaped like `output`), applies the activation and the clamp. `bias` is present exactly
    when the epilogue has `bias`, `residual` exactly when it has `residual`. `pads` is [top, left,
    bottom, right]; OH = (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1, likewise OW.
    All buffers are static and share one element type; `accumulator` names the type products are
    summed in (the element type when absent; f32 for f16/bf16 inputs).

    `ukernel` (set by `mie-select-kernels`, `#mie.ukernel`) is the microkernel family that runs
    the convolution: `conv_gemm` (the implicit GEMM), `conv_direct`, `conv_pixel_rows`,
    `winograd_2x2` / `winograd_4x4` (3x3, stride 1, groups 1) or `depthwise` (groups = C = F); none
    is the portable linalg lowering. When the filter was packed at compile time
    (`mie-pack-weights`), `filter_shape` keeps its logical [F, C / groups, KH, KW] shape and the
    filter buffer holds the family's panels (docs/kernels.md): conv_gemm and conv_direct the LHS
    panels [ceil(F / mr), C * KH * KW, mr] (the AMX tiling: K rounded up to 32); conv_pixel_rows
    the RHS panels [ceil(F / nr), C * KH * KW, nr], which its tiles store transposed into the NCHW
    output; Winograd G g G^T as panels [(m + 2)^2, ceil(F / mr), C, mr]. An NCHW depthwise kernel
    (strides of 1 or 2) reads the filter as it is.
    `channels_last` (from `ms.conv2d`'s, set by `ms-assign-layout`) makes `input` [N, H, W, C],
    `output` and `residual` [N, OH, OW, F] (NHWC); the filter keeps its logical shape. Such a
    convolution runs either the NHWC `depthwise` microkernel, whose filter `mie-pack-weights` packs
    into [KH * KW, C] (channels contiguous per tap; `filter_shape` keeps [C, 1, KH, KW]), or the
    generic linalg lowering.

    Example:
    ```mlir
    mie.conv2d ins(%x, %w : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
        bias(%b : memref<64xf32>) residual(%r : memref<1x64x56x56xf32>)
        outs(%y : memref<1x64x56x56xf32>)
        {pads = array<i64: 1, 1, 1, 1>, epilogue = #mie.epilogue<bias, residual, activation = relu>}
    ```
  }];
  let arguments = (ins Arg<Mie_FloatBuffer, "", [MemRead]>:$input,
                   Arg<Mie_FloatBuffer, "", [MemRead]>:$filter,
                   Arg<Optional<Mie_FloatBuffer>, "", [MemRead]>:$bias,
                   Arg<Optional<Mie_FloatBuffer>, "", [MemRead]>:$residual,
                   Arg<Mie_FloatBuffer, "", [MemWrite]>:$output,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups,
                   DefaultValuedAttr<Mie_EpilogueAttr, "{}">:$epilogue,
                   OptionalAttr<TypeAttr>:$accumulator,
                   OptionalAttr<Mie_UKernelAttr>:$ukernel,
                   OptionalAttr<DenseI64ArrayAttr>:$filter_shape,
                   UnitAttr:$channels_last);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    `outs` `(` $output `:` type($output) `)` attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tiling of the op's microkernel family; null without one or for an untiled family.
    ::mlir::mie::TilingAttr getTiling() { return ::mlir::mie::getTilingOf(getUkernel()); }
    /// Whether the op runs on the microkernel family `family`.
    bool runsUKernel(::mlir::mie::UKernelFamily family) {
      return getUkernel() && getUkernel()->getFamily() == family;
    }
  }];
}

def Mie_MaxPool2dOp : Mie_Op<"max_pool2d"> {
  let summary = "Library-backed 2-D max pooling (NCHW).";
  let description = [{
    Writes into `output` [N, C, OH, OW] the maximum of every `kernel` [KH, KW] window of `input`
    [N, C, H, W], windows `strides` apart with `dilations` between their taps. `pads` is [top,
    left, bottom, right]; padding never wins (it counts as -inf). OH is (H + top + bottom -
    dilation_h * (KH - 1) - 1) / stride_h + 1, rounded down or (ceil mode) up; likewise OW. Both
    buffers are static and share one float element type.

    `ukernel` (set by `mie-select-kernels` for f32 on a CPU target with microkernels, e.g.
    `#mie.ukernel<max_pool, "avx512">`) runs it on the pooling microkernel of that ISA; without it
    the op lowers to generated loops (`mie-lower-library-kernels`).

    Example:
    ```mlir
    mie.max_pool2d ins(%x : memref<1x64x112x112xf32>) outs(%y : memref<1x64x56x56xf32>)
        {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
    ```
  }];
  let arguments = (ins Arg<Mie_FloatBuffer, "", [MemRead]>:$input,
                   Arg<Mie_FloatBuffer, "", [MemWrite]>:$output,
                   DenseI64ArrayAttr:$kernel,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   OptionalAttr<Mie_UKernelAttr>:$ukernel);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $output `:` type($output) `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Mie_QConv2dOp : Mie_Op<"qconv2d"> {
  let summary = "uint8 x int8 2-D convolution (NCHW) requantized to uint8 (ms.qconv2d on buffers).";
  let description = [{
    Writes into `output` [N, F, OH, OW] (uint8) what `ms.qconv2d` defines: the exact int32 sums of
    `input` [N, C, H, W] (uint8, padded with `input_zero_point`) times `filter` (int8), plus `bias`
    [F] (int32), times `scale` [F] (f32), rounded half to even, clamped to [`output_min`,
    `output_max`] after adding `output_zero_point`. `mie-pack-weights` packs a constant filter
    [F, C, KH, KW] into the VNNI panels of `mie_uk_qu8_pack_conv_filter` (1-D, int8) and records its
    logical shape in `filter_shape`; `mie-lower-library-kernels` then runs it on the AVX512-VNNI
    microkernel `mie_uk_qu8_conv_nchw_vnni` (docs/kernels.md), which needs the packed filter.
    `input` and `output` hold uint8 values in i8 buffers, as every unsigned buffer does.

    Example:
    ```mlir
    mie.qconv2d ins(%x, %w, %b, %s : memref<1x64x56x56xi8>, memref<64x64x3x3xi8>, memref<64xi32>,
                                     memref<64xf32>)
        outs(%y : memref<1x64x56x56xi8>)
        {pads = array<i64: 1, 1, 1, 1>, input_zero_point = 128 : i64, output_zero_point = 0 : i64,
         output_min = 0 : i64, output_max = 255 : i64}
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[I8]>, "", [MemRead]>:$input,
                   Arg<MemRefOf<[I8]>, "", [MemRead]>:$filter,
                   Arg<MemRefOf<[I32]>, "", [MemRead]>:$bias,
                   Arg<MemRefOf<[F32]>, "", [MemRead]>:$scale,
                   Arg<MemRefOf<[I8]>, "", [MemWrite]>:$output,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   I64Attr:$input_zero_point, I64Attr:$output_zero_point,
                   I64Attr:$output_min, I64Attr:$output_max,
                   OptionalAttr<DenseI64ArrayAttr>:$filter_shape);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `,` $bias `,` $scale `:` type($input) `,` type($filter) `,`
    type($bias) `,` type($scale) `)` `outs` `(` $output `:` type($output) `)` attr-dict
  }];
  let extraClassDeclaration = [{
    /// The filter's logical [F, C, KH, KW] shape (packed or not).
    SmallVector<int64_t> getLogicalFilterShape() {
      if (auto shape = getFilterShape())
        return SmallVector<int64_t>(shape->begin(), shape->end());
      auto type = cast<MemRefType>(getFilter().getType());
      return SmallVector<int64_t>(type.getShape().begin(), type.getShape().end());
    }
  }];
}

def Mie_GemmOp : Mie_Op<"gemm", [AttrSizedOperandSegments]> {
  let summary = "Library-backed (batched) matrix multiply with a fused epilogue.";
  let description = [{
    Writes into `output` [M, N] the product `alpha * op(a) * op(b)`, where `op` transposes the operand
    when `trans_a` / `trans_b` is set (`a` is [M, K] or [K, M], `b` is [K, N] or [N, K]), then applies
    `epilogue`: adds `bias` [N] per column, adds `residual` (shaped like `output`), applies the
    activation and the clamp. With 3-D buffers every operand has the same leading batch dimension.
    `bias` is present exactly when the epilogue has `bias`, `residual` exactly when it has `residual`.
    All buffers are static and share one element type; `accumulator` names the type products are
    summed in (the element type when absent).

    With `trans_c` the output (and the residual) hold the product transposed, [N, M]; the bias
    still goes per product column, i.e. per output row. `mie-select-kernels` computes a 1x1
    convolution this way, pixels as rows: out[F, P] = (x^T[P, C] w^T[C, F])^T.

    `ukernel` (`#mie.ukernel<gemm, ...>`, set by `mie-select-kernels`) runs the product on the
    register tiles of its tiling. With `b_packed`
    (set by `mie-pack-weights`, 2-D only) `b` holds op(b) scaled by alpha as RHS panels
    [ceil(N / nr), K, nr] and alpha is 1 (docs/kernels.md). Without it (`b` an activation, 2-D or
    batched) each work item packs its blocks of both operands at run time; alpha is 1 then. With the
    `"amx"` tiling (bf16 buffers) the packed panels are [ceil(N / 32), K rounded up to 32, 32] in
    the AMX tile's VNNI order (k pairs side by side), zeros past N and K.

    Example:
    ```mlir
    mie.gemm ins(%x, %w : memref<8x512xf32>, memref<1000x512xf32>) bias(%b : memref<1000xf32>)
        outs(%y : memref<8x1000xf32>) {trans_b, epilogue = #mie.epilogue<bias>}
    ```
  }];
  let arguments = (ins Arg<Mie_FloatBuffer, "", [MemRead]>:$a,
                   Arg<Mie_FloatBuffer, "", [MemRead]>:$b,
                   Arg<Optional<Mie_FloatBuffer>, "", [MemRead]>:$bias,
                   Arg<Optional<Mie_FloatBuffer>, "", [MemRead]>:$residual,
                   Arg<Mie_FloatBuffer, "", [MemWrite]>:$output,
                   UnitAttr:$trans_a, UnitAttr:$trans_b,
                   DefaultValuedAttr<F64Attr, "1.0">:$alpha,
                   DefaultValuedAttr<Mie_EpilogueAttr, "{}">:$epilogue,
                   OptionalAttr<TypeAttr>:$accumulator,
                   OptionalAttr<Mie_UKernelAttr>:$ukernel,
                   UnitAttr:$b_packed,
                   UnitAttr:$trans_c);
  let assemblyFormat = [{
    `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    `outs` `(` $output `:` type($output) `)` attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tiling of the op's microkernel family; null without one or for an untiled family.
    ::mlir::mie::TilingAttr getTiling() { return ::mlir::mie::getTilingOf(getUkernel()); }
    /// Whether the op runs on the microkernel family `family`.
    bool runsUKernel(::mlir::mie::UKernelFamily family) {
      return getUkernel() && getUkernel()->getFamily() == family;
    }
  }];
}

def Mie_AttentionOp : Mie_Op<"attention"> {
  let summary = "Library-backed scaled-dot-product attention: softmax(scale · Q Kᵀ + mask) V.";
  let description = [{
    For every batch index (the leading dims, equal across all four buffers) and query row:
    scores = `scale` · Q Kᵀ (`query` [..., S, D], `key` [..., T, D]), plus `mask` when present
    (broadcast to [..., S, T] with numpy rules), a softmax over the T scores and the weighted sum of
    the rows of `value` [..., T, Dv], written to `output` [..., S, Dv]. All buffers are static and
    share one element type.

    `ukernel` (`#mie.ukernel<attention, isa>`, set by `mie-select-kernels`) runs it on the fused
    attention microkernel of that ISA
    (key tiles with an online softmax, the scores of a few query rows at a time in L1); without it
    the portable lowering keeps one row of scores on the stack. `query_rows` (set with it) is the
    number of query rows of one work item of the microkernel lowering (all of a head's rows when
    absent).

    With `token_major` the heads dim follows the sequence dim in every buffer, as the projections
    write them: `query` [..., S, H, D], `key` [..., T, H, D], `value` [..., T, H, Dv], `output`
    [..., S, H, Dv]; the batch dims above are then [..., H] and the mask still broadcasts to the
    scores [..., H, S, T]. The kernel reads and writes each head's rows with a stride of H rows.

    Grouped-query attention: `key` and `value` may have Hkv < H heads (the logical dim -3), Hkv
    dividing H; query head h reads key/value head h / (H / Hkv).

    With `causal` query row i sees only the keys j <= i + (T - S) (T >= S), besides any mask.

    Example:
    ```mlir
    mie.attention ins(%q, %k, %v : memref<12x128x64xf32>, memref<12x128x64xf32>,
        memref<12x128x64xf32>) mask(%m : memref<1x128xf32>) outs(%o : memref<12x128x64xf32>)
        {scale = 0.125 : f64}
    ```
  }];
  let arguments = (ins Arg<Mie_FloatBuffer, "", [MemRead]>:$query,
                   Arg<Mie_FloatBuffer, "", [MemRead]>:$key,
                   Arg<Mie_FloatBuffer, "", [MemRead]>:$value,
                   Arg<Optional<Mie_FloatBuffer>, "", [MemRead]>:$mask,
                   Arg<Mie_FloatBuffer, "", [MemWrite]>:$output,
                   F64Attr:$scale,
                   UnitAttr:$token_major,
                   OptionalAttr<Mie_UKernelAttr>:$ukernel,
                   UnitAttr:$causal,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$query_rows);
  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,` type($value) `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    `outs` `(` $output `:` type($output) `)` attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of operand or output `v` in the logical [..., H, S, D] order (token-major buffers
    /// hold [..., S, H, D]).
    ::llvm::SmallVector<int64_t> getLogicalShape(::mlir::Value v);
    /// The buffer dim holding logical dim `logical` of a buffer of rank `rank` (token-major
    /// buffers swap dims -3 and -2).
    int64_t getPhysicalDim(int64_t logical, int64_t rank);
    /// Query heads per key/value head: H / Hkv (1 without grouped-query attention).
    int64_t getHeadsPerKeyValueHead();
  }];
}

//===----------------------------------------------------------------------===//
// Generated kernels
//===----------------------------------------------------------------------===//

def Mie_KernelOp : Mie_Op<"kernel", [IsolatedFromAbove, AttrSizedOperandSegments, SingleBlock]> {
  let summary = "A generated kernel: one launch whose body computes on its buffer arguments.";
  let description = [{
    One kernel launch of generated code (fused elementwise or reduction work). The body is one block
    whose arguments stand for `ins` then `outs`, with exactly their types; it holds upstream ops
    (linalg, arith, math, scf, memref, vector) on those arguments and ends with `mie.yield`. The body
    is isolated from above: everything it reads or writes comes in through the arguments. `ins` are
    only read; `outs` may be read and written.

    Example:
    ```mlir
    mie.kernel "add_relu" ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%c : memref<64xf32>) {
    ^bb0(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>):
      linalg.add ins(%x, %y : memref<64xf32>, memref<64xf32>) outs(%z : memref<64xf32>)
      mie.yield
    }
    ```
  }];
  let arguments = (ins StrAttr:$name,
                   Arg<Variadic<AnyMemRef>, "", [MemRead]>:$inputs,
                   Arg<Variadic<AnyMemRef>, "", [MemRead, MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`ins` `(` $inputs^ `:` type($inputs) `)`)? (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    attr-dict-with-keyword $body
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    // Creates the body block with one argument per input and output, calls `bodyBuilder` (if any) at
    // its start with those arguments, and terminates it with mie.yield.
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::ValueRange":$inputs,
                   "::mlir::ValueRange":$outputs,
                   CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, "
                        "::mlir::ValueRange)>", "nullptr">:$bodyBuilder)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The block arguments standing for `ins` / `outs`.
    ::mlir::Block::BlockArgListType getInputArgs() {
      return getBodyBlock().getArguments().take_front(getInputs().size());
    }
    ::mlir::Block::BlockArgListType getOutputArgs() {
      return getBodyBlock().getArguments().drop_front(getInputs().size());
    }
  }];
  let hasVerifier = 1;
}

def Mie_YieldOp : Mie_Op<"yield", [Pure, Terminator, HasParent<"KernelOp">]> {
  let summary = "Ends the body of a mie.kernel.";
  let description = [{
    The terminator of a `mie.kernel` body. It has no operands: a kernel's results are the writes to its
    `outs` buffers.

    Example:
    ```mlir
    mie.yield
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // MIE_OPS_TD
