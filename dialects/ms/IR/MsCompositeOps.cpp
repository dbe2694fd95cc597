//===- MsCompositeOps.cpp - ms.tile, ms.trilu, the normalizations, ... ------===//
//
// Result types and folders of the ops `ms-decompose` expands (their decompositions are in
// dialects/ms/Transforms/DecomposePatterns.cpp). ms.tile folds on constants, as the shape
// arithmetic the importer resolves may go through it.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsConstantFold.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The static [N, C, H, W] input of the block moves, with a blocksize >= 1.
FailureOr<RankedTensorType> blockMoveInput(const InferDiag &diag, Value input, int64_t blocksize) {
  RankedTensorType type = tensorType(input);
  if (type.getRank() != 4 || !type.hasStaticShape())
    return diag.error("expects a static 4-D input, got ", type);
  // Bounded so that blocksize^2 and the sizes times blocksize cannot overflow.
  if (blocksize < 1 || blocksize > (1 << 16))
    return diag.error("expects a blocksize in [1, 65536], got ", blocksize);
  return type;
}

} // namespace

LogicalResult TileOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  if (!type.hasStaticShape())
    return diag.error("expects a static input, got ", type);
  if (failed(checkArraySize(diag, "repeats", repeats, type.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [size, r] : llvm::zip(type.getShape(), repeats)) {
    int64_t tiled;
    if (r < 0 || llvm::MulOverflow(size, r, tiled))
      return diag.error("expects non-negative repeats that keep sizes in int64, got [",
                        llvm::make_range(repeats.begin(), repeats.end()), "]");
    shape.push_back(tiled);
  }
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

OpFoldResult TileOp::fold(FoldAdaptor adaptor) {
  if (getType() == getInput().getType())
    return getInput();
  if (!getDenseConstant(adaptor.getInput()))
    return {};
  ArrayRef<int64_t> inShape = getInput().getType().getShape(), outShape = getType().getShape();
  SmallVector<int64_t> inStrides = rowMajorStrides(inShape), outStrides = rowMajorStrides(outShape);
  return foldGather({adaptor.getInput()}, getType(), [&](int64_t i) {
    int64_t from = 0;
    for (size_t d = 0; d < outShape.size(); ++d)
      from += ((i / outStrides[d]) % outShape[d]) % inShape[d] * inStrides[d];
    return std::make_pair(0u, from);
  });
}

LogicalResult DepthToSpaceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  int64_t b = adaptor.getBlocksize();
  FailureOr<RankedTensorType> type = blockMoveInput(diag, adaptor.getInput(), b);
  if (failed(type))
    return failure();
  ArrayRef<int64_t> s = type->getShape();
  if (s[1] % (b * b) != 0)
    return diag.error("expects blocksize^2 (", b * b, ") to divide the ", s[1], " channels");
  results.push_back(
      RankedTensorType::get({s[0], s[1] / (b * b), s[2] * b, s[3] * b}, type->getElementType()));
  return success();
}

LogicalResult SpaceToDepthOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  int64_t b = adaptor.getBlocksize();
  FailureOr<RankedTensorType> type = blockMoveInput(diag, adaptor.getInput(), b);
  if (failed(type))
    return failure();
  ArrayRef<int64_t> s = type->getShape();
  if (s[2] % b != 0 || s[3] % b != 0)
    return diag.error("expects the blocksize ", b, " to divide the spatial dims ", s[2], "x", s[3]);
  results.push_back(
      RankedTensorType::get({s[0], s[1] * b * b, s[2] / b, s[3] / b}, type->getElementType()));
  return success();
}

LogicalResult TriluOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() < 2)
    return diag.error("expects an input of rank >= 2, got ", type);
  if (Value k = adaptor.getK()) {
    RankedTensorType kType = tensorType(k);
    if (!kType.hasStaticShape() || kType.getNumElements() != 1)
      return diag.error("expects a one-element k, got ", kType);
  }
  results.push_back(type);
  return success();
}

namespace {

/// [N, C, spatial...] input of a channel normalization, with [C] scale and bias of its type.
LogicalResult checkChannelNorm(const InferDiag &diag, Value input, Value scale, Value bias) {
  RankedTensorType type = tensorType(input);
  if (type.getRank() < 3)
    return diag.error("expects an input of rank >= 3 ([N, C, spatial...]), got ", type);
  int64_t channels = type.getDimSize(1);
  for (Value param : {scale, bias}) {
    RankedTensorType t = tensorType(param);
    if (t.getRank() != 1 || t.getDimSize(0) != channels ||
        t.getElementType() != type.getElementType())
      return diag.error("expects scale and bias of type ",
                        RankedTensorType::get({channels}, type.getElementType()), ", got ", t);
  }
  return success();
}

} // namespace

LogicalResult InstanceNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  if (failed(checkChannelNorm(diag, adaptor.getInput(), adaptor.getScale(), adaptor.getBias())))
    return failure();
  results.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult GroupNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  if (failed(checkChannelNorm(diag, adaptor.getInput(), adaptor.getScale(), adaptor.getBias())))
    return failure();
  int64_t groups = adaptor.getNumGroups(), channels = tensorType(adaptor.getInput()).getDimSize(1);
  if (groups < 1 || channels % groups != 0)
    return diag.error("expects num_groups (", groups, ") to be >= 1 and divide the ", channels,
                      " channels");
  results.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult LpNormalizationOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  int64_t axis = adaptor.getAxis(), p = adaptor.getP();
  if (axis < 0 || axis >= type.getRank())
    return diag.error("expects an axis in [0, ", type.getRank(), "), got ", axis);
  if (p != 1 && p != 2)
    return diag.error("expects p to be 1 or 2, got ", p);
  results.push_back(type);
  return success();
}

LogicalResult MeanVarianceNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                   Adaptor adaptor,
                                                   SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  for (auto [i, a] : llvm::enumerate(axes))
    if (a < 0 || a >= type.getRank() || (i > 0 && a <= axes[i - 1]))
      return diag.error("expects sorted, distinct axes in [0, ", type.getRank(), "), got [",
                        llvm::make_range(axes.begin(), axes.end()), "]");
  results.push_back(type);
  return success();
}

LogicalResult LrnOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() < 3 || !type.hasStaticShape())
    return diag.error("expects a static input of rank >= 3 ([N, C, spatial...]), got ", type);
  if (adaptor.getSize() < 1)
    return diag.error("expects a size >= 1, got ", adaptor.getSize());
  results.push_back(type);
  return success();
}

//===----------------------------------------------------------------------===//
// Conv3dOp and ConvTransposeOp
//===----------------------------------------------------------------------===//

namespace {

/// The input [N, C, spatial...] (static but for a symbolic batch N) and static filter of a
/// convolution with `spatial` dims, of one element type, with a bias [biasSize] when given and
/// `groups` >= 1 dividing `channels`.
LogicalResult checkConvOperands(const InferDiag &diag, Value input, Value filter, Value bias,
                                size_t spatial, int64_t groups) {
  RankedTensorType in = tensorType(input), w = tensorType(filter);
  if (in.getRank() != (int64_t)spatial + 2 || w.getRank() != (int64_t)spatial + 2)
    return diag.error("expects an input and a filter of rank ", spatial + 2, ", got ", in,
                      " and ", w);
  if (llvm::any_of(in.getShape().drop_front(), ShapedType::isDynamic) || !w.hasStaticShape())
    return diag.error("expects static shapes (but for the batch), got ", in, " and ", w);
  if (w.getElementType() != in.getElementType() ||
      (bias && tensorType(bias).getElementType() != in.getElementType()))
    return diag.error("expects the input, filter and bias of one element type");
  if (groups < 1)
    return diag.error("expects groups >= 1, got ", groups);
  if (llvm::any_of(w.getShape().drop_front(2), [](int64_t k) { return k < 1; }))
    return diag.error("expects a non-empty kernel, got ", w);
  return success();
}

LogicalResult checkBias(const InferDiag &diag, Value bias, int64_t features) {
  if (!bias)
    return success();
  RankedTensorType type = tensorType(bias);
  if (type.getRank() != 1 || type.getDimSize(0) != features)
    return diag.error("expects a bias of shape [", features, "], got ", type);
  return success();
}

} // namespace

LogicalResult Conv3dOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  Value input = adaptor.getInput(), filter = adaptor.getFilter();
  int64_t groups = adaptor.getGroups();
  if (failed(checkConvOperands(diag, input, filter, adaptor.getBias(), 3, groups)))
    return failure();
  ArrayRef<int64_t> strides = adaptor.getStrides(), pads = adaptor.getPads(),
                    dilations = adaptor.getDilations();
  if (failed(checkArraySize(diag, "strides", strides, 3)) ||
      failed(checkArraySize(diag, "pads", pads, 6)) ||
      failed(checkArraySize(diag, "dilations", dilations, 3)) ||
      failed(checkArrayMin(diag, "strides", strides, 1)) ||
      failed(checkArrayMin(diag, "pads", pads, 0)) ||
      failed(checkArrayMin(diag, "dilations", dilations, 1)))
    return failure();
  ArrayRef<int64_t> in = tensorType(input).getShape(), w = tensorType(filter).getShape();
  if (w[0] % groups != 0 || in[1] != w[1] * groups)
    return diag.error("expects input channels (", in[1], ") = filter channels per group (", w[1],
                      ") * groups (", groups, ") and filter outputs (", w[0],
                      ") divisible by groups");
  if (failed(checkBias(diag, adaptor.getBias(), w[0])))
    return failure();
  SmallVector<int64_t> shape = {in[0], w[0]};
  for (int i = 0; i < 3; ++i) {
    int64_t size = windowOutputSize(in[2 + i], pads[i], pads[i + 3], w[2 + i], strides[i],
                                    dilations[i], /*ceilMode=*/false);
    if (size < 1)
      return diag.error("window of size ", w[2 + i], " (dilation ", dilations[i],
                        ") does not fit padded input dim ", 2 + i, " of size ", in[2 + i]);
    shape.push_back(size);
  }
  results.push_back(RankedTensorType::get(shape, tensorType(input).getElementType()));
  return success();
}

namespace {

/// ConvTranspose's pads from its attributes (already checked for size and range), as ONNX
/// resolves them.
SmallVector<int64_t> resolveTransposedPads(ArrayRef<int64_t> in, ArrayRef<int64_t> kernel,
                                           ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                                           ArrayRef<int64_t> outPad, ArrayRef<int64_t> pads,
                                           AutoPad autoPad, ArrayRef<int64_t> outputShape) {
  size_t spatial = in.size();
  if (!pads.empty() && autoPad == AutoPad::notset)
    return SmallVector<int64_t>(pads);
  SmallVector<int64_t> begin(spatial, 0), end(spatial, 0);
  if (!outputShape.empty() || autoPad == AutoPad::same_upper || autoPad == AutoPad::same_lower) {
    for (size_t i = 0; i < spatial; ++i) {
      int64_t out = outputShape.empty() ? in[i] * strides[i] : outputShape[i];
      int64_t total =
          strides[i] * (in[i] - 1) + outPad[i] + (kernel[i] - 1) * dilations[i] + 1 - out;
      int64_t half = llvm::divideFloorSigned(total, 2); // total < 0 extends the end with zeros
      begin[i] = autoPad == AutoPad::same_upper ? half : total - half;
      end[i] = total - begin[i];
    }
  }
  llvm::append_range(begin, end);
  return begin;
}

} // namespace

SmallVector<int64_t> ConvTransposeOp::getResolvedPads() {
  return resolveTransposedPads(
      getInput().getType().getShape().drop_front(2), getFilter().getType().getShape().drop_front(2),
      getStrides(), getDilations(), getOutputPadding(), getPads(), getAutoPad(), getOutputShape());
}

LogicalResult ConvTransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  Value input = adaptor.getInput(), filter = adaptor.getFilter();
  int64_t rank = tensorType(input).getRank();
  if (rank < 3 || rank > 5)
    return diag.error("expects 1 to 3 spatial dims, got ", tensorType(input));
  size_t spatial = rank - 2;
  int64_t groups = adaptor.getGroups();
  if (failed(checkConvOperands(diag, input, filter, adaptor.getBias(), spatial, groups)))
    return failure();
  ArrayRef<int64_t> strides = adaptor.getStrides(), pads = adaptor.getPads(),
                    dilations = adaptor.getDilations(), outPad = adaptor.getOutputPadding(),
                    outputShape = adaptor.getOutputShape();
  if (failed(checkArraySize(diag, "strides", strides, spatial)) ||
      (!pads.empty() && failed(checkArraySize(diag, "pads", pads, 2 * spatial))) ||
      failed(checkArraySize(diag, "dilations", dilations, spatial)) ||
      failed(checkArraySize(diag, "output_padding", outPad, spatial)) ||
      (!outputShape.empty() &&
       failed(checkArraySize(diag, "output_shape", outputShape, spatial))) ||
      failed(checkArrayMin(diag, "strides", strides, 1)) ||
      failed(checkArrayMin(diag, "dilations", dilations, 1)) ||
      failed(checkArrayMin(diag, "output_padding", outPad, 0)))
    return failure();
  ArrayRef<int64_t> in = tensorType(input).getShape(), w = tensorType(filter).getShape();
  if (w[0] != in[1] || in[1] % groups != 0)
    return diag.error("expects filter inputs (", w[0], ") = input channels (", in[1],
                      "), divisible by groups (", groups, ")");
  // Bounded so that the sizes below stay far from overflow.
  constexpr int64_t kBound = int64_t(1) << 31;
  auto bounded = [&](ArrayRef<int64_t> v) {
    return llvm::all_of(v, [&](int64_t x) { return x > -kBound && x < kBound; });
  };
  if (!bounded(strides) || !bounded(pads) || !bounded(dilations) || !bounded(outPad) ||
      !bounded(in.drop_front()) || !bounded(w) || !bounded(outputShape))
    return diag.error("expects sizes, strides, pads, dilations and output_shape below 2^31 in "
                      "magnitude");
  int64_t features = w[1] * groups;
  if (failed(checkBias(diag, adaptor.getBias(), features)))
    return failure();
  SmallVector<int64_t> resolved =
      resolveTransposedPads(in.drop_front(2), w.drop_front(2), strides, dilations, outPad, pads,
                            adaptor.getAutoPad(), outputShape);
  SmallVector<int64_t> shape = {in[0], features};
  for (size_t i = 0; i < spatial; ++i) {
    int64_t size = strides[i] * (in[2 + i] - 1) + outPad[i] + dilations[i] * (w[2 + i] - 1) + 1 -
                   resolved[i] - resolved[spatial + i];
    if (size < 1)
      return diag.error("expects a non-empty output, got size ", size, " along spatial dim ", i);
    shape.push_back(size);
  }
  results.push_back(RankedTensorType::get(shape, tensorType(input).getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// EinsumOp
//===----------------------------------------------------------------------===//

FailureOr<EinsumEquation> mlir::ms::parseEinsumEquation(StringRef equation, ArrayRef<int64_t> ranks,
                                                        std::string &error) {
  auto fail = [&](const Twine &message) -> FailureOr<EinsumEquation> {
    error = message.str();
    return failure();
  };
  std::string eq;
  for (char c : equation)
    if (c != ' ')
      eq.push_back(c);
  size_t arrow = eq.find("->");
  std::optional<std::string> output;
  if (arrow != std::string::npos)
    output = eq.substr(arrow + 2);
  // Labels are letters; digits stand below for the dims "..." covers.
  if (!llvm::all_of(eq, [](char c) { return llvm::isAlpha(c) || StringRef(".,->").contains(c); }))
    return fail("expects an equation of letters, ',', '...' and '->', got '" + equation + "'");
  SmallVector<StringRef> pieces;
  StringRef(eq).substr(0, arrow).split(pieces, ',');
  EinsumEquation result;
  for (StringRef term : pieces)
    result.terms.push_back(term.str());
  SmallVector<std::string> &terms = result.terms;
  if (terms.size() != ranks.size())
    return fail("expects one term per operand: '" + equation + "' has " + Twine(terms.size()) +
                ", there are " + Twine(ranks.size()) + " operands");

  // "..." becomes labels '0', '1', ... for the leading dims (right-aligned across operands).
  int64_t ellipsisRank = 0;
  auto ellipsisLabels = [](int64_t count) {
    std::string labels;
    for (int64_t i = 0; i < count; ++i)
      labels.push_back('0' + (char)(10 - count + i));
    return labels;
  };
  for (auto [i, term] : llvm::enumerate(terms)) {
    size_t dots = term.find("...");
    if (dots != std::string::npos) {
      int64_t covered = ranks[i] - (int64_t)(term.size() - 3);
      if (covered >= 0 && covered <= 10) {
        ellipsisRank = std::max(ellipsisRank, covered);
        term.replace(dots, 3, ellipsisLabels(covered));
      }
    }
    if ((int64_t)term.size() != ranks[i] || term.find('.') != std::string::npos)
      return fail("expects term '" + term + "' of '" + equation + "' to label each of the " +
                  Twine(ranks[i]) + " dims of operand " + Twine(i));
  }
  std::string &out = result.output;
  if (output) {
    out = *output;
    size_t dots = out.find("...");
    if (dots != std::string::npos)
      out.replace(dots, 3, ellipsisLabels(ellipsisRank));
  } else {
    // Implicit output: the ellipsis dims, then the labels used once, in alphabetical order.
    std::map<char, int> uses;
    for (const std::string &term : terms)
      for (char c : term)
        ++uses[c];
    out = ellipsisLabels(ellipsisRank);
    for (auto [c, count] : uses)
      if (count == 1 && !llvm::isDigit(c))
        out.push_back(c);
  }
  for (char c : out)
    if (llvm::none_of(terms,
                      [&](const std::string &t) { return t.find(c) != std::string::npos; }) ||
        llvm::count(out, c) != 1)
      return fail("expects the output's labels distinct and each in an operand, got '" + out +
                  "' of '" + equation + "'");

  // The ellipsis' digit labels become letters the equation does not use.
  std::string unused;
  for (char c = 'a'; c <= 'z'; ++c)
    unused.push_back(c);
  for (char c = 'A'; c <= 'Z'; ++c)
    unused.push_back(c);
  llvm::erase_if(unused, [&](char c) { return eq.find(c) != std::string::npos; });
  if ((int64_t)unused.size() < ellipsisRank)
    return fail("expects letters left to spell the '...' dims of '" + equation + "'");
  auto spell = [&](std::string &s) {
    for (char &c : s)
      if (llvm::isDigit(c))
        c = unused[c - '0' - (10 - ellipsisRank)];
  };
  for (std::string &term : terms)
    spell(term);
  spell(out);
  return result;
}

LogicalResult EinsumOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return diag.error("expects at least one operand");
  SmallVector<int64_t> ranks;
  for (Value input : inputs)
    ranks.push_back(tensorType(input).getRank());
  std::string error;
  FailureOr<EinsumEquation> eq = parseEinsumEquation(adaptor.getEquation(), ranks, error);
  if (failed(eq))
    return diag.error(error);
  Type et = tensorType(inputs.front()).getElementType();
  llvm::SmallDenseMap<char, int64_t> sizes;
  for (auto [i, term, input] : llvm::enumerate(eq->terms, inputs)) {
    RankedTensorType type = tensorType(input);
    if (type.getElementType() != et)
      return diag.error("expects operands of one element type, got ", et, " and ",
                        type.getElementType());
    if ((int64_t)term.size() != type.getRank())
      return diag.error("expects term '", term, "' to label every dim of operand ", i, ", got ",
                        type);
    for (auto [d, label, size] : llvm::enumerate(term, type.getShape())) {
      // A label repeated within one term (a diagonal) has one static size there.
      size_t first = term.find(label);
      if (first != d && (ShapedType::isDynamic(size) || type.isDynamicDim(first)))
        return diag.error("expects label '", StringRef(&label, 1), "' repeated in term '", term,
                          "' to have a static size, got ", type);
      if (first != d && type.getDimSize(first) != size)
        return diag.error("expects label '", StringRef(&label, 1), "' repeated in term '", term,
                          "' to have one size, got ", type.getDimSize(first), " and ", size);
      // A symbolic size (`?`) is the label's only where no operand gives a static one other
      // than 1 (it is then that size, or 1 broadcast, at run time).
      auto [it, inserted] = sizes.try_emplace(label, size);
      int64_t &known = it->second;
      if (inserted || known == size || size == 1)
        continue;
      if (ShapedType::isDynamic(size)) {
        if (known == 1)
          known = size;
        continue;
      }
      if (known != 1 && !ShapedType::isDynamic(known))
        return diag.error("expects label '", StringRef(&label, 1),
                          "' to have one size (or 1), got ", known, " and ", size);
      known = size;
    }
  }
  SmallVector<int64_t> shape;
  for (char label : eq->output) {
    auto it = sizes.find(label);
    if (it == sizes.end() || llvm::count(eq->output, label) != 1)
      return diag.error("expects the output's labels distinct and each in an operand, got '",
                        eq->output, "'");
    shape.push_back(it->second);
  }
  results.push_back(RankedTensorType::get(shape, et));
  return success();
}

LogicalResult GridSampleOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType xType = tensorType(adaptor.getInput()), gType = tensorType(adaptor.getGrid());
  int64_t rank = xType.getRank(), spatial = rank - 2;
  if (!xType.hasStaticShape() || (rank != 4 && rank != 5))
    return diag.error("expects a static input [N, C, D1, ...] with 2 or 3 spatial dims, got ",
                      xType);
  if (!gType.hasStaticShape() || gType.getRank() != rank ||
      gType.getDimSize(0) != xType.getDimSize(0) || gType.getShape().back() != spatial)
    return diag.error("expects a static grid [", xType.getDimSize(0), ", ..., ", spatial,
                      "] of rank ", rank, ", got ", gType);
  if (adaptor.getMode() == GridSampleMode::cubic && spatial != 2)
    return diag.error("expects 2 spatial dims for cubic sampling, got ", spatial);
  SmallVector<int64_t> shape = {xType.getDimSize(0), xType.getDimSize(1)};
  llvm::append_range(shape, gType.getShape().drop_front().drop_back());
  results.push_back(RankedTensorType::get(shape, xType.getElementType()));
  return success();
}

LogicalResult RoiAlignOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType xType = tensorType(adaptor.getInput()), rType = tensorType(adaptor.getRois()),
                   bType = tensorType(adaptor.getBatchIndices());
  if (xType.getRank() != 4 || !xType.hasStaticShape())
    return diag.error("expects a static input [N, C, H, W], got ", xType);
  if (rType.getRank() != 2 || !rType.hasStaticShape() || rType.getDimSize(1) != 4)
    return diag.error("expects static rois [R, 4], got ", rType);
  if (bType.getRank() != 1 || bType.getDimSize(0) != rType.getDimSize(0))
    return diag.error("expects batch_indices [", rType.getDimSize(0), "], got ", bType);
  int64_t outH = adaptor.getOutputHeight(), outW = adaptor.getOutputWidth();
  int64_t ratio = adaptor.getSamplingRatio();
  // Bounded so that the sample counts (outH * ratio, times R) stay far from overflowing.
  if (outH < 1 || outW < 1 || ratio < 1 || outH > (1 << 16) || outW > (1 << 16) ||
      ratio > (1 << 16))
    return diag.error("expects output_height, output_width and sampling_ratio in [1, 65536], "
                      "got ",
                      outH, ", ", outW, " and ", ratio);
  // The expansion gathers [C, R * samples, 4] values: bounded (2^40).
  int64_t gathered = 1;
  for (int64_t d : {rType.getDimSize(0), outH, ratio, outW, ratio, xType.getDimSize(1), int64_t(4)})
    if (llvm::MulOverflow(gathered, d, gathered) || gathered > (int64_t(1) << 40))
      return diag.error("expects at most 2^40 sampled values, got ", rType.getDimSize(0),
                        " rois of ", outH, "x", outW, " bins of ", ratio, "x", ratio,
                        " samples of ", xType.getDimSize(1), " channels");
  results.push_back(RankedTensorType::get({rType.getDimSize(0), xType.getDimSize(1), outH, outW},
                                          xType.getElementType()));
  return success();
}

LogicalResult DeformConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType xType = tensorType(adaptor.getInput()), wType = tensorType(adaptor.getFilter()),
                   oType = tensorType(adaptor.getOffset());
  if (xType.getRank() != 4 || wType.getRank() != 4 || oType.getRank() != 4 ||
      !xType.hasStaticShape() || !wType.hasStaticShape() || !oType.hasStaticShape())
    return diag.error("expects static 4-D input, filter and offset, got ", xType, ", ", wType,
                      " and ", oType);
  ArrayRef<int64_t> strides = adaptor.getStrides(), pads = adaptor.getPads(),
                    dilations = adaptor.getDilations();
  if (failed(checkArraySize(diag, "strides", strides, 2)) ||
      failed(checkArraySize(diag, "pads", pads, 4)) ||
      failed(checkArraySize(diag, "dilations", dilations, 2)))
    return failure();
  if (llvm::any_of(strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(dilations, [](int64_t d) { return d < 1; }) ||
      llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return diag.error("expects positive strides and dilations and non-negative pads");
  int64_t groups = adaptor.getGroups(), offsetGroups = adaptor.getOffsetGroups();
  int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
  int64_t outChannels = wType.getDimSize(0), kh = wType.getDimSize(2), kw = wType.getDimSize(3);
  if (groups < 1 || offsetGroups < 1 || channels % groups != 0 || outChannels % groups != 0 ||
      channels % offsetGroups != 0 || wType.getDimSize(1) * groups != channels)
    return diag.error("expects groups (", groups, ") and offset_groups (", offsetGroups,
                      ") to divide the ", channels, " input channels and groups to divide the ",
                      outChannels, " filters of ", wType.getDimSize(1), " channels each");
  int64_t outH =
      (xType.getDimSize(2) + pads[0] + pads[2] - ((kh - 1) * dilations[0] + 1)) / strides[0] + 1;
  int64_t outW =
      (xType.getDimSize(3) + pads[1] + pads[3] - ((kw - 1) * dilations[1] + 1)) / strides[1] + 1;
  if (outH < 1 || outW < 1)
    return diag.error("expects a non-empty output, got ", outH, "x", outW);
  // The expansion's sampled columns hold [N, C, kH * kW * oH * oW] values: bounded (2^40).
  int64_t columns = 1;
  for (int64_t d : {batch, channels, kh, kw, outH, outW})
    if (llvm::MulOverflow(columns, d, columns) || columns > (int64_t(1) << 40))
      return diag.error("expects at most 2^40 sampled values for ", xType, " and ", wType);
  SmallVector<int64_t> expectOffset = {batch, offsetGroups * kh * kw * 2, outH, outW};
  if (oType.getShape() != ArrayRef<int64_t>(expectOffset))
    return diag.error("expects offset [",
                      llvm::make_range(expectOffset.begin(), expectOffset.end()), "], got ", oType);
  if (Value mask = adaptor.getMask()) {
    SmallVector<int64_t> expectMask = {batch, offsetGroups * kh * kw, outH, outW};
    if (tensorType(mask).getShape() != ArrayRef<int64_t>(expectMask))
      return diag.error("expects mask [", llvm::make_range(expectMask.begin(), expectMask.end()),
                        "], got ", mask.getType());
  }
  if (Value bias = adaptor.getBias())
    if (tensorType(bias).getShape() != ArrayRef<int64_t>{outChannels})
      return diag.error("expects bias [", outChannels, "], got ", bias.getType());
  results.push_back(
      RankedTensorType::get({batch, outChannels, outH, outW}, xType.getElementType()));
  return success();
}

LogicalResult AffineGridOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType thetaType = tensorType(adaptor.getTheta());
  ArrayRef<int64_t> size = adaptor.getSize();
  if (size.size() != 4 && size.size() != 5)
    return diag.error("expects a size [N, C, H, W] or [N, C, D, H, W], got ", size.size(),
                      " entries");
  int64_t dims = size.size() - 2;
  if (thetaType.getRank() != 3 || thetaType.getDimSize(0) != size[0] ||
      thetaType.getDimSize(1) != dims || thetaType.getDimSize(2) != dims + 1)
    return diag.error("expects theta [", size[0], ", ", dims, ", ", dims + 1, "], got ", thetaType);
  ArrayRef<int64_t> spatial = size.drop_front(2);
  if (llvm::any_of(spatial, [](int64_t d) { return d < 1 || d > (int64_t(1) << 31); }))
    return diag.error("expects spatial sizes in [1, 2^31], got [",
                      llvm::make_range(spatial.begin(), spatial.end()), "]");
  // The expansion's base grid is a constant: bounded (2^23 coordinates, 64 MiB of f64: a 128^3
  // volume; the import of 2^26 took 1.7 GB, found by fuzz_onnx_import).
  int64_t points = 1;
  for (int64_t d : spatial)
    if (llvm::MulOverflow(points, d, points) || points > (int64_t(1) << 23) / (dims + 1))
      return diag.error("expects a grid of at most 2^23 coordinates, got sizes [",
                        llvm::make_range(spatial.begin(), spatial.end()), "]");
  SmallVector<int64_t> shape = {size[0]};
  llvm::append_range(shape, spatial);
  shape.push_back(dims);
  results.push_back(RankedTensorType::get(shape, thetaType.getElementType()));
  return success();
}

namespace {

/// Bounded so that the cos / sin matrices' element counts stay far from overflowing.
constexpr int64_t kMaxTransformLength = int64_t(1) << 24;
/// Largest cos / sin matrix (rows x bins) the expansions of ms.dft and ms.stft build.
constexpr int64_t kMaxDftMatrixElements = int64_t(1) << 22;

} // namespace

LogicalResult DftOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (!type.hasStaticShape() || type.getRank() < 2 ||
      (type.getShape().back() != 1 && type.getShape().back() != 2))
    return diag.error("expects a static signal [..., 1 or 2] of rank >= 2, got ", type);
  int64_t axis = adaptor.getAxis(), length = adaptor.getLength();
  if (axis < 0 || axis >= type.getRank() - 1)
    return diag.error("expects an axis in [0, ", type.getRank() - 1, ") (a signal dim), got ",
                      axis);
  if (length < 1 || length > kMaxTransformLength)
    return diag.error("expects a length in [1, 2^24], got ", length);
  int64_t bins = adaptor.getOnesided() ? length / 2 + 1 : length;
  if (std::min(length, type.getDimSize(axis)) * bins > kMaxDftMatrixElements)
    return diag.error("expects a cos / sin matrix of at most 2^22 elements, got a transform of ",
                      std::min(length, type.getDimSize(axis)), " samples to ", bins, " bins");
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = bins;
  shape.back() = 2;
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

LogicalResult StftOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (!type.hasStaticShape() || type.getRank() != 3 ||
      (type.getDimSize(2) != 1 && type.getDimSize(2) != 2))
    return diag.error("expects a static signal [batch, length, 1 or 2], got ", type);
  int64_t step = adaptor.getFrameStep(), frameLength = adaptor.getFrameLength();
  int64_t signal = type.getDimSize(1);
  if (step < 1 || frameLength < 1 || frameLength > signal)
    return diag.error("expects frame_step >= 1 and a frame_length in [1, ", signal, "], got ", step,
                      " and ", frameLength);
  if (Value window = adaptor.getWindow())
    if (tensorType(window).getShape() != ArrayRef<int64_t>{frameLength})
      return diag.error("expects a window [", frameLength, "], got ", window.getType());
  int64_t frames = (signal - frameLength) / step + 1;
  int64_t bins = adaptor.getOnesided() ? frameLength / 2 + 1 : frameLength;
  // The expansion gathers the frames by a constant index (2^16 elements, the importer's bound on
  // values it builds) and multiplies by cos / sin matrices.
  if (frameLength * bins > kMaxDftMatrixElements || frames * frameLength > (int64_t(1) << 16))
    return diag.error("expects at most 2^22 cos / sin matrix elements and 2^16 frame samples, "
                      "got ",
                      frames, " frames of ", frameLength, " samples");
  results.push_back(
      RankedTensorType::get({type.getDimSize(0), frames, bins, 2}, type.getElementType()));
  return success();
}

LogicalResult NllLossOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType xType = tensorType(adaptor.getInput()), tType = tensorType(adaptor.getTarget());
  if (xType.getRank() < 2)
    return diag.error("expects an input [N, C, d...] of rank >= 2, got ", xType);
  SmallVector<int64_t> expected(xType.getShape());
  expected.erase(expected.begin() + 1);
  if (tType.getShape() != ArrayRef<int64_t>(expected))
    return diag.error("expects a target [", llvm::make_range(expected.begin(), expected.end()),
                      "] (the input's shape without its class dim), got ", tType);
  if (Value weight = adaptor.getWeight()) {
    RankedTensorType wType = tensorType(weight);
    if (wType.getShape() != ArrayRef<int64_t>{xType.getDimSize(1)} ||
        wType.getElementType() != xType.getElementType())
      return diag.error("expects a weight of ", xType.getDimSize(1), " classes of ",
                        xType.getElementType(), ", got ", wType);
  }
  ArrayRef<int64_t> shape;
  if (adaptor.getReduction() == LossReduction::none)
    shape = tType.getShape();
  results.push_back(RankedTensorType::get(shape, xType.getElementType()));
  return success();
}

LogicalResult Col2ImOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> image = adaptor.getImageShape(), block = adaptor.getBlockShape(),
                    strides = adaptor.getStrides(), dilations = adaptor.getDilations(),
                    pads = adaptor.getPads();
  size_t dims = image.size();
  if (dims < 1)
    return diag.error("expects a non-empty image_shape");
  if (failed(checkArraySize(diag, "block_shape", block, dims)) ||
      failed(checkArraySize(diag, "strides", strides, dims)) ||
      failed(checkArraySize(diag, "dilations", dilations, dims)) ||
      failed(checkArraySize(diag, "pads", pads, 2 * dims)))
    return failure();
  // Bounded so that no sum or product below can overflow.
  constexpr int64_t kMaxExtent = int64_t(1) << 31;
  auto inRange = [&](ArrayRef<int64_t> v, int64_t min) {
    return llvm::all_of(v, [&](int64_t x) { return x >= min && x < kMaxExtent; });
  };
  if (!inRange(image, 1) || !inRange(block, 1) || !inRange(strides, 1) || !inRange(dilations, 1) ||
      !inRange(pads, 0))
    return diag.error("expects image_shape, block_shape, strides and dilations in [1, 2^31) and "
                      "pads in [0, 2^31)");
  if (type.getRank() != 3 || !type.hasStaticShape())
    return diag.error("expects a static input [N, C * prod(block_shape), L], got ", type);
  int64_t taps = 1, blocks = 1;
  for (int64_t b : block)
    if (llvm::MulOverflow(taps, b, taps) || taps > type.getDimSize(1))
      return diag.error("expects prod(block_shape) to divide the ", type.getDimSize(1),
                        " input rows");
  if (type.getDimSize(1) % taps != 0)
    return diag.error("expects prod(block_shape) (", taps, ") to divide the ", type.getDimSize(1),
                      " input rows");
  bool tooMany = false;
  // The expansion scatters into the zero padded image [N, C, prod(padded)]: bounded (2^40
  // elements) so that its size cannot overflow.
  int64_t cells = type.getDimSize(0) * (type.getDimSize(1) / taps);
  for (size_t d = 0; d < dims; ++d) {
    int64_t padded = image[d] + pads[d] + pads[d + dims];
    int64_t span = padded - (dilations[d] * (block[d] - 1) + 1);
    if (span < 0)
      return diag.error("expects block_shape to fit the padded image along dim ", d);
    tooMany |= llvm::MulOverflow(blocks, span / strides[d] + 1, blocks) || blocks > (1LL << 48);
    if (llvm::MulOverflow(cells, padded, cells) || cells > (int64_t(1) << 40))
      return diag.error("expects a padded image of at most 2^40 elements over the batch and "
                        "channels, got dims [",
                        llvm::make_range(image.begin(), image.end()), "] padded by [",
                        llvm::make_range(pads.begin(), pads.end()), "]");
  }
  if (tooMany || blocks != type.getDimSize(2))
    return diag.error("expects the input's last dim (", type.getDimSize(2),
                      ") to be the number of blocks that fit the padded image");
  SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1) / taps};
  llvm::append_range(shape, image);
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

LogicalResult InterpolateOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                              Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  int64_t rank = type.getRank();
  if (!type.hasStaticShape())
    return diag.error("expects a static input, got ", type);
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  if (failed(checkArraySize(diag, "sizes", sizes, rank)) ||
      failed(checkArrayMin(diag, "sizes", sizes, 1)))
    return failure();
  if (adaptor.getScales().size() != static_cast<size_t>(rank) ||
      adaptor.getNearestModes().size() != static_cast<size_t>(rank) ||
      adaptor.getRoi().size() != static_cast<size_t>(2 * rank))
    return diag.error("expects one scale and nearest mode per dim and a roi of ", 2 * rank,
                      " values");
  if (llvm::any_of(adaptor.getScales(), [](double s) { return !(s > 0.0) || !std::isfinite(s); }))
    return diag.error("expects positive finite scales");
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(diag, adaptor.getAxes(), rank);
  if (failed(axes))
    return failure();
  if (!llvm::equal(*axes, adaptor.getAxes()))
    return diag.error("expects sorted non-negative axes");
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(*axes, d) && sizes[d] != type.getDimSize(d))
      return diag.error("expects dim ", d, ", which is not resized, to keep its size ",
                        type.getDimSize(d), ", got ", sizes[d]);
  results.push_back(RankedTensorType::get(sizes, type.getElementType()));
  return success();
}

LogicalResult DetOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  int64_t rank = type.getRank();
  // Larger matrices would unroll into thousands of ops.
  if (rank < 2 || !type.hasStaticShape() || type.getDimSize(rank - 1) != type.getDimSize(rank - 2) ||
      type.getDimSize(rank - 1) < 1 || type.getDimSize(rank - 1) > 64)
    return diag.error("expects static square matrices [..., n, n] with n in [1, 64], got ", type);
  results.push_back(RankedTensorType::get(type.getShape().drop_back(2), type.getElementType()));
  return success();
}

LogicalResult HardmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  int64_t rank = type.getRank();
  bool contiguous = isAxisOrTrailingAxes(axes, rank);
  if (!type.hasStaticShape() || !contiguous)
    return diag.error("expects a static input and one axis or the dims from one axis to the "
                      "last, got ",
                      type, " and axes [", llvm::make_range(axes.begin(), axes.end()), "]");
  results.push_back(type);
  return success();
}

LogicalResult RotaryEmbeddingOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor,
                                                  SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  int64_t rank = type.getRank(), heads = adaptor.getNumHeads();
  if (!type.hasStaticShape() || (rank != 3 && rank != 4) ||
      (rank == 3 && (heads < 1 || type.getDimSize(2) % heads != 0)))
    return diag.error("expects a static [B, heads, S, size], or [B, S, hidden] with num_heads "
                      "dividing hidden, got ",
                      type, " and num_heads ", heads);
  int64_t batch = type.getDimSize(0), seq = type.getDimSize(rank == 4 ? 2 : 1);
  int64_t size = rank == 4 ? type.getDimSize(3) : type.getDimSize(2) / heads;
  int64_t dim = adaptor.getRotaryEmbeddingDim();
  if (dim < 2 || dim > size || dim % 2 != 0)
    return diag.error("expects an even rotary_embedding_dim in [2, ", size, "], got ", dim);
  bool positions = static_cast<bool>(adaptor.getPositionIds());
  for (Value cache : {adaptor.getCosCache(), adaptor.getSinCache()}) {
    RankedTensorType cType = tensorType(cache);
    if (positions ? cType.getRank() != 2 || cType.getDimSize(1) != dim / 2
                  : cType.getShape() != ArrayRef<int64_t>{batch, seq, dim / 2})
      return diag.error("expects caches [", positions ? "max_position" : "B, S", ", ", dim / 2,
                        "], got ", cType);
  }
  if (positions &&
      tensorType(adaptor.getPositionIds()).getShape() != ArrayRef<int64_t>{batch, seq})
    return diag.error("expects position_ids [", batch, ", ", seq, "], got ",
                      tensorType(adaptor.getPositionIds()));
  results.push_back(type);
  return success();
}

LogicalResult TfIdfOp::ngramRanges(ArrayRef<int64_t> counts, int64_t poolSize,
                                   SmallVectorImpl<std::pair<int64_t, int64_t>> &ranges) {
  for (size_t i = 0; i < counts.size(); ++i) {
    int64_t begin = counts[i];
    int64_t end = i + 1 < counts.size() ? counts[i + 1] : poolSize;
    int64_t length = i + 1;
    if (begin < 0 || end < begin || end > poolSize || (end - begin) % length != 0)
      return failure();
    ranges.push_back({begin, end});
  }
  return success();
}

LogicalResult TfIdfOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() != 2 || !type.hasStaticShape() ||
      (!type.getElementType().isInteger(32) && !type.getElementType().isInteger(64)))
    return diag.error("expects static int32 or int64 tokens [rows, width], got ", type);
  int64_t minGram = adaptor.getMinGramLength(), maxGram = adaptor.getMaxGramLength();
  if (minGram < 1 || maxGram < minGram || adaptor.getMaxSkipCount() < 0)
    return diag.error("expects 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  ArrayRef<int64_t> indexes = adaptor.getNgramIndexes();
  if (failed(ngramRanges(adaptor.getNgramCounts(), adaptor.getPoolInt64s().size(), ranges)))
    return diag.error("expects ngram_counts that split the pool into whole n-grams");
  int64_t grams = 0;
  for (auto [i, range] : llvm::enumerate(ranges))
    grams += (range.second - range.first) / int64_t(i + 1);
  if (indexes.empty() || static_cast<int64_t>(indexes.size()) < grams ||
      llvm::any_of(indexes, [](int64_t v) { return v < 0 || v >= (int64_t(1) << 31); }))
    return diag.error("expects ngram_indexes in [0, 2^31), one per n-gram (", grams, ")");
  int64_t outSize = *llvm::max_element(indexes) + 1;
  size_t weights = adaptor.getWeights().size();
  if (weights != 0 && static_cast<int64_t>(weights) < outSize)
    return diag.error("expects no weights or one per output column (", outSize, "), got ",
                      weights);
  // The expansion's one-hot n-gram -> column maps are dense: bounded (256 MiB of f32). A length
  // counts where its n-grams fit in a row.
  for (auto [i, range] : llvm::enumerate(ranges)) {
    int64_t length = i + 1, count = (range.second - range.first) / length;
    if (length >= minGram && length <= maxGram && count > 0 && type.getDimSize(1) > length - 1 &&
        count > (int64_t(1) << 26) / outSize)
      return diag.error("expects at most 2^26 entries in the dense ", length,
                        "-gram -> column map, got ", count, " ", length, "-grams over ", outSize,
                        " output columns");
  }
  results.push_back(RankedTensorType::get({type.getDimSize(0), outSize}, Float32Type::get(ctx)));
  return success();
}

LogicalResult OnnxAttentionOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType q = tensorType(adaptor.getQuery()), k = tensorType(adaptor.getKey()),
                   v = tensorType(adaptor.getValue());
  Type et = q.getElementType();
  if (q.getRank() != 4 || k.getRank() != 4 || v.getRank() != 4 || !q.hasStaticShape() ||
      !k.hasStaticShape() || !v.hasStaticShape() || k.getElementType() != et ||
      v.getElementType() != et)
    return diag.error("expects static 4-D query, key and value of one type, got ", q, ", ", k,
                      " and ", v);
  int64_t batch = q.getDimSize(0), heads = q.getDimSize(1), seq = q.getDimSize(2);
  int64_t kvHeads = k.getDimSize(1), total = k.getDimSize(2);
  if (k.getDimSize(0) != batch || v.getDimSize(0) != batch || v.getDimSize(1) != kvHeads ||
      k.getDimSize(3) != q.getDimSize(3) || v.getDimSize(2) != total || kvHeads < 1 ||
      heads % kvHeads != 0)
    return diag.error("expects query [B, H, S, D], key [B, Hkv, T, D] and value [B, Hkv, T, Dv] "
                      "with Hkv dividing H, got ",
                      q, ", ", k, " and ", v);
  int64_t past = adaptor.getPastLength(), mode = adaptor.getQkMatmulOutputMode();
  if (past < 0 || past > total || mode < 0 || mode > 3)
    return diag.error("expects past_length in [0, ", total, "] and qk_matmul_output_mode in "
                      "[0, 3], got ",
                      past, " and ", mode);
  Type softmaxType = adaptor.getSoftmaxType();
  if (!isa<FloatType>(softmaxType))
    return diag.error("expects a float softmax_type, got ", softmaxType);
  if (Value mask = adaptor.getAttnMask()) {
    RankedTensorType m = tensorType(mask);
    if (m.getRank() < 1 || m.getRank() > 4 || m.getShape().back() > total ||
        (!m.getElementType().isInteger(1) && m.getElementType() != et))
      return diag.error("expects a bool or ", et, " attn_mask of rank 1 to 4 with at most ", total,
                        " columns, got ", m);
  }
  // The expansion builds the causal mask as a constant (2^16 elements, the importer's bound on
  // values it builds).
  if (adaptor.getIsCausal() && seq * total > (int64_t(1) << 16))
    return diag.error("expects a causal mask of at most 2^16 elements, got ", seq, "x", total);
  if (Value lens = adaptor.getNonpadKvSeqlen())
    if (tensorType(lens).getShape() != ArrayRef<int64_t>{batch} ||
        !tensorType(lens).getElementType().isInteger(64))
      return diag.error("expects nonpad_kv_seqlen of int64 [", batch, "], got ", lens.getType());
  results.push_back(RankedTensorType::get({batch, heads, seq, v.getDimSize(3)}, et));
  results.push_back(
      RankedTensorType::get({batch, heads, seq, total}, mode == 3 ? softmaxType : et));
  return success();
}
