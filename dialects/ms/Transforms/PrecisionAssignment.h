//===- PrecisionAssignment.h - element types under a precision policy -*- C++ -*-===//
//
// The logic of ms-assign-precision, apart from its thin pass file: which ops a policy reduces,
// the rewrite that retypes them and converts at the boundaries, and the cast minimization
// patterns (reusable on their own).
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRANSFORMS_PRECISIONASSIGNMENT_H
#define MS_TRANSFORMS_PRECISIONASSIGNMENT_H

#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>
#include <vector>

namespace mlir::ms {

enum class PrecisionPolicy { FP32, FP16, BF16, Mixed };

struct PrecisionConfig {
  PrecisionPolicy policy = PrecisionPolicy::FP32;
  /// The reduced element type of `mixed` (bf16 or f16); fp16/bf16 imply theirs.
  bool mixedUsesF16 = false;
  /// ONNX op types, ms op names or ONNX node names (see Passes.td).
  std::vector<std::string> keepFp32, forceReduced;
  /// dynamic_fp16: weights stored as f16, converted to f32 where used.
  bool weightsFp16 = false;
};

/// Parses the pass options; on a bad value returns failure with `error` saying what was expected.
FailureOr<PrecisionConfig> parsePrecisionConfig(StringRef precision, StringRef mixedType,
                                                ArrayRef<std::string> keepFp32,
                                                ArrayRef<std::string> forceReduced,
                                                StringRef quantizeMethod, std::string &error);

/// Assigns element types in `func` under `config`, inserts and folds the conversions, runs the
/// cast minimization patterns and records the `ms.precision` summary on `func`.
LogicalResult assignPrecision(func::FuncOp func, const PrecisionConfig &config);

/// Cast minimization on its own: casts of f32 constants to narrower floats folded into new
/// constants, and casts moved past data-movement ops to where fewer elements flow.
void populateCastMinimizationPatterns(RewritePatternSet &patterns);

/// Bytes the ms.constant ops under `root` store: every element of a blob or non-splat dense
/// attribute, one of a splat.
int64_t constantBytes(Operation *root);

/// Round to nearest even, f32 -> the bit pattern of a bf16 / IEEE half (NaN stays NaN, overflow
/// gives infinity).
uint16_t roundToBF16(float value);
uint16_t roundToF16(float value);

} // namespace mlir::ms

#endif // MS_TRANSFORMS_PRECISIONASSIGNMENT_H
