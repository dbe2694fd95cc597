//===- OnnxMlSvmOps.cpp - support vector machines (ai.onnx.ml) -------------===//
//
// SVMRegressor and SVMClassifier, the ops scikit-learn's SVC / NuSVC / SVR / NuSVR / OneClassSVM
// convert to (libsvm's model: support vectors, dual coefficients, rho), built from ms ops:
//
//   K      = kernel(X, support vectors)                   [N, V]: a MatMul (LINEAR, POLY,
//                                                          SIGMOID) or squared distances (RBF)
//   scores = K @ W + rho                                   one MatMul: W [V, pairs] places each
//                                                          one-vs-one classifier's coefficients
//   votes  = (scores > 0) @ D + base                      [N, classes], exact small integers
//   label  = classlabels[argmax(votes)]
//
// and, where the model has Platt's pairwise coefficients (prob_a, prob_b), the class probabilities
// of libsvm's pairwise coupling (Wu, Lin and Weng's method 2) as onnxruntime iterates it: an
// ms.loop of at most 100 sweeps whose rows stop where they converged. The numbers follow
// onnxruntime's kernels (svmclassifier.cc, svmregressor.cc, ml_common.h), including its rules for
// two classes, which the ONNX spec leaves open.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"
#include "OnnxMlOps.h"

#include "mlir/IR/Verifier.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// Elements up to which the importer builds the constant tables of an SVM (the pair layout of
/// the coefficients, the vote and coupling maps).
constexpr int64_t kMaxTableElements = int64_t(1) << 26;

/// A libsvm kernel: LINEAR x.s, POLY (gamma x.s + coef0)^degree, RBF exp(-gamma |x - s|^2),
/// SIGMOID tanh(gamma x.s + coef0).
struct SvmKernel {
  enum Kind { linear, poly, rbf, sigmoid } kind = linear;
  double gamma = 0.0, coef0 = 0.0, degree = 0.0;
};

FailureOr<SvmKernel> readKernel(NodeImporter &n) {
  std::string type = n.getString("kernel_type", "LINEAR");
  auto params = n.getFloats("kernel_params");
  if (n.hasFailed())
    return failure();
  SvmKernel k;
  if (type == "LINEAR")
    k.kind = SvmKernel::linear;
  else if (type == "POLY")
    k.kind = SvmKernel::poly;
  else if (type == "RBF")
    k.kind = SvmKernel::rbf;
  else if (type == "SIGMOID")
    k.kind = SvmKernel::sigmoid;
  else
    return n.error() << "has an unknown kernel_type '" << type
                     << "' (LINEAR, POLY, RBF or SIGMOID)",
           failure();
  if (params && !params->empty()) {
    if (params->size() != 3)
      return n.error() << "expects 3 kernel_params (gamma, coef0, degree), got " << params->size(),
             failure();
    k.gamma = (*params)[0];
    k.coef0 = (*params)[1];
    k.degree = (*params)[2];
  }
  return k;
}

/// Elements up to which RBF's squared distances are summed from the differences themselves
/// ([N, V, F] at once); past it they come from |x|^2 + |s|^2 - 2 x.s, which costs no
/// intermediate but loses digits where x is close to a support vector.
constexpr int64_t kDirectDistanceElements = int64_t(1) << 24;

/// The kernel of every row of `x` [N, F] with every support vector of `vectors` ([V, F] row
/// major): [N, V] in f32.
Value kernelValues(NodeImporter &n, Ops &o, const SvmKernel &k, Value x, ArrayRef<double> vectors,
                   int64_t count) {
  Type f32 = Float32Type::get(n.context());
  int64_t rows = typeOf(x).getDimSize(0), features = typeOf(x).getDimSize(1);
  if (k.kind == SvmKernel::rbf && product({rows, count, features}) <= kDirectDistanceElements) {
    Value s = o.constant(KnownTensor::fromFloats({1, count, features}, f32, vectors));
    Value d = o.sub(o.reshape(x, {rows, 1, features}), s);
    Value squared = o.reduce<ms::ReduceSumOp>(o.mul(d, d), {2}, false);
    return o.op<ms::ExpOp>(o.mul(squared, o.scalar(f32, -k.gamma)));
  }
  SmallVector<double> transposed(vectors.size());
  for (int64_t v = 0; v < count; ++v)
    for (int64_t f = 0; f < features; ++f)
      transposed[f * count + v] = vectors[v * features + f];
  Value dot = o.op<ms::MatMulOp>(
      x, o.constant(KnownTensor::fromFloats({features, count}, f32, transposed)), TypeAttr());
  switch (k.kind) {
  case SvmKernel::linear:
    return dot;
  case SvmKernel::rbf: {
    SmallVector<double> norms(count, 0.0);
    for (int64_t v = 0; v < count; ++v)
      for (int64_t f = 0; f < features; ++f)
        norms[v] += vectors[v * features + f] * vectors[v * features + f];
    Value xx = o.reduce<ms::ReduceSumOp>(o.mul(x, x), {1}, true);
    Value ss = o.constant(KnownTensor::fromFloats({1, count}, f32, norms));
    Value squared = o.sub(o.add(xx, ss), o.mul(dot, o.scalar(f32, 2.0)));
    squared = o.op<ms::MaxOp>(squared, o.scalar(f32, 0.0));
    return o.op<ms::ExpOp>(o.mul(squared, o.scalar(f32, -k.gamma)));
  }
  case SvmKernel::poly:
  case SvmKernel::sigmoid:
    break;
  }
  Value t = o.add(o.mul(dot, o.scalar(f32, k.gamma)), o.scalar(f32, k.coef0));
  if (k.kind == SvmKernel::sigmoid)
    return o.op<ms::TanhOp>(t);
  if (k.degree == 2.0)
    return o.mul(t, t);
  if (k.degree == 3.0)
    return o.mul(o.mul(t, t), t);
  return o.op<ms::PowOp>(t, o.scalar(f32, k.degree));
}

/// `values` [rows, cols] as an f32 constant.
Value table(NodeImporter &n, Ops &o, int64_t rows, int64_t cols, ArrayRef<double> values) {
  return o.constant(KnownTensor::fromFloats({rows, cols}, Float32Type::get(n.context()), values));
}

/// SVMRegressor: support vectors (n_supports > 0): K(X, SV) @ coefficients + rho[0]; without them
/// (liblinear's form) X @ coefficients + rho[0]. one_class: 1 where that is > 0, else -1. Y is
/// [N, 1] f32.
LogicalResult importSVMRegressor(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), rho = n.getFloats("rho");
  auto vectors = n.getFloats("support_vectors");
  int64_t supports = n.getInt("n_supports", 0);
  bool oneClass = n.getInt("one_class", 0) != 0;
  std::string transform = n.getString("post_transform", "NONE");
  FailureOr<SvmKernel> kernel = readKernel(n);
  if (n.hasFailed() || failed(kernel))
    return failure();
  if (!coefficients || coefficients->empty() || !rho || rho->empty())
    return n.error() << "needs coefficients and rho";
  // onnxruntime ignores post_transform here while the spec applies it: neither reading is safe.
  if (transform != "NONE")
    return n.unsupportedFeature() << "post_transform '" << transform
                                  << "' (onnxruntime ignores it on SVMRegressor, the ONNX "
                                     "specification applies it)";
  if (supports < 0)
    return n.error() << "has a negative n_supports " << supports;
  Ops o(n);
  FailureOr<Value> x = ml::rowsOfFeatures(n, o);
  if (failed(x))
    return failure();
  int64_t features = typeOf(*x).getDimSize(1);
  Type f32 = Float32Type::get(n.context());
  Value y;
  if (supports > 0) {
    if (!vectors || static_cast<int64_t>(vectors->size()) != product({supports, features}))
      return n.error() << "has " << (vectors ? vectors->size() : 0)
                       << " support_vectors values for " << supports << " vectors of " << features
                       << " features";
    if (static_cast<int64_t>(coefficients->size()) != supports)
      return n.error() << "has " << coefficients->size() << " coefficients for " << supports
                       << " support vectors";
    Value k = kernelValues(n, o, *kernel, *x, *vectors, supports);
    y = o.op<ms::MatMulOp>(k, table(n, o, supports, 1, *coefficients), TypeAttr());
    y = o.add(y, o.scalar(f32, (*rho)[0]));
  } else {
    // liblinear's form: X coefficients^T + rho[0].
    FailureOr<Value> linear = ml::linearScores(n, o, *x, *coefficients, {(*rho)[0]}, 1);
    if (failed(linear))
      return failure();
    y = *linear;
  }
  if (oneClass)
    y = o.where(o.compare(ms::ComparePredicate::gt, y, o.scalar(f32, 0.0)), o.scalar(f32, 1.0),
                o.scalar(f32, -1.0));
  return finish(n, o, y);
}

/// libsvm's pairwise coupling of `pairwise` [N, k, k] (r[i][j]: the probability of i against j;
/// zero diagonal) into class probabilities [N, k], as onnxruntime's multiclass_probability does
/// it in f32: p = 1/k; Q[t][t] = sum_j r[j][t]^2, Q[t][j] = -r[j][t] r[t][j]; then up to 100
/// sweeps, each stopping a row once max_t |(Qp)_t - pQp| < 0.005 / k and otherwise updating p_t
/// for t = 0..k-1 in turn (Gauss-Seidel) and renormalizing. The sweeps are an ms.loop whose
/// carried values are p and a per-row "converged" flag; it ends once every row converged.
FailureOr<Value> coupleProbabilities(NodeImporter &n, Ops &o, Value pairwise, int64_t classes) {
  Type f32 = Float32Type::get(n.context()), i1 = IntegerType::get(n.context(), 1);
  Type i64 = IntegerType::get(n.context(), 64);
  int64_t rows = typeOf(pairwise).getDimSize(0);
  auto c = [&](double v) { return o.scalar(f32, v); };
  Value squares = o.reduce<ms::ReduceSumOp>(o.mul(pairwise, pairwise), {1}, false); // [N, k]
  SmallVector<double> eye(classes * classes, 0.0);
  for (int64_t t = 0; t < classes; ++t)
    eye[t * classes + t] = 1.0;
  Value q = o.sub(o.mul(o.reshape(squares, {rows, classes, 1}),
                        o.constant(KnownTensor::fromFloats({1, classes, classes}, f32, eye))),
                  o.mul(o.transpose(pairwise, {0, 2, 1}), pairwise));
  Value p0 = o.constant(KnownTensor::splatOf({rows, classes}, f32, 1.0 / double(classes)));
  Value done0 = o.constant(KnownTensor::splatOf({rows, 1}, i1, 0.0));
  Value trips = o.constant(KnownTensor::fromInts({}, i64, {100}));
  Value go = o.constant(KnownTensor::splatOf({}, i1, 1.0));
  if (o.failed())
    return failure();

  SmallVector<Type> carried = {p0.getType(), done0.getType()};
  auto loop = ms::LoopOp::create(n.builder(), n.loc(), carried, trips, go, ValueRange{p0, done0});
  Block *body = new Block();
  loop.getBody().push_back(body);
  body->addArgument(trips.getType(), n.loc());
  body->addArgument(go.getType(), n.loc());
  Value p = body->addArgument(p0.getType(), n.loc());
  Value done = body->addArgument(done0.getType(), n.loc());
  {
    OpBuilder::InsertionGuard guard(n.builder());
    n.builder().setInsertionPointToStart(body);
    // Qp and pQp afresh ("for numerical accuracy"), then the stopping test.
    auto matVec = [&](Value v) {
      return o.reduce<ms::ReduceSumOp>(o.mul(q, o.reshape(v, {rows, 1, classes})), {2}, false);
    };
    Value qp = matVec(p);
    Value pqp = o.reduce<ms::ReduceSumOp>(o.mul(p, qp), {1}, true);
    Value error = o.reduce<ms::ReduceMaxOp>(o.op<ms::AbsOp>(o.sub(qp, pqp)), {1}, true);
    Value converged = o.compare(ms::ComparePredicate::lt, error, c(0.005 / double(classes)));
    Value stop = o.op<ms::OrOp>(done, converged);
    Value next = p;
    for (int64_t t = 0; t < classes; ++t) {
      Value qt = o.slice(q, {0, t, 0}, {rows, 1, classes}, {1, 1, 1}); // [N, 1, k]
      Value qtt = o.reshape(o.slice(qt, {0, 0, t}, {rows, 1, 1}, {1, 1, 1}), {rows, 1});
      Value qpt = o.slice(qp, {0, t}, {rows, 1}, {1, 1});
      Value diff = o.div(o.sub(pqp, qpt), qtt);
      SmallVector<double> unit(classes, 0.0);
      unit[t] = 1.0;
      next = o.add(next, o.mul(diff, o.constant(KnownTensor::fromFloats({1, classes}, f32, unit))));
      Value scale = o.add(c(1.0), diff);
      pqp =
          o.div(o.div(o.add(pqp, o.mul(diff, o.add(o.mul(diff, qtt), o.mul(c(2.0), qpt)))), scale),
                scale);
      qp = o.div(o.add(qp, o.mul(diff, o.reshape(qt, {rows, classes}))), scale);
      next = o.div(next, scale);
    }
    next = o.where(stop, p, next);
    // Go on while any row has not converged.
    Value pending = o.reduce<ms::ReduceMaxOp>(o.cast(o.op<ms::NotOp>(stop), f32), {0, 1}, false);
    Value again = o.compare(ms::ComparePredicate::gt, pending, c(0.0));
    if (o.failed()) {
      loop->erase();
      return failure();
    }
    ms::RegionYieldOp::create(n.builder(), n.loc(), ValueRange{again, next, stop});
  }
  if (failed(mlir::verify(loop))) {
    loop->erase();
    return n.error() << "internal error: the pairwise coupling loop does not verify", failure();
  }
  return loop.getResult(0);
}

/// SVMClassifier with int64 labels. With support vectors (libsvm's SVC): one score per pair of
/// classes (i < j, in that order), a vote for i where it is > 0 and for j otherwise, the label of
/// the most voted class (the first of equals); scores are the pairs' (two classes: (-s, s) without
/// a transform, (1 - s, s) with one, as onnxruntime writes them), or with prob_a / prob_b the
/// coupled class probabilities. Without support vectors (liblinear's form): X W^T + rho[0] per
/// class and onnxruntime's rules for the label. Then the post transform over the scores.
LogicalResult importSVMClassifier(NodeImporter &n) {
  auto coefficients = n.getFloats("coefficients"), rho = n.getFloats("rho");
  auto vectors = n.getFloats("support_vectors");
  auto perClass = n.getInts("vectors_per_class");
  auto labels = n.getInts("classlabels_ints");
  auto probA = n.getFloats("prob_a"), probB = n.getFloats("prob_b");
  std::string transform = n.getString("post_transform", "NONE");
  FailureOr<SvmKernel> kernel = readKernel(n);
  if (n.hasFailed() || failed(kernel))
    return failure();
  if (n.hasAttr("classlabels_strings"))
    return n.unsupportedFeature() << "has string class labels (classlabels_strings): STRING "
                                     "tensors are not supported";
  if (!labels || labels->size() < 2)
    return n.error() << "needs at least two classlabels_ints";
  if (!coefficients || coefficients->empty() || !rho || rho->empty())
    return n.error() << "needs coefficients and rho";
  if (transform == "PROBIT")
    return n.unsupportedFeature() << "post_transform 'PROBIT' is not supported";
  SmallVector<double> a = probA.value_or(SmallVector<double>());
  SmallVector<double> b = probB.value_or(SmallVector<double>());
  if (a.size() != b.size())
    return n.error() << "has " << a.size() << " prob_a and " << b.size() << " prob_b values";
  int64_t classes = static_cast<int64_t>(labels->size());
  int64_t pairs = classes * (classes - 1) / 2;
  SmallVector<int64_t> counts = perClass.value_or(SmallVector<int64_t>());
  int64_t supports = 0;
  for (int64_t v : counts) {
    if (v < 0 || __builtin_add_overflow(supports, v, &supports))
      return n.error() << "has an invalid vectors_per_class entry " << v;
  }

  Ops o(n);
  FailureOr<Value> xOr = ml::rowsOfFeatures(n, o);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  int64_t rows = typeOf(x).getDimSize(0), features = typeOf(x).getDimSize(1);
  Type f32 = Float32Type::get(n.context()), i64 = IntegerType::get(n.context(), 64);
  Value classTable = o.constant(KnownTensor::fromInts({classes}, i64, *labels));
  Value label, z;

  if (supports == 0) {
    // liblinear's form: one score per class, rho[0] added to each.
    FailureOr<Value> linear =
        ml::linearScores(n, o, x, *coefficients, SmallVector<double>(classes, (*rho)[0]), classes);
    if (failed(linear))
      return failure();
    Value scores = *linear;
    Value best = o.op<ms::ArgMaxOp>(scores, uint64_t(1), false, false);
    label = o.op<ms::GatherOp>(classTable, best, uint64_t(0));
    if (classes == 2) {
      // onnxruntime's binary rule on the largest score w: the second label where all weights are
      // >= 0 and w >= 0.5, or some weight is negative and w > 0; else the argmax's.
      bool allPositive = llvm::all_of(*coefficients, [](double w) { return w >= 0.0; });
      Value top = o.reshape(o.reduce<ms::ReduceMaxOp>(scores, {1}, false), {rows});
      Value second = o.compare(allPositive ? ms::ComparePredicate::ge : ms::ComparePredicate::gt,
                               top, o.scalar(f32, allPositive ? 0.5 : 0.0));
      label = o.where(second, o.constant(KnownTensor::fromInts({}, i64, {(*labels)[1]})), label);
    }
    FailureOr<Value> transformed = ml::postTransform(n, o, scores, transform);
    if (failed(transformed))
      return failure();
    z = *transformed;
  } else {
    if (static_cast<int64_t>(counts.size()) != classes)
      return n.error() << "has " << counts.size() << " vectors_per_class entries for " << classes
                       << " classes";
    if (!vectors || static_cast<int64_t>(vectors->size()) != product({supports, features}))
      return n.error() << "has " << (vectors ? vectors->size() : 0)
                       << " support_vectors values for " << supports << " vectors of " << features
                       << " features";
    if (static_cast<int64_t>(coefficients->size()) < product({classes - 1, supports}))
      return n.error() << "has " << coefficients->size() << " coefficients for " << classes - 1
                       << " rows of " << supports << " support vectors";
    if (static_cast<int64_t>(rho->size()) < pairs)
      return n.error() << "has " << rho->size() << " rho values for " << pairs << " class pairs";
    if (!a.empty() && static_cast<int64_t>(a.size()) < pairs)
      return n.error() << "has " << a.size() << " prob_a values for " << pairs << " class pairs";
    // The tables below: [V, pairs], [pairs, k] and with probabilities 2 x [pairs, k * k].
    if (product({supports, pairs}) > kMaxTableElements ||
        product({pairs, classes}) > kMaxTableElements ||
        (!a.empty() && product({pairs, classes, classes}) > kMaxTableElements))
      return n.unsupportedFeature() << "has " << supports << " support vectors and " << classes
                                    << " classes: its pair tables are too large";
    // W [V, pairs]: pair (i, j) reads class i's vectors with coefficient row j - 1 and class j's
    // with row i (libsvm's layout); D [pairs, k] and base: the votes.
    SmallVector<int64_t> start(classes, 0);
    for (int64_t k = 1; k < classes; ++k)
      start[k] = start[k - 1] + counts[k - 1];
    SmallVector<double> w(supports * pairs, 0.0), d(pairs * classes, 0.0), base(classes, 0.0);
    SmallVector<double> upper(a.empty() ? 0 : pairs * classes * classes, 0.0),
        lower(upper.size(), 0.0);
    int64_t pair = 0;
    for (int64_t i = 0; i < classes; ++i) {
      for (int64_t j = i + 1; j < classes; ++j, ++pair) {
        for (int64_t v = 0; v < counts[i]; ++v)
          w[(start[i] + v) * pairs + pair] = (*coefficients)[(j - 1) * supports + start[i] + v];
        for (int64_t v = 0; v < counts[j]; ++v)
          w[(start[j] + v) * pairs + pair] = (*coefficients)[i * supports + start[j] + v];
        d[pair * classes + i] = 1.0;
        d[pair * classes + j] = -1.0;
        base[j] += 1.0;
        if (!upper.empty()) {
          upper[pair * classes * classes + i * classes + j] = 1.0;
          lower[pair * classes * classes + j * classes + i] = 1.0;
        }
      }
    }
    // The pairs' sums in f64, as onnxruntime accumulates them: they cancel (coefficients of both
    // signs over hundreds of vectors), and the coupled probabilities amplify their error ~5x.
    Type f64 = Float64Type::get(n.context());
    Value k = o.cast(kernelValues(n, o, *kernel, x, *vectors, supports), f64);
    Value pairSums = o.op<ms::MatMulOp>(
        k, o.constant(KnownTensor::fromFloats({supports, pairs}, f64, w)), TypeAttr());
    SmallVector<double> rhoF32;
    for (double r : ArrayRef<double>(*rho).take_front(pairs))
      rhoF32.push_back(static_cast<float>(r));
    Value scores =
        o.cast(o.add(pairSums, o.constant(KnownTensor::fromFloats({1, pairs}, f64, rhoF32))), f32);
    Value positive = o.cast(o.compare(ms::ComparePredicate::gt, scores, o.scalar(f32, 0.0)), f32);
    Value votes = o.add(o.op<ms::MatMulOp>(positive, table(n, o, pairs, classes, d), TypeAttr()),
                        table(n, o, 1, classes, base));
    label = o.op<ms::GatherOp>(classTable, o.op<ms::ArgMaxOp>(votes, uint64_t(1), false, false),
                               uint64_t(0));
    if (!a.empty()) {
      // Platt's sigmoid per pair, 1 - logistic(s a + b), kept in [1e-7, 1 - 1e-7]; r[i][j] takes
      // it and r[j][i] its complement.
      Value sa = o.add(o.mul(scores, table(n, o, 1, pairs, ArrayRef<double>(a).take_front(pairs))),
                       table(n, o, 1, pairs, ArrayRef<double>(b).take_front(pairs)));
      Value r = o.op<ms::SigmoidOp>(o.op<ms::NegOp>(sa));
      r = o.op<ms::MinOp>(o.op<ms::MaxOp>(r, o.scalar(f32, 1e-7)), o.scalar(f32, 1.0f - 1e-7f));
      Value pairwise =
          o.add(o.op<ms::MatMulOp>(r, table(n, o, pairs, classes * classes, upper), TypeAttr()),
                o.op<ms::MatMulOp>(o.sub(o.scalar(f32, 1.0), r),
                                   table(n, o, pairs, classes * classes, lower), TypeAttr()));
      if (o.failed())
        return failure();
      FailureOr<Value> p =
          coupleProbabilities(n, o, o.reshape(pairwise, {rows, classes, classes}), classes);
      if (failed(p))
        return failure();
      FailureOr<Value> transformed = ml::postTransform(n, o, *p, transform);
      if (failed(transformed))
        return failure();
      z = *transformed;
    } else if (classes == 2) {
      // One score s: (-s, s) without a transform, else (1 - s, s) untransformed (onnxruntime).
      Value first =
          o.constant(KnownTensor::fromInts({1, 2}, IntegerType::get(n.context(), 1), {1, 0}));
      Value other =
          transform == "NONE" ? o.op<ms::NegOp>(scores) : o.sub(o.scalar(f32, 1.0), scores);
      z = o.where(first, other, scores);
    } else {
      FailureOr<Value> transformed = ml::postTransform(n, o, scores, transform);
      if (failed(transformed))
        return failure();
      z = *transformed;
    }
  }
  if (o.failed() || !label || !z)
    return failure();
  n.setOutput(0, label);
  if (n.hasOutput(1))
    n.setOutput(1, z);
  return success();
}

} // namespace

void mlir::mie::onnx_import::registerMlSvmOps(OnnxOpTable &table) {
  table[domainOpKey(kMlDomain, "SVMRegressor")] = {importSVMRegressor, 1, 1};
  table[domainOpKey(kMlDomain, "SVMClassifier")] = {importSVMClassifier, 1, 1};
}
