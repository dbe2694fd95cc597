//===- Patterns.h - rewrite patterns of the ms passes -----------*- C++ -*-===//

#ifndef MS_TRANSFORMS_PATTERNS_H
#define MS_TRANSFORMS_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::ms {

/// ms-decompose: the composite ops (MsCompositeOps.td) as ms primitives.
void populateDecomposePatterns(RewritePatternSet &patterns);
void populateDecomposeConvPatterns(RewritePatternSet &patterns);
void populateDecomposeSamplingPatterns(RewritePatternSet &patterns);
void populateDecomposeSignalPatterns(RewritePatternSet &patterns);
void populateDecomposeLossPatterns(RewritePatternSet &patterns);
void populateDecomposeMlPatterns(RewritePatternSet &patterns);
void populateDecomposeResizePatterns(RewritePatternSet &patterns);
void populateDecomposeMathPatterns(RewritePatternSet &patterns);
void populateDecomposeSequencePatterns(RewritePatternSet &patterns);
void populateDecomposeNormPatterns(RewritePatternSet &patterns);
void populateDecomposeIndexingPatterns(RewritePatternSet &patterns);
void populateDecomposeMlEncoderPatterns(RewritePatternSet &patterns);
void populateDecomposeTrainingPatterns(RewritePatternSet &patterns);
void populateDecomposeRandomPatterns(RewritePatternSet &patterns);
void populateDecomposeQuantPatterns(RewritePatternSet &patterns);

/// Expands `op`, one of the ops ms-decompose expands before its greedy phase, right away with the
/// same pattern, each op folded as it is built on the constants `constantOf` reads: for the
/// importer, which evaluates model data so that later nodes see the value as known. Returns the
/// value that replaced `op`, or its result where no pattern applies.
Value expandImportComposite(Operation *op, function_ref<DenseElementsAttr(Value)> constantOf);

/// conv2d + batch_norm / per-channel constant mul / add -> conv2d with new weights and bias; other
/// constant-parameter batch_norms -> per-channel mul + add.
void populateFoldBatchNormPatterns(RewritePatternSet &patterns);

/// The composite-op recognitions of ms-recognize-composites, by family.
void populateNormalizationPatterns(RewritePatternSet &patterns);
void populateAttentionPatterns(RewritePatternSet &patterns);

} // namespace mlir::ms

#endif // MS_TRANSFORMS_PATTERNS_H
