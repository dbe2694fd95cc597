//===- FlopCount.cpp - arithmetic a kernel does per run -------------------===//

#include "dialects/mie/Utils/FlopCount.h"

#include "dialects/mie/IR/MieOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

static int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

int64_t mlir::mie::countLibraryOpFlops(Operation *op) {
  // Code for symbolic dims: the count depends on the run's shape, which a kernel's static
  // attribute cannot give.
  if (llvm::any_of(op->getOperandTypes(), [](Type t) {
        auto memref = dyn_cast<MemRefType>(t);
        return memref && !memref.hasStaticShape();
      }))
    return 0;
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    // The filter may be packed: its logical shape is then in filter_shape.
    SmallVector<int64_t> filter =
        conv.getFilterShape()
            ? llvm::to_vector(*conv.getFilterShape())
            : llvm::to_vector(cast<MemRefType>(conv.getFilter().getType()).getShape());
    auto out = cast<MemRefType>(conv.getOutput().getType());
    // out = [N, F, OH, OW]; filter = [F, C / groups, KH, KW].
    return 2 * product(out.getShape()) * filter[1] * filter[2] * filter[3];
  }
  if (auto qconv = dyn_cast<QConv2dOp>(op)) {
    // Integer multiply-adds, counted as two operations like the float ones.
    SmallVector<int64_t> filter = qconv.getLogicalFilterShape();
    auto out = cast<MemRefType>(qconv.getOutput().getType());
    return 2 * product(out.getShape()) * filter[1] * filter[2] * filter[3];
  }
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    auto a = cast<MemRefType>(gemm.getA().getType());
    auto out = cast<MemRefType>(gemm.getOutput().getType());
    int64_t k = a.getShape()[gemm.getTransA() ? a.getRank() - 2 : a.getRank() - 1];
    return 2 * product(out.getShape()) * k;
  }
  if (auto attention = dyn_cast<AttentionOp>(op)) {
    // Q K^T and P V: 2 S T (D + Dv) per batch index (the softmax's exps not counted).
    ArrayRef<int64_t> q = cast<MemRefType>(attention.getQuery().getType()).getShape();
    // The value's logical [..., T, Dv] (token-major buffers hold [..., T, H, Dv]).
    SmallVector<int64_t> v = attention.getLogicalShape(attention.getValue());
    int64_t keys = v[v.size() - 2];
    int64_t rows = product(q) / q.back();
    if (!attention.getCausal())
      return 2 * rows * keys * (q.back() + v.back());
    // Causal: query row i of S sees i + 1 + (T - S) keys, S * T - S * (S - 1) / 2 pairs per head.
    int64_t seq = attention.getLogicalShape(attention.getQuery())[q.size() - 2];
    int64_t pairs = seq * keys - seq * (seq - 1) / 2;
    return 2 * (rows / seq) * pairs * (q.back() + v.back());
  }
  return 0;
}

/// Float arithmetic in one linalg body (per iteration).
static int64_t bodyFlops(linalg::LinalgOp op) {
  int64_t n = 0;
  op->getRegion(0).walk([&](Operation *inner) {
    if (inner->getNumResults() != 1 || !isa<FloatType>(inner->getResult(0).getType()))
      return;
    Dialect *dialect = inner->getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::ConstantOp, arith::SelectOp>(inner))
      return;
    n += isa<math::FmaOp>(inner) ? 2 : 1;
  });
  return n;
}

int64_t mlir::mie::countFlops(Operation *root) {
  int64_t total = 0;
  root->walk([&](Operation *op) {
    if (int64_t lib = countLibraryOpFlops(op)) {
      total += lib;
      return WalkResult::skip();
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      return WalkResult::advance();
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return WalkResult::skip();
    total += product(ranges) * bodyFlops(linalgOp);
    return WalkResult::skip();
  });
  return total;
}
