//===- OnnxCompositeRandomOps.cpp - random ops out of ms.random_* ---------===//
//
// RandomUniform, RandomNormal and their *Like forms map to ms.random_uniform / ms.random_normal,
// Bernoulli and Multinomial to ms.bernoulli / ms.multinomial, which `ms-decompose` builds on a
// uniform draw (DecomposeRandomPatterns.cpp); Dropout in training mode is built on one here:
//   Dropout(x, ratio) = where(u >= ratio, x / (1 - ratio), 0), mask = u >= ratio
// Every op gets its own `stream` (docs/random.md): the ms.random_* ops already in the module are
// counted, so no two ops of one model draw the same numbers. In a Loop or Scan body (nested ones
// too) the ops take the iteration, which keys each iteration's numbers (drawIteration).
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// The next stream number of the module being imported: one past the largest in use.
int64_t nextStream(NodeImporter &n) {
  Operation *top = n.builder().getInsertionBlock()->getParentOp();
  while (Operation *parent = top->getParentOp())
    top = parent;
  int64_t next = 0;
  top->walk([&](Operation *op) {
    if (auto stream = op->getAttrOfType<IntegerAttr>("stream");
        stream &&
        isa<ms::RandomUniformOp, ms::RandomNormalOp, ms::BernoulliOp, ms::MultinomialOp>(op))
      next = std::max<int64_t>(next, stream.getInt() + 1);
  });
  return next;
}

/// 2^64 / phi, odd: its first 2^31 multiples stay more than 2^31 away from 0 modulo 2^64 (the
/// golden ratio is the worst-approximable number: |k / phi - p| > 1 / (sqrt(5) k) roughly), so
/// `outer * K + inner` differs for every two pairs of iteration numbers below 2^31.
constexpr uint64_t kIterationMultiplier = 0x9E3779B97F4A7C15ull;

/// The iteration a draw in a loop body is keyed by: the enclosing Loops' iteration numbers and
/// Scans' step numbers, outermost first, combined as `c * K + i` (K odd, so each step is a
/// bijection of the 64-bit value and two nested loops of fewer than 2^31 iterations each never give
/// two iterations one key); null outside loops. The kernels key their numbers by the run, so
/// without it every iteration would draw the same numbers.
FailureOr<Value> drawIteration(NodeImporter &n) {
  SmallVector<Value> iterations; // innermost first
  for (Operation *op = n.builder().getInsertionBlock()->getParentOp(); op; op = op->getParentOp()) {
    if (auto loop = dyn_cast<ms::LoopOp>(op)) {
      iterations.push_back(loop.getBody().front().getArgument(0));
    } else if (auto scan = dyn_cast<ms::ScanOp>(op)) {
      // The step number the Scan's importer added as its last scan input (kScanStepAttr).
      if (!scan->hasAttr(kScanStepAttr))
        return n.unsupportedFeature() << "random numbers in this Scan body are not supported: "
                                         "its steps have no number to key the draws";
      iterations.push_back(scan.getBody().front().getArguments().back());
    }
  }
  if (iterations.empty())
    return Value();
  Ops o(n);
  Value combined = iterations.back();
  if (iterations.size() > 1) {
    Value k = o.constant(
        KnownTensor::fromInts({}, n.builder().getI64Type(), {int64_t(kIterationMultiplier)}));
    for (Value iteration : llvm::drop_begin(llvm::reverse(iterations)))
      combined = o.add(o.mul(combined, k), iteration);
  }
  if (o.failed())
    return failure();
  return combined;
}

/// The ONNX `seed` attribute, when present: a float of the Random* ops and Bernoulli, an int of
/// Dropout.
std::optional<double> seedAttr(NodeImporter &n) {
  if (!n.hasAttr("seed"))
    return std::nullopt;
  if (n.node().attributes.lookup("seed").kind == OnnxAttribute::Kind::Int)
    return double(n.getInt("seed", 0));
  return n.getFloat("seed", 0.0);
}

/// The element type the `dtype` attribute names, else `fallback`.
FailureOr<Type> dtypeAttr(NodeImporter &n, Type fallback) {
  if (!n.hasAttr("dtype"))
    return fallback;
  int64_t dtype = n.getInt("dtype", 1);
  if (n.hasFailed())
    return failure();
  Type type = elementTypeFor(n.context(), dtype);
  if (!type)
    return n.error() << "dtype " << dataTypeName(dtype) << " is not supported";
  return type;
}

/// A float element type from the `dtype` attribute, else `fallback` (null: FLOAT, ONNX's default
/// for the ops without an input). Reports a non-float one.
FailureOr<Type> floatDtype(NodeImporter &n, Type fallback) {
  FailureOr<Type> dtype = dtypeAttr(n, fallback ? fallback : Float32Type::get(n.context()));
  if (failed(dtype))
    return failure();
  Type type = *dtype;
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return n.error() << "random numbers of element type " << type
                     << " are not supported (float16, bfloat16, float or double)";
  return type;
}

/// The type of the uniform draws compared with probabilities of `type`: f32 for f16 and bf16, whose
/// rounding would turn draws just below 1 into 1 (a probability of 1 would then miss).
Type drawTypeFor(Type type) { return type.isF64() ? type : Float32Type::get(type.getContext()); }

/// A draw of `OpTy` (ms.random_uniform: parameters low, high; ms.random_normal: mean, scale) of
/// `shape` and `elementType` with the node's seed.
template <typename OpTy>
FailureOr<Value> draw(NodeImporter &n, ArrayRef<int64_t> shape, Type elementType, double first,
                      double second) {
  std::optional<double> seed = seedAttr(n);
  if (n.hasFailed())
    return failure();
  FailureOr<Value> iteration = drawIteration(n);
  if (failed(iteration))
    return failure();
  OpBuilder &b = n.builder();
  return n.create<OpTy>(*iteration, b.getDenseI64ArrayAttr(shape), TypeAttr::get(elementType),
                        b.getF64FloatAttr(first), b.getF64FloatAttr(second),
                        seed ? b.getF64FloatAttr(*seed) : FloatAttr(),
                        b.getI64IntegerAttr(nextStream(n)));
}

/// The output shape of RandomUniform / RandomNormal (`shape` attribute) or of their *Like forms
/// (the input's).
FailureOr<SmallVector<int64_t>> randomShape(NodeImporter &n, bool like) {
  if (like)
    return SmallVector<int64_t>(n.inputType(0).getShape());
  std::optional<SmallVector<int64_t>> shape = n.getInts("shape");
  if (n.hasFailed())
    return failure();
  if (!shape)
    return n.error() << "attribute 'shape' is required";
  for (int64_t d : *shape)
    if (d < 0)
      return n.error() << "attribute 'shape' has a negative extent: " << listToString(*shape);
  return *shape;
}

/// RandomUniform(Like) (attributes low, high) and RandomNormal(Like) (mean, scale).
template <typename OpTy, bool Like>
LogicalResult importRandom(NodeImporter &n) {
  constexpr bool normal = std::is_same_v<OpTy, ms::RandomNormalOp>;
  FailureOr<SmallVector<int64_t>> shape = randomShape(n, Like);
  FailureOr<Type> type = floatDtype(n, Like ? n.inputType(0).getElementType() : Type());
  if (failed(shape) || failed(type))
    return failure();
  double first = n.getFloat(normal ? "mean" : "low", 0.0);
  double second = n.getFloat(normal ? "scale" : "high", 1.0);
  if (n.hasFailed())
    return failure();
  return finish(n, draw<OpTy>(n, *shape, *type, first, second));
}

/// Bernoulli(p) as ms.bernoulli, in `dtype` (the input's by default), and Multinomial(x) as
/// ms.multinomial (`sample_size` class indices per row, of `dtype`), each with the node's seed, a
/// stream of its own and in a loop body the iteration, as the draws of RandomUniform.
template <bool IsBernoulli>
LogicalResult importDrawOnUniform(NodeImporter &n) {
  RankedTensorType type = n.inputType(0);
  if (!isa<FloatType>(type.getElementType()))
    return n.error() << "expects float " << (IsBernoulli ? "probabilities" : "log-probabilities")
                     << ", got " << type;
  int64_t samples = n.getInt("sample_size", 1), dtype = n.getInt("dtype", 6);
  FailureOr<Type> resultType =
      IsBernoulli ? dtypeAttr(n, type.getElementType()) : FailureOr<Type>(Type());
  std::optional<double> seed = seedAttr(n);
  if (n.hasFailed() || failed(resultType))
    return failure();
  if (!IsBernoulli && dtype != 6 && dtype != 7)
    return n.error() << "dtype must be int32 or int64, got " << dataTypeName(dtype);
  FailureOr<Value> iteration = drawIteration(n);
  if (failed(iteration))
    return failure();
  OpBuilder &b = n.builder();
  FloatAttr seedValue = seed ? b.getF64FloatAttr(*seed) : FloatAttr();
  IntegerAttr stream = b.getI64IntegerAttr(nextStream(n));
  Ops o(n);
  Value x = o.in(0);
  if (IsBernoulli)
    return finish(
        n, o, o.op<ms::BernoulliOp>(x, *iteration, TypeAttr::get(*resultType), seedValue, stream));
  return finish(n, o,
                o.op<ms::MultinomialOp>(x, *iteration, b.getI64IntegerAttr(samples),
                                        TypeAttr::get(elementTypeFor(n.context(), dtype)),
                                        seedValue, stream));
}

} // namespace

LogicalResult mlir::mie::onnx_import::importTrainingDropout(NodeImporter &n, unsigned ratioInput,
                                                            double defaultRatio, Type maskType,
                                                            Value trainingMode) {
  RankedTensorType type = n.inputType(0);
  if (!isa<FloatType>(type.getElementType()))
    return n.error() << "expects a float input in training mode, got " << type;
  if (const KnownTensor *known = n.hasInput(ratioInput) ? n.constantData(ratioInput) : nullptr) {
    if (known->numElements() != 1)
      return n.error() << "ratio must be one value, got " << known->type;
    if (double r = known->valueAt(0); !(r >= 0.0 && r < 1.0))
      return n.error() << "ratio must be in [0, 1), got " << r;
  } else if (!n.hasInput(ratioInput) && !(defaultRatio >= 0.0 && defaultRatio < 1.0)) {
    return n.error() << "ratio must be in [0, 1), got " << defaultRatio;
  }
  Type elementType = type.getElementType(), drawType = drawTypeFor(elementType);
  FailureOr<Value> u = draw<ms::RandomUniformOp>(n, type.getShape(), drawType, 0.0, 1.0);
  if (failed(u))
    return failure();
  Ops o(n);
  Value ratio = n.hasInput(ratioInput) ? o.cast(o.in(ratioInput), drawType)
                                       : o.scalar(drawType, defaultRatio);
  if (!o.failed() && typeOf(ratio).getRank() != 0)
    ratio = o.reshape(ratio, {});
  Value keep = o.compare(ms::ComparePredicate::ge, *u, ratio);
  Value one = o.scalar(drawType, 1.0);
  Value scale = o.cast(o.div(one, o.sub(one, ratio)), elementType);
  Value result = o.where(keep, o.mul(o.in(0), scale), o.scalar(elementType, 0.0));
  if (trainingMode) {
    // Inference runs keep every element as it is.
    Value mode = typeOf(trainingMode).getRank() != 0 ? o.reshape(trainingMode, {}) : trainingMode;
    result = o.where(mode, result, o.in(0));
    keep = o.where(mode, keep, o.scalar(typeOf(keep).getElementType(), 1.0));
  }
  if (o.failed())
    return failure();
  n.setOutput(0, result);
  if (n.hasOutput(1))
    n.setOutput(1, o.cast(keep, maskType));
  return success();
}

void mlir::mie::onnx_import::composite::registerCompositeRandomOps(OnnxOpTable &table) {
  table["RandomUniform"] = {importRandom<ms::RandomUniformOp, false>, 0, 0, 1};
  table["RandomUniformLike"] = {importRandom<ms::RandomUniformOp, true>, 1, 1, 1};
  table["RandomNormal"] = {importRandom<ms::RandomNormalOp, false>, 0, 0, 1};
  table["RandomNormalLike"] = {importRandom<ms::RandomNormalOp, true>, 1, 1, 1};
  table["Bernoulli"] = {importDrawOnUniform<true>, 1, 1, 15};
  table["Multinomial"] = {importDrawOnUniform<false>, 1, 1, 7};
}
