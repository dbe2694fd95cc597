//===- Passes.td - cross-dialect conversion passes ------------------------===//

#ifndef MIE_CONVERSION_PASSES_TD
#define MIE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMsToMiePass : Pass<"convert-ms-to-mie", "ModuleOp"> {
  let summary = "Lower ms tensor ops to mie kernels on buffers.";
  let description = [{
    Rewrites every function of ms ops on tensors into one of mie kernels on memrefs: convolutions and
    2-D GEMMs become library kernels (`mie.conv2d`, `mie.gemm`) with their bias in the epilogue;
    everything else becomes a `mie.kernel` whose body is linalg (or, for sorts, scans and scatters,
    scf loops) on the kernel's buffers. Each result gets a fresh `mie.alloc` (memory planning places
    them later); constants become read-only `memref.global`s. Function signatures switch from tensors to memrefs with identical layouts.

    A function with symbolic dims (`ms.symbols`; docs/dynamic-shapes.md) becomes code for every value
    of them: its dynamic buffers are sized from `mie.symbol` values by the dims ms::SymbolicShapes
    gives each result (recorded first as `mie.result_dims`), its dynamic results get their dims as
    `ms.shape` maps. Only the ops whose lowering takes run-time extents are accepted there (the
    elementwise ops and the reshapes so far); any other op with a symbolic dim is reported.

    Expects: static shapes (or the symbolic dims above), only ms/func/arith ops. Guarantees: no
    tensors and no ms ops remain; an op without a lowering is reported at its location (which names
    the ONNX node) and the pass fails.
  }];
  let dependentDialects = [
    "::mlir::mie::MieDialect", "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect", "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect", "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // MIE_CONVERSION_PASSES_TD
