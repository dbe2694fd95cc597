//===- MsBase.td - ms dialect definition, base classes, constraints -------===//
//
// The `ms` dialect is the graph level of the compiler: framework ops on value-semantic tensors, close to
// ONNX/TOSA. Every op infers its result type (InferTypeOpInterface), so the verifier checks the written
// result type against the inferred one, and builders can omit it.
//
//===----------------------------------------------------------------------===//

#ifndef MS_BASE_TD
#define MS_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Ms_Dialect : Dialect {
  let name = "ms";
  let cppNamespace = "::mlir::ms";
  let summary = "Graph-level model ops on tensors (the importer's target).";
  let description = [{
    The `ms` dialect holds a model as a graph of framework-level ops on ranked tensors with value
    semantics: convolutions, GEMMs, the elementwise families, reductions, normalizations, pooling and the
    tensor-shuffling ops. Shapes are static after import; result types are always inferable from the
    operands and attributes. Weights are `ms.constant` ops holding `dense_resource` attributes so that
    large blobs never appear inline in the IR.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Ms_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
def Ms_Int : AnyTypeOf<[I1, I8, I16, I32, I64, UI8, UI16, UI32, UI64], "integer">;
// 8-bit and 4-bit floats and 4-bit and 2-bit integers: stored one byte per element and only
// converted (ms.cast) or moved; arithmetic on them converts to a wider type first (ONNX's own ops
// take them only in Cast, CastLike, QuantizeLinear, DequantizeLinear and data movement).
def Ms_NarrowFloat : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0FNU, F4E2M1FN],
                               "8-bit or 4-bit floating-point">;
def Ms_NarrowInt : AnyTypeOf<[I<4>, UI<4>, I<2>, UI<2>], "4-bit or 2-bit integer">;
def Ms_Element : AnyTypeOf<[Ms_Float, Ms_Int, Ms_NarrowFloat, Ms_NarrowInt],
                           "float or integer">;

def Ms_Tensor : RankedTensorOf<[Ms_Element]>;
def Ms_FloatTensor : RankedTensorOf<[Ms_Float]>;
def Ms_NumericTensor : RankedTensorOf<[Ms_Float, I8, I16, I32, I64, UI8, UI16, UI32, UI64]>;
def Ms_IndexTensor : RankedTensorOf<[I32, I64]>;
def Ms_BoolTensor : RankedTensorOf<[I1]>;
def Ms_IntegerTensor : RankedTensorOf<[Ms_Int]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Ms_ComparePredicate : I32EnumAttr<"ComparePredicate", "elementwise comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>, I32EnumAttrCase<"lt", 2>,
    I32EnumAttrCase<"le", 3>, I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlir::ms";
}

def Ms_PadMode : I32EnumAttr<"PadMode", "padding mode", [
    I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>, I32EnumAttrCase<"edge", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_PadModeAttr : EnumAttr<Ms_Dialect, Ms_PadMode, "pad_mode">;

def Ms_ResizeMode : I32EnumAttr<"ResizeMode", "resize interpolation", [
    I32EnumAttrCase<"nearest", 0>, I32EnumAttrCase<"linear", 1>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_ResizeModeAttr : EnumAttr<Ms_Dialect, Ms_ResizeMode, "resize_mode">;

def Ms_CoordinateMode : I32EnumAttr<"CoordinateMode", "resize coordinate transformation", [
    I32EnumAttrCase<"half_pixel", 0>, I32EnumAttrCase<"align_corners", 1>,
    I32EnumAttrCase<"asymmetric", 2>, I32EnumAttrCase<"pytorch_half_pixel", 3>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_CoordinateModeAttr : EnumAttr<Ms_Dialect, Ms_CoordinateMode, "coordinate_mode">;

def Ms_NearestMode : I32EnumAttr<"NearestMode", "rounding for nearest resize", [
    I32EnumAttrCase<"round_prefer_floor", 0>, I32EnumAttrCase<"round_prefer_ceil", 1>,
    I32EnumAttrCase<"floor", 2>, I32EnumAttrCase<"ceil", 3>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_NearestModeAttr : EnumAttr<Ms_Dialect, Ms_NearestMode, "nearest_mode">;

def Ms_GridSampleMode : I32EnumAttr<"GridSampleMode", "grid_sample interpolation", [
    I32EnumAttrCase<"nearest", 0>, I32EnumAttrCase<"linear", 1>, I32EnumAttrCase<"cubic", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_GridSampleModeAttr : EnumAttr<Ms_Dialect, Ms_GridSampleMode, "grid_sample_mode">;

def Ms_GridPaddingMode : I32EnumAttr<"GridPaddingMode", "grid_sample padding", [
    I32EnumAttrCase<"zeros", 0>, I32EnumAttrCase<"border", 1>, I32EnumAttrCase<"reflection", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_GridPaddingModeAttr : EnumAttr<Ms_Dialect, Ms_GridPaddingMode, "grid_padding_mode">;

def Ms_LossReduction : I32EnumAttr<"LossReduction", "how a loss reduces over the samples", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"sum", 1>, I32EnumAttrCase<"mean", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_LossReductionAttr : EnumAttr<Ms_Dialect, Ms_LossReduction, "loss_reduction">;

def Ms_MlPostTransform : I32EnumAttr<"MlPostTransform",
    "score transform of the ai.onnx.ml classifiers and regressors", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"logistic", 1>, I32EnumAttrCase<"softmax", 2>,
    I32EnumAttrCase<"softmax_zero", 3>, I32EnumAttrCase<"probit", 4>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_MlPostTransformAttr : EnumAttr<Ms_Dialect, Ms_MlPostTransform, "post_transform">;

def Ms_TreeAggregate : I32EnumAttr<"TreeAggregate", "how a tree ensemble combines its trees", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"average", 1>, I32EnumAttrCase<"min", 2>,
    I32EnumAttrCase<"max", 3>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_TreeAggregateAttr : EnumAttr<Ms_Dialect, Ms_TreeAggregate, "tree_aggregate">;

def Ms_MlNorm : I32EnumAttr<"MlNorm", "the row norm of ai.onnx.ml Normalizer", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"l1", 1>, I32EnumAttrCase<"l2", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_MlNormAttr : EnumAttr<Ms_Dialect, Ms_MlNorm, "ml_norm">;

def Ms_SvmKernel : I32EnumAttr<"SvmKernel", "support vector machine kernel", [
    I32EnumAttrCase<"linear", 0>, I32EnumAttrCase<"poly", 1>, I32EnumAttrCase<"rbf", 2>,
    I32EnumAttrCase<"sigmoid", 3>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_SvmKernelAttr : EnumAttr<Ms_Dialect, Ms_SvmKernel, "svm_kernel">;

def Ms_Interpolation : I32EnumAttr<"Interpolation", "interpolating resize mode", [
    I32EnumAttrCase<"nearest", 0>, I32EnumAttrCase<"linear", 1>, I32EnumAttrCase<"cubic", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_InterpolationAttr : EnumAttr<Ms_Dialect, Ms_Interpolation, "interpolation">;

// ONNX Resize's coordinate_transformation_mode, all of it (ms.resize takes the first four).
def Ms_ResizeTransform : I32EnumAttr<"ResizeTransform", "ONNX Resize coordinate transformation", [
    I32EnumAttrCase<"half_pixel", 0>, I32EnumAttrCase<"align_corners", 1>,
    I32EnumAttrCase<"asymmetric", 2>, I32EnumAttrCase<"pytorch_half_pixel", 3>,
    I32EnumAttrCase<"tf_half_pixel_for_nn", 4>, I32EnumAttrCase<"half_pixel_symmetric", 5>,
    I32EnumAttrCase<"tf_crop_and_resize", 6>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_ResizeTransformAttr : EnumAttr<Ms_Dialect, Ms_ResizeTransform, "resize_transform">;

def Ms_TfIdfMode : I32EnumAttr<"TfIdfMode", "TfIdfVectorizer weighting", [
    I32EnumAttrCase<"tf", 0>, I32EnumAttrCase<"idf", 1>, I32EnumAttrCase<"tfidf", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_TfIdfModeAttr : EnumAttr<Ms_Dialect, Ms_TfIdfMode, "tfidf_mode">;

def Ms_PixelFormat : I32EnumAttr<"PixelFormat", "channel order of a decoded image", [
    I32EnumAttrCase<"rgb", 0>, I32EnumAttrCase<"bgr", 1>, I32EnumAttrCase<"grayscale", 2>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_PixelFormatAttr : EnumAttr<Ms_Dialect, Ms_PixelFormat, "pixel_format">;

//===----------------------------------------------------------------------===//
// Base op classes
//===----------------------------------------------------------------------===//

class Ms_Op<string mnemonic, list<Trait> traits = []> : Op<Ms_Dialect, mnemonic, traits>;

// Ops whose result type is computed from operands + attributes by a static inferReturnTypes. The op
// verifier runs inference with the op's location, so invalid operands/attributes get inference's
// precise message; InferTypeOpInterface's verifier (which runs after, with the region verifiers) then
// rejects a written result type that differs from the inferred one.
class Ms_InferredOp<string mnemonic, list<Trait> traits = []>
    : Ms_Op<mnemonic, !listconcat([Pure, InferTypeOpAdaptor], traits)> {
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      ::llvm::SmallVector<::mlir::Type> inferred;
      return inferReturnTypes(getContext(), getLoc(), Adaptor(*this), inferred);
    }
  }];
}

#endif // MS_BASE_TD
