//===- MsFusionOps.cpp - ms.fused, ms.yield, ms.attention -----------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

SmallVector<Operation *> FusedOp::getMembers() {
  SmallVector<Operation *> members;
  for (Operation &op : getBody().front().without_terminator())
    members.push_back(&op);
  return members;
}

Value FusedOp::getYieldedValue() {
  return cast<YieldOp>(getBody().front().getTerminator()).getValue();
}

LogicalResult FusedOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expects one block argument per input (")
           << getInputs().size() << "), got " << body.getNumArguments();
  for (auto [index, input, arg] : llvm::enumerate(getInputs(), body.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError("expects block argument #")
             << index << " to have the type of input #" << index << " (" << input.getType()
             << "), got " << arg.getType();
  if (body.empty() || !isa<YieldOp>(body.back()))
    return emitOpError("expects the body to end with 'ms.yield'");
  if (&body.front() == &body.back())
    return emitOpError("expects at least one op in the group");
  for (Operation &op : body.without_terminator()) {
    if (!isa<MsDialect>(op.getDialect()) || isa<FusedOp>(op))
      return op.emitOpError("cannot be a member of 'ms.fused': members are ms ops other than "
                            "'ms.fused'");
  }
  if (getYieldedValue().getType() != getType())
    return emitOpError("expects the yielded type ")
           << getYieldedValue().getType() << " to equal the result type " << getType();
  if (getName().empty())
    return emitOpError("expects a non-empty kernel name");
  return success();
}

LogicalResult YieldOp::verify() {
  // The parent's verifier compares types; here only what a lone yield can get wrong.
  if (getOperation() != &getOperation()->getBlock()->back())
    return emitOpError("must be the last op of its block");
  return success();
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

bool ms::isKeyValueBatch(ArrayRef<int64_t> queryBatch, ArrayRef<int64_t> kvBatch) {
  if (queryBatch == kvBatch)
    return true;
  // Grouped-query: the heads dim (the last batch dim) may be a divisor of the query's.
  return !queryBatch.empty() && queryBatch.size() == kvBatch.size() &&
         queryBatch.drop_back() == kvBatch.drop_back() && kvBatch.back() > 0 &&
         queryBatch.back() % kvBatch.back() == 0;
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto q = cast<RankedTensorType>(adaptor.getQuery().getType());
  auto k = cast<RankedTensorType>(adaptor.getKey().getType());
  auto v = cast<RankedTensorType>(adaptor.getValue().getType());
  const bool tokenMajor = adaptor.getTokenMajor();
  const int64_t minRank = tokenMajor ? 3 : 2;
  if (q.getRank() < minRank || k.getRank() != q.getRank() || v.getRank() != q.getRank())
    return diag.error("expects query, key and value of one rank >= ", minRank, ", got ", q, ", ",
                      k, " and ", v);
  // Token-major operands are checked in their logical [..., H, S, D] order.
  auto logical = [&](RankedTensorType t) {
    if (!tokenMajor)
      return t;
    SmallVector<int64_t> shape(t.getShape());
    std::swap(shape[shape.size() - 2], shape[shape.size() - 3]);
    return RankedTensorType::get(shape, t.getElementType());
  };
  q = logical(q);
  k = logical(k);
  v = logical(v);
  if (q.getElementType() != k.getElementType() || q.getElementType() != v.getElementType())
    return diag.error("expects query, key and value of one element type");
  int64_t rank = q.getRank();
  if (k.getShape().drop_back(2) != v.getShape().drop_back(2) ||
      !isKeyValueBatch(q.getShape().drop_back(2), k.getShape().drop_back(2)))
    return diag.error("expects the query's batch dims on key and value, or fewer heads (dim -3) "
                      "that divide the query's (grouped-query attention), got ",
                      q, ", ", k, " and ", v);
  if (q.getDimSize(rank - 1) != k.getDimSize(rank - 1))
    return diag.error("expects query and key of one head size, got ", q.getDimSize(rank - 1),
                      " and ", k.getDimSize(rank - 1));
  if (k.getDimSize(rank - 2) != v.getDimSize(rank - 2))
    return diag.error("expects key and value of one sequence length, got ", k.getDimSize(rank - 2),
                      " and ", v.getDimSize(rank - 2));
  if (adaptor.getCausal() && k.getDimSize(rank - 2) < q.getDimSize(rank - 2))
    return diag.error("expects at least as many keys as queries when causal (every row sees a "
                      "key), got ", k.getDimSize(rank - 2), " keys and ", q.getDimSize(rank - 2),
                      " queries");
  SmallVector<int64_t> scores(q.getShape());
  scores.back() = k.getDimSize(rank - 2);
  if (Value mask = adaptor.getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    if (m.getElementType() != q.getElementType())
      return diag.error("expects a mask of the query's element type, got ", m.getElementType());
    FailureOr<SmallVector<int64_t>> shape = broadcastShapes(diag, m.getShape(), scores);
    if (failed(shape))
      return failure();
    if (ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>(scores))
      return diag.error("expects a mask that broadcasts to the scores' shape [",
                        shapeToString(scores), "], got ", m);
  }
  SmallVector<int64_t> shape(q.getShape());
  shape.back() = v.getDimSize(rank - 1);
  results.push_back(logical(RankedTensorType::get(shape, q.getElementType())));
  return success();
}
