//===- MsControlFlowOps.cpp - ms.if, ms.loop, ms.scan ---------------------===//

#include "dialects/ms/IR/MsOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The ms.region_yield ending `region` (verified to be there by the terminator traits, but a region
/// may still be empty or end otherwise while the IR is being parsed).
FailureOr<RegionYieldOp> yieldOf(Operation *op, Region &region, StringRef name) {
  if (region.empty() || region.front().empty() || !isa<RegionYieldOp>(region.front().back()))
    return op->emitOpError("expects the ") << name << " region to end with 'ms.region_yield'";
  return cast<RegionYieldOp>(region.front().back());
}

/// Checks `values` (what a region yields or a block's arguments) against `expected`, one by one.
LogicalResult checkTypes(Operation *op, TypeRange values, TypeRange expected, StringRef what,
                         StringRef against, unsigned offset = 0) {
  for (auto [index, pair] : llvm::enumerate(llvm::zip(values, expected))) {
    auto [got, want] = pair;
    if (got != want)
      return op->emitOpError("expects ")
             << what << " #" << index + offset << " to have the type of " << against << " ("
             << want << "), got " << got;
  }
  return success();
}

/// `shape` with `size` inserted at `axis`.
SmallVector<int64_t> insertDim(ArrayRef<int64_t> shape, int64_t axis, int64_t size) {
  SmallVector<int64_t> out(shape);
  out.insert(out.begin() + axis, size);
  return out;
}

bool isOneElement(Value v) {
  auto type = tensorType(v);
  return type.hasStaticShape() && type.getNumElements() == 1;
}

} // namespace

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verify() {
  if (!isOneElement(getCond()))
    return emitOpError("expects a condition of one element, got ") << getCond().getType();
  for (auto [region, name] : {std::pair<Region *, StringRef>{&getThenRegion(), "then"},
                              std::pair<Region *, StringRef>{&getElseRegion(), "else"}}) {
    FailureOr<RegionYieldOp> yield = yieldOf(*this, *region, name);
    if (failed(yield))
      return failure();
    if (yield->getValues().size() != getNumResults())
      return emitOpError("expects the ")
             << name << " region to yield " << getNumResults() << " values, got "
             << yield->getValues().size();
    if (failed(checkTypes(*this, yield->getValues().getTypes(), getResultTypes(),
                          (name + " value").str(), "result")))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

LogicalResult LoopOp::verify() {
  MLIRContext *ctx = getContext();
  if (getMaxTripCount() && (!isOneElement(getMaxTripCount()) ||
                            !tensorType(getMaxTripCount()).getElementType().isInteger(64)))
    return emitOpError("expects a trip count of one i64 element, got ")
           << getMaxTripCount().getType();
  if (getCond() && !isOneElement(getCond()))
    return emitOpError("expects a condition of one element, got ") << getCond().getType();
  unsigned numCarried = getNumCarried();
  if (getNumResults() < numCarried)
    return emitOpError("expects a result per loop-carried value (")
           << numCarried << "), got " << getNumResults();
  if (failed(checkTypes(*this, TypeRange(getResultTypes()).take_front(numCarried), getInitValues().getTypes(),
                        "result", "its initial value")))
    return failure();

  Block &body = getBody().front();
  SmallVector<Type> argTypes = {RankedTensorType::get({}, IntegerType::get(ctx, 64)),
                                RankedTensorType::get({}, IntegerType::get(ctx, 1))};
  llvm::append_range(argTypes, getInitValues().getTypes());
  if (body.getNumArguments() != argTypes.size())
    return emitOpError("expects ")
           << argTypes.size()
           << " body arguments (iteration number, condition, loop-carried values), got "
           << body.getNumArguments();
  if (failed(checkTypes(*this, body.getArgumentTypes(), argTypes, "body argument",
                        "the iteration number, condition or loop-carried value")))
    return failure();

  FailureOr<RegionYieldOp> yield = yieldOf(*this, getBody(), "body");
  if (failed(yield))
    return failure();
  ValueRange yielded = yield->getValues();
  unsigned numScans = getNumScanOutputs();
  if (yielded.size() != 1 + numCarried + numScans)
    return emitOpError("expects the body to yield the condition, ")
           << numCarried << " loop-carried values and " << numScans << " scan elements, got "
           << yielded.size() << " values";
  if (!isOneElement(yielded[0]) || !tensorType(yielded[0]).getElementType().isInteger(1))
    return emitOpError("expects the body to yield a condition of one i1 element, got ")
           << yielded[0].getType();
  if (failed(checkTypes(*this, yielded.slice(1, numCarried).getTypes(), getInitValues().getTypes(),
                        "loop-carried value", "its initial value")))
    return failure();
  if (numScans == 0)
    return success();

  // Scan outputs stack one element per iteration: their length must be known statically.
  if (!getMaxTripCount() || getCond())
    return emitOpError("with scan outputs expects a trip count and no condition (the number of "
                       "iterations must be static)");
  std::optional<int64_t> tripCount;
  DenseIntElementsAttr constant;
  if (matchPattern(getMaxTripCount(), m_Constant(&constant)))
    tripCount = std::max<int64_t>(0, (*constant.value_begin<APInt>()).getSExtValue());
  for (unsigned j = 0; j < numScans; ++j) {
    auto element = tensorType(yielded[1 + numCarried + j]);
    auto result = tensorType(getResult(numCarried + j));
    int64_t length = result.getRank() > 0 ? result.getDimSize(0) : -1;
    auto expected = RankedTensorType::get(insertDim(element.getShape(), 0, length),
                                          element.getElementType());
    if (result.getRank() == 0 || result != expected || ShapedType::isDynamic(length))
      return emitOpError("expects scan output #")
             << j << " to stack its elements (" << element << ") along a static leading dim, got "
             << result;
    if (tripCount && length != *tripCount)
      return emitOpError("expects scan output #")
             << j << " to have the trip count (" << *tripCount << ") as leading dim, got "
             << result;
    if (length != tensorType(getResult(numCarried)).getDimSize(0))
      return emitOpError("expects all scan outputs to have the same length");
  }
  return success();
}

SmallVector<Region *> LoopOp::getLoopRegions() { return {&getBody()}; }

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

SmallVector<Region *> ScanOp::getLoopRegions() { return {&getBody()}; }

int64_t ScanOp::getSequenceLength() {
  if (getScanInputs().empty())
    return 0;
  return tensorType(getScanInputs()[0]).getDimSize(getScanInputAxes()[0]);
}

LogicalResult ScanOp::verify() {
  unsigned numStates = getNumStates();
  unsigned numInputs = getScanInputs().size();
  if (numInputs == 0)
    return emitOpError("expects at least one scan input");
  if (getNumResults() < numStates)
    return emitOpError("expects a result per state (") << numStates << "), got "
                                                       << getNumResults();
  unsigned numScans = getNumScanOutputs();
  if (getScanInputAxes().size() != numInputs || getScanInputDirections().size() != numInputs)
    return emitOpError("expects one scan input axis and direction per scan input (")
           << numInputs << ")";
  if (getScanOutputAxes().size() != numScans || getScanOutputDirections().size() != numScans)
    return emitOpError("expects one scan output axis and direction per scan output (")
           << numScans << ")";
  for (int64_t d : llvm::concat<const int64_t>(getScanInputDirections(), getScanOutputDirections()))
    if (d != 0 && d != 1)
      return emitOpError("expects directions 0 (forward) or 1 (reverse), got ") << d;

  // The block arguments: the states, then one slice per scan input.
  SmallVector<Type> argTypes(getInitStates().getTypes());
  int64_t length = ShapedType::kDynamic;
  for (auto [index, input] : llvm::enumerate(getScanInputs())) {
    RankedTensorType type = tensorType(input);
    int64_t axis = getScanInputAxes()[index];
    if (axis < 0 || axis >= type.getRank())
      return emitOpError("expects scan input axis ")
             << axis << " of scan input #" << index << " in [0, " << type.getRank() << ")";
    int64_t size = type.getDimSize(axis);
    if (ShapedType::isDynamic(size))
      return emitOpError("expects scan input #") << index << " to have a static length";
    if (!ShapedType::isDynamic(length) && size != length)
      return emitOpError("expects all scan inputs to have the same length (")
             << length << "), scan input #" << index << " has " << size;
    length = size;
    SmallVector<int64_t> slice(type.getShape());
    slice.erase(slice.begin() + axis);
    argTypes.push_back(RankedTensorType::get(slice, type.getElementType()));
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != argTypes.size())
    return emitOpError("expects ") << argTypes.size()
                                   << " body arguments (states, then scan input slices), got "
                                   << body.getNumArguments();
  if (failed(checkTypes(*this, body.getArgumentTypes(), argTypes, "body argument",
                        "a state or scan input slice")))
    return failure();
  if (failed(checkTypes(*this, TypeRange(getResultTypes()).take_front(numStates), getInitStates().getTypes(),
                        "result", "its initial state")))
    return failure();

  FailureOr<RegionYieldOp> yield = yieldOf(*this, getBody(), "body");
  if (failed(yield))
    return failure();
  ValueRange yielded = yield->getValues();
  if (yielded.size() != numStates + numScans)
    return emitOpError("expects the body to yield ")
           << numStates << " states and " << numScans << " scan elements, got " << yielded.size()
           << " values";
  if (failed(checkTypes(*this, yielded.take_front(numStates).getTypes(),
                        getInitStates().getTypes(), "next state", "its initial state")))
    return failure();
  for (unsigned j = 0; j < numScans; ++j) {
    RankedTensorType element = tensorType(yielded[numStates + j]);
    int64_t axis = getScanOutputAxes()[j];
    if (axis < 0 || axis > element.getRank())
      return emitOpError("expects scan output axis ")
             << axis << " of scan output #" << j << " in [0, " << element.getRank() << "]";
    auto expected = RankedTensorType::get(insertDim(element.getShape(), axis, length),
                                          element.getElementType());
    if (getResult(numStates + j).getType() != expected)
      return emitOpError("expects scan output #")
             << j << " of type " << expected << " (its elements stacked along axis " << axis
             << "), got " << getResult(numStates + j).getType();
  }
  return success();
}
