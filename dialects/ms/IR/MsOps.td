//===- MsOps.td - all ms ops ----------------------------------------------===//
//
// One tablegen unit for the dialect; the op families live in their own files.
//
//===----------------------------------------------------------------------===//

#ifndef MS_OPS_TD
#define MS_OPS_TD

include "dialects/ms/IR/MsBase.td"
include "dialects/ms/IR/MsElementwiseOps.td"
include "dialects/ms/IR/MsNNOps.td"
include "dialects/ms/IR/MsTensorOps.td"
include "dialects/ms/IR/MsFusionOps.td"
include "dialects/ms/IR/MsRecurrentOps.td"
include "dialects/ms/IR/MsControlFlowOps.td"
include "dialects/ms/IR/MsDynamicShapeOps.td"
include "dialects/ms/IR/MsCompositeOps.td"
include "dialects/ms/IR/MsCompositeMathOps.td"
include "dialects/ms/IR/MsCompositeIndexingOps.td"
include "dialects/ms/IR/MsRandomOps.td"
include "dialects/ms/IR/MsImageOps.td"
include "dialects/ms/IR/MsMlOps.td"
include "dialects/ms/IR/MsTrainingOps.td"
include "dialects/ms/IR/MsQuantOps.td"

#endif // MS_OPS_TD
