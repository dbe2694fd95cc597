//===- MsImageOps.td - image decoding ------------------------*- tablegen -*-===//
//
// ONNX ImageDecoder: encoded image bytes (JPEG, PNG, BMP, PNM, TIFF, WebP, JPEG 2000) to pixels. The
// codecs live in the runtime, which the generated code calls through the kernel environment
// (docs/image-decoding.md); the compiled model decodes images of one size, given by the op.
//
//===----------------------------------------------------------------------===//

#ifndef MS_IMAGE_OPS_TD
#define MS_IMAGE_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_ImageDecodeOp : Ms_InferredOp<"image_decode"> {
  let summary = "Decodes an encoded image into [height, width, channels] uint8 pixels.";
  let description = [{
    `encoded` holds the bytes of one image file; its format is told by its first bytes. The result
    has 3 channels in RGB or BGR order, or 1 (`grayscale`: Pillow's ITU-R 601-2 luma,
    `(19595 R + 38470 G + 7471 B + 2^15) >> 16`); an image with alpha loses it, a grayscale one
    is replicated into three channels. A decoded image of any other size than `height` x `width`
    fails the run with a message naming both sizes, as does data that does not decode. Pure as
    a function of the bytes: a decode whose result is unused is dropped, failure and all.

    Example:
    ```mlir
    %img = ms.image_decode %bytes {height = 32, width = 32, pixel_format = #ms<pixel_format rgb>}
         : (tensor<1058xui8>) -> tensor<32x32x3xui8>
    ```
  }];
  let arguments = (ins RankedTensorOf<[UI8]>:$encoded, I64Attr:$height, I64Attr:$width,
                   Ms_PixelFormatAttr:$pixel_format);
  let results = (outs RankedTensorOf<[UI8]>:$result);
  let assemblyFormat = "$encoded attr-dict `:` functional-type(operands, results)";
}

#endif // MS_IMAGE_OPS_TD
