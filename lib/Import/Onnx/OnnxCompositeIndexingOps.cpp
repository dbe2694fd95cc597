//===- OnnxCompositeIndexingOps.cpp - ReverseSequence, Col2Im, ... --------===//
//
// Ops that move elements to positions computed at run time: ReverseSequence, TensorScatter and
// MaxUnpool become ms.reverse_sequence, ms.tensor_scatter and ms.max_unpool (ms-decompose writes
// them with ms.gather_elements / ms.scatter_elements and index arithmetic:
// dialects/ms/Transforms/DecomposeIndexingPatterns.cpp), Col2Im (sliding blocks added into an
// image) ms.col2im.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// ReverseSequence as ms.reverse_sequence. The inputs are read in the order the expansion first
/// reads them (initializers are materialized on first use, and their order is the weights'
/// layout), here and below.
LogicalResult importReverseSequence(NodeImporter &n) {
  int64_t batchAxis = n.getInt("batch_axis", 1), timeAxis = n.getInt("time_axis", 0);
  if (n.hasFailed())
    return failure();
  Ops o(n);
  Value lens = o.in(1), x = o.in(0);
  return finish(n, o, o.op<ms::ReverseSequenceOp>(x, lens, batchAxis, timeAxis));
}

/// TensorScatter (opset 24's key/value cache update, linear or circular) as ms.tensor_scatter.
LogicalResult importTensorScatter(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -2);
  std::string mode = n.getString("mode", "linear");
  if (n.hasFailed())
    return failure();
  if (mode != "linear" && mode != "circular")
    return n.error() << "mode '" << mode << "' must be linear or circular";
  Ops o(n);
  Value writeIndices = n.hasInput(2) ? o.in(2) : Value();
  Value update = o.in(1), past = o.in(0);
  return finish(n, o,
                o.op<ms::TensorScatterOp>(past, update, writeIndices, axis, mode == "circular"));
}

/// MaxUnpool as ms.max_unpool; the output_shape input must be known, or a graph input whose values
/// the declared output shape gives (checked by the runtime: value symbols).
LogicalResult importMaxUnpool(NodeImporter &n) {
  std::optional<SmallVector<int64_t>> kernel = n.getInts("kernel_shape");
  std::optional<SmallVector<int64_t>> strides = n.getInts("strides");
  std::optional<SmallVector<int64_t>> pads = n.getInts("pads");
  if (n.hasFailed())
    return failure();
  int64_t spatial = std::max<int64_t>(n.inputType(0).getRank() - 2, 0);
  if (!kernel)
    return n.error() << "attribute 'kernel_shape' is required";
  SmallVector<int64_t> outputShape;
  std::optional<SmallVector<int64_t>> declared = n.declaredOutputShape(0);
  if (n.hasInput(2) && n.hasTrackedRanges(2) && declared &&
      llvm::all_of(*declared, [](int64_t d) { return d >= 0; }) &&
      n.inputType(2).getNumElements() == int64_t(declared->size())) {
    FailureOr<bool> pinned = pinValueInput(n, 2, *declared);
    if (failed(pinned))
      return failure();
    if (*pinned)
      outputShape = *declared;
  }
  if (n.hasInput(2) && outputShape.empty()) {
    FailureOr<SmallVector<int64_t>> known = knownInts(n, 2, "output_shape");
    if (failed(known))
      return failure();
    outputShape = *known;
  }
  Ops o(n);
  Value indices = o.in(1), x = o.in(0);
  return finish(
      n, o,
      o.op<ms::MaxUnpoolOp>(x, indices, *kernel, strides.value_or(SmallVector<int64_t>(spatial, 1)),
                            pads.value_or(SmallVector<int64_t>(2 * spatial, 0)), outputShape));
}

/// Col2Im: the sum of sliding blocks into an image (PyTorch's fold), as ms.col2im (ms-decompose
/// scatters the blocks: dialects/ms/Transforms/DecomposeSamplingPatterns.cpp), with the known
/// image_shape and block_shape.
LogicalResult importCol2Im(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> image = knownInts(n, 1, "image_shape");
  if (failed(image))
    return failure();
  FailureOr<SmallVector<int64_t>> block = knownInts(n, 2, "block_shape");
  if (failed(block))
    return failure();
  int64_t dims = image->size();
  auto attr = [&](StringRef name, int64_t count, int64_t fill) {
    return n.getInts(name).value_or(SmallVector<int64_t>(count, fill));
  };
  SmallVector<int64_t> strides = attr("strides", dims, 1), dilations = attr("dilations", dims, 1),
                       pads = attr("pads", 2 * dims, 0);
  if (n.hasFailed())
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::Col2ImOp>(o.in(0), *image, *block, strides, dilations, pads));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeIndexingOps(OnnxOpTable &table) {
  table["ReverseSequence"] = {importReverseSequence, 2, 2, 10};
  table["TensorScatter"] = {importTensorScatter, 2, 3, 24};
  table["MaxUnpool"] = {importMaxUnpool, 2, 3, 9};
  table["Col2Im"] = {importCol2Im, 3, 3, 18};
}
