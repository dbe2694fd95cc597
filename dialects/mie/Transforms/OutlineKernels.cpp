//===- OutlineKernels.cpp - the mie-outline-kernels pass ------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/BufferAliasing.h"
#include "dialects/mie/Utils/FlopCount.h"
#include "dialects/mie/Utils/KernelBuilders.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEOUTLINEKERNELSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// A symbol-safe rendering of a kernel name ("max_pool" stays, "a.b" becomes "a_b").
std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name)
    out += llvm::isAlnum(c) ? c : '_';
  return out;
}

bool isEmptyBuffer(Value v) {
  auto memref = dyn_cast<MemRefType>(v.getType());
  return memref && memref.hasStaticShape() && memref.getNumElements() == 0;
}

/// Whether operand `index` of a kernel call may share bytes with another of its operands (buffers of
/// unknown extent may).
bool sharesBytes(ArrayRef<Value> operands, unsigned index) {
  std::optional<ByteRange> bytes = bytesOf(operands[index]);
  if (!bytes)
    return true;
  for (auto [other, operand] : llvm::enumerate(operands)) {
    if (other == index || !isa<MemRefType>(operand.getType()))
      continue;
    std::optional<ByteRange> otherBytes = bytesOf(operand);
    if (!otherBytes || otherBytes->overlaps(*bytes))
      return true;
  }
  return false;
}

/// Dim `d` (dynamic) of `buffer`: the size its defining view or cast was given where there is
/// one (expand-strided-metadata, LLVM 22, crashes on a memref.dim of an expand_shape), else
/// memref.dim.
Value dynamicDim(OpBuilder &b, Location loc, Value buffer, int64_t d) {
  auto pick = [&](ArrayRef<OpFoldResult> sizes) -> Value {
    if (auto value = dyn_cast<Value>(sizes[d]))
      return value;
    return arith::ConstantIndexOp::create(b, loc, *getConstantIntValue(sizes[d]));
  };
  if (auto expand = buffer.getDefiningOp<memref::ExpandShapeOp>())
    return pick(expand.getMixedOutputShape());
  if (auto cast = buffer.getDefiningOp<memref::ReinterpretCastOp>())
    return pick(cast.getMixedSizes());
  return memref::DimOp::create(b, loc, buffer, d);
}

/// Code for symbolic dims: a buffer of dynamic shape has no bare-pointer form at the function
/// boundary, so the kernel takes its pointer alone (pointerOnlyType) plus one index argument per
/// dynamic dim (appended after the other arguments) and sees it again with those dims
/// (viewPointerAs). `operands` (the call's, in the order of the body's arguments) get each such
/// buffer's pointer cast and its dims.
LogicalResult passDynamicBuffers(KernelOp kernel, Block &body, SmallVector<Value> &operands) {
  OpBuilder call(kernel);
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  Location loc = kernel.getLoc();
  SmallVector<Value> extents;
  unsigned numArgs = body.getNumArguments();
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = body.getArgument(i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.hasStaticShape())
      continue;
    if (!type.getLayout().isIdentity())
      return kernel.emitError("mie-outline-kernels: a buffer of dynamic shape with layout ")
             << type.getLayout() << " cannot be passed to a kernel";
    // The call: the buffer's pointer and its dynamic dims. The cast reads the buffer flattened:
    // expand-strided-metadata (LLVM 22) crashes on a reinterpret_cast of an expand_shape.
    Value buffer = operands[i];
    operands[i] = memref::ReinterpretCastOp::create(
        call, loc, pointerOnlyType(type), collapseToVector(call, loc, buffer), call.getIndexAttr(0),
        {call.getIndexAttr(1)}, {call.getIndexAttr(1)});
    // The body: the buffer seen again with those dims.
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!ShapedType::isDynamic(type.getDimSize(d))) {
        sizes.push_back(inner.getIndexAttr(type.getDimSize(d)));
        continue;
      }
      extents.push_back(dynamicDim(call, loc, buffer, d));
      sizes.push_back(body.addArgument(inner.getIndexType(), loc));
    }
    arg.setType(pointerOnlyType(type));
    Value seen = viewPointerAs(inner, loc, arg, type, sizes);
    arg.replaceAllUsesExcept(seen, seen.getDefiningOp());
  }
  llvm::append_range(operands, extents);
  return success();
}

struct MieOutlineKernelsPass : impl::MieOutlineKernelsPassBase<MieOutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp parent : funcs) {
      int64_t counter = 0;
      SmallVector<KernelOp> kernels;
      parent.walk([&](KernelOp k) { kernels.push_back(k); });
      for (KernelOp kernel : kernels) {
        OpBuilder b(module.getContext());
        std::string name =
            (parent.getSymName() + "_k" + Twine(counter++) + "_" + sanitize(kernel.getName()))
                .str();
        Block &body = kernel.getBodyBlock();
        // Empty buffers (a zero dim) carry no data and have no bare-pointer form at the function
        // boundary: the outlined body gets a local empty buffer instead of the argument.
        SmallVector<Value> operands;
        for (auto [arg, operand] : llvm::zip(llvm::to_vector(body.getArguments()),
                                             kernel->getOperands())) {
          if (!isEmptyBuffer(arg)) {
            operands.push_back(operand);
            continue;
          }
          OpBuilder inner = OpBuilder::atBlockBegin(&body);
          arg.replaceAllUsesWith(
              memref::AllocaOp::create(inner, kernel.getLoc(), cast<MemRefType>(arg.getType())));
        }
        body.eraseArguments([](BlockArgument arg) { return isEmptyBuffer(arg); });
        if (failed(passDynamicBuffers(kernel, body, operands)))
          return signalPassFailure();
        auto type = b.getFunctionType(body.getArgumentTypes(), {});
        auto func = func::FuncOp::create(b, kernel.getLoc(), name, type);
        func.setPrivate();
        // What the profiler divides by: set by the library lowering, else counted on the body.
        auto flops = kernel->getAttrOfType<IntegerAttr>(MieDialect::getFlopsAttrName());
        func->setAttr(MieDialect::getFlopsAttrName(),
                      flops ? flops : b.getI64IntegerAttr(countFlops(kernel)));
        if (Attribute portable = kernel->getAttr(MieDialect::getPortableAttrName()))
          func->setAttr(MieDialect::getPortableAttrName(), portable);
        symbols.insert(func, std::next(Block::iterator(parent)));
        func.getBody().takeBody(kernel.getBody());
        // Outputs written in place over an input (mie-plan-memory) share bytes with it: neither
        // of the two is noalias then.
        for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
          if (isa<MemRefType>(func.getArgument(i).getType()) && !sharesBytes(operands, i))
            func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
        Operation *terminator = func.getBody().front().getTerminator();
        b.setInsertionPoint(terminator);
        func::ReturnOp::create(b, terminator->getLoc());
        terminator->erase();

        b.setInsertionPoint(kernel);
        auto call = func::CallOp::create(b, kernel.getLoc(), func, operands);
        // The buffers that die at the kernel die at its call.
        if (Attribute dead = kernel->getAttr(MieDialect::getDeadAfterAttrName()))
          call->setAttr(MieDialect::getDeadAfterAttrName(), dead);
        kernel.erase();
      }
      // Entry arguments for empty tensors (e.g. a 3x0x5 graph input) are no kernel's argument now;
      // give them the 1-D empty type, which has a bare-pointer form at the function boundary (a
      // zero in an inner dim has none), so the entry keeps one pointer per graph tensor.
      bool retyped = false;
      for (BlockArgument arg : parent.getArguments()) {
        auto memref = dyn_cast<MemRefType>(arg.getType());
        if (!isEmptyBuffer(arg) || !arg.use_empty() || memref.getRank() == 1)
          continue;
        arg.setType(MemRefType::get({0}, memref.getElementType()));
        retyped = true;
      }
      if (retyped)
        parent.setType(FunctionType::get(module.getContext(),
                                         parent.getBody().front().getArgumentTypes(),
                                         parent.getResultTypes()));
    }
  }
};

} // namespace
} // namespace mlir::mie
