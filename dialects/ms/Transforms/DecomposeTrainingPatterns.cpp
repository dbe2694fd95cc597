//===- DecomposeTrainingPatterns.cpp - ms-decompose's optimizer steps ------===//
//
// ms.adagrad, ms.momentum and ms.adam as elementwise ops: R and T converted to the tensors' float
// type as scalars, the step-dependent factors (decay, bias correction, T > 0) computed from T in
// the graph, then each optimized tensor's update. The ops are built in the order the importer
// built them when it expanded these steps itself (see Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// An optimizer step's operands: R and T as 0-d scalars of the tensors' float type, and the
/// tensors in `groups` groups (X, G, and the optimizer's state).
struct OptimizerInputs {
  Value rate, step;
  Type elementType;
  int64_t count = 0;
  SmallVector<SmallVector<Value>> groups; // groups[g][i]
};

OptimizerInputs readInputs(OpChain &o, Value rate, Value step, ValueRange tensors, int64_t groups) {
  OptimizerInputs in;
  in.count = static_cast<int64_t>(tensors.size()) / groups;
  in.elementType = tensorTypeOf(tensors[0]).getElementType();
  for (int64_t g = 0; g < groups; ++g)
    in.groups.emplace_back(tensors.slice(g * in.count, in.count));
  in.rate = o.reshape(o.cast(rate, in.elementType), {});
  in.step = o.reshape(o.cast(step, in.elementType), {});
  return in;
}

/// The gradient with its L2 regularization term: norm_coefficient * X + G.
Value regularizedGradient(OpChain &o, const OptimizerInputs &in, double norm, Value x, Value g) {
  return o.add(o.mul(o.scalar(in.elementType, norm), x), g);
}

/// T > 0: the steps after the first, where the step-dependent factors apply.
Value afterFirstStep(OpChain &o, const OptimizerInputs &in) {
  return o.compare(ComparePredicate::gt, in.step, o.scalar(in.elementType, 0.0));
}

/// sqrt(H) + epsilon, the denominator of the adaptive updates.
Value rootPlusEpsilon(OpChain &o, const OptimizerInputs &in, Value h, double epsilon) {
  return o.add(o.op<SqrtOp>(h), o.scalar(in.elementType, epsilon));
}

/// Replaces `op` by the result groups, in order.
void replaceByGroups(PatternRewriter &rewriter, Operation *op,
                     ArrayRef<SmallVector<Value>> results) {
  SmallVector<Value> values;
  for (const SmallVector<Value> &group : results)
    values.append(group.begin(), group.end());
  rewriter.replaceOp(op, values);
}

struct DecomposeAdagrad : OpRewritePattern<AdagradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AdagradOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    OptimizerInputs in = readInputs(o, op.getRate(), op.getStep(), op.getTensors(), 3);
    double decay = op.getDecayFactor().convertToDouble(),
           epsilon = op.getEpsilon().convertToDouble(),
           norm = op.getNormCoefficient().convertToDouble();
    Type et = in.elementType;
    Value rate = o.div(in.rate, o.add(o.scalar(et, 1.0), o.mul(in.step, o.scalar(et, decay))));
    SmallVector<SmallVector<Value>> results(2);
    for (int64_t i = 0; i < in.count; ++i) {
      Value x = in.groups[0][i], g = in.groups[1][i], h = in.groups[2][i];
      Value grad = regularizedGradient(o, in, norm, x, g);
      Value hNew = o.add(h, o.mul(grad, grad));
      results[0].push_back(
          o.sub(x, o.div(o.mul(rate, grad), rootPlusEpsilon(o, in, hNew, epsilon))));
      results[1].push_back(hNew);
    }
    replaceByGroups(rewriter, op, results);
    return success();
  }
};

struct DecomposeMomentum : OpRewritePattern<MomentumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MomentumOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    OptimizerInputs in = readInputs(o, op.getRate(), op.getStep(), op.getTensors(), 3);
    double alpha = op.getAlpha().convertToDouble(), beta = op.getBeta().convertToDouble(),
           norm = op.getNormCoefficient().convertToDouble();
    Type et = in.elementType;
    Value betaNow = o.where(afterFirstStep(o, in), o.scalar(et, beta), o.scalar(et, 1.0));
    SmallVector<SmallVector<Value>> results(2);
    for (int64_t i = 0; i < in.count; ++i) {
      Value x = in.groups[0][i], g = in.groups[1][i], v = in.groups[2][i];
      Value grad = regularizedGradient(o, in, norm, x, g);
      Value vNew = o.add(o.mul(o.scalar(et, alpha), v), o.mul(betaNow, grad));
      Value step = !op.getNesterov() ? vNew : o.add(grad, o.mul(o.scalar(et, alpha), vNew));
      results[0].push_back(o.sub(x, o.mul(in.rate, step)));
      results[1].push_back(vNew);
    }
    replaceByGroups(rewriter, op, results);
    return success();
  }
};

struct DecomposeAdam : OpRewritePattern<AdamOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AdamOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    OptimizerInputs in = readInputs(o, op.getRate(), op.getStep(), op.getTensors(), 4);
    double alpha = op.getAlpha().convertToDouble(), beta = op.getBeta().convertToDouble(),
           epsilon = op.getEpsilon().convertToDouble(),
           norm = op.getNormCoefficient().convertToDouble(),
           normPost = op.getNormCoefficientPost().convertToDouble();
    Type et = in.elementType;
    Value one = o.scalar(et, 1.0);
    Value corrected =
        o.div(o.mul(in.rate, o.op<SqrtOp>(o.sub(one, o.op<PowOp>(o.scalar(et, beta), in.step)))),
              o.sub(one, o.op<PowOp>(o.scalar(et, alpha), in.step)));
    Value rate = o.where(afterFirstStep(o, in), corrected, in.rate);
    SmallVector<SmallVector<Value>> results(3);
    for (int64_t i = 0; i < in.count; ++i) {
      Value x = in.groups[0][i], g = in.groups[1][i], v = in.groups[2][i], h = in.groups[3][i];
      Value grad = regularizedGradient(o, in, norm, x, g);
      Value vNew = o.add(o.mul(o.scalar(et, alpha), v), o.mul(o.scalar(et, 1.0 - alpha), grad));
      Value hNew =
          o.add(o.mul(o.scalar(et, beta), h), o.mul(o.scalar(et, 1.0 - beta), o.mul(grad, grad)));
      Value xNew = o.sub(x, o.div(o.mul(rate, vNew), rootPlusEpsilon(o, in, hNew, epsilon)));
      results[0].push_back(o.mul(o.scalar(et, 1.0 - normPost), xNew));
      results[1].push_back(vNew);
      results[2].push_back(hNew);
    }
    replaceByGroups(rewriter, op, results);
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeTrainingPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeAdagrad, DecomposeMomentum, DecomposeAdam>(patterns.getContext());
}
