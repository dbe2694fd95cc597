//===- MieBase.td - mie dialect definition, enums, constraints ------------===//
//
// The `mie` dialect is the execution level of the compiler: kernels on buffers (memrefs), one op per
// kernel launch, explicit targets, and the memory plan written as attributes and `mie.view` offsets.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_BASE_TD
#define MIE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

def Mie_Dialect : Dialect {
  let name = "mie";
  let cppNamespace = "::mlir::mie";
  let summary = "Execution-level kernels on buffers, one op per kernel launch.";
  let description = [{
    The `mie` dialect holds a model after `convert-ms-to-mie`: every value is a buffer (a statically
    shaped memref), every op that computes is one kernel launch. Library kernels (`mie.conv2d`,
    `mie.gemm`) carry an `#mie.epilogue` describing the work fused after the main computation;
    generated kernels (`mie.kernel`) carry a body of upstream ops on their buffer arguments. Buffers
    start as `mie.alloc` and memory planning replaces them by `mie.view`s at byte offsets of one arena.
    The discardable attribute `mie.target` (a `#mie.target`) names the hardware a function is built for.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes; lives in MieAttrs.cpp, where their storage classes are complete.
    void registerAttributes();

    /// Name of the discardable attribute holding a #mie.target.
    static constexpr ::llvm::StringLiteral getTargetAttrName() { return "mie.target"; }
    /// Name of the function attribute holding the planned arena size in bytes.
    static constexpr ::llvm::StringLiteral getArenaBytesAttrName() { return "mie.arena_bytes"; }
    /// Name of the function attribute summarizing the plan for reports: a dictionary of the
    /// placement order that won (`heuristic`), the lower bound (`lower_bound`, bytes), the bytes
    /// without reuse (`naive`) and the largest buffers live at the peak (`peak`: [[bytes, "ONNX
    /// node"], ...]).
    static constexpr ::llvm::StringLiteral getMemoryAttrName() { return "mie.memory"; }
    /// On entry functions: the most bytes live at once in the kernel order given to
    /// mie-schedule-for-memory and in the order it kept ([before, after]).
    static constexpr ::llvm::StringLiteral getSchedulePeakAttrName() { return "mie.schedule_peak"; }
    /// On ops of a planned entry function: the arena bytes whose buffers are used for the last time by
    /// this op, as [offset, bytes] pairs (what the runtime's dead-buffer poisoning overwrites after it).
    static constexpr ::llvm::StringLiteral getDeadAfterAttrName() { return "mie.dead_after"; }
    /// Name of the module attribute holding the packed weights blob (i8 elements).
    static constexpr ::llvm::StringLiteral getWeightsAttrName() { return "mie.weights"; }
    /// Name of the attribute on a mie.kernel (and its outlined function) holding the floating-point
    /// operations it performs per run (non-negative i64; the profiler's GFLOP/s).
    static constexpr ::llvm::StringLiteral getFlopsAttrName() { return "mie.flops"; }
    /// On a library op, a mie.kernel and its outlined function: why a product (convolution, GEMM,
    /// attention) runs portable generated code instead of a microkernel (a string naming the
    /// shape and the reason; `--report=kernels` and the compile-time warning read it).
    static constexpr ::llvm::StringLiteral getPortableAttrName() { return "mie.portable"; }
    /// On a function with symbolic dims (code for every shape): the range of each symbol, as
    /// array<i64: lo0, hi0, lo1, hi1, ...> in the order of `ms.symbols`.
    static constexpr ::llvm::StringLiteral getSymbolRangesAttrName() { return "mie.symbol_ranges"; }
    /// On the module's `mie_arena_bytes` function (code for every shape): it computes the arena a
    /// run of the bound shapes needs, for the runtime to allocate before the entry runs.
    static constexpr ::llvm::StringLiteral getArenaSizeFnAttrName() { return "mie.arena_size_fn"; }
    /// On an scf.for of a kernel body (a unit attribute): each of its iterations is a stage of
    /// parallel work, whose scf.parallel loops mie-parallelize-loops splits across threads as it
    /// does the kernel's top-level ones (a row product's chunks of shared row panels).
    static constexpr ::llvm::StringLiteral getParallelStagesAttrName() { return "mie.parallel_stages"; }
    /// On a mie.kernel: the index of an input it reads element by element only where, and just
    /// before, it writes the same element of its first output (a residual added in the epilogue of
    /// the register tile that stores it). Memory planning may then give that output the input's
    /// bytes when the input is read for the last time there (mayWriteInPlace).
    static constexpr ::llvm::StringLiteral getInPlaceInputAttrName() { return "mie.in_place_input"; }
    /// The argument attribute naming an entry argument the runtime passes rather than the model
    /// ("arena", "weights", "dims", "random_key"): not `mie.name`, which names the model's inputs
    /// and outputs, and a model may call one of them "weights".
    static constexpr ::llvm::StringLiteral getSlotAttrName() { return "mie.slot"; }
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Mie_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;

// Library kernels compute on float buffers; shape and layout rules are checked by the verifiers so
// that their messages can name the operand and the expected shape.
def Mie_FloatBuffer : MemRefOf<[Mie_Float]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Mie_TargetKind : I32EnumAttr<"TargetKind", "kind of hardware target", [
    I32EnumAttrCase<"cpu", 0>, I32EnumAttrCase<"cuda", 1>]> {
  let cppNamespace = "::mlir::mie";
  let genSpecializedAttr = 0;
}

def Mie_Activation : I32EnumAttr<"Activation", "activation applied by a kernel epilogue", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"relu", 1>, I32EnumAttrCase<"relu6", 2>,
    I32EnumAttrCase<"sigmoid", 3>, I32EnumAttrCase<"hard_sigmoid", 4>,
    I32EnumAttrCase<"hard_swish", 5>, I32EnumAttrCase<"silu", 6>, I32EnumAttrCase<"gelu", 7>,
    I32EnumAttrCase<"gelu_tanh", 8>, I32EnumAttrCase<"tanh", 9>]> {
  let cppNamespace = "::mlir::mie";
  let genSpecializedAttr = 0;
}

// The microkernel family a library op runs on (#mie.ukernel); the lowering of
// mie-lower-library-kernels is looked up by it.
def Mie_UKernelFamily : I32EnumAttr<"UKernelFamily", "microkernel family of a library op", [
    I32EnumAttrCase<"gemm", 0>, I32EnumAttrCase<"conv_gemm", 1>,
    I32EnumAttrCase<"conv_direct", 2>, I32EnumAttrCase<"conv_pixel_rows", 3>,
    I32EnumAttrCase<"winograd_2x2", 4>, I32EnumAttrCase<"winograd_4x4", 5>,
    I32EnumAttrCase<"depthwise", 6>, I32EnumAttrCase<"max_pool", 7>,
    I32EnumAttrCase<"attention", 8>]> {
  let cppNamespace = "::mlir::mie";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Base op classes
//===----------------------------------------------------------------------===//

class Mie_Op<string mnemonic, list<Trait> traits = []> : Op<Mie_Dialect, mnemonic, traits>;

#endif // MIE_BASE_TD
