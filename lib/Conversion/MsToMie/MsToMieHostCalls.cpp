//===- MsToMieHostCalls.cpp - ms.image_decode and ms.check to host calls -----===//
//
// Kernels that call runtime services (kernel ABI 6 and 8). Image codecs are not generated code: the
// runtime decodes (docs/image-decoding.md). The kernel of an ms.image_decode calls
// `mie_host_decode_image(encoded, size, out, height, width, channels, pixel_format, node)`, which
// mie-parallelize-loops hands the kernel environment and code generation implements as
// `env->host->decode_image(env->host_ctx, ...)` (kernel ABI 6). A failed decode is recorded by the
// runtime, which fails the run with its message; the kernel itself returns normally, so no status
// travels through the generated code. An ms.check copies its (small) input and, where its condition
// is false, calls `mie_host_check_failed(message)` the same way (kernel ABI 8): the run fails with
// the message once the entry returns.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Utils/KernelLaunches.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

/// The ONNX node a location names (the importer's NameLoc), else "ImageDecoder".
std::string nodeName(Location loc) {
  SmallVector<StringRef> names = sourceNodeNames(loc);
  return names.empty() ? "ImageDecoder" : names.front().str();
}

/// A NUL-terminated string constant of `module`, for the runtime's messages.
LLVM::GlobalOp stringConstant(OpBuilder &b, ModuleOp module, Location loc, StringRef text) {
  std::string symbol;
  for (int64_t i = 0;; ++i) {
    symbol = "mie_host_text_" + std::to_string(i);
    if (!module.lookupSymbol(symbol))
      break;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  std::string bytes = text.str() + '\0';
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, symbol,
                                b.getStringAttr(bytes));
}

/// Declares the runtime service `name` (private, no results) unless `module` has it.
void declareService(OpBuilder &b, ModuleOp module, Location loc, StringRef name,
                    ArrayRef<Type> params) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  func::FuncOp::create(b, loc, name, b.getFunctionType(params, {})).setPrivate();
}

struct ImageDecodeToKernel : OpConversionPattern<ms::ImageDecodeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::ImageDecodeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *ctx = op.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx), i64 = rewriter.getI64Type();
    declareService(rewriter, module, loc, kDecodeImageService,
                   {ptr, i64, ptr, i64, i64, i64, i64, ptr});
    Value out = allocBuffer(rewriter, loc, type);
    int64_t size = cast<MemRefType>(adaptor.getEncoded().getType()).getNumElements();
    LLVM::GlobalOp node = stringConstant(rewriter, module, loc, nodeName(loc));
    KernelOp::create(rewriter, loc, "image_decode", ValueRange{adaptor.getEncoded()}, out,
                     [&](OpBuilder &kb, Location kl, ValueRange args) {
                       auto pointer = [&](Value buffer) { return bufferPointer(kb, kl, buffer); };
                       auto constant = [&](int64_t v) -> Value {
                         return arith::ConstantIntOp::create(kb, kl, v, 64);
                       };
                       Value name = LLVM::AddressOfOp::create(kb, kl, node);
                       func::CallOp::create(
                           kb, kl, kDecodeImageService, TypeRange{},
                           ValueRange{pointer(args[0]), constant(size), pointer(args[1]),
                                      constant(type.getDimSize(0)), constant(type.getDimSize(1)),
                                      constant(type.getDimSize(2)),
                                      constant(int64_t(op.getPixelFormat())), name});
                     });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// One kernel: the input copied to the result, and the failure reported where the condition is
/// false. The copy keeps the op an ordinary kernel with an output the memory plan places; inputs
/// are small (the importer checks index vectors, not data).
struct CheckToKernel : OpConversionPattern<ms::CheckOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ms::CheckOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type ptr = LLVM::LLVMPointerType::get(op.getContext());
    declareService(rewriter, module, loc, kCheckFailedService, {ptr});
    Value out = allocBuffer(rewriter, loc, cast<RankedTensorType>(op.getType()));
    LLVM::GlobalOp message = stringConstant(rewriter, module, loc, op.getMessage());
    KernelOp::create(
        rewriter, loc, "check", ValueRange{adaptor.getInput(), adaptor.getCondition()}, out,
        [&](OpBuilder &kb, Location kl, ValueRange args) {
          auto condType = cast<MemRefType>(args[1].getType());
          SmallVector<Value> zeros(condType.getRank(), arith::ConstantIndexOp::create(kb, kl, 0));
          Value holds = memref::LoadOp::create(kb, kl, args[1], zeros);
          Value fails =
              arith::XOrIOp::create(kb, kl, holds, arith::ConstantIntOp::create(kb, kl, 1, 1));
          scf::IfOp::create(kb, kl, fails, [&](OpBuilder &tb, Location tl) {
            Value text = LLVM::AddressOfOp::create(tb, tl, message);
            func::CallOp::create(tb, tl, kCheckFailedService, TypeRange{}, ValueRange{text});
            scf::YieldOp::create(tb, tl);
          });
          memref::CopyOp::create(kb, kl, args[0], args[2]);
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieHostCallPatterns(TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ImageDecodeToKernel, CheckToKernel>(converter, patterns.getContext());
}
