//===- MsToMieTensor.cpp - constants and data movement -> mie -------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

/// Splat constants of at least this many bytes are filled at run time instead of stored.
constexpr int64_t kMinFilledSplatBytes = int64_t(16) << 20;

/// ms.constant -> a private constant memref.global (the weight packer later moves its bytes into
/// the package's weights blob) read through memref.get_global. A large splat (a ConstantOfShape
/// mask, say) becomes a buffer and a `fill` kernel instead: its bytes, one value repeated, would
/// otherwise be written out one by one into the package (up to --max-tensor-bytes of them), where
/// a fill costs one pass over the buffer per run.
struct ConstantToGlobal : OpConversionPattern<ms::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    MemRefType type = bufferTypeFor(op.getType());
    // Unsigned data keeps its bytes in a signless buffer.
    Attribute value = op.getValue();
    if (isUnsignedType(op.getType())) {
      auto signless = cast<ShapedType>(signlessType(op.getType()));
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(signless.getElementType());
      else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
        value = DenseResourceElementsAttr::get(signless, resource.getRawHandle());
    }
    auto splat = dyn_cast<SplatElementsAttr>(value);
    if (splat && type.getRank() > 0 &&
        type.getNumElements() * llvm::divideCeil(type.getElementTypeBitWidth(), 8) >=
            kMinFilledSplatBytes) {
      Value out = allocBuffer(rewriter, op.getLoc(), op.getType());
      auto value = cast<TypedAttr>(splat.getSplatValue<Attribute>());
      KernelOp::create(rewriter, op.getLoc(), "fill", ValueRange(), out,
                       [&](OpBuilder &kb, Location kl, ValueRange args) {
                         Value scalar = arith::ConstantOp::create(kb, kl, value);
                         linalg::FillOp::create(kb, kl, scalar, args[0]);
                       });
      rewriter.replaceOp(op, out);
      return success();
    }
    std::string name = "__constant";
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
      name += "_" + resource.getRawHandle().getKey().str();
    // Built detached, then inserted through the symbol table, which renames on a clash.
    OpBuilder detached(rewriter.getContext());
    auto global = memref::GlobalOp::create(
        detached, op.getLoc(), name, rewriter.getStringAttr("private"), type,
        value, /*constant=*/true, rewriter.getI64IntegerAttr(64));
    SymbolTable(module).insert(global, module.getBody()->begin());
    rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(op, type, global.getSymName());
    return success();
  }
};

/// `input` seen with the shape `outType` (same elements, row-major): collapse to 1-D, expand to
/// the new shape, no kernel and no copy (memory planning keeps the source alive while the view is
/// used). Null for scalars (rank 0), which have no such view.
Value reshapeView(ConversionPatternRewriter &rewriter, Location loc, Value input,
                  MemRefType outType, Operation *op = nullptr) {
  if (cast<MemRefType>(input.getType()).getRank() == 0 || outType.getRank() == 0)
    return {};
  Value flat = collapseToVector(rewriter, loc, input);
  if (outType.getRank() == 1)
    return flat;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t i = 0; i < outType.getRank(); ++i)
    all[0].push_back(i);
  if (outType.hasStaticShape())
    return memref::ExpandShapeOp::create(rewriter, loc, outType, flat, all);
  // Symbolic dims: the extents the run gives them (the op's recorded expressions).
  if (!op)
    return {};
  return memref::ExpandShapeOp::create(rewriter, loc, outType, flat, all,
                                       resultSizes(rewriter, loc, op));
}

/// Reshape-like ops on buffers of identity layout are views; scalars keep a one-element copy.
template <typename OpTy>
struct ReshapeToView : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (Value view = reshapeView(rewriter, op.getLoc(), adaptor.getInput(),
                                 bufferTypeFor(op.getType()), op.getOperation())) {
      rewriter.replaceOp(op, view);
      return success();
    }
    Value out = allocResult(rewriter, op.getLoc(), op.getOperation());
    buildCopyKernel(rewriter, op.getLoc(), OpTy::getOperationName().drop_front(3),
                    adaptor.getInput(), out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// ms.transpose -> one generic whose input map permutes the iteration dims.
struct TransposeToKernel : OpConversionPattern<ms::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::TransposeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> perms = op.getPerms();
    int64_t rank = perms.size();
    // Moving only size-1 dims keeps the row-major order of the elements: a view.
    ArrayRef<int64_t> inShape = op.getInput().getType().getShape();
    SmallVector<int64_t> moved;
    for (int64_t p : perms)
      if (inShape[p] != 1)
        moved.push_back(p);
    if (llvm::is_sorted(moved)) {
      if (Value view = reshapeView(rewriter, loc, adaptor.getInput(), bufferTypeFor(op.getType()),
                                   op.getOperation())) {
        rewriter.replaceOp(op, view);
        return success();
      }
    }
    Value out = allocResult(rewriter, loc, op.getOperation());
    KernelOp::create(rewriter, loc, "transpose", adaptor.getInput(), out,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       MLIRContext *ctx = b.getContext();
                       // out[i] = in[j] with j[perms[d]] = i[d].
                       SmallVector<AffineExpr> inExprs(rank);
                       for (int64_t d = 0; d < rank; ++d)
                         inExprs[perms[d]] = getAffineDimExpr(d, ctx);
                       SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, inExprs, ctx),
                                                      AffineMap::getMultiDimIdentityMap(rank, ctx)};
                       SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
                       linalg::GenericOp::create(b, l, args[0], args[1], maps, iters,
                                                 [](OpBuilder &gb, Location gl, ValueRange e) {
                                                   linalg::YieldOp::create(gb, gl, e[0]);
                                                 });
                     });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// Code for symbolic dims: the concat kernel over buffers of run-time dims (a KV cache's past and
/// new positions): each input's slot starts where the inputs before it end along the axis, read
/// from their extents at run time; an input empty at run time copies nothing.
void buildRunTimeConcat(OpBuilder &rewriter, Location loc, ValueRange inputs, Value out,
                        int64_t axis) {
  KernelOp::create(
      rewriter, loc, "concat", inputs, out, [&](OpBuilder &b, Location l, ValueRange args) {
        int64_t rank = cast<MemRefType>(out.getType()).getRank();
        OpFoldResult offset = b.getIndexAttr(0);
        for (Value in : args.drop_back()) {
          auto type = cast<MemRefType>(in.getType());
          if (type.hasStaticShape() && type.getNumElements() == 0)
            continue;
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
              sizes = memref::getMixedSizes(b, l, in), strides(rank, b.getIndexAttr(1));
          offsets[axis] = offset;
          Value slot = memref::SubViewOp::create(b, l, args.back(), offsets, sizes, strides);
          linalg::CopyOp::create(b, l, in, slot);
          std::optional<int64_t> at = getConstantIntValue(offset),
                                 size = getConstantIntValue(sizes[axis]);
          if (at && size) {
            offset = b.getIndexAttr(*at + *size);
            continue;
          }
          if (at && *at == 0) {
            offset = sizes[axis];
            continue;
          }
          offset = arith::AddIOp::create(b, l, getValueOrCreateConstantIndexOp(b, l, offset),
                                         getValueOrCreateConstantIndexOp(b, l, sizes[axis]))
                       .getResult();
        }
      });
}

/// ms.concat -> one kernel copying each input into its slot of the output.
struct ConcatToKernel : OpConversionPattern<ms::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ConcatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = allocResult(rewriter, loc, op.getOperation());
    int64_t rank = op.getType().getRank();
    // getAxis() is the attribute's uint64_t: read it back as the signed value it stores.
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    auto isDynamic = [](Value v) { return !cast<MemRefType>(v.getType()).hasStaticShape(); };
    if (llvm::any_of(adaptor.getInputs(), isDynamic) || isDynamic(out)) {
      buildRunTimeConcat(rewriter, loc, adaptor.getInputs(), out, axis);
      rewriter.replaceOp(op, out);
      return success();
    }
    KernelOp::create(rewriter, loc, "concat", adaptor.getInputs(), out,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       int64_t offset = 0;
                       for (Value in : args.drop_back()) {
                         auto type = cast<MemRefType>(in.getType());
                         // An empty operand adds nothing (and its slot could start past the end).
                         if (type.getNumElements() == 0)
                           continue;
                         SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
                         offsets[axis] = offset;
                         Value slot = memref::SubViewOp::create(b, l, args.back(), offsets,
                                                                type.getShape(), strides);
                         linalg::CopyOp::create(b, l, in, slot);
                         offset += type.getDimSize(axis);
                       }
                     });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieTensorPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstantToGlobal, ReshapeToView<ms::ReshapeOp>, ReshapeToView<ms::FlattenOp>,
               ReshapeToView<ms::SqueezeOp>, ReshapeToView<ms::UnsqueezeOp>, TransposeToKernel,
               ConcatToKernel>(converter, patterns.getContext());
}
