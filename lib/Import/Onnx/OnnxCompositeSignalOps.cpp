//===- OnnxCompositeSignalOps.cpp - DFT, STFT, windows, mel matrix --------===//
//
// The signal-processing ops of opsets 17+. DFT and STFT become ms.dft and ms.stft (ms-decompose
// runs them as products with cos / sin matrices: dialects/ms/Transforms/
// DecomposeSignalPatterns.cpp); their handlers read the known lengths and steps. The window
// functions and MelWeightMatrix depend only on their (known) scalar inputs and are evaluated at
// import into known constants, which later shape arithmetic may read.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// The output element type named by `output_datatype` (default float).
FailureOr<Type> outputDataType(NodeImporter &n) {
  int64_t dtype = n.getInt("output_datatype", 1);
  if (n.hasFailed())
    return failure();
  Type et = elementTypeFor(n.context(), dtype);
  if (!et)
    return n.error() << "unsupported element type " << dataTypeName(dtype) << " for the output";
  return et;
}

/// DFT (opsets 17 and 20): the signal [..., N, ..., 1 or 2] along `axis` (an attribute in opset
/// 17, an input from 20) at length dft_length (default N); inverse divides by the length; onesided
/// keeps bins 0 .. length / 2.
LogicalResult importDFT(NodeImporter &n) {
  bool inverse = n.getInt("inverse", 0) != 0;
  bool onesided = n.getInt("onesided", 0) != 0;
  int64_t axis = n.opset() >= 20 ? -2 : n.getInt("axis", 1);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (n.opset() >= 20 && n.hasInput(2)) {
    FailureOr<int64_t> known = knownScalar(n, 2, "axis");
    if (failed(known))
      return failure();
    axis = *known;
  }
  if (axis < -rank || axis >= rank - 1 || axis == -1)
    return n.error() << "axis " << axis << " must name a signal dim of " << xType
                     << " (not the last, complex dim)";
  axis = axis < 0 ? axis + rank : axis;
  int64_t length = xType.getDimSize(axis);
  if (n.hasInput(1)) {
    FailureOr<int64_t> known = knownScalar(n, 1, "dft_length");
    if (failed(known))
      return failure();
    length = *known;
  }
  Ops o(n);
  return finish(n, o, o.op<ms::DftOp>(o.in(0), axis, length, inverse, onesided));
}

/// STFT (opset 17): frames of frame_length samples every frame_step samples of the signal
/// [batch, length, 1 or 2], each weighted by the window (ones when absent) and transformed, giving
/// [batch, frames, bins, 2]. The frames are one gather of the signal by a constant index.
LogicalResult importSTFT(NodeImporter &n) {
  bool onesided = n.getInt("onesided", 1) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<int64_t> step = knownScalar(n, 1, "frame_step");
  if (failed(step))
    return failure();
  bool haveWindow = n.hasInput(2);
  int64_t frameLength = 0;
  if (haveWindow) {
    RankedTensorType wType = n.inputType(2);
    if (wType.getRank() != 1)
      return n.error() << "expects a 1-D window, got " << wType;
    frameLength = wType.getDimSize(0);
  }
  if (n.hasInput(3)) {
    FailureOr<int64_t> known = knownScalar(n, 3, "frame_length");
    if (failed(known))
      return failure();
    if (haveWindow && *known != frameLength)
      return n.error() << "frame_length " << *known << " differs from the window's length "
                       << frameLength;
    frameLength = *known;
  }
  if (!haveWindow && !n.hasInput(3))
    return n.error() << "expects a window or a frame_length";
  Ops o(n);
  Value window = haveWindow ? o.in(2) : Value();
  return finish(n, o, o.op<ms::StftOp>(o.in(0), window, *step, frameLength, onesided));
}

/// The generalized cosine windows: HannWindow, HammingWindow and BlackmanWindow of `size`
/// (a known scalar) samples, periodic (denominator size) or symmetric (size - 1).
enum class WindowKind { Hann, Hamming, Blackman };

template <WindowKind kind>
LogicalResult importWindow(NodeImporter &n) {
  bool periodic = n.getInt("periodic", 1) != 0;
  FailureOr<Type> et = outputDataType(n);
  if (failed(et))
    return failure();
  // A size given as a graph input: the declared output's, checked at run time.
  std::optional<SmallVector<int64_t>> declared = n.declaredOutputShape(0);
  FailureOr<int64_t> size =
      scalarOrDeclared(n, 0, "size",
                       declared && declared->size() == 1 ? std::optional<int64_t>(declared->front())
                                                         : std::nullopt);
  if (failed(size))
    return failure();
  if (*size < 1 || *size > kMaxKnownElements)
    return n.error() << "size " << *size << " must be in [1, " << kMaxKnownElements << "]";
  double a0, a1, a2 = 0.0;
  switch (kind) {
  case WindowKind::Hann:
    a0 = 0.5, a1 = 0.5;
    break;
  case WindowKind::Hamming:
    a0 = 25.0 / 46.0, a1 = 21.0 / 46.0;
    break;
  case WindowKind::Blackman:
    a0 = 0.42, a1 = 0.5, a2 = 0.08;
    break;
  }
  double denominator = periodic ? double(*size) : double(*size - 1);
  SmallVector<double> values;
  for (int64_t i = 0; i < *size; ++i) {
    // A symmetric window of one sample has denominator 0: ONNX's reference gives NaN there.
    double t = 2.0 * M_PI * double(i) / denominator;
    values.push_back(a0 - a1 * std::cos(t) + a2 * std::cos(2.0 * t));
  }
  n.setKnownOutput(0, KnownTensor::fromFloats({*size}, n.builder().getF64Type(), values)
                          .castTo(*et));
  return success();
}

/// MelWeightMatrix (opset 17): the [dft_length / 2 + 1, num_mel_bins] triangular filter bank of
/// ONNX's definition (HTK mel scale, bin edges floored to DFT bins), evaluated at import.
LogicalResult importMelWeightMatrix(NodeImporter &n) {
  FailureOr<Type> et = outputDataType(n);
  if (failed(et))
    return failure();
  FailureOr<int64_t> melBins = knownScalar(n, 0, "num_mel_bins");
  FailureOr<int64_t> dftLength =
      succeeded(melBins) ? knownScalar(n, 1, "dft_length") : FailureOr<int64_t>(failure());
  FailureOr<int64_t> sampleRate =
      succeeded(dftLength) ? knownScalar(n, 2, "sample_rate") : FailureOr<int64_t>(failure());
  if (failed(sampleRate))
    return failure();
  FailureOr<const KnownTensor *> lower = n.requireKnown(3, "lower_edge_hertz");
  if (failed(lower))
    return failure();
  FailureOr<const KnownTensor *> upper = n.requireKnown(4, "upper_edge_hertz");
  if (failed(upper))
    return failure();
  int64_t spectrogramBins = *dftLength / 2 + 1;
  if (*melBins < 1 || *dftLength < 1 || *sampleRate < 1 ||
      spectrogramBins * *melBins > kMaxKnownElements)
    return n.error() << "expects positive num_mel_bins, dft_length and sample_rate (at most "
                     << kMaxKnownElements << " outputs), got " << *melBins << ", " << *dftLength
                     << " and " << *sampleRate;
  double lowHz = (*lower)->valueAt(0), highHz = (*upper)->valueAt(0);
  double lowMel = 2595.0 * std::log10(1.0 + lowHz / 700.0);
  double highMel = 2595.0 * std::log10(1.0 + highHz / 700.0);
  double melStep = (highMel - lowMel) / double(*melBins + 2);
  SmallVector<int64_t> edges;
  for (int64_t i = 0; i < *melBins + 2; ++i) {
    double hz = 700.0 * (std::pow(10.0, (double(i) * melStep + lowMel) / 2595.0) - 1.0);
    // numpy's floor division of a float by an integer, then truncation to int
    edges.push_back(static_cast<int64_t>(std::floor(double(*dftLength + 1) * hz /
                                                    double(*sampleRate))));
  }
  for (int64_t edge : edges)
    if (edge < 0 || edge >= spectrogramBins)
      return n.error() << "a mel band edge falls on DFT bin " << edge << ", outside [0, "
                       << spectrogramBins << "): check lower_edge_hertz, upper_edge_hertz and "
                                             "sample_rate";
  SmallVector<double> values(spectrogramBins * *melBins, 0.0);
  auto at = [&](int64_t j, int64_t i) -> double & { return values[j * *melBins + i]; };
  for (int64_t i = 0; i < *melBins; ++i) {
    int64_t left = edges[i], center = edges[i + 1], right = edges[i + 2];
    if (center == left)
      at(center, i) = 1.0;
    else
      for (int64_t j = left; j <= center; ++j)
        at(j, i) = double(j - left) / double(center - left);
    for (int64_t j = center; j < right; ++j)
      at(j, i) = double(right - j) / double(right - center);
  }
  n.setKnownOutput(0, KnownTensor::fromFloats({spectrogramBins, *melBins},
                                              n.builder().getF64Type(), values)
                          .castTo(*et));
  return success();
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeSignalOps(OnnxOpTable &table) {
  table["DFT"] = {importDFT, 1, 3, 17};
  table["STFT"] = {importSTFT, 2, 4, 17};
  table["HannWindow"] = {importWindow<WindowKind::Hann>, 1, 1, 17};
  table["HammingWindow"] = {importWindow<WindowKind::Hamming>, 1, 1, 17};
  table["BlackmanWindow"] = {importWindow<WindowKind::Blackman>, 1, 1, 17};
  table["MelWeightMatrix"] = {importMelWeightMatrix, 5, 5, 17};
}
