//===- OnnxImageOps.cpp - ImageDecoder --------------------------------------===//
//
// ImageDecoder (opset 20) maps to ms.image_decode, whose codecs run in the runtime
// (docs/image-decoding.md). Its output size depends on the image, which this compiler's static
// shapes cannot follow: the model must declare it, as a graph output's shape or a value_info
// entry, with symbolic dims given by --dim-param, and the compiled model decodes images of that
// size (others fail the run with a message naming both sizes).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

LogicalResult importImageDecoder(NodeImporter &n) {
  RankedTensorType type = n.inputType(0);
  if (type.getRank() != 1 || !type.getElementType().isUnsignedInteger(8))
    return n.error() << "expects the encoded image as a 1-D uint8 tensor, got " << type;
  std::string format = n.getString("pixel_format", "RGB");
  if (n.hasFailed())
    return failure();
  std::optional<ms::PixelFormat> pixelFormat =
      llvm::StringSwitch<std::optional<ms::PixelFormat>>(format)
          .Case("RGB", ms::PixelFormat::rgb)
          .Case("BGR", ms::PixelFormat::bgr)
          .Case("Grayscale", ms::PixelFormat::grayscale)
          .Default(std::nullopt);
  if (!pixelFormat)
    return n.error() << "attribute 'pixel_format' must be RGB, BGR or Grayscale, got '" << format
                     << "'";
  int64_t channels = *pixelFormat == ms::PixelFormat::grayscale ? 1 : 3;
  std::optional<SmallVector<int64_t>> shape = n.declaredOutputShape(0);
  if (shape && shape->size() != 3)
    return n.error() << "the model declares the decoded image with rank " << shape->size()
                     << "; it is [height, width, channels]";
  if (!shape || (*shape)[0] <= 0 || (*shape)[1] <= 0)
    return n.unsupportedFeature()
           << "the decoded image's height and width are not declared: a compiled model decodes "
              "images of one size; declare the output '"
           << n.node().outputs[0] << "' as [height, width, " << channels
           << "] (a graph output's shape or a value_info entry; name its symbolic dims with "
              "--dim-param)";
  if ((*shape)[2] >= 0 && (*shape)[2] != channels)
    return n.error() << "the model declares " << (*shape)[2] << " channels, but pixel_format "
                     << format << " gives " << channels;
  FailureOr<Value> encoded = n.input(0);
  if (failed(encoded))
    return failure();
  return finish(n, n.create<ms::ImageDecodeOp>(*encoded, uint64_t((*shape)[0]),
                                               uint64_t((*shape)[1]), *pixelFormat));
}

} // namespace

void mlir::mie::onnx_import::registerImageOps(OnnxOpTable &table) {
  table["ImageDecoder"] = {importImageDecoder, 1, 1, 20};
}
