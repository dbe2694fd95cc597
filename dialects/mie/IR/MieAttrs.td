//===- MieAttrs.td - mie attributes: target and epilogue ------------------===//

#ifndef MIE_ATTRS_TD
#define MIE_ATTRS_TD

include "dialects/mie/IR/MieBase.td"

class Mie_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Mie_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Mie_TargetAttr : Mie_Attr<"Target", "target"> {
  let summary = "A hardware target: kind, architecture and optional feature string.";
  let description = [{
    Names the hardware code is generated for. For `cpu` the arch is an LLVM target CPU family
    (`"x86-64"` or `"aarch64"`) and `features` an LLVM feature string; for `cuda` the arch is an SM
    version `"sm_<N>"` with N >= 75 (the oldest ptxas 13 accepts) and `features` PTX features.

    Example:
    ```mlir
    #mie.target<cpu, "x86-64", features = "+avx2,+fma">
    #mie.target<cpu, "aarch64", features = "+neon">
    #mie.target<cuda, "sm_90">
    ```
  }];
  let parameters = (ins EnumParameter<Mie_TargetKind>:$kind, StringRefParameter<"architecture">:$arch,
                        StringRefParameter<"target feature string", [{""}]>:$features);
  let assemblyFormat = "`<` $kind `,` $arch (`,` `features` `=` $features^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// For a cuda target, the N of "sm_<N>"; std::nullopt for cpu targets or a malformed arch.
    std::optional<unsigned> getSmVersion() const;
  }];
}

def Mie_EpilogueAttr : Mie_Attr<"Epilogue", "epilogue"> {
  let summary = "What a library kernel applies after its main computation.";
  let description = [{
    The fused tail of a library kernel, applied in this order: `bias` (add a per-output-channel /
    per-column vector operand), `residual` (add an extra operand of the output's shape), `activation`,
    `clamp = [min, max]`. Every part is optional; `#mie.epilogue<>` is the identity. Parts are printed
    in that order and `activation = none` is elided.

    Example:
    ```mlir
    #mie.epilogue<bias, residual, activation = relu>
    #mie.epilogue<activation = relu6>
    #mie.epilogue<bias, clamp = [0.0, 6.0]>
    #mie.epilogue<>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"bool", "false", "adds a bias operand">:$bias,
                        DefaultValuedParameter<"bool", "false", "adds a residual operand">:$residual,
                        DefaultValuedParameter<"::mlir::mie::Activation",
                                               "::mlir::mie::Activation::none">:$activation,
                        OptionalParameter<"::mlir::FloatAttr", "lower clamp bound">:$clamp_min,
                        OptionalParameter<"::mlir::FloatAttr", "upper clamp bound">:$clamp_max);
  let builders = [
    AttrBuilder<(ins), [{
      return $_get($_ctxt, false, false, ::mlir::mie::Activation::none, nullptr, nullptr);
    }]>,
    AttrBuilder<(ins "bool":$bias, "bool":$residual, "::mlir::mie::Activation":$activation,
                     CArg<"std::optional<std::pair<double, double>>", "std::nullopt">:$clamp), [{
      ::mlir::FloatAttr lo, hi;
      if (clamp) {
        ::mlir::Type f64 = ::mlir::Float64Type::get($_ctxt);
        lo = ::mlir::FloatAttr::get(f64, clamp->first);
        hi = ::mlir::FloatAttr::get(f64, clamp->second);
      }
      return $_get($_ctxt, bias, residual, activation, lo, hi);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  // The identity is the default of every op's `epilogue`.
  let constBuilderCall = "$_builder.getAttr<::mlir::mie::EpilogueAttr>()";
  let extraClassDeclaration = [{
    /// True when the epilogue changes nothing (no bias, residual, activation or clamp).
    bool isIdentity() const;
    /// The [min, max] clamp bounds, if any.
    std::optional<std::pair<double, double>> getClamp() const;
  }];
}

def Mie_TilingAttr : Mie_Attr<"Tiling", "tiling"> {
  let summary = "How a library kernel runs on the microkernels: register tile and cache blocks.";
  let description = [{
    The tiling of a tiled `#mie.ukernel` family (printed inline there, after the ISA), chosen per
    op by `mie-select-kernels` from the target's microkernel tiles and cache sizes. The kernel
    computes its output as a GEMM (for an NCHW convolution: M = output channels, N = output
    pixels, K = input channels x kernel window) in `mr` x `nr` register tiles of the `isa`'s f32
    microkernel family, with K in blocks of `kc`, and splits the work over threads in blocks of `mc`
    rows by `nc` columns. `mc` is a multiple of `mr`, `nc` of `nr`.

    The `"amx"` tiling runs a bf16 product on the AMX tiles (`mie_uk_bf16_gemm_32x32_amx*`, targets
    with AMX-BF16): `mr = nr = 32`, and `kc` is all of K rounded up to 32 (the sums stay in the tile
    registers over the whole reduction, so a bf16 output is rounded once).

    The `"neon_f16"` tiling runs an f16 product summed in f32 on AArch64's f16 tiles
    (`mie_uk_f16_gemm_<mr>x<nr>_neon`): the NEON f32 tiles' shapes on f16 panels, `kc` all of K (a
    partial sum stored into the f16 output between K blocks would be rounded twice; the op verifiers
    check it), the epilogue on the f32 sums and one rounding at the store.

    The activation operand is packed into panels at run time. By default each work item packs the
    panels of its own block into a stack buffer, once per K block, and runs every tile that reads
    them. With `shared_panels` the whole activation operand is packed once into an arena buffer by a
    first parallel loop and the work items only compute: the choice for small activations (late
    convolution layers, GEMMs), where per-item packing would be repeated by every item.

    `few_rows_mr` (code for symbolic dims: a row product whose rows are known at run time only)
    names a second register tile of the same `nr` and no more FMAs per load than the first, which
    the kernel runs instead when the run's rows pad less onto it (7 rows on a 7-row tile, not one
    8-row tile with a row of zeros). The two tiles read the same packed weights; the row panels
    then come in `few_rows_mr` rows, in row blocks of `mc / mr` of them, in a buffer sized for the
    fewer padded rows.

    Example:
    ```mlir
    #mie.tiling<"avx512", mr = 8, nr = 48, kc = 256, mc = 64, nc = 192>
    #mie.tiling<"avx2", mr = 6, nr = 16, kc = 512, mc = 36, nc = 64, shared_panels = true>
    #mie.tiling<"amx", mr = 32, nr = 32, kc = 768, mc = 128, nc = 768, shared_panels = true>
    #mie.tiling<"neon_f16", mr = 8, nr = 12, kc = 576, mc = 64, nc = 108>
    #mie.tiling<"avx512", mr = 8, nr = 48, kc = 768, mc = 152, nc = 192, shared_panels = true, few_rows_mr = 7>
    ```
  }];
  let parameters = (ins StringRefParameter<"microkernel ISA">:$isa, "int64_t":$mr, "int64_t":$nr,
                        "int64_t":$kc, "int64_t":$mc, "int64_t":$nc,
                        DefaultValuedParameter<"bool", "false">:$shared_panels,
                        DefaultValuedParameter<"int64_t", "0">:$few_rows_mr);
  let assemblyFormat = [{
    `<` $isa `,` struct($mr, $nr, $kc, $mc, $nc, $shared_panels, $few_rows_mr) `>`
  }];
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$isa, "int64_t":$mr, "int64_t":$nr, "int64_t":$kc,
                     "int64_t":$mc, "int64_t":$nc, CArg<"bool", "false">:$shared_panels), [{
      return $_get($_ctxt, isa, mr, nr, kc, mc, nc, shared_panels, /*few_rows_mr=*/0);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The symbol of the register-tile microkernel, e.g. "mie_uk_f32_gemm_8x48_avx512".
    std::string getTileSymbol() const;
    /// The tiling of runs on the `few_rows_mr` tile (row blocks of as many panels); null without one.
    TilingAttr getFewRowsTiling() const;
  }];
}

def Mie_UKernelAttr : Mie_Attr<"UKernel", "ukernel"> {
  let summary = "The kernel choice of a library op: its microkernel family, ISA and tiling.";
  let description = [{
    Set by `mie-select-kernels` on the library ops it runs on microkernels (none: the portable
    lowering); `mie-pack-weights` packs constant operands for it and `mie-lower-library-kernels`
    looks up the lowering of its family. The families:
    - `gemm` (`mie.gemm`): the row product on the register tiles of the tiling;
    - `conv_gemm`: the NCHW implicit GEMM, filters the LHS panels, pixels packed at run time (with
      the `"amx"` tiling: the bf16 product on the AMX tiles);
    - `conv_direct`: a convolution with a short reduction (K = C * KH * KW <= 256, stride 1 or 2
      along W) whose tiles read the input rows in place from a padded copy; its work items are
      bands of output rows, `nc` pixels each (whole rows of whole nr-pixel tiles);
    - `conv_pixel_rows`: the transposed implicit GEMM out^T[P, F] = im2col^T[P, K] w^T[K, F]
      (pixels the broadcast rows, filters the vector lanes) for maps whose few pixels fill the
      vector lanes poorly; the filter is packed as RHS panels and the tiles store transposed;
    - `winograd_2x2`, `winograd_4x4`: a 3x3 stride-1 convolution by Winograd F(m x m, 3x3) as
      (m + 2)^2 GEMMs (16 or 36) over the m x m output tiles;
    - `depthwise`: the depthwise microkernel of the op's layout and element type (NCHW: strides of
      1 or 2; NHWC: a filter packed into [KH * KW, C]);
    - `max_pool`, `attention`: the f32 pooling and fused attention kernels.
    The tiled families (gemm, conv_*, winograd_*) carry the register tile and cache blocks of
    `#mie.tiling` after the ISA; the others only the ISA. The verifier checks the choice against
    the microkernel registry (runtime/include/mie/mie_ukernels.def): the ISA has the family's
    kernels; `mie-lower-library-kernels` checks that the register tile is one of them.

    Example:
    ```mlir
    #mie.ukernel<conv_gemm, "avx512", mr = 8, nr = 48, kc = 256, mc = 64, nc = 192>
    #mie.ukernel<gemm, "amx", mr = 32, nr = 32, kc = 768, mc = 128, nc = 768, shared_panels = true>
    #mie.ukernel<winograd_4x4, "avx2", mr = 6, nr = 16, kc = 512, mc = 36, nc = 64>
    #mie.ukernel<depthwise, "avx2">
    ```
  }];
  let parameters = (ins EnumParameter<Mie_UKernelFamily>:$family,
                        StringRefParameter<"microkernel ISA">:$isa,
                        OptionalParameter<"::mlir::mie::TilingAttr", "tiles and blocks">:$tiling);
  let builders = [
    AttrBuilder<(ins "::mlir::mie::UKernelFamily":$family, "::mlir::mie::TilingAttr":$tiling), [{
      return $_get($_ctxt, family, tiling.getIsa(), tiling);
    }]>,
    AttrBuilder<(ins "::mlir::mie::UKernelFamily":$family, "::llvm::StringRef":$isa), [{
      return $_get($_ctxt, family, isa, ::mlir::mie::TilingAttr());
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `family` runs on the register tiles and so needs a tiling.
    static bool isTiledFamily(::mlir::mie::UKernelFamily family);
    /// The m of F(m x m, 3x3) of a Winograd family; 0 for the others.
    int64_t getWinogradTile() const;
    /// Whether the product runs on the AMX tiles (the "amx" tiling).
    bool isAmx() const { return getIsa() == "amx"; }
    /// The symbol of the family's register-tile microkernel (e.g. "mie_uk_f32_gemm_8x48_avx512",
    /// "mie_uk_f32_conv_direct_nchw_4x24_avx2"); empty for the untiled families.
    std::string getTileSymbol() const;
  }];
}

#endif // MIE_ATTRS_TD
