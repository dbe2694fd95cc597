//===- MsToMieCommon.h - shared helpers of the ms -> mie lowering -*- C++ -*-===//
//
// Internal to lib/Conversion/MsToMie: buffer creation, kernel construction and the scalar
// computations that elementwise kernels are made of.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_CONVERSION_MSTOMIE_COMMON_H
#define MIE_LIB_CONVERSION_MSTOMIE_COMMON_H

#include "dialects/mie/Utils/KernelBuilders.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/Transforms/EpilogueChain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mie::mstomie {

/// The buffer type that holds a value of ranked tensor type `type` (identity layout). Unsigned
/// integers are held as signless integers of their width: arith computes on signless values only,
/// and the ops that care (division, comparison, min/max, casts) read the signedness from the ms
/// op's own types (see emitElementwiseScalar).
MemRefType bufferTypeFor(Type tensorType);

/// `type` with an unsigned (or signed) integer element type made signless; others unchanged.
Type signlessType(Type type);

/// Whether `type` (or its element type) is an unsigned integer type (`ui*`; not i1).
bool isUnsignedType(Type type);

/// Whether the lowering of `op` reads the signedness of unsigned operands and results where it
/// matters (or does not compute on their values at all). Other ops on unsigned values are
/// reported as not lowered.
bool lowersUnsigned(Operation *op);

/// Whether `type` is one of the 8-bit or 4-bit floats (f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ,
/// f8E8M0FNU, f4E2M1FN), which LLVM stores as integers and cannot compute on.
bool isNarrowFloat(Type type);

/// The float `x` (f16, bf16, f32 or f64) converted to the narrow float type `to` with ONNX Cast's
/// semantics (ms.cast's `saturate` and `round_mode`), as integer operations on its bits.
Value emitToNarrowFloat(OpBuilder &b, Location loc, Value x, Type to, bool saturate,
                        StringRef roundMode);

/// The narrow float `x` as f32, which holds every such value exactly.
Value emitFromNarrowFloat(OpBuilder &b, Location loc, Value x);

/// A fresh, not yet placed buffer for a value of `tensorType`.
Value allocBuffer(OpBuilder &b, Location loc, Type tensorType);

/// Code for symbolic dims (docs/dynamic-shapes.md): convert-ms-to-mie records on every op with a
/// dynamic result the dims of each result as a map over the function's symbols (this attribute, an
/// array of affine maps, one per result), from ms::SymbolicShapes.
inline constexpr llvm::StringLiteral kResultDimsAttrName = "mie.result_dims";

/// Every dim of result `index` of `op`: static ones as attributes, symbolic ones as values computed
/// from `mie.symbol`s by the recorded expressions.
SmallVector<OpFoldResult> resultSizes(OpBuilder &b, Location loc, Operation *op, unsigned index = 0);

/// The buffer for result `index` of `op`: allocBuffer, with the dynamic dims sized for the run.
Value allocResult(OpBuilder &b, Location loc, Operation *op, unsigned index = 0);

/// The dims of `value`, a value of the function being converted (read by a pattern from the
/// original op's operands), as expressions of the function's symbols: constants where its type is
/// static, else what convert-ms-to-mie recorded (the producer's kResultDimsAttrName, or a function
/// argument's `ms.shape`); empty where nothing did.
SmallVector<AffineExpr> recordedDims(Value value, Operation *user);

/// Whether `expr` (over the function's symbols) can be computed inside a kernel from the extents
/// of buffers whose dims are `buffers`: every symbol it uses must be exactly one of those dims. A
/// kernel's body is isolated from above, so it reads no `mie.symbol`; the extents come in with its
/// buffers.
bool isComputableFromExtents(AffineExpr expr, ArrayRef<SmallVector<AffineExpr>> buffers);

/// `expr` as index arithmetic inside a kernel, its symbols read with memref.dim from `args` (the
/// kernel's buffers, in the order of `buffers`), or, where none of them has the symbol as an
/// extent, from `symbolValues` (the kernel's argument for a mie.symbol_values buffer; without it,
/// isComputableFromExtents must hold).
Value emitFromExtents(OpBuilder &b, Location loc, AffineExpr expr, ValueRange args,
                      ArrayRef<SmallVector<AffineExpr>> buffers, Value symbolValues = Value());

/// The run's symbol values as a buffer (mie.symbol_values) for a kernel of `op` to take as an
/// input, one i64 per symbol of the function around `op`.
Value symbolValuesBuffer(OpBuilder &b, Location loc, Operation *op);

/// The number of elements in dims [from, to) of `buffer` as an index value (a constant where those
/// dims are static, else a product of memref.dim), for loops over run-time extents.
Value extentProduct(OpBuilder &b, Location loc, Value buffer, int64_t from, int64_t to);

/// Indexing map from the iteration space of `resultShape` to an operand of `operandShape` under
/// numpy broadcasting: leading dims are dropped, size-1 dims of the operand read index 0.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> resultShape);

/// Emits `mie.kernel name ins(inputs) outs(output)` whose body is one parallel linalg.generic that
/// broadcasts `inputs` to `output`'s shape and stores `scalar(args)` in every element. `scalar`
/// gets the input elements and the output element type.
using ScalarFn = function_ref<Value(OpBuilder &, Location, ValueRange, Type)>;
void buildElementwiseKernel(OpBuilder &b, Location loc, StringRef name, ValueRange inputs,
                            Value output, ScalarFn scalar);

/// Emits the kernel of `reduceOp` (ms.reduce_sum/mean/prod/max/min) into `out`: each element of the
/// reduced input is `element(elements of inputs)` with `inputs` broadcast to the reduction's input
/// shape (for a plain reduction: one input, returned as is; for a fused group: the group's
/// prologue).
void buildReductionKernel(OpBuilder &b, Location loc, Operation *reduceOp, StringRef name,
                          ValueRange inputs, Value out, ScalarFn element);


/// Collapses the leading dims of a buffer [d0, ..., dn-2, dn-1] into rows: [d0 * ... * dn-2, dn-1].
Value collapseToRows(OpBuilder &b, Location loc, Value buffer);

/// Collapses the batch dims of a buffer [b0, ..., bk, m, n] into one: [b0 * ... * bk, m, n].
Value collapseToBatch(OpBuilder &b, Location loc, Value buffer);

/// Emits a kernel copying `input` into `output` in row-major order (same element count); used for
/// reshapes, whose buffers are distinct.
void buildCopyKernel(OpBuilder &b, Location loc, StringRef name, Value input, Value output);

/// The scalar computation of an ms elementwise op (everything buildElementwiseKernel can lower), or
/// null if `op` is not elementwise. `args` are the operand elements in operand order.
Value emitElementwiseScalar(Operation *op, OpBuilder &b, Location loc, ValueRange args,
                            Type resultType);

/// Whether an ms.fused group lowers to one kernel (an anchor with an epilogue chain, or elementwise
/// members over one iteration shape optionally ending in a reduction); with `report`, says why not
/// at the group.
LogicalResult checkLowerableGroup(ms::FusedOp op, bool report);

/// Index constants for the sizes of `shape`.
SmallVector<Value> indexConstants(OpBuilder &b, Location loc, ArrayRef<int64_t> shape);

/// Calls `body` with the induction variables of a loop nest over [0, upperBounds): one scf.parallel
/// when `parallel` (mie-parallelize-loops splits the outer dim of a top-level one across threads),
/// else scf.for loops, which stay sequential (for updates that may hit the same element). No bounds
/// call `body` once, with no induction variables.
using LoopBodyFn = function_ref<void(OpBuilder &, Location, ValueRange)>;
void buildLoopNest(OpBuilder &b, Location loc, ValueRange upperBounds, bool parallel,
                   LoopBodyFn body);

/// Accumulation type of sums and products: narrow floats accumulate in f32, everything else in
/// itself.
Type computeType(Type elementType);

/// `axis` (an attribute's uint64_t read back as the signed value it stores) in [0, rank).
int64_t normalizeAxis(uint64_t axis, int64_t rank);

/// `v` converted between float types (extf / truncf; the value itself when the types agree).
Value convertFloat(OpBuilder &b, Location loc, Value v, Type to);

/// The identity element of max (lowest = true) or min: -inf / +inf, or the integer extremes
/// (of the unsigned range when `isUnsigned`: 0 and all ones).
Value extremeConstant(OpBuilder &b, Location loc, Type type, bool lowest, bool isUnsigned = false);

/// An ONNX index element (any integer type) as an index into a dim of `dimSize`: negative values
/// count from the end, and out-of-range values, which ONNX declares invalid, are clamped into the
/// dim so that a bad index can never address memory outside the buffer.
Value wrapIndex(OpBuilder &b, Location loc, Value index, int64_t dimSize);

/// Float sums may be reassociated: the loop vectorizer then keeps one partial sum per lane instead
/// of a serial chain of adds (a row of 768 adds at 4 cycles each bounded layer_norm at ~1.5 GB/s);
/// pairwise partial sums are no less accurate than the serial order.
constexpr arith::FastMathFlags kReassoc = arith::FastMathFlags::reassoc;

/// Row kernels: the op's rows (the trailing `len` elements of each outer index) are the work of
/// one scf.parallel, each row read from flat views in a few passes while it sits in L1, instead of
/// one generic per statistic over the whole tensor (each a pass through memory and a dispatch).
struct RowLoops {
  OpBuilder &b;
  Location loc;
  int64_t len;

  Value index(int64_t v);
  /// scf.parallel over the rows; `body(row, base)` computes row `row`, which starts at flat
  /// element `base`.
  void forEachRow(int64_t rows, function_ref<void(Value row, Value base)> body);
  /// The same over a run-time row count (code for symbolic dims).
  void forEachRow(Value rows, function_ref<void(Value row, Value base)> body);
  /// The rows of `buffer` (the product of its dims before `rowDim`): `staticRows` where the
  /// buffer's shape is static, else counted from its extents at run time.
  void forEachRowOf(Value buffer, int64_t rowDim, int64_t staticRows,
                    function_ref<void(Value row, Value base)> body);
  /// The fold of `step(j, acc)` over j in [0, len) from `init`.
  Value reduce(Value init, function_ref<Value(OpBuilder &, Location, Value j, Value acc)> step);
  /// `body(j)` for j in [0, len).
  void each(function_ref<void(OpBuilder &, Location, Value j)> body);
};

/// Element `base + j` of a flat buffer (`base` may be null: element j).
Value loadAt(OpBuilder &b, Location loc, Value flat, Value base, Value j);

void populateMsToMieElementwisePatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieNNPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieTensorPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieReducePatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieShapePatterns(TypeConverter &converter, RewritePatternSet &patterns);
/// The epilogue chain of each anchored ms.fused group, matched before the conversion starts: the
/// conversion rewrites the function's arguments to buffers, after which symbolic dims cannot be
/// compared (ms::haveSameDims reads them from the tensor types).
using EpilogueChains = DenseMap<Operation *, ms::EpilogueChain>;
EpilogueChains matchGroupEpilogueChains(Operation *root);

void populateMsToMieFusedPatterns(TypeConverter &converter, RewritePatternSet &patterns,
                                  const EpilogueChains &chains);
void populateMsToMieAttentionPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieIndexingPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieScanPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieRecurrentPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieControlFlowPatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieDynamicShapePatterns(TypeConverter &converter, RewritePatternSet &patterns);
void populateMsToMieRandomPatterns(TypeConverter &converter, RewritePatternSet &patterns);
/// ms.image_decode and ms.check: kernels that call runtime services (MsToMieHostCalls.cpp).
void populateMsToMieHostCallPatterns(TypeConverter &converter, RewritePatternSet &patterns);

} // namespace mlir::mie::mstomie

#endif // MIE_LIB_CONVERSION_MSTOMIE_COMMON_H
