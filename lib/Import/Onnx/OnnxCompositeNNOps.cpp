//===- OnnxCompositeNNOps.cpp - Upsample, LRN, ConvTranspose, Einsum ------===//
//
// NN ops imported as ms ops that ms-decompose expands or one-op mappings: Upsample as ms.resize,
// LRN as ms.lrn, ConvTranspose as ms.conv_transpose (auto_pad and output_shape resolved into
// pads), Einsum as ms.einsum (implicit output and "..." written out); MaxPool's indices.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

//===----------------------------------------------------------------------===//
// Upsample, LRN, ConvTranspose
//===----------------------------------------------------------------------===//

/// Upsample (opsets 7-9, and the experimental nearest form of opsets 1-6): an ms.resize to
/// floor(dim * scale) with Upsample's asymmetric coordinates (nearest rounds down).
LogicalResult importUpsample(NodeImporter &n) {
  std::string mode = n.getString("mode", "nearest");
  if (n.hasFailed())
    return failure();
  SmallVector<double> scales;
  if (n.opset() < 7) {
    // The experimental Upsample-1: NCHW, height_scale/width_scale attributes. Its bilinear mode
    // has no coordinate convention written down, so only nearest is taken.
    if (mode != "nearest")
      return n.unsupportedFeature()
             << "mode '" << mode << "' of Upsample-1 (opsets 1-6) is not supported";
    if (n.inputType(0).getRank() != 4)
      return n.error() << "expects a 4-D input (opsets 1-6), got " << n.inputType(0);
    if (!n.hasAttr("height_scale") || !n.hasAttr("width_scale"))
      return n.error() << "attributes 'height_scale' and 'width_scale' are required";
    scales = {1.0, 1.0, n.getFloat("height_scale", 1.0), n.getFloat("width_scale", 1.0)};
    if (n.hasFailed())
      return failure();
  } else if (n.hasInput(1)) {
    FailureOr<KnownTensor> known = constantInput(n, 1, "scales");
    if (failed(known))
      return failure();
    for (int64_t i = 0, e = known->numElements(); i < e; ++i)
      scales.push_back(known->valueAt(i));
  } else if (std::optional<SmallVector<double>> attr = n.getFloats("scales")) {
    scales = *attr;
  } else {
    return n.hasFailed() ? failure() : n.error() << "scales are required";
  }
  RankedTensorType xType = n.inputType(0);
  if ((int64_t)scales.size() != xType.getRank())
    return n.error() << "expects " << xType.getRank() << " scales for " << xType << ", got "
                     << scales.size();
  SmallVector<int64_t> sizes;
  for (auto [dim, scale] : llvm::zip(xType.getShape(), scales)) {
    if (!(scale >= 1.0))
      return n.error() << "scales must be >= 1, got " << scale;
    std::optional<int64_t> size = sizeFromDouble(std::floor(double(dim) * scale));
    if (!size)
      return n.error() << "upsampled dimension " << dim << " x " << scale << " is too large";
    sizes.push_back(*size);
  }
  if (!isReasonableShape(sizes))
    return n.error() << "upsampled shape " << listToString(sizes) << " is too large";
  ms::ResizeMode resizeMode;
  if (mode == "nearest")
    resizeMode = ms::ResizeMode::nearest;
  else if (mode == "linear" || mode == "bilinear")
    resizeMode = ms::ResizeMode::linear;
  else
    return n.error() << "mode '" << mode << "' must be nearest or linear";
  Ops o(n);
  Value y = o.op<ms::ResizeOp>(o.in(0), ArrayRef<int64_t>(sizes), resizeMode,
                               ms::CoordinateMode::asymmetric, ms::NearestMode::floor);
  return finish(n, o, y);
}

/// LRN: x / (bias + alpha / size * sum of squares over a channel window)^beta, as ms.lrn
/// (ms-decompose makes the window sum an average pool over the channel dim).
LogicalResult importLRN(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1e-4), beta = n.getFloat("beta", 0.75),
         bias = n.getFloat("bias", 1.0);
  int64_t size = n.getInt("size", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() < 3)
    return n.error() << "expects an input of rank >= 3 ([N, C, spatial...]), got " << xType;
  if (size < 1)
    return n.error() << "size must be >= 1, got " << size;
  Ops o(n);
  return finish(n, o, o.op<ms::LrnOp>(o.in(0), size, APFloat(alpha), APFloat(beta), APFloat(bias)));
}

/// A per-spatial-dim attribute with a default.
FailureOr<SmallVector<int64_t>> spatialInts(NodeImporter &n, StringRef name, size_t count,
                                            int64_t defaultValue) {
  std::optional<SmallVector<int64_t>> values = n.getInts(name);
  if (n.hasFailed())
    return failure();
  if (!values)
    return SmallVector<int64_t>(count, defaultValue);
  if (values->size() != count)
    return n.error() << "'" << name << "' " << listToString(*values) << " must have " << count
                     << " entries";
  return *values;
}

/// ConvTranspose (1-D to 3-D) as ms.conv_transpose, with auto_pad and output_shape resolved into
/// explicit pads (ms-decompose runs it as a stride-1 convolution of the zero-inserted input).
LogicalResult importConvTranspose(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0), wType = n.inputType(1);
  int64_t rank = xType.getRank();
  if (rank < 3 || rank > 5)
    return n.unsupportedFeature()
           << "only 1-D, 2-D and 3-D transposed convolutions are implemented, got an input "
           << xType;
  if (wType.getRank() != rank)
    return n.error() << "weight " << wType << " must have the rank of the input " << xType;
  size_t spatial = rank - 2;
  int64_t group = n.getInt("group", 1);
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  FailureOr<SmallVector<int64_t>> strides = spatialInts(n, "strides", spatial, 1);
  FailureOr<SmallVector<int64_t>> dilations = spatialInts(n, "dilations", spatial, 1);
  FailureOr<SmallVector<int64_t>> outputPadding = spatialInts(n, "output_padding", spatial, 0);
  if (failed(strides) || failed(dilations) || failed(outputPadding) || n.hasFailed())
    return failure();
  std::optional<SmallVector<int64_t>> pads = n.getInts("pads");
  std::optional<SmallVector<int64_t>> outputShape = n.getInts("output_shape");
  std::optional<SmallVector<int64_t>> kernelShape = n.getInts("kernel_shape");
  if (n.hasFailed())
    return failure();
  ArrayRef<int64_t> in = xType.getShape().drop_front(2), kernel = wType.getShape().drop_front(2);
  if (kernelShape && ArrayRef<int64_t>(*kernelShape) != kernel)
    return n.error() << "kernel_shape " << listToString(*kernelShape)
                     << " does not match the weight " << wType;
  if (llvm::any_of(kernel, [](int64_t k) { return k < 1; }))
    return n.error() << "weight " << wType << " has an empty kernel";
  int64_t cin = xType.getDimSize(1);
  if (group < 1 || cin % group != 0 || wType.getDimSize(0) != cin)
    return n.error() << "weight " << wType << " and group " << group << " do not fit the input "
                     << xType;
  for (size_t i = 0; i < spatial; ++i)
    if ((*strides)[i] < 1 || (*dilations)[i] < 1 || (*outputPadding)[i] < 0)
      return n.error() << "strides and dilations must be >= 1 and output_padding >= 0";
  if (outputShape && outputShape->size() == spatial + 2)
    outputShape->erase(outputShape->begin(), outputShape->begin() + 2); // [N, C, spatial...]

  SmallVector<int64_t> kEff, begin(spatial), end(spatial);
  for (size_t i = 0; i < spatial; ++i)
    kEff.push_back((kernel[i] - 1) * (*dilations)[i] + 1);
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return n.error() << "auto_pad '" << autoPad << "' is not supported";
  if (pads && autoPad == "NOTSET") {
    if (pads->size() != 2 * spatial)
      return n.error() << "'pads' " << listToString(*pads) << " must have " << 2 * spatial
                       << " entries";
    for (size_t i = 0; i < spatial; ++i) {
      begin[i] = (*pads)[i];
      end[i] = (*pads)[i + spatial];
    }
  } else if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    // The total padding that gives the requested size (ONNX: in * stride for SAME_*); the odd
    // unit goes to the end for SAME_UPPER, to the beginning otherwise.
    if (outputShape && outputShape->size() != spatial)
      return n.error() << "output_shape " << listToString(*outputShape) << " must have " << spatial
                       << " entries";
    for (size_t i = 0; i < spatial; ++i) {
      int64_t out = outputShape ? (*outputShape)[i] : in[i] * (*strides)[i];
      int64_t total = (*strides)[i] * (in[i] - 1) + (*outputPadding)[i] + kEff[i] - out;
      int64_t half = llvm::divideFloorSigned(total, 2); // total < 0 extends the end with zeros
      begin[i] = autoPad == "SAME_UPPER" ? half : total - half;
      end[i] = total - begin[i];
    }
  }
  SmallVector<int64_t> outSpatial;
  for (size_t i = 0; i < spatial; ++i) {
    outSpatial.push_back((*strides)[i] * (in[i] - 1) + (*outputPadding)[i] + kEff[i] - begin[i] -
                         end[i]);
    if (outSpatial.back() < 1)
      return n.error() << "pads and output_shape give an empty output";
  }

  SmallVector<int64_t> resolvedPads(begin);
  llvm::append_range(resolvedPads, end);
  Ops o(n);
  Value bias = n.hasInput(2) ? o.in(2) : Value();
  return finish(n, o,
                o.op<ms::ConvTransposeOp>(o.in(0), o.in(1), bias, ArrayRef<int64_t>(*strides),
                                          ArrayRef<int64_t>(resolvedPads),
                                          ArrayRef<int64_t>(*dilations),
                                          ArrayRef<int64_t>(*outputPadding),
                                          static_cast<uint64_t>(group)));
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// Einsum: explicit ("ij,jk->ik") or implicit output, "..." for leading dims, checked and written
/// out as ms.einsum's explicit form of letters (ms-decompose contracts it).
LogicalResult importEinsum(NodeImporter &n) {
  std::string equation = n.getString("equation", "");
  if (n.hasFailed())
    return failure();
  std::string eq;
  for (char c : equation)
    if (c != ' ')
      eq.push_back(c);
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::optional<std::string> output;
  if (arrow != std::string::npos)
    output = eq.substr(arrow + 2);
  // Labels are letters; digits are used below for the dims "..." stands for.
  if (!llvm::all_of(eq, [](char c) { return llvm::isAlpha(c) || StringRef(".,->").contains(c); }))
    return n.error() << "equation '" << equation << "' has a character other than letters, ',', "
                     << "'...' and '->'";
  SmallVector<StringRef> pieces;
  StringRef(lhs).split(pieces, ',');
  SmallVector<std::string> terms;
  for (StringRef term : pieces)
    terms.push_back(term.str());
  unsigned count = n.node().inputs.size();
  if (terms.size() != count)
    return n.error() << "equation '" << equation << "' names " << terms.size()
                     << " operands, the node has " << count;

  // "..." becomes labels '0', '1', ... for the leading dims (right-aligned across operands).
  int64_t ellipsisRank = 0;
  auto expandEllipsis = [&](std::string &term, int64_t rank) -> LogicalResult {
    size_t dots = term.find("...");
    if (dots == std::string::npos)
      return success();
    int64_t covered = rank - (int64_t)(term.size() - 3);
    if (covered < 0 || covered > 10)
      return failure();
    std::string labels;
    for (int64_t i = 0; i < covered; ++i)
      labels.push_back('0' + (char)(10 - covered + i));
    ellipsisRank = std::max(ellipsisRank, covered);
    term.replace(dots, 3, labels);
    return success();
  };
  for (unsigned i = 0; i < count; ++i) {
    int64_t rank = n.inputType(i).getRank();
    if (failed(expandEllipsis(terms[i], rank)) || (int64_t)terms[i].size() != rank ||
        terms[i].find('.') != std::string::npos)
      return n.error() << "term '" << terms[i] << "' of '" << equation << "' does not fit operand "
                       << i << " of type " << n.inputType(i);
  }
  std::string out;
  if (output) {
    out = *output;
    size_t dots = out.find("...");
    if (dots != std::string::npos) {
      std::string labels;
      for (int64_t i = 0; i < ellipsisRank; ++i)
        labels.push_back('0' + (char)(10 - ellipsisRank + i));
      out.replace(dots, 3, labels);
    }
  } else {
    // Implicit output: the ellipsis dims, then the labels used once, in alphabetical order.
    std::map<char, int> uses;
    for (const std::string &term : terms)
      for (char c : term)
        ++uses[c];
    for (int64_t i = 0; i < ellipsisRank; ++i)
      out.push_back('0' + (char)(10 - ellipsisRank + i));
    for (auto [c, uses] : uses)
      if (uses == 1 && !llvm::isDigit(c))
        out.push_back(c);
  }
  for (char c : out)
    if (llvm::none_of(terms,
                      [&](const std::string &t) { return t.find(c) != std::string::npos; }) ||
        llvm::count(out, c) != 1)
      return n.error() << "output '" << out << "' of '" << equation
                       << "' names a label that is repeated or not in any operand";

  // ms.einsum takes letters only: the ellipsis' digit labels become letters the equation does
  // not use.
  std::string unused;
  for (char c = 'a'; c <= 'z'; ++c)
    unused.push_back(c);
  for (char c = 'A'; c <= 'Z'; ++c)
    unused.push_back(c);
  llvm::erase_if(unused, [&](char c) { return eq.find(c) != std::string::npos; });
  if ((int64_t)unused.size() < ellipsisRank)
    return n.unsupportedFeature() << "equation '" << equation << "' uses too many letters to "
                                  << "spell its '...' dims";
  auto spell = [&](std::string s) {
    for (char &c : s)
      if (llvm::isDigit(c))
        c = unused[c - '0' - (10 - ellipsisRank)];
    return s;
  };
  std::string explicitForm;
  for (unsigned i = 0; i < count; ++i)
    explicitForm += (i ? "," : "") + spell(terms[i]);
  explicitForm += "->" + spell(out);
  Ops o(n);
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < count; ++i)
    inputs.push_back(o.in(i));
  return finish(n, o, o.op<ms::EinsumOp>(ValueRange(inputs), explicitForm));
}

} // namespace

/// The input padded with -inf (so padding never wins) is read once per window tap with a strided
/// slice; a strictly greater tap replaces the running maximum and its index, so the first maximum
/// in row-major window order stays, as in ONNX's reference. Indices are a constant [Hp, Wp] plane
/// index plus a constant [N, C, 1, 1] offset.
FailureOr<Value> mlir::mie::onnx_import::maxPoolIndices(
    NodeImporter &n, Value x, Value pooled, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations, bool columnMajor) {
  ArrayRef<int64_t> in = typeOf(x).getShape(), out = typeOf(pooled).getShape();
  int64_t batch = in[0], channels = in[1], h = in[2], w = in[3];
  // Rows/columns the last window reaches past the padded input (ceil_mode) are padded too.
  SmallVector<int64_t> padEnd = {pads[2], pads[3]};
  int64_t extent[2];
  for (int i = 0; i < 2; ++i) {
    int64_t reach = (out[2 + i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
    extent[i] = std::max(reach, in[2 + i] + pads[i] + pads[2 + i]);
    padEnd[i] = extent[i] - in[2 + i] - pads[i];
  }
  if (extent[0] * extent[1] > kMaxKnownElements || batch * channels > kMaxKnownElements)
    return n.unsupportedFeature() << "Indices of a pool over " << typeOf(x)
                                  << " are too large to build at compile time";
  SmallVector<int64_t> plane;
  for (int64_t r = 0; r < extent[0]; ++r) {
    for (int64_t c = 0; c < extent[1]; ++c) {
      int64_t hh = r - pads[0], ww = c - pads[1];
      bool inside = hh >= 0 && hh < h && ww >= 0 && ww < w;
      plane.push_back(!inside ? 0 : columnMajor ? hh + ww * h : hh * w + ww);
    }
  }
  SmallVector<int64_t> offsets;
  for (int64_t i = 0; i < batch * channels; ++i)
    offsets.push_back(i * h * w);
  Type i64 = n.builder().getI64Type();
  Ops o(n);
  Value padded =
      o.op<ms::PadOp>(x, ArrayRef<int64_t>{0, 0, pads[0], pads[1], 0, 0, padEnd[0], padEnd[1]},
                      ms::PadMode::constant, APFloat(-std::numeric_limits<double>::infinity()));
  Value planeIndex = o.constant(KnownTensor::fromInts({extent[0], extent[1]}, i64, plane));
  Value best, bestIndex;
  for (int64_t i = 0; i < kernel[0]; ++i) {
    for (int64_t j = 0; j < kernel[1]; ++j) {
      int64_t r = i * dilations[0], c = j * dilations[1];
      Value tap = o.slice(padded, {0, 0, r, c}, {batch, channels, out[2], out[3]},
                          {1, 1, strides[0], strides[1]});
      Value tapIndex = o.slice(planeIndex, {r, c}, {out[2], out[3]}, {strides[0], strides[1]});
      if (!best) {
        best = tap;
        bestIndex = o.expand(tapIndex, {batch, channels, out[2], out[3]});
        continue;
      }
      Value greater = o.compare(ms::ComparePredicate::gt, tap, best);
      best = o.where(greater, tap, best);
      bestIndex = o.where(greater, tapIndex, bestIndex);
    }
  }
  Value offset = o.constant(KnownTensor::fromInts({batch, channels, 1, 1}, i64, offsets));
  Value indices = o.add(bestIndex, offset);
  if (o.failed())
    return failure();
  return indices;
}

void mlir::mie::onnx_import::composite::registerCompositeNNOps(OnnxOpTable &table) {
  table["Upsample"] = {importUpsample, 1, 2};
  table["LRN"] = {importLRN, 1, 1};
  table["ConvTranspose"] = {importConvTranspose, 2, 3};
  table["Einsum"] = {importEinsum, 1, ~0u, 12};
}
