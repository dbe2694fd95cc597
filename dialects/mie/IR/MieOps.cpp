//===- MieOps.cpp - verifiers, folders and builders of the mie ops --------===//

#include "dialects/mie/IR/MieOps.h"

#include "mie/Target/UKernelRegistry.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <string>

using namespace mlir;
using namespace mlir::mie;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Alignment every planned buffer honours (cache line / AVX-512 vector).
static constexpr int64_t kBufferAlignment = 64;

static MemRefType bufferType(Value v) { return cast<MemRefType>(v.getType()); }

/// Renders a shape as "[1, 64, 56, 56]" for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
  os << ']';
  return text;
}

/// Size in bytes of one element, or std::nullopt for types that are not whole bytes. Types
/// narrower than a byte (i1, i2, i4, f4E2M1FN) take one byte each, as LLVM stores them.
static std::optional<int64_t> elementBytes(Type type) {
  if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() < 8)
    return 1; // i1, i2, i4, f4E2M1FN: one byte each
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return type.getIntOrFloatBitWidth() / 8;
}

/// Size in bytes of a static buffer, or std::nullopt if it does not fit in int64_t.
static std::optional<int64_t> bufferBytes(MemRefType type) {
  std::optional<int64_t> bytes = elementBytes(type.getElementType());
  for (int64_t dim : type.getShape()) {
    if (!bytes)
      return std::nullopt;
    bytes = llvm::checkedMul(*bytes, dim);
  }
  return bytes;
}

/// Library kernels read and write contiguous row-major buffers.
/// A buffer the library op can address: the identity layout, and a static shape unless `dynamic`
/// (code for symbolic dims: the lowering reads `?` dims from the buffer at run time).
static LogicalResult checkPlainBuffer(Operation *op, StringRef name, Value v, bool dynamic) {
  MemRefType type = bufferType(v);
  if ((dynamic || type.hasStaticShape()) && type.getLayout().isIdentity())
    return success();
  return op->emitOpError() << "expects " << name
                           << (dynamic ? " to have the identity layout, got "
                                       : " to have a static shape and the identity layout, got ")
                           << type;
}

static LogicalResult checkRank(Operation *op, StringRef name, Value v, int64_t rank,
                               StringRef dims) {
  if (bufferType(v).getRank() == rank)
    return success();
  return op->emitOpError() << "expects " << name << " of rank " << rank << " " << dims << ", got "
                           << v.getType();
}

static LogicalResult checkElementType(Operation *op, StringRef name, Value v, Type expected) {
  Type found = bufferType(v).getElementType();
  if (found == expected)
    return success();
  return op->emitOpError() << "expects " << name << " element type " << expected
                           << " (the first operand's), got " << found;
}

static LogicalResult checkShape(Operation *op, StringRef name, Value v, ArrayRef<int64_t> expected,
                                StringRef why) {
  ArrayRef<int64_t> found = bufferType(v).getShape();
  if (found == expected)
    return success();
  return op->emitOpError() << "expects " << name << " of shape " << formatShape(expected) << " ("
                           << why << "), got " << formatShape(found);
}

/// The f16 tiles ("neon_f16") take all of K in one call: a partial sum stored into an f16 output
/// between K blocks would be rounded twice.
static LogicalResult checkWholeKForF16Tiles(Operation *op, TilingAttr tiling, int64_t k) {
  if (tiling.getIsa() != "neon_f16" || tiling.getKc() >= k)
    return success();
  return op->emitOpError() << "expects kc to cover all of K = " << k
                           << " with the neon_f16 tiling (the f16 output is rounded once), got kc = "
                           << tiling.getKc();
}

/// Checks that the optional bias/residual operands are present exactly when the epilogue uses them
/// and have the shapes the epilogue adds: bias [biasSize], residual like the output.
static LogicalResult checkEpilogueOperands(Operation *op, EpilogueAttr epilogue, Value bias,
                                           Value residual, Value output, int64_t biasSize,
                                           StringRef biasWhat) {
  if (epilogue.getBias() && !bias)
    return op->emitOpError("expects a bias operand because the epilogue has 'bias', found none");
  if (!epilogue.getBias() && bias)
    return op->emitOpError() << "expects no bias operand because the epilogue has no 'bias', found "
                             << bias.getType();
  if (epilogue.getResidual() && !residual)
    return op->emitOpError(
        "expects a residual operand because the epilogue has 'residual', found none");
  if (!epilogue.getResidual() && residual)
    return op->emitOpError()
           << "expects no residual operand because the epilogue has no 'residual', found "
           << residual.getType();
  if (bias && failed(checkShape(op, "bias", bias, {biasSize}, biasWhat)))
    return failure();
  if (residual &&
      failed(checkShape(op, "residual", residual, bufferType(output).getShape(), "the output's")))
    return failure();
  return success();
}

/// Code for symbolic dims: a convolution or pooling takes a run-time batch (dim 0) only.
static LogicalResult checkRunTimeBatchOnly(Operation *op,
                                           ArrayRef<std::pair<StringRef, Value>> operands) {
  for (auto [name, value] : operands) {
    if (!value)
      continue;
    MemRefType type = bufferType(value);
    for (int64_t d = 1; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        return op->emitOpError() << "expects " << name
                                 << " to have static dims but the batch (dim 0), got " << type;
  }
  return success();
}

/// Checks that every operand is a plain buffer of the element type of the first one; those named
/// in `dynamic` may have `?` dims.
static LogicalResult checkOperandBuffers(Operation *op,
                                         ArrayRef<std::pair<StringRef, Value>> operands,
                                         ArrayRef<StringRef> dynamic = {}) {
  Type elementType = bufferType(operands.front().second).getElementType();
  for (auto [name, value] : operands) {
    if (!value)
      continue;
    if (failed(checkPlainBuffer(op, name, value, llvm::is_contained(dynamic, name))) ||
        failed(checkElementType(op, name, value, elementType)))
      return failure();
  }
  return success();
}

static LogicalResult checkArray(Operation *op, StringRef name, ArrayRef<int64_t> array, size_t size,
                                int64_t min) {
  if (array.size() != size)
    return op->emitOpError() << "expects '" << name << "' to have " << size << " entries, got "
                             << array.size();
  if (llvm::any_of(array, [&](int64_t v) { return v < min; }))
    return op->emitOpError() << "expects every '" << name << "' entry to be >= " << min << ", got "
                             << formatShape(array);
  return success();
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  MemRefType type = getType();
  if (getDynamicSizes().size() != size_t(type.getNumDynamicDims()))
    return emitOpError() << "expects one size operand per dynamic dim of " << type << ", got "
                         << getDynamicSizes().size();
  if (!type.getLayout().isIdentity())
    return emitOpError() << "expects the identity layout, got " << type;
  int64_t alignment = getAlignmentAttr().getInt();
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitOpError() << "expects 'alignment' to be a positive power of two, got " << alignment;
  return success();
}

//===----------------------------------------------------------------------===//
// SymbolOp
//===----------------------------------------------------------------------===//

LogicalResult SymbolOp::verify() {
  if (getIndex() < 0)
    return emitOpError() << "expects a non-negative symbol index, got " << getIndex();
  auto func = (*this)->getParentOfType<FunctionOpInterface>();
  auto symbols = func ? func->getAttrOfType<ArrayAttr>("ms.symbols") : ArrayAttr();
  if (symbols && getIndex() >= int64_t(symbols.size()))
    return emitOpError() << "expects a symbol index below the function's " << symbols.size()
                         << " symbols, got " << getIndex();
  return success();
}

LogicalResult SymbolValuesOp::verify() {
  auto type = cast<MemRefType>(getValues().getType());
  if (type.getRank() != 1 || type.isDynamicDim(0) || !type.getElementType().isInteger(64) ||
      !type.getLayout().isIdentity())
    return emitOpError() << "expects a static 1-D i64 buffer, got " << type;
  auto func = (*this)->getParentOfType<FunctionOpInterface>();
  auto symbols = func ? func->getAttrOfType<ArrayAttr>("ms.symbols") : ArrayAttr();
  if (symbols && type.getDimSize(0) != int64_t(symbols.size()))
    return emitOpError() << "expects one element per symbol of the function (" << symbols.size()
                         << "), got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

Value ViewOp::getViewSource() { return getBase(); }

LogicalResult ViewOp::verify() {
  MemRefType base = bufferType(getBase()), result = getType();
  if (base.getRank() != 1 || !base.hasStaticShape() || !base.getElementType().isInteger(8) ||
      !base.getLayout().isIdentity())
    return emitOpError()
           << "expects a base of type memref<Nxi8> (1-D, static, identity layout), got " << base;
  if (!result.hasStaticShape())
    return emitOpError() << "expects a static result shape, got " << result;
  if (!result.getLayout().isIdentity())
    return emitOpError() << "expects the result to have the identity layout, got " << result;
  if (result.getMemorySpace() != base.getMemorySpace()) {
    auto describe = [](Attribute space) {
      std::string text = "the default memory space";
      if (space) {
        text = "memory space ";
        llvm::raw_string_ostream(text) << space;
      }
      return text;
    };
    return emitOpError() << "expects the result in the base's memory space ("
                         << describe(base.getMemorySpace()) << "), got "
                         << describe(result.getMemorySpace());
  }
  std::optional<int64_t> elemBytes = elementBytes(result.getElementType());
  if (!elemBytes)
    return emitOpError() << "expects a result element type of whole bytes, got "
                         << result.getElementType();

  int64_t offset = getOffsetAttr().getInt();
  if (offset < 0)
    return emitOpError() << "expects a non-negative offset, got " << offset;
  if (offset % *elemBytes != 0)
    return emitOpError() << "expects the offset to be a multiple of the element size ("
                         << *elemBytes << " bytes), got " << offset;
  if (getAligned() && offset % kBufferAlignment != 0)
    return emitOpError() << "expects an 'aligned' offset to be a multiple of " << kBufferAlignment
                         << " bytes, got " << offset;
  std::optional<int64_t> bytes = bufferBytes(result);
  int64_t baseBytes = base.getDimSize(0);
  if (!bytes || *bytes > baseBytes - offset)
    return emitOpError() << "expects offset + byte size <= base size, got " << offset << " + "
                         << (bytes ? std::to_string(*bytes) : std::string("(overflow)")) << " > "
                         << baseBytes;
  return success();
}

// A view of a view is one view of the root base at the summed offset. The verifier already bounds
// both offsets by their bases, so the sum cannot overflow.
OpFoldResult ViewOp::fold(FoldAdaptor) {
  auto parent = getBase().getDefiningOp<ViewOp>();
  if (!parent)
    return {};
  int64_t offset = parent.getOffsetAttr().getInt() + getOffsetAttr().getInt();
  if (getAligned() && offset % kBufferAlignment != 0)
    return {};
  getBaseMutable().assign(parent.getBase());
  setOffsetAttr(IntegerAttr::get(getOffsetAttr().getType(), offset));
  return getResult();
}

//===----------------------------------------------------------------------===//
// Conv2dOp
//===----------------------------------------------------------------------===//

/// The accumulator type, when given, is a float type at least as wide as the output's elements.
static LogicalResult checkAccumulator(Operation *op, std::optional<Type> accumulator,
                                      Value output) {
  if (!accumulator)
    return success();
  Type et = bufferType(output).getElementType();
  auto acc = dyn_cast<FloatType>(*accumulator);
  if (!acc || acc.getWidth() < et.getIntOrFloatBitWidth())
    return op->emitOpError()
           << "expects an accumulator type that is a float type at least as wide as " << et
           << ", got " << *accumulator;
  return success();
}

/// Whether `family` computes a convolution (mie.conv2d's choices).
static bool isConvFamily(UKernelFamily family) {
  return family != UKernelFamily::gemm && family != UKernelFamily::max_pool &&
         family != UKernelFamily::attention;
}

/// Checks that an op's `ukernel` is of one of the families the op runs.
static LogicalResult checkFamily(Operation *op, std::optional<UKernelAttr> kernel,
                                 function_ref<bool(UKernelFamily)> accepts, StringRef expected) {
  if (!kernel || accepts(kernel->getFamily()))
    return success();
  return op->emitOpError() << "expects a ukernel of the " << expected << " family, got "
                           << stringifyUKernelFamily(kernel->getFamily());
}

LogicalResult Conv2dOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFamily(op, getUkernel(), isConvFamily,
                         "conv_gemm, conv_direct, conv_pixel_rows, winograd_2x2, winograd_4x4 or "
                         "depthwise")))
    return failure();
  // The batch may be a run-time extent (code for symbolic dims).
  if (failed(checkOperandBuffers(op,
                                 {{"input", getInput()},
                                  {"filter", getFilter()},
                                  {"bias", getBias()},
                                  {"residual", getResidual()},
                                  {"output", getOutput()}},
                                 {"input", "residual", "output"})) ||
      failed(checkRunTimeBatchOnly(
          op, {{"input", getInput()}, {"residual", getResidual()}, {"output", getOutput()}})) ||
      failed(checkRank(op, "input", getInput(), 4,
                       getChannelsLast() ? "[N, H, W, C]" : "[N, C, H, W]")) ||
      failed(checkRank(op, "output", getOutput(), 4,
                       getChannelsLast() ? "[N, OH, OW, F]" : "[N, F, OH, OW]")))
    return failure();
  std::optional<ArrayRef<int64_t>> packedShape = getFilterShape();
  if (!packedShape && failed(checkRank(op, "filter", getFilter(), 4, "[F, C / groups, KH, KW]")))
    return failure();
  if (failed(checkAccumulator(op, getAccumulator(), getOutput())))
    return failure();
  ArrayRef<int64_t> strides = getStrides(), pads = getPads(), dilations = getDilations();
  if (failed(checkArray(op, "strides", strides, 2, 1)) ||
      failed(checkArray(op, "pads", pads, 4, 0)) ||
      failed(checkArray(op, "dilations", dilations, 2, 1)))
    return failure();

  // The input as [N, C, H, W] whatever its layout.
  SmallVector<int64_t> in(bufferType(getInput()).getShape());
  if (getChannelsLast())
    in = {in[0], in[3], in[1], in[2]};
  ArrayRef<int64_t> w = bufferType(getFilter()).getShape();
  const bool depthwise = runsUKernel(UKernelFamily::depthwise);
  TilingAttr tiling = getTiling();
  const int64_t winograd = getUkernel() ? getUkernel()->getWinogradTile() : 0;
  if (getChannelsLast() && getUkernel() && !depthwise)
    return emitOpError() << "expects the depthwise ukernel or none with channels_last, got "
                         << stringifyUKernelFamily(getUkernel()->getFamily());
  if (packedShape && getChannelsLast()) {
    // The NHWC depthwise microkernel's filter: [KH * KW, C], channels contiguous per tap.
    if (packedShape->size() != 4)
      return emitOpError() << "expects filter_shape [F, C / groups, KH, KW], got "
                           << packedShape->size() << " values";
    w = *packedShape;
    if (!depthwise)
      return emitOpError("expects the depthwise ukernel with a packed channels_last filter");
    if (failed(checkShape(op, "filter", getFilter(), {w[2] * w[3], w[0]},
                          "[KH * KW, C], the packed NHWC depthwise filter")))
      return failure();
  } else if (packedShape) {
    // The filter holds the family's panels; its logical shape is `filter_shape`.
    if (packedShape->size() != 4)
      return emitOpError() << "expects filter_shape [F, C / groups, KH, KW], got "
                           << packedShape->size() << " values";
    w = *packedShape;
    if (!tiling)
      return emitOpError("expects a tiled ukernel with a packed filter (filter_shape is set)");
    int64_t mr = tiling.getMr();
    if (failed(checkWholeKForF16Tiles(op, tiling, w[1] * w[2] * w[3])))
      return failure();
    if (winograd) {
      if (w[2] != 3 || w[3] != 3 || strides[0] != 1 || strides[1] != 1 || dilations[0] != 1 ||
          dilations[1] != 1)
        return emitOpError("expects a 3x3 filter, strides 1 and dilations 1 with winograd");
      const int64_t alpha = winograd + 2;
      SmallVector<int64_t> panels = {alpha * alpha, (int64_t)llvm::divideCeil(w[0], mr), w[1], mr};
      if (failed(checkShape(op, "filter", getFilter(), panels,
                            "[(m + 2)^2, ceil(F / mr), C, mr], the Winograd-transformed panels")))
        return failure();
    } else if (runsUKernel(UKernelFamily::conv_pixel_rows)) {
      int64_t nr = tiling.getNr();
      SmallVector<int64_t> panels = {(int64_t)llvm::divideCeil(w[0], nr), w[1] * w[2] * w[3], nr};
      if (failed(checkShape(op, "filter", getFilter(), panels,
                            "[ceil(F / nr), C * KH * KW, nr], the packed column panels")))
        return failure();
    } else if (tiling.getIsa() == "amx") {
      // The AMX tiles' A panels: K rounded up to the tile's 32 (zeros past K), 32 filters each.
      SmallVector<int64_t> panels = {(int64_t)llvm::divideCeil(w[0], mr),
                                     (int64_t)llvm::alignTo(w[1] * w[2] * w[3], mr), mr};
      if (failed(checkShape(op, "filter", getFilter(), panels,
                            "[ceil(F / 32), C * KH * KW rounded up to 32, 32], the packed AMX "
                            "panels")))
        return failure();
    } else {
      SmallVector<int64_t> panels = {(int64_t)llvm::divideCeil(w[0], mr), w[1] * w[2] * w[3], mr};
      if (failed(checkShape(op, "filter", getFilter(), panels,
                            "[ceil(F / mr), C / groups * KH * KW, mr], the packed panels")))
        return failure();
    }
  }
  int64_t groups = getGroupsAttr().getInt();
  if (tiling && groups != 1)
    return emitOpError() << "expects groups = 1 with a tiled ukernel, got " << groups;
  if (runsUKernel(UKernelFamily::conv_direct)) {
    // The kernel's offset table holds MIE_UK_CONV_DIRECT_MAX_K taps.
    if (w[1] * w[2] * w[3] > MIE_UK_CONV_DIRECT_MAX_K || strides[1] > 2)
      return emitOpError() << "expects C * KH * KW <= " << MIE_UK_CONV_DIRECT_MAX_K
                           << " and a stride of 1 or 2 along W with conv_direct, got K = "
                           << w[1] * w[2] * w[3] << " and stride " << strides[1]
                           << " (the registry's kernel accepts "
                           << getUKernelInfo(UKernel::F32ConvDirectNchw).accepts << ")";
  }
  if (depthwise) {
    if (groups != in[1] || w[0] != in[1] || w[1] != 1)
      return emitOpError("expects a depthwise convolution (groups = C = F) for the depthwise "
                         "ukernel");
    if (!getChannelsLast() && (strides[0] > 2 || strides[1] > 2))
      return emitOpError() << "expects strides of 1 or 2 for the NCHW depthwise ukernel (the "
                              "registry's kernel accepts "
                           << getUKernelInfo(UKernel::F32DwconvNchw).accepts << ")";
    Type et = bufferType(getOutput()).getElementType();
    if (!et.isF32() && !et.isBF16())
      return emitOpError() << "expects f32 or bf16 buffers for the depthwise ukernel, got " << et;
    if (std::optional<Type> acc = getAccumulator(); acc && !acc->isF32())
      return emitOpError() << "expects sums in f32 for the depthwise ukernel, got an accumulator "
                           << *acc;
  }
  if (groups < 1)
    return emitOpError() << "expects groups >= 1, got " << groups;
  if (w[0] % groups != 0)
    return emitOpError() << "expects filter output channels (" << w[0]
                         << ") to be divisible by groups (" << groups << ")";
  if (in[1] != w[1] * groups)
    return emitOpError() << "expects input channels (" << in[1]
                         << ") to equal filter channels per group (" << w[1] << ") * groups ("
                         << groups << ")";

  SmallVector<int64_t> expected = {in[0], w[0]};
  for (int i = 0; i < 2; ++i) {
    int64_t padded = in[2 + i] + pads[i] + pads[i + 2];
    int64_t window = dilations[i] * (w[2 + i] - 1) + 1;
    if (window > padded)
      return emitOpError() << "expects the dilated " << (i == 0 ? "KH" : "KW") << " (" << window
                           << ") to fit the padded input " << (i == 0 ? "height" : "width") << " ("
                           << padded << ")";
    expected.push_back((padded - window) / strides[i] + 1);
  }
  if (getChannelsLast())
    expected = {expected[0], expected[2], expected[3], expected[1]};
  if (failed(checkShape(op, "output", getOutput(), expected,
                        "from input, filter, strides, pads and dilations")))
    return failure();
  return checkEpilogueOperands(op, getEpilogue(), getBias(), getResidual(), getOutput(), w[0],
                               "[F], the output channels");
}

//===----------------------------------------------------------------------===//
// MaxPool2dOp
//===----------------------------------------------------------------------===//

LogicalResult MaxPool2dOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFamily(
          op, getUkernel(), [](UKernelFamily f) { return f == UKernelFamily::max_pool; },
          "max_pool")))
    return failure();
  if (failed(checkOperandBuffers(op, {{"input", getInput()}, {"output", getOutput()}},
                                 {"input", "output"})) ||
      failed(checkRunTimeBatchOnly(op, {{"input", getInput()}, {"output", getOutput()}})) ||
      failed(checkRank(op, "input", getInput(), 4, "[N, C, H, W]")) ||
      failed(checkRank(op, "output", getOutput(), 4, "[N, C, OH, OW]")))
    return failure();
  ArrayRef<int64_t> kernel = getKernel(), strides = getStrides(), pads = getPads(),
                    dilations = getDilations();
  if (failed(checkArray(op, "kernel", kernel, 2, 1)) ||
      failed(checkArray(op, "strides", strides, 2, 1)) ||
      failed(checkArray(op, "pads", pads, 4, 0)) ||
      failed(checkArray(op, "dilations", dilations, 2, 1)))
    return failure();
  ArrayRef<int64_t> in = bufferType(getInput()).getShape(),
                    out = bufferType(getOutput()).getShape();
  if (out[0] != in[0] || out[1] != in[1])
    return emitOpError() << "expects the output's N and C (" << out[0] << ", " << out[1]
                         << ") to be the input's (" << in[0] << ", " << in[1] << ")";
  for (int i = 0; i < 2; ++i) {
    const int64_t padded = in[2 + i] + pads[i] + pads[i + 2];
    const int64_t window = dilations[i] * (kernel[i] - 1) + 1;
    if (window > padded)
      return emitOpError() << "expects the dilated " << (i == 0 ? "KH" : "KW") << " (" << window
                           << ") to fit the padded input " << (i == 0 ? "height" : "width") << " ("
                           << padded << ")";
    // Floor mode, or ceil mode: one more window when the last one would start inside the image
    // or its leading padding.
    const int64_t floorSize = (padded - window) / strides[i] + 1;
    const int64_t ceilSize = llvm::divideCeil(padded - window, strides[i]) + 1;
    if (out[2 + i] != floorSize && out[2 + i] != ceilSize)
      return emitOpError() << "expects output " << (i == 0 ? "height" : "width") << " " << floorSize
                           << (ceilSize != floorSize ? " or " + std::to_string(ceilSize) : "")
                           << " from input, kernel, strides, pads and dilations, got "
                           << out[2 + i];
  }
  if (getUkernel() && !bufferType(getInput()).getElementType().isF32())
    return emitOpError("expects f32 buffers for the max_pool ukernel");
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  Operation *op = getOperation();
  // Any dim but a packed b's may be a run-time extent (code for symbolic dims); `?` dims of two
  // operands that must agree are not compared.
  if (failed(checkOperandBuffers(op,
                                 {{"a", getA()},
                                  {"b", getB()},
                                  {"bias", getBias()},
                                  {"residual", getResidual()},
                                  {"output", getOutput()}},
                                 {"a", "b", "residual", "output"})))
    return failure();
  if (failed(checkAccumulator(op, getAccumulator(), getOutput())))
    return failure();
  ArrayRef<int64_t> a = bufferType(getA()).getShape(), b = bufferType(getB()).getShape(),
                    c = bufferType(getOutput()).getShape();
  int64_t rank = a.size();
  if (failed(checkFamily(
          op, getUkernel(), [](UKernelFamily f) { return f == UKernelFamily::gemm; }, "gemm")))
    return failure();
  if (getBPacked()) {
    if (!bufferType(getB()).hasStaticShape())
      return emitOpError() << "expects b of static shape with packed panels, got "
                           << getB().getType();
    TilingAttr tiling = getTiling();
    if (!tiling)
      return emitOpError("expects a gemm ukernel with a packed b");
    if (rank != 2 || c.size() != 2)
      return emitOpError() << "expects a and output of rank 2 with a packed b, got ranks "
                           << a.size() << " and " << c.size();
    if (getAlpha().convertToDouble() != 1.0)
      return emitOpError("expects alpha = 1 with a packed b (alpha is folded into the panels)");
    int64_t nr = tiling.getNr();
    int64_t k = getTransA() ? a[0] : a[1], m = getTransA() ? a[1] : a[0];
    if (failed(checkWholeKForF16Tiles(op, tiling, k)))
      return failure();
    int64_t n = getTransC() ? c[0] : c[1];
    // AMX panels hold K rounded up to the tile's 32 (zeros past K), in VNNI pairs.
    const bool amx = tiling.getIsa() == "amx";
    SmallVector<int64_t> panels = {(int64_t)llvm::divideCeil(n, nr),
                                   amx ? (int64_t)llvm::alignTo(k, nr) : k, nr};
    if (failed(checkShape(op, "b", getB(), panels,
                          amx ? "[ceil(N / 32), K rounded up to 32, 32], the packed AMX panels"
                              : "[ceil(N / nr), K, nr], the packed panels")))
      return failure();
    if (getTransC() && c[1] != m)
      return emitOpError() << "expects output [N, M] with trans_c, got " << c[1]
                           << " columns for M = " << m;
    if (!getTransC() && c[0] != m)
      return emitOpError() << "expects output [M, N], got " << c[0] << " rows for M = " << m;
    return checkEpilogueOperands(op, getEpilogue(), getBias(), getResidual(), getOutput(), n,
                                 "[N], the product columns");
  }
  if ((rank != 2 && rank != 3) || b.size() != a.size() || c.size() != a.size())
    return emitOpError() << "expects a, b and output all of rank 2 or all of rank 3, got ranks "
                         << a.size() << ", " << b.size() << " and " << c.size();
  if (rank == 3 && (b[0] != a[0] || c[0] != a[0]))
    return emitOpError() << "expects one batch size for a, b and output, got " << a[0] << ", "
                         << b[0] << " and " << c[0];
  ArrayRef<int64_t> a2 = a.take_back(2), b2 = b.take_back(2);
  int64_t m = getTransA() ? a2[1] : a2[0], ka = getTransA() ? a2[0] : a2[1];
  int64_t kb = getTransB() ? b2[1] : b2[0], n = getTransB() ? b2[0] : b2[1];
  if (ka != kb)
    return emitOpError() << "expects the contraction sizes to match, got K = " << ka
                         << " from a and K = " << kb << " from b";
  SmallVector<int64_t> expected(a.drop_back(2));
  if (getTransC())
    expected.append({n, m});
  else
    expected.append({m, n});
  if (failed(checkShape(op, "output", getOutput(), expected,
                        getTransC() ? "[.., N, M] from a and b (trans_c)"
                                    : "[.., M, N] from a and b")))
    return failure();
  return checkEpilogueOperands(op, getEpilogue(), getBias(), getResidual(), getOutput(), n,
                               "[N], the product columns");
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name, ValueRange inputs,
                     ValueRange outputs,
                     function_ref<void(OpBuilder &, Location, ValueRange)> bodyBuilder) {
  state.addOperands(inputs);
  state.addOperands(outputs);
  Properties &props = state.getOrAddProperties<Properties>();
  props.setName(builder.getStringAttr(name));
  props.operandSegmentSizes = {static_cast<int32_t>(inputs.size()),
                               static_cast<int32_t>(outputs.size())};

  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  SmallVector<Type> types(inputs.getTypes());
  llvm::append_range(types, outputs.getTypes());
  block->addArguments(types, SmallVector<Location>(types.size(), state.location));

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(block);
  if (bodyBuilder)
    bodyBuilder(builder, state.location, block->getArguments());
  YieldOp::create(builder, state.location);
}

LogicalResult KernelOp::verify() {
  if (getName().empty())
    return emitOpError("expects a non-empty kernel name");
  if (getOutputs().empty())
    return emitOpError("expects at least one output buffer, found none");
  Block &block = getBodyBlock();
  size_t numInputs = getInputs().size(), numOutputs = getOutputs().size();
  if (block.getNumArguments() != numInputs + numOutputs)
    return emitOpError() << "expects " << numInputs + numOutputs << " body arguments (" << numInputs
                         << " ins + " << numOutputs << " outs), found " << block.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), block.getArgumentTypes()))) {
    auto [expected, found] = pair;
    if (expected == found)
      continue;
    bool isInput = index < numInputs;
    return emitOpError() << "expects body argument #" << index << " to have type " << expected
                         << " (the type of " << (isInput ? "ins" : "outs") << " #"
                         << (isInput ? index : index - numInputs) << "), found " << found;
  }
  // SingleBlock has already rejected an empty block.
  if (!isa<YieldOp>(block.back()))
    return emitOpError() << "expects the body to end with 'mie.yield', found '"
                         << block.back().getName() << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> AttentionOp::getLogicalShape(Value v) {
  SmallVector<int64_t> shape(bufferType(v).getShape());
  if (getTokenMajor() && shape.size() >= 3)
    std::swap(shape[shape.size() - 2], shape[shape.size() - 3]);
  return shape;
}

int64_t AttentionOp::getPhysicalDim(int64_t logical, int64_t rank) {
  if (getTokenMajor() && rank >= 3 && (logical == rank - 2 || logical == rank - 3))
    return logical == rank - 2 ? rank - 3 : rank - 2;
  return logical;
}

int64_t AttentionOp::getHeadsPerKeyValueHead() {
  SmallVector<int64_t> q = getLogicalShape(getQuery()), k = getLogicalShape(getKey());
  if (q.size() < 3 || k.size() != q.size() || k[q.size() - 3] <= 0)
    return 1;
  return std::max<int64_t>(1, q[q.size() - 3] / k[q.size() - 3]);
}

LogicalResult AttentionOp::verify() {
  Operation *op = getOperation();
  if (failed(checkFamily(
          op, getUkernel(), [](UKernelFamily f) { return f == UKernelFamily::attention; },
          "attention")))
    return failure();
  // Batch, rows and keys may be run-time extents (code for symbolic dims).
  if (failed(checkOperandBuffers(op,
                                 {{"query", getQuery()},
                                  {"key", getKey()},
                                  {"value", getValue()},
                                  {"mask", getMask()},
                                  {"output", getOutput()}},
                                 {"query", "key", "value", "mask", "output"})))
    return failure();
  const bool tokenMajor = getTokenMajor();
  int64_t rank = bufferType(getQuery()).getRank();
  if (rank < (tokenMajor ? 3 : 2))
    return emitOpError() << "expects query of rank >= "
                         << (tokenMajor ? "3 [..., S, H, D]" : "2 [..., S, D]") << ", got rank "
                         << rank;
  for (auto [name, v] : {std::pair<StringRef, Value>{"key", getKey()}, {"value", getValue()},
                         {"output", getOutput()}})
    if (failed(checkRank(op, name, v, rank, "(the query's)")))
      return failure();
  // Shapes in the logical [..., H, S, D] order; token-major buffers swap dims -3 and -2.
  auto physical = [&](SmallVector<int64_t> shape) {
    if (tokenMajor)
      std::swap(shape[rank - 2], shape[rank - 3]);
    return shape;
  };
  SmallVector<int64_t> q = getLogicalShape(getQuery()), k = getLogicalShape(getKey()),
                       v = getLogicalShape(getValue());
  SmallVector<int64_t> expected(ArrayRef<int64_t>(q).drop_back(2));
  expected.append({k[rank - 2], q[rank - 1]});
  // Grouped-query: fewer key/value heads, a divisor of the query's.
  if (rank >= 3 && k[rank - 3] > 0 && q[rank - 3] % k[rank - 3] == 0)
    expected[rank - 3] = k[rank - 3];
  if (failed(checkShape(op, "key", getKey(), physical(expected),
                        tokenMajor ? "[..., T, Hkv, D] with the query's batch and D, Hkv dividing H"
                                   : "[..., T, D] with the query's batch (or fewer heads dividing "
                                     "its heads) and D")))
    return failure();
  expected[rank - 1] = v[rank - 1];
  if (failed(checkShape(op, "value", getValue(), physical(expected),
                        tokenMajor ? "[..., T, Hkv, Dv] with the key's T and Hkv"
                                   : "[..., T, Dv] with the key's batch and T")))
    return failure();
  expected[rank - 2] = q[rank - 2];
  if (rank >= 3)
    expected[rank - 3] = q[rank - 3];
  if (failed(checkShape(op, "output", getOutput(), physical(expected),
                        tokenMajor ? "[..., S, H, Dv]" : "[..., S, Dv]")))
    return failure();
  if (Value mask = getMask()) {
    ArrayRef<int64_t> m = bufferType(mask).getShape();
    SmallVector<int64_t> scores(ArrayRef<int64_t>(q).drop_back(1));
    scores.push_back(k[rank - 2]);
    bool ok = (int64_t)m.size() <= rank;
    for (size_t i = 0; ok && i < m.size(); ++i) {
      int64_t target = scores[rank - m.size() + i];
      ok = m[i] == 1 || m[i] == target;
    }
    if (!ok)
      return emitOpError() << "expects a mask that broadcasts to the scores " << formatShape(scores)
                           << ", got " << formatShape(m);
  }
  if (getCausal() && k[rank - 2] < q[rank - 2])
    return emitOpError() << "expects at least as many keys as queries when causal, got "
                         << k[rank - 2] << " keys and " << q[rank - 2] << " queries";
  if (getScale().isNaN() || getScale().isInfinity())
    return emitOpError("expects a finite scale");
  return success();
}
