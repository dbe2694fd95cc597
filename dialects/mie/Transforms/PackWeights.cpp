//===- PackWeights.cpp - the mie-pack-weights pass ------------------------===//
//
// Compile-time packing of constant weights into the panel layouts of
// runtime/include/mie/mie_ukernel_abi.h (docs/kernels.md). The packed panels replace the weights in
// the package, so the layout costs no memory and no run time.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Transforms/WidenOperands.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

#include <cstring>

namespace mlir::mie {
#define GEN_PASS_DEF_MIEPACKWEIGHTSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Rounds to bf16, to nearest even (what the AMX packing kernels do at run time); NaN stays NaN.
uint16_t floatToBf16(float x) {
  uint32_t u = llvm::bit_cast<uint32_t>(x);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((u >> 16) | 0x40);
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/// Rounds to f16, to nearest even (overflow to infinity, NaN stays NaN).
uint16_t floatToF16(float x) {
  APFloat v(x);
  bool lost;
  v.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
  return uint16_t(v.bitcastToAPInt().getZExtValue());
}

struct Packer {
  ModuleOp module;
  SymbolTable symbols;
  llvm::StringMap<memref::GlobalOp> cache;

  explicit Packer(ModuleOp module) : module(module), symbols(module) {}

  /// The packed constant global `key` of `shape`: on first use, `fill` writes it from the f32
  /// values of `global` (read only then, so weights shared by several ops are read and packed
  /// once); failure when they cannot be read.
  /// The packed global holds f32, or with `half` (bf16 or f16) the packed values rounded to it
  /// (to nearest even; f16 weights of an f16 product are already f16 values, so theirs is exact).
  FailureOr<memref::GlobalOp>
  packOnce(memref::GlobalOp global, StringRef key, ArrayRef<int64_t> shape,
           function_ref<void(ArrayRef<float> w, MutableArrayRef<float> packed)> fill,
           FloatType half = {}) {
    if (auto it = cache.find(key); it != cache.end())
      return it->second;
    FailureOr<std::vector<float>> w = readGlobalAsF32(global);
    if (failed(w))
      return failure();
    std::vector<float> packed(ShapedType::getNumElements(shape), 0.0f);
    fill(*w, packed);
    std::vector<uint16_t> halves;
    if (half && half.isBF16())
      llvm::transform(packed, std::back_inserter(halves), floatToBf16);
    else if (half)
      llvm::transform(packed, std::back_inserter(halves), floatToF16);
    MLIRContext *ctx = module.getContext();
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Type et = half ? Type(half) : Type(Float32Type::get(ctx));
    auto memrefType = MemRefType::get(shape, et);
    auto tensorType = RankedTensorType::get(shape, et);
    ArrayRef<char> bytes =
        half ? ArrayRef<char>(reinterpret_cast<const char *>(halves.data()),
                              halves.size() * sizeof(uint16_t))
             : ArrayRef<char>(reinterpret_cast<const char *>(packed.data()),
                              packed.size() * sizeof(float));
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        bytes, alignof(float), /*dataIsMutable=*/false);
    auto init = DenseResourceElementsAttr::get(tensorType, key, std::move(blob));
    auto out = memref::GlobalOp::create(b, global.getLoc(), key, b.getStringAttr("private"),
                                        memrefType, init, /*constant=*/true, /*alignment=*/nullptr);
    symbols.insert(out);
    return cache[key] = out;
  }

  /// Replaces operand `operand` of `op` by a get_global of `global`.
  static void use(Operation *op, OpOperand &operand, memref::GlobalOp global) {
    OpBuilder b(op);
    Value packed =
        memref::GetGlobalOp::create(b, op->getLoc(), global.getType(), global.getSymName());
    operand.set(packed);
  }

  memref::GlobalOp globalOf(Value v) {
    // A collapsed view has the global's bytes in the global's order (a 1x1 filter [F, C, 1, 1]
    // seen as [F, C] by the GEMM that computes the convolution).
    if (auto collapse = v.getDefiningOp<memref::CollapseShapeOp>())
      v = collapse.getSrc();
    auto get = v.getDefiningOp<memref::GetGlobalOp>();
    return get ? symbols.lookup<memref::GlobalOp>(get.getName()) : memref::GlobalOp();
  }

  /// A channels-last depthwise filter [C, 1, KH, KW] -> [KH * KW, C] (the NHWC depthwise
  /// kernel loads a tap's weights for a vector of channels in one load), in the filter's type.
  LogicalResult packChannelsLastDepthwise(Conv2dOp conv) {
    memref::GlobalOp global = globalOf(conv.getFilter());
    auto type = cast<MemRefType>(conv.getFilter().getType());
    ArrayRef<int64_t> shape = type.getShape();
    if (!global)
      return conv.emitOpError("needs a constant filter for the channels_last depthwise ukernel");
    const int64_t c = shape[0], taps = shape[2] * shape[3];
    const FloatType bf16 =
        type.getElementType().isBF16() ? cast<FloatType>(type.getElementType()) : FloatType();
    std::string key = (global.getSymName() + "_nhwc").str();
    FailureOr<memref::GlobalOp> out =
        packOnce(global, key, {taps, c},
                 [&](ArrayRef<float> w, MutableArrayRef<float> packed) {
                   for (int64_t ch = 0; ch < c; ++ch)
                     for (int64_t tap = 0; tap < taps; ++tap)
                       packed[tap * c + ch] = w[ch * taps + tap];
                 },
                 bf16);
    if (failed(out))
      return conv.emitOpError("cannot read its filter to pack it");
    use(conv, conv.getFilterMutable(), *out);
    conv.setFilterShapeAttr(DenseI64ArrayAttr::get(conv.getContext(), shape));
    return success();
  }

  /// Filter [F, C, KH, KW] -> LHS panels [ceil(F / mr)][C * KH * KW][mr] (conv_pixel_rows: RHS
  /// panels [ceil(F / nr)][C * KH * KW][nr] of w^T; the "amx" tiling: bf16 A panels), or for
  /// winograd_mxm U = G g G^T per (f, c) as LHS panels [(m + 2)^2][ceil(F / mr)][C][mr]: one
  /// GEMM's panels per Winograd F(m x m, 3x3) element xi = (m + 2) i + j.
  LogicalResult packConv(Conv2dOp conv) {
    memref::GlobalOp global = globalOf(conv.getFilter());
    ArrayRef<int64_t> shape = cast<MemRefType>(conv.getFilter().getType()).getShape();
    int64_t f = shape[0], c = shape[1], k = shape[1] * shape[2] * shape[3];
    TilingAttr tiling = conv.getTiling();
    int64_t mr = tiling.getMr(), panels = llvm::divideCeil(f, mr);
    FailureOr<memref::GlobalOp> out = failure();
    if (!global) {
    } else if (int64_t tile = conv.getUkernel()->getWinogradTile()) {
      // G of F(2x2, 3x3) (points 0, +-1) and of F(4x4, 3x3) (points 0, +-1, +-2; Lavin & Gray).
      static const double kG2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
      static const double kG4[6][3] = {{0.25, 0, 0},
                                       {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                       {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                       {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                       {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                       {0, 0, 1}};
      const int alpha = int(tile) + 2;
      auto G = [&](int i, int a) { return alpha == 4 ? kG2[i][a] : kG4[i][a]; };
      std::string key = (global.getSymName() + "_winograd" + Twine(tile) + "_" + Twine(mr)).str();
      out = packOnce(global, key, {alpha * alpha, panels, c, mr},
                     [&](ArrayRef<float> w, MutableArrayRef<float> packed) {
                       for (int64_t row = 0; row < f; ++row)
                         for (int64_t ch = 0; ch < c; ++ch) {
                           const float *g = &w[(row * c + ch) * 9];
                           for (int i = 0; i < alpha; ++i)
                             for (int j = 0; j < alpha; ++j) {
                               double u = 0;
                               for (int a = 0; a < 3; ++a)
                                 for (int b = 0; b < 3; ++b)
                                   u += G(i, a) * g[a * 3 + b] * G(j, b);
                               packed[(((i * alpha + j) * panels + row / mr) * c + ch) * mr +
                                      row % mr] = float(u);
                             }
                         }
                     });
    } else if (conv.runsUKernel(UKernelFamily::conv_pixel_rows)) {
      // The filters are the columns of the transposed product: w^T [K, F], the filter [F, K] read
      // as a transposed B (the panels a pointwise pixel-rows GEMM of the same weights reads).
      out = packColumnPanels(global, f, k, tiling.getNr(), /*transposed=*/true, 1.0);
    } else if (tiling.getIsa() == "amx") {
      // The AMX tiles' A panels [ceil(F / 32)][K32 / 32][32][32] in bf16: per 32-k block, the
      // panel's 32 filters as rows of 32 consecutive k (mie_ukernels.h), zeros past F and K.
      const int64_t kp = llvm::alignTo(k, mr);
      std::string key = (global.getSymName() + "_amxa").str();
      out = packOnce(
          global, key, {panels, kp, mr},
          [&](ArrayRef<float> w, MutableArrayRef<float> packed) {
            for (int64_t row = 0; row < f; ++row)
              for (int64_t kk = 0; kk < k; ++kk)
                packed[(row / mr) * kp * mr + (kk / mr) * mr * mr + (row % mr) * mr + kk % mr] =
                    w[row * k + kk];
          },
          BFloat16Type::get(conv.getContext()));
    } else {
      // The same layout in f16 for the f16 tiles ("neon_f16"), else f32.
      const bool f16 = tiling.getIsa() == "neon_f16";
      std::string key = (global.getSymName() + "_lhs" + Twine(mr) + (f16 ? "_f16" : "")).str();
      out = packOnce(
          global, key, {panels, k, mr},
          [&](ArrayRef<float> w, MutableArrayRef<float> packed) {
            for (int64_t row = 0; row < f; ++row)
              for (int64_t kk = 0; kk < k; ++kk)
                packed[((row / mr) * k + kk) * mr + row % mr] = w[row * k + kk];
          },
          f16 ? FloatType(Float16Type::get(conv.getContext())) : FloatType());
    }
    if (failed(out)) {
      conv.removeUkernelAttr();
      conv->setAttr(MieDialect::getPortableAttrName(),
                    StringAttr::get(conv.getContext(),
                                    "convolution: its filter is not a constant "
                                    "the microkernel panels can be packed from"));
      return success();
    }
    conv.setFilterShape(shape);
    use(conv, conv.getFilterMutable(), *out);
    return success();
  }

  /// op(b) * alpha, b [K, N] (or [N, K] `transposed`) -> RHS panels [ceil(N / nr)][K][nr], keyed
  /// so that every op reading the same weights with the same nr, transposition and alpha shares
  /// them.
  /// With `half` (the f16 tiles' panels), the panels hold that type.
  FailureOr<memref::GlobalOp> packColumnPanels(memref::GlobalOp global, int64_t n, int64_t k,
                                               int64_t nr, bool transposed, double alpha,
                                               FloatType half = {}) {
    std::string key = (global.getSymName() + "_rhs" + Twine(nr) + (transposed ? "t" : "") +
                       (alpha != 1.0 ? "_a" + Twine(llvm::bit_cast<uint64_t>(alpha)) : Twine("")) +
                       (half ? "_f16" : ""))
                          .str();
    return packOnce(global, key, {(int64_t)llvm::divideCeil(n, nr), k, nr},
                    [&](ArrayRef<float> w, MutableArrayRef<float> packed) {
                      for (int64_t kk = 0; kk < k; ++kk)
                        for (int64_t col = 0; col < n; ++col) {
                          float v = transposed ? w[col * k + kk] : w[kk * n + col];
                          packed[((col / nr) * k + kk) * nr + col % nr] = float(v * alpha);
                        }
                    },
                    half);
  }

  /// op(b) * alpha in bf16, b [K, N] (or [N, K] `transposed`) -> the AMX tile's B panels
  /// [ceil(N / 32)][K rounded up to 32][32]: per 32-k block, columns 0-15 then 16-31, each as 16
  /// pairs of k side by side (mie_ukernels.h), zeros past N and K.
  FailureOr<memref::GlobalOp> packAmxColumnPanels(memref::GlobalOp global, int64_t n, int64_t k,
                                                  bool transposed, double alpha) {
    const int64_t t = MIE_UK_BF16_AMX_TILE, kp = llvm::alignTo(k, t);
    std::string key = (global.getSymName() + "_amx" + (transposed ? "t" : "") +
                       (alpha != 1.0 ? "_a" + Twine(llvm::bit_cast<uint64_t>(alpha)) : Twine("")))
                          .str();
    return packOnce(
        global, key, {(int64_t)llvm::divideCeil(n, t), kp, t},
        [&](ArrayRef<float> w, MutableArrayRef<float> packed) {
          for (int64_t kk = 0; kk < k; ++kk)
            for (int64_t col = 0; col < n; ++col) {
              float v = transposed ? w[col * k + kk] : w[kk * n + col];
              const int64_t panel = col / t, j = col % t, blk = kk / t, p = (kk % t) / 2;
              packed[panel * kp * t + blk * t * t + (j / 16) * 512 + p * 32 + (j % 16) * 2 +
                     kk % 2] = float(v * alpha);
            }
        },
        BFloat16Type::get(global.getContext()));
  }

  /// The int8 filter [F, C, KH, KW] of a qconv2d -> the VNNI panels of mie_uk_qu8_pack_conv_filter
  /// (1-D int8), shared by every op reading the same weights.
  LogicalResult packQConv(QConv2dOp conv) {
    memref::GlobalOp global = globalOf(conv.getFilter());
    auto type = cast<MemRefType>(conv.getFilter().getType());
    if (!global || !global.getConstant())
      return conv.emitOpError("expects a constant filter (the integer kernel reads packed weights)");
    const int64_t f = type.getDimSize(0), k = type.getNumElements() / f;
    std::vector<int8_t> w(type.getNumElements());
    Attribute init = global.getInitialValueAttr();
    if (auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(init)) {
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      if (!blob || blob->getData().size() != w.size())
        return conv.emitOpError("cannot read the filter's blob");
      std::memcpy(w.data(), blob->getData().data(), w.size());
    } else if (auto dense = dyn_cast_if_present<DenseIntElementsAttr>(init)) {
      llvm::transform(dense.getValues<APInt>(), w.begin(),
                      [](const APInt &v) { return int8_t(v.getSExtValue()); });
    } else {
      return conv.emitOpError("cannot read the filter's values");
    }
    std::string key = (global.getSymName() + "_vnni" + Twine(MIE_UK_QU8_MR)).str();
    memref::GlobalOp out;
    if (auto it = cache.find(key); it != cache.end()) {
      out = it->second;
    } else {
      std::vector<int8_t> packed(mie_uk_qu8_packed_filter_bytes(f, k));
      SmallVector<int64_t> shape = conv.getLogicalFilterShape();
      mie_uk_qu8_pack_conv_filter(w.data(), f, shape[1], shape[2], shape[3], packed.data());
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      Type i8 = b.getIntegerType(8);
      const int64_t size = packed.size();
      AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
          ArrayRef<char>(reinterpret_cast<const char *>(packed.data()), packed.size()), 64,
          /*dataIsMutable=*/false);
      auto initAttr =
          DenseResourceElementsAttr::get(RankedTensorType::get({size}, i8), key, std::move(blob));
      out = memref::GlobalOp::create(b, global.getLoc(), key, b.getStringAttr("private"),
                                     MemRefType::get({size}, i8), initAttr, /*constant=*/true,
                                     b.getI64IntegerAttr(64));
      symbols.insert(out);
      cache[key] = out;
    }
    conv.setFilterShape(type.getShape());
    use(conv, conv.getFilterMutable(), out);
    return success();
  }

  /// op(b) * alpha, [K, N] -> RHS panels [ceil(N / nr)][K][nr] (the AMX tiling's own panels).
  LogicalResult packGemm(GemmOp gemm) {
    memref::GlobalOp global = globalOf(gemm.getB());
    ArrayRef<int64_t> shape = cast<MemRefType>(gemm.getB().getType()).getShape();
    bool tb = gemm.getTransB();
    int64_t k = tb ? shape[1] : shape[0], n = tb ? shape[0] : shape[1];
    double alpha = gemm.getAlpha().convertToDouble();
    FailureOr<memref::GlobalOp> out = failure();
    TilingAttr tiling = gemm.getTiling();
    if (global && tiling.getIsa() == "amx")
      out = packAmxColumnPanels(global, n, k, tb, alpha);
    else if (global && tiling.getIsa() == "neon_f16")
      out = packColumnPanels(global, n, k, tiling.getNr(), tb, alpha,
                             Float16Type::get(gemm.getContext()));
    else if (global)
      out = packColumnPanels(global, n, k, tiling.getNr(), tb, alpha);
    if (failed(out)) {
      gemm.removeUkernelAttr();
      gemm->setAttr(MieDialect::getPortableAttrName(),
                    StringAttr::get(gemm.getContext(), "product: its b is not a constant the "
                                                       "microkernel panels can be packed from"));
      return success();
    }
    gemm.setBPacked(true);
    gemm.setTransB(false);
    gemm.setAlpha(APFloat(1.0));
    use(gemm, gemm.getBMutable(), *out);
    return success();
  }
};

struct MiePackWeightsPass : impl::MiePackWeightsPassBase<MiePackWeightsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Packer packer(module);
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (auto conv = dyn_cast<Conv2dOp>(op); conv && conv.getTiling() && !conv.getFilterShape())
        ops.push_back(op);
      if (auto conv = dyn_cast<Conv2dOp>(op); conv && conv.getChannelsLast() &&
                                              conv.runsUKernel(UKernelFamily::depthwise) &&
                                              !conv.getFilterShape())
        ops.push_back(op);
      if (auto qconv = dyn_cast<QConv2dOp>(op); qconv && !qconv.getFilterShape())
        ops.push_back(op);
      // A GEMM whose b is an activation (or batched) keeps its tiling unpacked: its kernel packs
      // both operands at run time.
      if (auto gemm = dyn_cast<GemmOp>(op); gemm && gemm.getTiling() && !gemm.getBPacked() &&
                                            cast<MemRefType>(gemm.getB().getType()).getRank() == 2 &&
                                            packer.globalOf(gemm.getB()))
        ops.push_back(op);
    });
    SmallVector<memref::GetGlobalOp> oldReads;
    SmallVector<memref::CollapseShapeOp> oldViews;
    for (Operation *op : ops) {
      Value weights = isa<Conv2dOp>(op)    ? cast<Conv2dOp>(op).getFilter()
                      : isa<QConv2dOp>(op) ? cast<QConv2dOp>(op).getFilter()
                                           : cast<GemmOp>(op).getB();
      if (auto view = weights.getDefiningOp<memref::CollapseShapeOp>()) {
        oldViews.push_back(view);
        weights = view.getSrc();
      }
      if (auto get = weights.getDefiningOp<memref::GetGlobalOp>())
        oldReads.push_back(get);
      auto conv = dyn_cast<Conv2dOp>(op);
      LogicalResult result = conv && conv.getChannelsLast() ? packer.packChannelsLastDepthwise(conv)
                             : conv                         ? packer.packConv(conv)
                             : isa<QConv2dOp>(op) ? packer.packQConv(cast<QConv2dOp>(op))
                                                  : packer.packGemm(cast<GemmOp>(op));
      if (failed(result))
        return signalPassFailure();
    }
    // Unpacked weights nobody reads any more leave the package (through the views of them).
    llvm::SmallPtrSet<Operation *, 16> erased;
    for (memref::CollapseShapeOp view : oldViews) {
      if (erased.contains(view) || !view->use_empty())
        continue;
      erased.insert(view);
      view.erase();
    }
    for (memref::GetGlobalOp get : oldReads) {
      if (erased.contains(get) || !get->use_empty())
        continue;
      StringRef name = get.getName();
      erased.insert(get);
      get.erase();
      auto global = packer.symbols.lookup<memref::GlobalOp>(name);
      if (global && SymbolTable::symbolKnownUseEmpty(global, module))
        packer.symbols.erase(global);
    }
  }
};

} // namespace
} // namespace mlir::mie
