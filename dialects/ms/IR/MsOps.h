//===- MsOps.h - ms dialect ops ---------------------------------*- C++ -*-===//

#ifndef MS_IR_MSOPS_H
#define MS_IR_MSOPS_H

#include "dialects/ms/IR/MsDialect.h"

#include <tuple>

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/ms/IR/MsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ms/IR/MsAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/ms/IR/MsOps.h.inc"

namespace mlir::ms {

/// The ms ops computed element by element (operands broadcast numpy-style). One list, so that what
/// elementwise fusion groups and what the lowering gives a scalar body cannot drift apart.
using ElementwiseOps =
    std::tuple<AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp, ModOp, CompareOp, WhereOp, CastOp,
               AndOp, OrOp, XorOp, NotOp, ShiftLeftOp, ShiftRightOp, ReluOp, ClipOp, SigmoidOp,
               HardSigmoidOp, HardSwishOp, GeluOp, TanhOp, ErfOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
               ReciprocalOp, NegOp, AbsOp, SignOp, IsNanOp, IsInfOp, FloorOp, CeilOp, RoundOp,
               SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp, AcoshOp,
               AtanhOp>;

namespace detail {
template <typename... Ops>
bool isOneOf(Operation *op, std::tuple<Ops...> *) {
  return isa<Ops...>(op);
}
} // namespace detail

/// Whether `op` is one of ElementwiseOps.
inline bool isElementwiseOp(Operation *op) {
  return detail::isOneOf(op, static_cast<ElementwiseOps *>(nullptr));
}

/// Whether key/value batch dims `kvBatch` serve an attention whose query has batch dims
/// `queryBatch`: equal, or fewer heads (the last batch dim) dividing the query's, query head h
/// then reading key/value head h / (H / Hkv) (grouped-query and multi-query attention).
bool isKeyValueBatch(ArrayRef<int64_t> queryBatch, ArrayRef<int64_t> kvBatch);

/// An ms.einsum equation split into its operand terms and output, one letter per dim.
struct EinsumEquation {
  SmallVector<std::string> terms;
  std::string output;
};

/// Parses ONNX's Einsum equation for operands of `ranks`: spaces ignored, an explicit
/// (`ab,bc->ac`) or implicit (`ab,bc`: the labels used once, in alphabetical order) output, and
/// "..." for leading dims, spelled with letters the equation does not use. Failure with the reason
/// in `error` when malformed or when it does not fit the ranks.
FailureOr<EinsumEquation> parseEinsumEquation(StringRef equation, ArrayRef<int64_t> ranks,
                                              std::string &error);

} // namespace mlir::ms

#endif // MS_IR_MSOPS_H
