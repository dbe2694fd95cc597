//===- KernelBuilders.cpp - building blocks of generated kernels ----------===//

#include "dialects/mie/Utils/KernelBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mie;

Value mie::collapseToVector(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t i = 0; i < type.getRank(); ++i)
    all[0].push_back(i);
  return memref::CollapseShapeOp::create(b, loc, buffer, all);
}

MemRefType mie::pointerOnlyType(MemRefType type) {
  return MemRefType::get({1}, type.getElementType());
}

Value mie::viewPointerAs(OpBuilder &b, Location loc, Value pointer, MemRefType type,
                         ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(type.getRank());
  int64_t staticStride = 1;
  Value stride;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    strides[d] = stride ? OpFoldResult(stride) : OpFoldResult(b.getIndexAttr(staticStride));
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (size && !stride) {
      staticStride *= *size;
      continue;
    }
    Value dim =
        size ? arith::ConstantIndexOp::create(b, loc, *size).getResult() : cast<Value>(sizes[d]);
    Value previous = stride ? stride : arith::ConstantIndexOp::create(b, loc, staticStride);
    stride = arith::MulIOp::create(b, loc, previous, dim);
  }
  return memref::ReinterpretCastOp::create(b, loc, type, pointer, b.getIndexAttr(0), sizes,
                                           strides);
}

Value mie::bufferPointer(OpBuilder &b, Location loc, Value buffer) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  address = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
}

Value mie::scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, value));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

void mie::buildPadKernel(OpBuilder &b, Location loc, StringRef name, Value input, Value output,
                         ArrayRef<int64_t> lowPad, double padValue) {
  KernelOp::create(b, loc, name, input, output, [&](OpBuilder &kb, Location kl, ValueRange args) {
    auto inType = cast<MemRefType>(args[0].getType());
    linalg::FillOp::create(kb, kl, scalarConstant(kb, kl, inType.getElementType(), padValue),
                           args[1]);
    // The interior's extents: static, or the input's at run time (code for symbolic dims).
    SmallVector<OpFoldResult> offsets, strides(inType.getRank(), kb.getIndexAttr(1));
    for (int64_t pad : lowPad)
      offsets.push_back(kb.getIndexAttr(pad));
    Value interior = memref::SubViewOp::create(kb, kl, args[1], offsets,
                                               memref::getMixedSizes(kb, kl, args[0]), strides);
    linalg::CopyOp::create(kb, kl, args[0], interior);
  });
}

Value mie::emitActivation(OpBuilder &b, Location loc, Activation activation, Value x) {
  Type t = x.getType();
  auto cst = [&](double v) { return scalarConstant(b, loc, t, v); };
  auto clamp = [&](Value v, double lo, double hi) -> Value {
    return arith::MinimumFOp::create(b, loc, arith::MaximumFOp::create(b, loc, v, cst(lo)),
                                     cst(hi));
  };
  auto sigmoid = [&](Value v) -> Value {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, v));
    return arith::DivFOp::create(b, loc, cst(1.0), arith::AddFOp::create(b, loc, cst(1.0), e));
  };
  switch (activation) {
  case Activation::none:
    return x;
  case Activation::relu:
    return arith::MaximumFOp::create(b, loc, x, cst(0.0));
  case Activation::relu6:
    return clamp(x, 0.0, 6.0);
  case Activation::sigmoid:
    return sigmoid(x);
  case Activation::hard_sigmoid: // PyTorch's hardsigmoid: relu6(x + 3) / 6.
    return arith::DivFOp::create(b, loc, clamp(arith::AddFOp::create(b, loc, x, cst(3.0)), 0, 6),
                                 cst(6.0));
  case Activation::hard_swish:
    return arith::MulFOp::create(
        b, loc, x,
        arith::DivFOp::create(b, loc, clamp(arith::AddFOp::create(b, loc, x, cst(3.0)), 0, 6),
                              cst(6.0)));
  case Activation::silu:
    return arith::MulFOp::create(b, loc, x, sigmoid(x));
  case Activation::gelu: {
    Value e =
        math::ErfOp::create(b, loc, arith::MulFOp::create(b, loc, x, cst(0.7071067811865476)));
    Value half = arith::MulFOp::create(b, loc, x, cst(0.5));
    return arith::MulFOp::create(b, loc, half, arith::AddFOp::create(b, loc, cst(1.0), e));
  }
  case Activation::gelu_tanh: {
    Value x3 = arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, x), x);
    Value poly = arith::AddFOp::create(b, loc, x, arith::MulFOp::create(b, loc, cst(0.044715), x3));
    Value th =
        math::TanhOp::create(b, loc, arith::MulFOp::create(b, loc, poly, cst(0.7978845608028654)));
    Value half = arith::MulFOp::create(b, loc, x, cst(0.5));
    return arith::MulFOp::create(b, loc, half, arith::AddFOp::create(b, loc, cst(1.0), th));
  }
  case Activation::tanh:
    return math::TanhOp::create(b, loc, x);
  }
  llvm_unreachable("unknown activation");
}

Value mie::emitEpilogue(OpBuilder &b, Location loc, EpilogueAttr epilogue, Value x, Value bias,
                        Value residual) {
  if (bias)
    x = arith::AddFOp::create(b, loc, x, bias);
  if (residual)
    x = arith::AddFOp::create(b, loc, x, residual);
  x = emitActivation(b, loc, epilogue.getActivation(), x);
  if (epilogue.getClampMin() && epilogue.getClampMax()) {
    Type t = x.getType();
    x = arith::MaximumFOp::create(
        b, loc, x, scalarConstant(b, loc, t, epilogue.getClampMin().getValueAsDouble()));
    x = arith::MinimumFOp::create(
        b, loc, x, scalarConstant(b, loc, t, epilogue.getClampMax().getValueAsDouble()));
  }
  return x;
}
