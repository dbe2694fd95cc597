//===- PrecisionAssignment.cpp - element types under a precision policy ---===//
//
// One walk over the function in block order decides each op's precision (its operands are
// decided before it, which is what `follow` needs), retypes the reduced ops and converts values
// where a producer and a consumer disagree: a fold for constants, otherwise one ms.cast per value
// and type, placed right after the producer so that all consumers share it. Greedy patterns then
// fold what is left over constants and move casts to where fewer elements flow.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/PrecisionAssignment.h"
#include "dialects/ms/Transforms/FusionUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

using namespace mlir;
using namespace mlir::ms;

//===----------------------------------------------------------------------===//
// Rounding
//===----------------------------------------------------------------------===//

uint16_t ms::roundToBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a (quiet) NaN
    return uint16_t((bits >> 16) | 0x40u);
  uint32_t lsb = (bits >> 16) & 1u;
  return uint16_t((bits + 0x7fffu + lsb) >> 16);
}

uint16_t ms::roundToF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000u, abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return uint16_t(sign | 0x7e00u);
  if (abs >= 0x477ff000u) // 65520 and above round to infinity (65504 is the largest half)
    return uint16_t(sign | 0x7c00u);
  if (abs < 0x38800000u) { // below 2^-14: a subnormal half, k * 2^-24
    uint32_t exponent = abs >> 23;
    if (exponent < 102)
      return uint16_t(sign);
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u, shift = 126 - exponent;
    uint32_t k = mantissa >> shift, rest = mantissa & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (k & 1u)))
      ++k;
    return uint16_t(sign | k);
  }
  uint32_t half = (abs >> 13) - (112u << 10), rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // a carry into the exponent is the right result
  return uint16_t(sign | half);
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

FailureOr<PrecisionConfig> ms::parsePrecisionConfig(StringRef precision, StringRef mixedType,
                                                    ArrayRef<std::string> keepFp32,
                                                    ArrayRef<std::string> forceReduced,
                                                    StringRef quantizeMethod, std::string &error) {
  PrecisionConfig config;
  if (precision == "fp32")
    config.policy = PrecisionPolicy::FP32;
  else if (precision == "fp16")
    config.policy = PrecisionPolicy::FP16;
  else if (precision == "bf16")
    config.policy = PrecisionPolicy::BF16;
  else if (precision == "mixed")
    config.policy = PrecisionPolicy::Mixed;
  else
    return error = "precision must be fp32, fp16, bf16 or mixed, got '" + precision.str() + "'",
           failure();
  if (mixedType != "bf16" && mixedType != "fp16")
    return error = "mixed-type must be bf16 or fp16, got '" + mixedType.str() + "'", failure();
  config.mixedUsesF16 = mixedType == "fp16";
  if (!quantizeMethod.empty() && quantizeMethod != "dynamic_fp16")
    return error = "quantize-method must be dynamic_fp16 (or empty), got '" + quantizeMethod.str() +
                   "'",
           failure();
  config.weightsFp16 = quantizeMethod == "dynamic_fp16";
  if (config.weightsFp16 && config.policy != PrecisionPolicy::FP32)
    return error = "quantize-method=dynamic_fp16 computes in f32: it needs precision=fp32, got '" +
                   precision.str() + "'",
           failure();
  for (const std::string &entry : keepFp32)
    if (!entry.empty())
      config.keepFp32.push_back(entry);
  for (const std::string &entry : forceReduced)
    if (!entry.empty())
      config.forceReduced.push_back(entry);
  if (config.policy == PrecisionPolicy::FP32 && !config.forceReduced.empty())
    return error = "force-reduced needs a reduced precision (fp16, bf16 or mixed), not fp32",
           failure();
  return config;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

static Type elementTypeOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getElementType() : Type();
}

static RankedTensorType withElementType(Value v, Type et) {
  return cast<RankedTensorType>(v.getType()).clone(et);
}

/// Bytes a constant stores: every element of a blob or a non-splat dense attribute, one of a splat.
static int64_t storedBytes(ConstantOp cst) {
  auto type = cast<RankedTensorType>(cst.getType());
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  int64_t count = dense && dense.isSplat() ? 1 : type.getNumElements();
  return count * std::max<int64_t>(1, bits / 8);
}

int64_t ms::constantBytes(Operation *root) {
  int64_t bytes = 0;
  root->walk([&](ConstantOp cst) { bytes += storedBytes(cst); });
  return bytes;
}

/// The name of the blob a converted constant gets: the original's name (or "constant") with the
/// type appended, so the package and ms-opt output still tell which weight it was.
static std::string convertedBlobName(ConstantOp cst, StringRef suffix) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(cst.getValue()))
    return (resource.getRawHandle().getKey() + "_" + suffix).str();
  return ("constant_" + suffix).str();
}

/// `cst` (f32) rounded to the 16-bit float type `et`, as a new constant placed after it; null when
/// its data cannot be read or (`rejectOverflow`) a finite value would become infinite.
static Value createRoundedConstant(OpBuilder &b, ConstantOp cst, Type et, bool rejectOverflow) {
  std::optional<SmallVector<float>> values = readF32Constant(cst.getResult());
  if (!values)
    return Value();
  bool toF16 = et.isF16();
  SmallVector<uint16_t> bits;
  bits.reserve(values->size());
  for (float v : *values) {
    uint16_t r = toF16 ? roundToF16(v) : roundToBF16(v);
    if (rejectOverflow && std::isfinite(v) && (r & 0x7fffu) == 0x7c00u)
      return Value();
    bits.push_back(r);
  }
  auto type = withElementType(cst.getResult(), et);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(cst);
  // Splats and small folded values stay dense attributes (printed inline, as the f32 ones were).
  if (isa<DenseElementsAttr>(cst.getValue())) {
    SmallVector<APFloat> floats;
    const llvm::fltSemantics &sem = cast<FloatType>(et).getFloatSemantics();
    for (uint16_t v : bits)
      floats.push_back(APFloat(sem, APInt(16, v)));
    return ConstantOp::create(b, cst.getLoc(), DenseElementsAttr::get(type, floats));
  }
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(reinterpret_cast<const char *>(bits.data()), bits.size() * sizeof(uint16_t)),
      alignof(uint16_t));
  auto attr = DenseResourceElementsAttr::get(type, convertedBlobName(cst, toF16 ? "f16" : "bf16"),
                                             std::move(blob));
  return ConstantOp::create(b, cst.getLoc(), attr);
}

static bool isNarrowerFloat(Type to, Type from) {
  auto t = dyn_cast<FloatType>(to), f = dyn_cast<FloatType>(from);
  return t && f && t.getWidth() < f.getWidth();
}

//===----------------------------------------------------------------------===//
// Cast minimization patterns
//===----------------------------------------------------------------------===//

namespace {

/// Ops that only move or select elements (and max_pool, which selects): rounding commutes with
/// them, so a cast may sit on either side. Their data is operand 0 and they have one result.
bool isDataMovement(Operation *op) {
  if (auto pad = dyn_cast<PadOp>(op))
    // A pad value that the narrow type cannot hold would change with the side of the cast.
    return pad.getMode() != PadMode::constant || pad.getValue().convertToDouble() == 0.0;
  return isa<ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp, TransposeOp, SliceOp, GatherOp,
             GatherElementsOp, GatherNdOp, ExpandOp, MaxPoolOp>(op);
}

int64_t numElements(Value v) { return cast<RankedTensorType>(v.getType()).getNumElements(); }

bool isFloatCast(CastOp cast) {
  return isa<FloatType>(elementTypeOf(cast.getInput())) &&
         isa<FloatType>(elementTypeOf(cast.getResult()));
}

/// cast(constant f32) to a narrower float -> a constant of that type.
struct FoldNarrowingCastOfConstant : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op, PatternRewriter &rewriter) const override {
    auto cst = op.getInput().getDefiningOp<ConstantOp>();
    Type to = elementTypeOf(op.getResult());
    if (!cst || !elementTypeOf(cst.getResult()).isF32() || !(to.isBF16() || to.isF16()))
      return failure();
    Value folded = createRoundedConstant(rewriter, cst, to, /*rejectOverflow=*/false);
    if (!folded)
      return failure();
    rewriter.replaceOp(op, folded);
    return success();
  }
};

/// move(cast(x)) -> cast(move(x)) when the move yields fewer elements than it reads (slice,
/// gather, max_pool): the cast then converts only what is kept.
struct SinkCastBelowShrinkingMove : RewritePattern {
  SinkCastBelowShrinkingMove(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (op->getNumOperands() == 0 || op->getNumResults() != 1 || !isDataMovement(op))
      return failure();
    auto cast = op->getOperand(0).getDefiningOp<CastOp>();
    if (!cast || !cast->hasOneUse() || !isFloatCast(cast) ||
        numElements(op->getResult(0)) >= numElements(cast.getResult()))
      return failure();
    Type resultType = op->getResult(0).getType();
    Operation *moved = rewriter.clone(*op);
    moved->setOperand(0, cast.getInput());
    moved->getResult(0).setType(withElementType(op->getResult(0), elementTypeOf(cast.getInput())));
    auto sunk = rewriter.replaceOpWithNewOp<CastOp>(op, resultType, moved->getResult(0));
    sunk->setAttrs(cast->getAttrs()); // saturate, round_mode
    return success();
  }
};

/// cast(move(x)) -> move(cast(x)) when the move yields more elements than it reads (expand, pad).
struct HoistCastAboveGrowingMove : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op, PatternRewriter &rewriter) const override {
    Operation *move = op.getInput().getDefiningOp();
    if (!move || !isFloatCast(op) || move->getNumResults() != 1 || !move->hasOneUse() ||
        move->getNumOperands() == 0 || !isDataMovement(move) ||
        numElements(move->getOperand(0)) >= numElements(op.getResult()))
      return failure();
    Type to = elementTypeOf(op.getResult());
    rewriter.setInsertionPoint(move);
    Value input = move->getOperand(0);
    auto hoisted = CastOp::create(rewriter, op.getLoc(), withElementType(input, to), input);
    hoisted->setAttrs(op->getAttrs()); // saturate, round_mode
    Value converted = hoisted.getResult();
    Operation *moved = rewriter.clone(*move);
    moved->setOperand(0, converted);
    moved->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, moved->getResults());
    return success();
  }
};

} // namespace

void ms::populateCastMinimizationPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldNarrowingCastOfConstant, SinkCastBelowShrinkingMove, HoistCastAboveGrowingMove>(
      patterns.getContext());
}

//===----------------------------------------------------------------------===//
// Assignment
//===----------------------------------------------------------------------===//

namespace {

enum class Class { Always, Follow, Never };

/// ONNX op types -> the ms ops they become (where the names differ by more than case).
const llvm::StringMap<SmallVector<StringRef, 2>> &onnxTypeTable() {
  static const llvm::StringMap<SmallVector<StringRef, 2>> table = {
      {"Conv", {"conv2d"}},
      {"MatMul", {"matmul"}},
      {"Gemm", {"gemm"}},
      {"Softmax", {"softmax"}},
      {"LayerNormalization", {"layer_norm"}},
      {"BatchNormalization", {"batch_norm"}},
      {"Gather", {"gather"}},
      {"GatherElements", {"gather_elements"}},
      {"GatherND", {"gather_nd"}},
      {"ReduceSum", {"reduce_sum"}},
      {"ReduceMean", {"reduce_mean"}},
      {"ReduceMax", {"reduce_max"}},
      {"ReduceMin", {"reduce_min"}},
      {"ReduceProd", {"reduce_prod"}},
      {"GlobalAveragePool", {"global_avg_pool"}},
      {"MaxPool", {"max_pool"}},
      {"AveragePool", {"avg_pool"}},
      {"CumSum", {"cumsum"}},
      {"HardSigmoid", {"hard_sigmoid"}},
      {"HardSwish", {"hard_swish"}},
      {"TopK", {"top_k"}},
      {"ArgMax", {"arg_max"}},
      {"ArgMin", {"arg_min"}},
      {"IsNaN", {"is_nan"}},
      {"IsInf", {"is_inf"}},
      {"Attention", {"attention"}},
  };
  return table;
}

/// Lower-case `name` ("Relu" -> "relu"), the ms mnemonic of most single-word ONNX op types.
std::string lowered(StringRef name) { return name.lower(); }

class Assigner {
public:
  Assigner(func::FuncOp func, const PrecisionConfig &config)
      : func(func), config(config), f32(Float32Type::get(func.getContext())) {
    MLIRContext *ctx = func.getContext();
    bool f16 = config.policy == PrecisionPolicy::FP16 ||
               (config.policy == PrecisionPolicy::Mixed && config.mixedUsesF16);
    reduced = f16 ? Type(Float16Type::get(ctx)) : Type(BFloat16Type::get(ctx));
    keepUsed.assign(config.keepFp32.size(), false);
    forceUsed.assign(config.forceReduced.size(), false);
  }

  LogicalResult run();

private:
  Class classify(Operation *op) const;
  bool matches(Operation *op, ArrayRef<std::string> entries, std::vector<bool> &used) const;
  bool decideReduced(Operation *op);
  Value convert(Value v, Type et);
  void storeWeightsAsF16();
  void summarize(int64_t bytesBefore, int64_t castsBefore);

  func::FuncOp func;
  const PrecisionConfig &config;
  Type f32, reduced;
  DenseSet<Value> narrowed; // values retyped f32 -> reduced by this pass
  DenseMap<std::pair<Value, Type>, Value> conversions;
  int64_t conversionsNeeded = 0;
  std::vector<bool> keepUsed, forceUsed;
  DenseSet<Operation *> feedsInteger; // computes a value that is converted to integers
};

/// The elementwise ops (and the reshapes, broadcasts and min/max reductions of quantization
/// parameters) whose float results reach a float -> integer cast through such ops only: a
/// QuantizeLinear's x / scale, rounding and zero point, a requantization's multiplier,
/// DynamicQuantizeLinear's range. A value rounded to bf16 or f16 on the way lands on other
/// integers (a uint8 quantization step is 1/256 of the range, bf16 keeps 8 bits), so these stay
/// f32 whatever the policy; the convolutions and products around them are not reached.
DenseSet<Operation *> opsFeedingIntegers(func::FuncOp func) {
  DenseSet<Operation *> found;
  SmallVector<Operation *> worklist;
  func.walk([&](CastOp cast) {
    if (isa_and_nonnull<FloatType>(elementTypeOf(cast.getInput())) &&
        isa_and_nonnull<IntegerType>(elementTypeOf(cast.getResult())))
      worklist.push_back(cast);
  });
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || isa<ConstantOp>(def) || !isa_and_nonnull<FloatType>(elementTypeOf(operand)))
        continue;
      if (!isElementwiseOp(def) &&
          !isa<ReshapeOp, ExpandOp, SliceOp, ReduceMinOp, ReduceMaxOp>(def))
        continue;
      if (found.insert(def).second)
        worklist.push_back(def);
    }
  }
  return found;
}

Class Assigner::classify(Operation *op) const {
  if (isa<Conv2dOp, MatMulOp, GemmOp>(op))
    return Class::Always;
  if (isa<SoftmaxOp, LayerNormOp, BatchNormOp, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
          ReduceProdOp, GlobalAvgPoolOp, CumSumOp, ExpOp, LogOp, PowOp, AttentionOp>(op))
    return Class::Never;
  if (auto gather = dyn_cast<GatherOp>(op); gather && gather.getData().getDefiningOp<ConstantOp>())
    return Class::Never; // an embedding table lookup
  return Class::Follow;
}

bool Assigner::matches(Operation *op, ArrayRef<std::string> entries,
                       std::vector<bool> &used) const {
  StringRef mnemonic = op->getName().stripDialect();
  SmallVector<StringRef> nodes;
  op->getLoc()->walk([&](Location loc) {
    if (auto name = dyn_cast<NameLoc>(loc))
      nodes.push_back(name.getName().getValue());
    return WalkResult::advance();
  });
  bool any = false;
  for (auto [i, entry] : llvm::enumerate(entries)) {
    StringRef e(entry);
    bool hit = e == op->getName().getStringRef() || e == mnemonic || lowered(e) == mnemonic ||
               llvm::is_contained(nodes, e);
    if (!hit) {
      auto it = onnxTypeTable().find(e);
      hit = it != onnxTypeTable().end() && llvm::is_contained(it->second, mnemonic);
    }
    if (hit) {
      used[i] = true;
      any = true;
    }
  }
  return any;
}

/// Whether `op` (an ms op with f32 data) computes in the reduced type.
bool Assigner::decideReduced(Operation *op) {
  // `ms.keep_fp32` on the op: --precision=auto's choice (lib/Pipelines/AutoPrecision.cpp).
  bool keep = matches(op, config.keepFp32, keepUsed) || op->hasAttr("ms.keep_fp32");
  bool force = matches(op, config.forceReduced, forceUsed);
  if (isa<AttentionOp>(op)) {
    if (force && !keep)
      op->emitWarning("stays f32 although --force-reduced names it: attention kernels are f32 "
                      "only");
    return false;
  }
  if (keep)
    return false;
  if (force)
    return true;
  if (feedsInteger.contains(op))
    return false;
  // is_inf of a value rounded to the narrow type is true where the f32 value merely exceeded the
  // narrow type's largest finite value; widening is exact, so f32 always answers for the value.
  if (isa<IsInfOp>(op) && config.policy != PrecisionPolicy::Mixed)
    return false;
  // unique and non_max_suppression select by exact comparison: rounded inputs would merge distinct
  // values or move boxes across the IoU threshold, so they answer for the f32 values.
  if (isa<UniqueOp, NonMaxSuppressionOp>(op))
    return false;
  // Random draws fix their type in an attribute, and those compared with probabilities (Bernoulli,
  // Dropout's mask) want f32's 24 random bits; their consumers take them rounded.
  if (isa<RandomUniformOp, RandomNormalOp>(op))
    return false;
  switch (config.policy) {
  case PrecisionPolicy::FP32:
    return false;
  case PrecisionPolicy::FP16:
    // f16 tops out at 65504: results that grow (exponentials, powers, sums and products of many
    // elements) overflow it where f32's do not.
    return !isa<ExpOp, PowOp, ReduceSumOp, ReduceProdOp, CumSumOp>(op);
  case PrecisionPolicy::BF16:
    return true; // bf16 has f32's range; precision-sensitive kernels compute in f32 inside
  case PrecisionPolicy::Mixed:
    break;
  }
  switch (classify(op)) {
  case Class::Always:
    return true;
  case Class::Never:
    return false;
  case Class::Follow:
    break;
  }
  // Follow: reduced when every non-constant float operand already is.
  bool anyOperand = false;
  for (Value operand : op->getOperands()) {
    Type et = elementTypeOf(operand);
    if (!et || !isa<FloatType>(et) || operand.getDefiningOp<ConstantOp>())
      continue;
    if (!narrowed.contains(operand))
      return false;
    anyOperand = true;
  }
  return anyOperand;
}

/// `v` as element type `et`: a folded constant, the value a cast widened (no cast pair), or one
/// shared cast right after the producer.
Value Assigner::convert(Value v, Type et) {
  auto key = std::make_pair(v, et);
  if (Value done = conversions.lookup(key))
    return done;
  ++conversionsNeeded;
  OpBuilder b(func.getContext());
  Value result;
  if (auto cst = v.getDefiningOp<ConstantOp>(); cst && isNarrowerFloat(et, elementTypeOf(v)))
    result = createRoundedConstant(b, cst, et, /*rejectOverflow=*/false);
  if (!result)
    if (auto cast = v.getDefiningOp<CastOp>();
        cast && elementTypeOf(cast.getInput()) == et && isNarrowerFloat(et, elementTypeOf(v)))
      result = cast.getInput();
  if (!result) {
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    result = CastOp::create(b, v.getLoc(), withElementType(v, et), v).getResult();
  }
  conversions[key] = result;
  return result;
}

/// dynamic_fp16: every f32 weight of at least 16 elements stored as f16 behind a widening cast.
void Assigner::storeWeightsAsF16() {
  OpBuilder b(func.getContext());
  Type f16 = Float16Type::get(func.getContext());
  for (auto cst : llvm::make_early_inc_range(func.getOps<ConstantOp>())) {
    auto type = dyn_cast<RankedTensorType>(cst.getType());
    if (!type || !type.getElementType().isF32() || type.getNumElements() < 16 ||
        !isa<DenseResourceElementsAttr>(cst.getValue()))
      continue;
    // A weight beyond f16's range keeps f32: correctness first.
    Value half = createRoundedConstant(b, cst, f16, /*rejectOverflow=*/true);
    if (!half)
      continue;
    b.setInsertionPointAfter(half.getDefiningOp());
    ++conversionsNeeded;
    Value widened = CastOp::create(b, cst.getLoc(), type, half).getResult();
    cst.getResult().replaceAllUsesWith(widened);
    cst.erase();
  }
}

LogicalResult Assigner::run() {
  int64_t bytesBefore = 0, castsBefore = 0;
  func.walk([&](Operation *op) {
    if (auto cst = dyn_cast<ConstantOp>(op))
      bytesBefore += storedBytes(cst);
    castsBefore += isa<CastOp>(op);
  });
  if (config.weightsFp16)
    storeWeightsAsF16();
  feedsInteger = opsFeedingIntegers(func);

  for (Block &block : func.getBody()) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<ConstantOp, CastOp>(op))
        continue;
      // Control flow stays f32, regions included (only the function's own block is assigned).
      bool msOp = isa<MsDialect>(op.getDialect()) && !isa<FusedOp, IfOp, LoopOp, ScanOp>(op);
      auto hasF32 = [](ValueRange values) {
        return llvm::any_of(values, [](Value v) {
          Type et = elementTypeOf(v);
          return et && et.isF32();
        });
      };
      if (msOp && (hasF32(op.getOperands()) || hasF32(op.getResults())) && decideReduced(&op)) {
        for (OpOperand &operand : op.getOpOperands())
          if (Type et = elementTypeOf(operand.get()); et && et.isF32())
            operand.set(convert(operand.get(), reduced));
        for (Value result : op.getResults())
          if (Type et = elementTypeOf(result); et && et.isF32()) {
            result.setType(withElementType(result, reduced));
            narrowed.insert(result);
          }
        if (isa<Conv2dOp, MatMulOp, GemmOp>(op))
          op.setAttr("acc_type", TypeAttr::get(f32));
        continue;
      }
      // An f32 consumer (any op that stays, func.return included): reduced operands widen back,
      // also where the regions of control flow use them.
      op.walk([&](Operation *user) {
        for (OpOperand &operand : user->getOpOperands())
          if (narrowed.contains(operand.get()))
            operand.set(convert(operand.get(), f32));
      });
    }
  }

  RewritePatternSet patterns(func.getContext());
  populateCastMinimizationPatterns(patterns);
  CastOp::getCanonicalizationPatterns(patterns, func.getContext());
  if (failed(applyPatternsGreedily(func, std::move(patterns))))
    return func.emitError("cast minimization did not converge");

  for (auto [entries, used, flag] :
       {std::make_tuple(&config.keepFp32, &keepUsed, "keep-fp32"),
        std::make_tuple(&config.forceReduced, &forceUsed, "force-reduced")})
    for (auto [entry, hit] : llvm::zip(*entries, *used))
      if (!hit)
        func.emitWarning() << "--" << flag << " entry '" << entry
                           << "' matches no op (expected an ONNX op type, ms op name or ONNX "
                              "node name)";
  summarize(bytesBefore, castsBefore);
  return success();
}

void Assigner::summarize(int64_t bytesBefore, int64_t castsBefore) {
  int64_t bytesAfter = 0, castsAfter = 0;
  llvm::StringMap<int64_t> perType;
  func.walk([&](Operation *op) {
    if (auto cst = dyn_cast<ConstantOp>(op)) {
      bytesAfter += storedBytes(cst);
      return;
    }
    if (isa<CastOp>(op)) {
      ++castsAfter;
      return;
    }
    if (!isa<MsDialect>(op->getDialect()) || isa<FusedOp, YieldOp>(op))
      return;
    // An op's precision is that of its float data: its first float result, else operand.
    Type et;
    for (Value v : llvm::concat<Value>(op->getResults(), op->getOperands()))
      if (Type t = elementTypeOf(v); t && isa<FloatType>(t)) {
        et = t;
        break;
      }
    if (!et)
      return;
    std::string name;
    llvm::raw_string_ostream os(name);
    os << et;
    ++perType[name];
  });
  Builder b(func.getContext());
  SmallVector<NamedAttribute> ops;
  for (auto &entry : perType)
    ops.push_back(b.getNamedAttr(entry.getKey(), b.getI64IntegerAttr(entry.getValue())));
  static const char *names[] = {"fp32", "fp16", "bf16", "mixed"};
  std::string policy = config.weightsFp16 ? "dynamic_fp16" : names[int(config.policy)];
  if (config.policy == PrecisionPolicy::Mixed)
    policy += config.mixedUsesF16 ? "(fp16)" : "(bf16)";
  int64_t removed = castsBefore + conversionsNeeded - castsAfter;
  func->setAttr("ms.precision",
                b.getDictionaryAttr({
                    b.getNamedAttr("policy", b.getStringAttr(policy)),
                    b.getNamedAttr("ops", b.getDictionaryAttr(ops)),
                    b.getNamedAttr("casts_inserted", b.getI64IntegerAttr(conversionsNeeded)),
                    b.getNamedAttr("casts_removed", b.getI64IntegerAttr(removed)),
                    b.getNamedAttr("casts_left", b.getI64IntegerAttr(castsAfter)),
                    b.getNamedAttr("weight_bytes_before", b.getI64IntegerAttr(bytesBefore)),
                    b.getNamedAttr("weight_bytes_after", b.getI64IntegerAttr(bytesAfter)),
                }));
}

} // namespace

LogicalResult ms::assignPrecision(func::FuncOp func, const PrecisionConfig &config) {
  if (func.isExternal())
    return success();
  return Assigner(func, config).run();
}
