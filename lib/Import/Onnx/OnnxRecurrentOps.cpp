//===- OnnxRecurrentOps.cpp - RNN, GRU, LSTM ------------------------------===//
//
// Each layer becomes the input projection of all its steps as one ms.gemm ([T·B, I] x [D·G·H, I]ᵀ
// plus the biases that do not depend on the state) and one ms.rnn / ms.gru / ms.lstm holding the
// recurrence (docs/recurrent.md). layout = 1 ([B, T, ...] tensors) is transposed to layout 0 around
// them.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstring>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

enum class Cell { Rnn, Gru, Lstm };

struct CellInfo {
  int64_t gates, activations;
  SmallVector<StringRef, 3> defaults;
};

CellInfo cellInfo(Cell cell) {
  switch (cell) {
  case Cell::Rnn:
    return {1, 1, {"tanh"}};
  case Cell::Gru:
    return {3, 2, {"sigmoid", "tanh"}};
  case Cell::Lstm:
    return {4, 3, {"sigmoid", "tanh", "tanh"}};
  }
  llvm_unreachable("unknown cell");
}

/// How an activation reads activation_alpha / activation_beta (ONNX: consumed in order by the
/// activations that take them) and its defaults: those of the ONNX operator of the same name.
struct ActivationArgs {
  bool alpha, beta;
  double alphaDefault, betaDefault;
};

std::optional<ActivationArgs> activationArgs(StringRef name) {
  return llvm::StringSwitch<std::optional<ActivationArgs>>(name)
      .Case("relu", ActivationArgs{false, false, 0, 0})
      .Case("tanh", ActivationArgs{false, false, 0, 0})
      .Case("sigmoid", ActivationArgs{false, false, 0, 0})
      .Case("softsign", ActivationArgs{false, false, 0, 0})
      .Case("softplus", ActivationArgs{false, false, 0, 0})
      .Case("affine", ActivationArgs{true, true, 1.0, 0.0})
      .Case("leakyrelu", ActivationArgs{true, false, 0.01, 0})
      .Case("thresholdedrelu", ActivationArgs{true, false, 1.0, 0})
      .Case("scaledtanh", ActivationArgs{true, true, 1.0, 1.0})
      .Case("hardsigmoid", ActivationArgs{true, true, 0.2, 0.5})
      .Case("elu", ActivationArgs{true, false, 1.0, 0})
      .Default(std::nullopt);
}

/// The projection's bias [D * G * H] (Wb + Rb, without Rbh when `rbhApart`) and with `rbhApart`
/// Rbh [D, H], computed at import from B [D, 2 * G * H] when it is f32 model data, as new
/// resources next to it; nullopt otherwise (the caller then builds them out of ms ops).
std::optional<std::pair<Value, Value>> biasesFromData(NodeImporter &n, Value bias, int64_t dirs,
                                                      int64_t gh, int64_t hidden, bool rbhApart) {
  auto constant = bias.getDefiningOp<ms::ConstantOp>();
  auto resource = constant ? dyn_cast<DenseResourceElementsAttr>(constant.getValue())
                           : DenseResourceElementsAttr();
  if (!resource || !resource.getRawHandle().getBlob() || !typeOf(bias).getElementType().isF32() ||
      resource.getData().size() != size_t(dirs * 2 * gh) * sizeof(float))
    return std::nullopt;
  ArrayRef<char> bytes = resource.getData();
  auto at = [&](int64_t i) {
    float v;
    std::memcpy(&v, bytes.data() + i * sizeof(float), sizeof(float));
    return v;
  };
  std::vector<float> sum(dirs * gh), rbh;
  for (int64_t d = 0; d < dirs; ++d) {
    for (int64_t j = 0; j < gh; ++j) {
      float rb = at(d * 2 * gh + gh + j);
      bool isRbh = rbhApart && j >= gh - hidden;
      sum[d * gh + j] = at(d * 2 * gh + j) + (isRbh ? 0.0f : rb);
      if (isRbh)
        rbh.push_back(rb);
    }
  }
  OpBuilder &b = n.builder();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(constant); // with the model's other constants
  auto make = [&](ArrayRef<float> values, ArrayRef<int64_t> shape, StringRef suffix) {
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(reinterpret_cast<const char *>(values.data()), values.size() * 4),
        alignof(float), /*dataIsMutable=*/false);
    std::string name = (resource.getRawHandle().getKey() + suffix).str();
    auto attr = DenseResourceElementsAttr::get(typeOf(bias).clone(shape), name, std::move(blob));
    return (Value)ms::ConstantOp::create(b, constant.getLoc(), attr);
  };
  Value gemmBias = make(sum, {dirs * gh}, ".projection_bias");
  Value recurrenceBias = rbhApart ? make(rbh, {dirs, hidden}, ".rbh") : Value();
  return std::make_pair(gemmBias, recurrenceBias);
}

LogicalResult importRecurrent(NodeImporter &n, Cell cell) {
  CellInfo info = cellInfo(cell);
  MLIRContext *ctx = n.context();
  std::string directionName = n.getString("direction", "forward");
  int64_t layout = n.getInt("layout", 0);
  int64_t hiddenAttr = n.getInt("hidden_size", -1);
  bool hasClip = n.hasAttr("clip");
  double clip = n.getFloat("clip", 0.0);
  bool inputForget = cell == Cell::Lstm && n.getInt("input_forget", 0) != 0;
  bool linearBeforeReset = cell == Cell::Gru && n.getInt("linear_before_reset", 0) != 0;
  std::optional<SmallVector<double>> alphas = n.getFloats("activation_alpha");
  std::optional<SmallVector<double>> betas = n.getFloats("activation_beta");
  SmallVector<std::string> activationNames;
  if (n.hasAttr("activations")) {
    const OnnxAttribute &attr = n.node().attributes.find("activations")->second;
    if (attr.kind != OnnxAttribute::Kind::Strings)
      return n.error() << "attribute 'activations' must be STRINGS, got " << attr.typeName;
    for (const std::string &s : attr.strings)
      activationNames.push_back(StringRef(s).lower());
  }
  if (n.hasFailed())
    return failure();

  std::optional<ms::RnnDirection> direction = ms::symbolizeRnnDirection(directionName);
  if (!direction)
    return n.error() << "direction must be forward, reverse or bidirectional, got '"
                     << directionName << "'";
  if (layout != 0 && layout != 1)
    return n.error() << "layout must be 0 or 1, got " << layout;
  int64_t dirs = *direction == ms::RnnDirection::bidirectional ? 2 : 1;

  // Activations: one list per direction; a single direction's list is used for both.
  if (activationNames.empty())
    for (int64_t d = 0; d < dirs; ++d)
      activationNames.append(info.defaults.begin(), info.defaults.end());
  if (dirs == 2 && (int64_t)activationNames.size() == info.activations)
    activationNames.append(SmallVector<std::string>(activationNames));
  if ((int64_t)activationNames.size() != info.activations * dirs)
    return n.error() << "expects " << info.activations * dirs << " activations ("
                     << info.activations << " per direction), got " << activationNames.size();
  SmallVector<Attribute> names;
  SmallVector<double> alpha, beta;
  size_t nextAlpha = 0, nextBeta = 0;
  for (const std::string &name : activationNames) {
    std::optional<ActivationArgs> args = activationArgs(name);
    if (!args)
      return n.unsupportedFeature() << "activation '" << name << "'";
    names.push_back(StringAttr::get(ctx, name));
    double a = args->alphaDefault, b = args->betaDefault;
    if (args->alpha && alphas && nextAlpha < alphas->size())
      a = (*alphas)[nextAlpha++];
    if (args->beta && betas && nextBeta < betas->size())
      b = (*betas)[nextBeta++];
    alpha.push_back(a);
    beta.push_back(b);
  }

  Ops o(n);
  Value x = o.in(0), w = o.in(1), r = o.in(2);
  FailureOr<Value> bias = n.optionalInput(3), lens = n.optionalInput(4), h0 = n.optionalInput(5),
                   c0 = Value(), peep = Value();
  if (cell == Cell::Lstm) {
    c0 = n.optionalInput(6);
    peep = n.optionalInput(7);
  }
  if (o.failed() || failed(bias) || failed(lens) || failed(h0) || failed(c0) || failed(peep))
    return failure();
  RankedTensorType xType = typeOf(x), wType = typeOf(w), rType = typeOf(r);
  if (xType.getRank() != 3 || !xType.hasStaticShape())
    return n.error() << "expects a static X of rank 3, got " << xType;
  if (wType.getRank() != 3 || rType.getRank() != 3 || !wType.hasStaticShape() ||
      !rType.hasStaticShape())
    return n.error() << "expects static W and R of rank 3, got " << wType << " and " << rType;
  int64_t hidden = rType.getDimSize(2), gh = info.gates * hidden;
  if (hiddenAttr >= 0 && hiddenAttr != hidden)
    return n.error() << "hidden_size " << hiddenAttr << " does not match R " << rType;
  if (wType.getDimSize(0) != dirs || wType.getDimSize(1) != gh ||
      wType.getDimSize(2) != xType.getDimSize(2))
    return n.error() << "expects W of shape [" << dirs << ", " << gh << ", " << xType.getDimSize(2)
                     << "], got " << wType;

  // layout 1 holds [B, T, I] and [B, D, H]: the recurrence runs on layout 0.
  if (layout == 1) {
    x = o.transpose(x, {1, 0, 2});
    if (*h0)
      *h0 = o.transpose(*h0, {1, 0, 2});
    if (*c0)
      *c0 = o.transpose(*c0, {1, 0, 2});
  }
  if (o.failed())
    return failure();
  int64_t steps = typeOf(x).getDimSize(0), batch = typeOf(x).getDimSize(1);
  int64_t inputSize = xType.getDimSize(2);

  // Biases that do not depend on the state go into the projection: Wb + Rb, except GRU's Rbh
  // with linear_before_reset, which the reset gate scales inside the recurrence. Model data is
  // summed here, once; a computed B by ms ops.
  Value gemmBias, recurrenceBias;
  if (*bias) {
    RankedTensorType bType = typeOf(*bias);
    if (bType.getShape() != ArrayRef<int64_t>{dirs, 2 * gh})
      return n.error() << "expects B of shape [" << dirs << ", " << 2 * gh << "], got " << bType;
  }
  if (*bias) {
    if (auto folded = biasesFromData(n, *bias, dirs, gh, hidden, linearBeforeReset))
      std::tie(gemmBias, recurrenceBias) = *folded;
  }
  if (*bias && !gemmBias) {
    Value wb = o.slice(*bias, {0, 0}, {dirs, gh}, {1, 1});
    Value rb = o.slice(*bias, {0, gh}, {dirs, gh}, {1, 1});
    if (linearBeforeReset) {
      recurrenceBias = o.slice(*bias, {0, gh + 2 * hidden}, {dirs, hidden}, {1, 1});
      rb = o.pad(o.slice(*bias, {0, gh}, {dirs, 2 * hidden}, {1, 1}), {0, 0, 0, hidden});
    }
    gemmBias = o.reshape(o.add(wb, rb), {dirs * gh});
  }
  Value gates = o.op<ms::GemmOp>(o.reshape(x, {steps * batch, inputSize}),
                                 o.reshape(w, {dirs * gh, inputSize}), gemmBias, APFloat(1.0),
                                 APFloat(1.0), false, true, TypeAttr());
  gates = o.reshape(gates, {steps, batch, dirs, gh});
  if (o.failed())
    return failure();

  auto dirAttr = ms::RnnDirectionAttr::get(ctx, *direction);
  ArrayAttr activations = ArrayAttr::get(ctx, names);
  FloatAttr clipAttr = hasClip ? FloatAttr::get(Float64Type::get(ctx), clip) : FloatAttr();
  auto alphaAttr = DenseF64ArrayAttr::get(ctx, alpha), betaAttr = DenseF64ArrayAttr::get(ctx, beta);
  auto flag = [&](bool set) { return set ? UnitAttr::get(ctx) : UnitAttr(); };
  FailureOr<Operation *> op = failure();
  switch (cell) {
  case Cell::Rnn:
    op = n.createVariadicOp<ms::RnnOp>(gates, r, *h0, *lens, dirAttr, activations, alphaAttr,
                                       betaAttr, clipAttr);
    break;
  case Cell::Gru:
    op = n.createVariadicOp<ms::GruOp>(gates, r, recurrenceBias, *h0, *lens, dirAttr, activations,
                                       alphaAttr, betaAttr, clipAttr, flag(linearBeforeReset));
    break;
  case Cell::Lstm:
    op = n.createVariadicOp<ms::LstmOp>(gates, r, *h0, *c0, *peep, *lens, dirAttr, activations,
                                        alphaAttr, betaAttr, clipAttr, flag(inputForget));
    break;
  }
  if (failed(op))
    return failure();

  // Outputs back in the model's layout: Y [T, D, B, H] / [B, T, D, H], Y_h and Y_c [D, B, H] /
  // [B, D, H].
  for (unsigned i = 0; i < (*op)->getNumResults() && i < n.numOutputs(); ++i) {
    if (!n.hasOutput(i))
      continue;
    Value v = (*op)->getResult(i);
    if (layout == 1)
      v = i == 0 ? o.transpose(v, {2, 0, 1, 3}) : o.transpose(v, {1, 0, 2});
    if (o.failed())
      return failure();
    n.setOutput(i, v);
  }
  return success();
}

template <Cell C>
LogicalResult importCell(NodeImporter &n) {
  return importRecurrent(n, C);
}

} // namespace

void mlir::mie::onnx_import::registerRecurrentOps(OnnxOpTable &table) {
  table["RNN"] = {importCell<Cell::Rnn>, 3, 6};
  table["GRU"] = {importCell<Cell::Gru>, 3, 6};
  table["LSTM"] = {importCell<Cell::Lstm>, 3, 8};
}
