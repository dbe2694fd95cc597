//===- OnnxImporterInternal.h - the importer's shared pieces ----*- C++ -*-===//
//
// The importer works in two steps: OnnxModelReader.cpp (the only TU that includes ONNX/protobuf
// headers and so the only one built with exceptions) turns the protobuf into the plain `OnnxModel`
// below; OnnxImporter.cpp walks that model and calls one handler per node (OnnxNNOps.cpp,
// OnnxElementwiseOps.cpp, OnnxMathOps.cpp, OnnxTensorOps.cpp, OnnxIndexingOps.cpp, and
// OnnxCompositeOps.cpp / OnnxCompositeNNOps.cpp for ops built out of several ms ops) through a
// table from op type to handler.
//
// Values with compile-time-known contents (shape arithmetic, axes, small scalars) are tracked as
// `KnownTensor`s. Handlers build `ms` ops whatever their inputs; every op is folded as it is
// created (the `ms` folders, with known inputs as dense constants), and a result that folds to a
// constant becomes a known value again. So any chain of foldable ops on known values resolves
// without the importer evaluating anything itself, and an `ms.constant` appears only where a
// real op consumes a known value as a tensor.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_IMPORT_ONNX_ONNXIMPORTERINTERNAL_H
#define MIE_LIB_IMPORT_ONNX_ONNXIMPORTERINTERNAL_H

#include "mie/Import/OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mie::onnx_import {

//===----------------------------------------------------------------------===//
// Known (compile-time) tensors
//===----------------------------------------------------------------------===//

/// Largest number of elements the importer evaluates at compile time (splats excepted).
constexpr int64_t kMaxKnownElements = 1 << 16;

/// A tensor whose contents are known during import. Integer and bool elements live in `ints`, float
/// elements in `floats` (as double); a splat stores one value for every element.
struct KnownTensor {
  RankedTensorType type;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool splat = false;

  bool isFloat() const { return isa<FloatType>(type.getElementType()); }
  ArrayRef<int64_t> shape() const { return type.getShape(); }
  int64_t rank() const { return type.getRank(); }
  int64_t numElements() const { return type.getNumElements(); }
  int64_t intAt(int64_t i) const { return ints[splat ? 0 : i]; }
  double floatAt(int64_t i) const { return floats[splat ? 0 : i]; }
  /// Element `i` as a double, whatever the element type.
  double valueAt(int64_t i) const { return isFloat() ? floatAt(i) : (double)intAt(i); }
  /// All elements as int64 (floats truncated); expands splats.
  SmallVector<int64_t> toInts() const;

  static KnownTensor fromInts(ArrayRef<int64_t> shape, Type elementType, ArrayRef<int64_t> values);
  static KnownTensor fromFloats(ArrayRef<int64_t> shape, Type elementType, ArrayRef<double> values);
  /// A splat of `value` (converted to the element type) with `shape`.
  static KnownTensor splatOf(ArrayRef<int64_t> shape, Type elementType, double value);
  /// Same data, new shape (same number of elements).
  KnownTensor reshaped(ArrayRef<int64_t> shape) const;
  /// Same data converted to another element type with ONNX Cast semantics.
  KnownTensor castTo(Type elementType) const;

  /// A dense attribute holding the value (a splat attribute for splats).
  DenseElementsAttr toAttr() const;
};

/// Reads `bytes` (row-major, little-endian, one byte per bool) of `type` into a KnownTensor.
KnownTensor knownFromBytes(RankedTensorType type, ArrayRef<char> bytes);

/// The contents of a dense constant (a value folded on `ms`) as a KnownTensor.
KnownTensor knownFromAttr(DenseElementsAttr attr);

/// Whether a tensor of `type` is tracked as a known value: integer/bool tensors up to 1024
/// elements (shapes, axes, indices), float scalars, and a Constant node's (`constantNode`) float
/// tensors up to 64 elements (small tables that sizes are computed from). Other float data is
/// not, so weights are never folded into inline `dense` attributes.
bool shouldTrackAsKnown(RankedTensorType type, bool constantNode = false);

/// Wraps `value` to the width and signedness of the integer type `type` (i1: non-zero is 1).
int64_t wrapToIntegerType(int64_t value, Type type);

/// Numpy broadcast of two static shapes, or nullopt when they do not broadcast.
std::optional<SmallVector<int64_t>> broadcastStaticShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b);

/// One element of an elementwise fold: `i` for integer/bool results, `f` for float results.
struct KnownElement {
  int64_t i = 0;
  double f = 0.0;
};

/// Evaluates an elementwise op on known operands with numpy broadcasting (also against
/// `broadcastTo`, for Expand). `eval` gets each operand's linear element index and returns the
/// result element, or nullopt when the op cannot be evaluated (e.g. integer division by zero).
/// Returns nullopt when the shapes do not broadcast, the result would be too large, or `eval` gave
/// up. The result is a splat when every operand is.
std::optional<KnownTensor>
foldElementwise(ArrayRef<const KnownTensor *> operands, Type resultElementType,
                function_ref<std::optional<KnownElement>(ArrayRef<int64_t>)> eval,
                ArrayRef<int64_t> broadcastTo = {});

/// The double with the shortest decimal form that rounds to `value` as a float (0.1f -> 0.1).
double shortestDecimal(float value);

/// Whether a static shape has non-negative dims and at most 2^40 elements (so that element counts
/// and byte sizes computed from it cannot overflow).
bool isReasonableShape(ArrayRef<int64_t> shape);

/// `v` as a size when it is finite and within [0, 2^62] (a size computed in floating point from a
/// model's scales or range bounds); none otherwise, where converting would be undefined behaviour.
inline std::optional<int64_t> sizeFromDouble(double v) {
  if (!(v >= 0.0 && v <= 4611686018427387904.0))
    return std::nullopt;
  return static_cast<int64_t>(v);
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// The model, read from protobuf
//===----------------------------------------------------------------------===//

/// ONNX TensorProto.DataType values the importer maps (numbers fixed by onnx.proto).
enum class OnnxDataType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  Complex64 = 14,
  Complex128 = 15,
  BFloat16 = 16,
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  UInt4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  UInt2 = 25,
  Int2 = 26,
};

/// Elements of fewer than 8 bits (INT4, UINT4, FLOAT4E2M1, INT2, UINT2) that an ONNX TensorProto
/// packs, low bits first; 0 for every other type. Inside the compiler and the runtime they take one
/// byte each, the value in the low bits.
unsigned packedBits(int64_t dataType);

/// The MLIR element type for an ONNX data type, or null when the ms dialect has none.
Type elementTypeFor(MLIRContext *ctx, int64_t dataType);
/// The ONNX name of a data type ("FLOAT", "UINT32", ...) for diagnostics.
std::string dataTypeName(int64_t dataType);

/// A tensor stored in the model: an initializer or a Constant node's value.
struct OnnxTensor {
  std::string name;
  RankedTensorType type;
  AsmResourceBlob blob; // row-major little-endian bytes, one byte per bool
  std::optional<KnownTensor> known;
  bool materialized = false; // the blob has been moved into a resource attribute
};

struct OnnxGraph;

struct OnnxAttribute {
  enum class Kind { Float, Int, String, Tensor, Floats, Ints, Strings, Graph, Other };
  Kind kind = Kind::Other;
  std::string typeName; // the ONNX attribute type, for diagnostics ("GRAPH", "INTS", ...)
  double f = 0.0;
  int64_t i = 0;
  std::string s;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::shared_ptr<OnnxTensor> tensor;
  std::shared_ptr<OnnxGraph> graph; // a subgraph (If's branches, Loop's and Scan's bodies)
};

struct OnnxNode {
  std::string opType;
  std::string domain; // "" for the default domain ("ai.onnx" is normalized to "")
  std::string name;   // the node's name, or "<OpType>_<index>" when it has none
  size_t index = 0;
  std::vector<std::string> inputs;  // "" marks an omitted optional input
  std::vector<std::string> outputs; // "" marks an omitted optional output
  llvm::StringMap<OnnxAttribute> attributes;
};

/// A graph input or output dim: a size, a symbolic name, or unknown (neither).
struct OnnxDim {
  int64_t size = -1;
  std::string param;
};

struct OnnxGraphValue {
  std::string name;
  int64_t dataType = 0;
  std::optional<std::vector<OnnxDim>> dims; // absent when the model gives no shape
};

/// A subgraph: its inputs are bound by the node that runs it (If, Loop, Scan), its outputs are what
/// that node gets back; names it does not define refer to values of the enclosing graphs.
struct OnnxGraph {
  std::string name;
  std::vector<OnnxGraphValue> inputs;
  std::vector<OnnxGraphValue> outputs;
  std::deque<OnnxTensor> initializers;
  std::vector<OnnxNode> nodes;
};

struct OnnxModel {
  std::string path;
  int64_t opset = 0;                // default domain (kMaxOpset where it is not imported)
  llvm::StringMap<int64_t> opsets;  // every imported domain ("" for the default one)
  bool importsDefaultDomain = true; // false: only other domains (a model of optimizer steps)
  std::string graphName;
  std::vector<OnnxGraphValue> inputs; // initializers excluded
  std::vector<OnnxGraphValue> outputs;
  /// The main graph's value_info entries of tensor type: the declared types of inner values, for
  /// ops whose result shape the inputs do not determine (ImageDecoder).
  std::vector<OnnxGraphValue> valueInfo;
  std::deque<OnnxTensor> initializers; // deque: stable addresses
  std::vector<OnnxNode> nodes;
};

/// Parses the model file into `model`, within the size limits of `opts`; reports errors through
/// `ctx`.
LogicalResult readOnnxModel(StringRef path, MLIRContext &ctx, const OnnxImportOptions &opts,
                            OnnxModel &model);

/// "16 GiB" for whole GiB, else "<n> bytes": how limits appear in diagnostics.
std::string formatByteLimit(uint64_t bytes);

/// Opsets whose semantics the importer implements; newer ones import with a warning. Opsets 1-6
/// are read with their own semantics where they differ (attributes that later became inputs, the
/// `broadcast`/`axis` flags of binary ops, `is_test`); `consumed_inputs` has no meaning here.
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 18;

//===----------------------------------------------------------------------===//
// Node handlers
//===----------------------------------------------------------------------===//

class GraphImporter;

/// A value whose extent along `dim` is known only at run time (NonZero, Unique, Compress,
/// NonMaxSuppression, TopK with a runtime K; docs/dynamic-shapes.md): the ms value is typed at its
/// upper bound, `count` (tensor<1xi64>) holds the real extent, and the elements past it are
/// padding that no graph output shows.
struct DynamicExtent {
  Value count;
  int64_t dim = 0;
};

/// Whether two counts are the same value: one SSA value, or computed by the same ops from the
/// same operands (two Concats of the same TopK results count the same rows).
bool sameCount(Value a, Value b);

/// The range [lo, hi] an integer element takes at run time. A small integer tensor computed from
/// data-dependent extents (Shape of such a value, then Gather / Concat / Min arithmetic: the
/// sizes a model computes for its later ops) is not known, but its elements are bounded; ops
/// that take it as a shape allocate at the upper bound (docs/dynamic-shapes.md).
struct IntRange {
  int64_t lo = 0, hi = 0;
  /// The count (a DynamicExtent's) the element equals, when it is one: Shape's element for a
  /// data-dependent dim, moved about by Gather / Concat / Unsqueeze but not by arithmetic.
  Value count = nullptr;
  /// The element's value as an expression of the function's symbols, when it is one (Shape's
  /// element for a kept symbolic dim, and the arithmetic exporters do on those): consumers that
  /// take it as a size keep it symbolic instead of allocating at `hi` (docs/dynamic-shapes.md).
  AffineExpr sym = nullptr;
  bool exact() const { return lo == hi; }
  /// The element as an expression: `sym`, or the constant when it is exact; null otherwise.
  AffineExpr symbolic(MLIRContext *ctx) const {
    return sym ? sym : exact() ? getAffineConstantExpr(lo, ctx) : AffineExpr();
  }
};
/// Element ranges are tracked for integer tensors of at most this many elements.
constexpr int64_t kMaxBoundedElements = 64;

/// An element of a graph input whose value sizes the model's tensors: a value symbol named
/// `name` (OnnxValueSymbols.cpp).
struct ValueSymbolSource {
  unsigned input;   // index in OnnxModel::inputs
  std::string name; // "shape[1]"; the input's name for a scalar
  int64_t element;  // row-major
};
/// The elements of the integer graph inputs of at most kMaxBoundedElements elements that reach an
/// operand sizing a result by its values (a Reshape's shape, ...), through shape arithmetic.
SmallVector<ValueSymbolSource> findValueSymbolSources(const OnnxModel &model);
/// Records the value symbols on `func` (ms::kValueSymbolsAttrName): `symbols[i]` is source i's.
void recordValueSymbols(func::FuncOp func, ArrayRef<ValueSymbolSource> sources,
                        ArrayRef<unsigned> symbols);
/// The graph input and element whose value `symbol` of `func` is, when it is a value symbol.
std::optional<std::pair<unsigned, int64_t>> valueSymbolSource(Operation *func, unsigned symbol);
class NodeImporter;
/// The axes of a Squeeze, Unsqueeze or Reduce* given as graph input `axesInput` of value symbols:
/// those the node's declared output shape gives (the first such set where several do), recorded
/// for the runtime to check the run's (ms::kAxesValueSymbolsAttrName and the symbols' declared
/// values); std::nullopt when the input is no value symbols' input.
FailureOr<std::optional<SmallVector<int64_t>>> axesFromDeclaredShape(NodeImporter &n,
                                                                     unsigned axesInput);
/// Whether `expr` involves a value symbol of `func`.
bool usesValueSymbol(Operation *func, AffineExpr expr);
/// The graph input whose value symbols `elements` are, each in its place, when they are.
std::optional<unsigned> wholeValueInput(Operation *func, ArrayRef<IntRange> elements);
/// Makes value symbol `symbol` of `func` the size of an Expand's dim of `size` against it: 1
/// resolves to `size` (ms::kBroadcastValueSymbolsAttrName). Fails where it already means another.
LogicalResult broadcastValueSymbol(Operation *func, unsigned symbol, int64_t size);
/// Where input `i` of `n` is a graph input of value symbols: pins its elements to `values` (the
/// values the node's declared output shapes give them: a Split's sizes, a Resize's sizes), which
/// the runtime checks, and returns true; false where it is no such input.
FailureOr<bool> pinValueInput(NodeImporter &n, unsigned i, ArrayRef<int64_t> values);
/// Records on `func` the values the declared shapes of the graph `outputs` give its value symbols
/// (ms::kDeclaredSymbolValuesAttrName); `results` are the outputs' values. Fails, naming the
/// output, where a declared dim contradicts another or no value of the symbol gives it.
LogicalResult pinDeclaredValueSymbols(func::FuncOp func, ArrayRef<OnnxGraphValue> outputs,
                                      ArrayRef<Value> results);

/// What a handler sees of one node: its inputs (materialized on request), known inputs, attributes,
/// an OpBuilder at the node's location, and its outputs to define.
class NodeImporter {
public:
  NodeImporter(GraphImporter &graph, const OnnxNode &node, Location loc, OpBuilder &builder);

  const OnnxNode &node() const { return onnxNode; }
  StringRef opType() const { return onnxNode.opType; }
  StringRef name() const { return onnxNode.name; }
  int64_t opset() const;
  /// The model's version of the node's own domain (ai.onnx.ml's for its ops; opset() for the
  /// default domain, unclamped).
  int64_t domainOpset() const;
  Location loc() const { return location; }
  OpBuilder &builder() { return b; }
  MLIRContext *context() { return b.getContext(); }

  // Inputs. `i` may be past the declared inputs: such an input is absent.
  bool hasInput(unsigned i) const;
  RankedTensorType inputType(unsigned i) const;
  const KnownTensor *known(unsigned i) const;
  /// True when every present input is known.
  bool allInputsKnown() const;
  /// The input as an SSA value, materializing a constant for a known value or weight.
  FailureOr<Value> input(unsigned i);
  /// The same for an optional input: a null Value when it is absent.
  FailureOr<Value> optionalInput(unsigned i) { return hasInput(i) ? input(i) : Value(); }
  /// The contents of input `i` when it is known or model data of at most kMaxKnownElements
  /// elements (read from its bytes); null otherwise, with nothing reported.
  const KnownTensor *constantData(unsigned i);
  /// The known value of an input that must be one. A graph input there gets the uniform
  /// "unsupported dynamic input '<what>' of <OpType> at node '<name>': ..." report.
  FailureOr<const KnownTensor *> requireKnown(unsigned i, StringRef what);

  // Outputs.
  unsigned numOutputs() const { return onnxNode.outputs.size(); }
  bool hasOutput(unsigned i) const { return i < numOutputs() && !onnxNode.outputs[i].empty(); }
  void setOutput(unsigned i, Value value);
  void setKnownOutput(unsigned i, KnownTensor value);
  /// Output `i` is model data (a Constant's value): known when small, a resource when used.
  void setTensorOutput(unsigned i, OnnxTensor &tensor);
  /// Output `out` is the same value as input `in` (Identity, no-op reshapes).
  void forwardInput(unsigned out, unsigned in);
  /// Output `i` is `value` whose extent along `dim` is `count` at run time (after setOutput or
  /// forwardInput defined it).
  void setOutputExtent(unsigned i, Value count, int64_t dim);
  /// The data-dependent extent of input `i`, if it has one.
  std::optional<DynamicExtent> inputExtent(unsigned i) const;
  /// The element ranges of integer input `i`: exact for a known value, the tracked ranges of a
  /// value computed from data-dependent extents; std::nullopt when neither.
  std::optional<SmallVector<IntRange>> inputRanges(unsigned i) const;
  /// True when input `i` is not known but has tracked element ranges.
  bool hasTrackedRanges(unsigned i) const;
  /// Records the element ranges of output `i` (after it is defined; ignored for a known output).
  void setOutputRanges(unsigned i, ArrayRef<IntRange> ranges);
  /// Makes input(i) return `value` (same type) for the rest of this node: a handler that masks a
  /// data-dependent input's padding hands the masked value to the op's usual handler.
  void replaceInput(unsigned i, Value value);
  /// The type of output `i`, once defined.
  RankedTensorType outputType(unsigned i) const;
  /// The data-dependent extent of output `i`, once defined.
  std::optional<DynamicExtent> outputExtent(unsigned i) const;
  /// The shape the model declares for output `i` (a graph output's or a value_info entry of the
  /// main graph), symbolic dims resolved by --dim-param and -1 where unknown; std::nullopt when the
  /// model declares none.
  std::optional<SmallVector<int64_t>> declaredOutputShape(unsigned i) const;
  /// Reports an error unless only the first `count` outputs are requested.
  LogicalResult onlyOutputs(unsigned count, StringRef why);

  // Attributes. A present attribute of the wrong kind reports an error, marks the node failed and
  // yields the default.
  bool hasAttr(StringRef attrName) const;
  int64_t getInt(StringRef attrName, int64_t defaultValue);
  double getFloat(StringRef attrName, double defaultValue);
  std::string getString(StringRef attrName, StringRef defaultValue);
  std::optional<SmallVector<int64_t>> getInts(StringRef attrName);
  std::optional<SmallVector<double>> getFloats(StringRef attrName);
  OnnxTensor *getTensor(StringRef attrName);
  /// The subgraph of a GRAPH attribute; null when it is absent (nothing reported) or of another
  /// kind (reported).
  OnnxGraph *getGraph(StringRef attrName);

  // Subgraphs (OnnxControlFlowOps.cpp).
  /// Imports `graph` at the end of `block`, its inputs bound to `args`; returns its outputs. The
  /// builder is back where it was afterwards.
  FailureOr<SmallVector<Value>> importSubgraph(OnnxGraph &graph, Block *block,
                                               ArrayRef<Value> args);
  /// Same, for a subgraph imported inline (into the node's own block): its outputs may have
  /// data-dependent extents, returned in `extents` (one per output).
  FailureOr<SmallVector<Value>>
  importSubgraphInline(OnnxGraph &graph, SmallVectorImpl<std::optional<DynamicExtent>> &extents);
  /// Whether `graph` (or a graph nested in it) reads a value of the enclosing scope that has a
  /// data-dependent extent or tracked element ranges.
  bool capturesDynamicValues(const OnnxGraph &graph) const;

  // Diagnostics.
  /// An error at the node prefixed with "<OpType> node '<name>': ".
  InFlightDiagnostic error();
  /// The canonical unsupported-op report for this node.
  LogicalResult unsupported();
  /// A declared limitation of an imported op (training mode, 3-D pooling, an output that is not
  /// computed): "unsupported feature of <OpType> at node '<name>': " followed by what.
  InFlightDiagnostic unsupportedFeature();
  bool hasFailed() const { return failedFlag; }

  /// Creates an ms op through its `build(builder, state, TypeRange, args...)` overload, with the
  /// result types inferred here: an invalid combination is reported at the node instead of
  /// aborting, and the op is verified. Returns the op's first result.
  ///
  /// The op is folded right away (see foldCreated): the value returned may be an existing value
  /// or a constant, which setOutput records as a known value.
  template <typename OpTy, typename... Args>
  FailureOr<Value> create(Args &&...args) {
    FailureOr<Operation *> op = createOp<OpTy>(std::forward<Args>(args)...);
    if (failed(op))
      return failure();
    return foldCreated(*op);
  }

  /// Folds a single-result op just built with the `ms` folders, its known operands given as dense
  /// constants: returns the folded value (an existing value or a new ms.constant, the op erased)
  /// or the op's result.
  Value foldCreated(Operation *op);

  /// Expands `op` (an op ms-decompose expands first) right away with ms-decompose's pattern, its
  /// ops folded as they are built: model data then stays a known value for the nodes after it,
  /// as when the importer built the expansion itself. Returns the value replacing `op`.
  Value expandKnown(Operation *op);

  /// The contents of a constant `value` (a dense constant, or a small integer initializer's
  /// resource read as one); null for anything else.
  Attribute constantValue(Value value);

  template <typename OpTy, typename... Args>
  FailureOr<Operation *> createOp(Args &&...args) {
    OperationState state(location, OpTy::getOperationName());
    Type placeholder = b.getNoneType();
    OpTy::build(b, state, TypeRange(placeholder), std::forward<Args>(args)...);
    state.types.clear();
    return inferAndCreate<OpTy>(state);
  }

  /// Same for ops with variadic results (ms.split): the placeholder type list is empty.
  template <typename OpTy, typename... Args>
  FailureOr<Operation *> createVariadicOp(Args &&...args) {
    OperationState state(location, OpTy::getOperationName());
    OpTy::build(b, state, TypeRange(), std::forward<Args>(args)...);
    return inferAndCreate<OpTy>(state);
  }

private:
  /// Infers the result types of the built `state` (reporting a bad combination at the node), then
  /// creates and verifies the op.
  template <typename OpTy>
  FailureOr<Operation *> inferAndCreate(OperationState &state) {
    SmallVector<Type> types;
    if (failed(inferTypes(state, types, [&](Location l, SmallVectorImpl<Type> &out) {
          return OpTy::inferReturnTypes(b.getContext(), l, state.operands,
                                        state.attributes.getDictionary(b.getContext()),
                                        state.getRawProperties(), state.regions, out);
        })))
      return failure();
    state.addTypes(types);
    return finishOp(b.create(state));
  }

  const std::string &inputName(unsigned i) const { return onnxNode.inputs[i]; }
  const OnnxAttribute *findAttr(StringRef attrName, OnnxAttribute::Kind kind, StringRef kindName);
  LogicalResult inferTypes(OperationState &state, SmallVectorImpl<Type> &types,
                           function_ref<LogicalResult(Location, SmallVectorImpl<Type> &)> infer);
  FailureOr<Operation *> finishOp(Operation *op);

  GraphImporter &graph;
  const OnnxNode &onnxNode;
  Location location;
  OpBuilder &b;
  bool failedFlag = false;
  llvm::SmallDenseMap<unsigned, Value, 2> replacedInputs;
};

using OnnxOpHandler = LogicalResult (*)(NodeImporter &);

struct OnnxOpInfo {
  OnnxOpHandler handler = nullptr;
  unsigned minInputs = 0;
  unsigned maxInputs = 0; // ~0u: variadic
  int64_t sinceOpset = 1; // first opset of the op's domain that has the op
};

/// Keys of OnnxOpTable: the op type for the default domain, "domain:OpType" for others, whose
/// `sinceOpset` is a version of that domain.
using OnnxOpTable = llvm::StringMap<OnnxOpInfo>;
inline std::string domainOpKey(StringRef domain, StringRef opType) {
  return domain.empty() ? opType.str() : (domain + ":" + opType).str();
}
/// Marks, while its body is imported, an ms.scan whose body draws random numbers: the importer gave
/// it one more scan input, the step numbers 0, 1, ..., so the body's last argument is the step
/// (OnnxControlFlowOps.cpp), which keys the draws (OnnxCompositeRandomOps.cpp, docs/random.md).
constexpr llvm::StringLiteral kScanStepAttr = "ms.import_scan_step";
/// Whether `graph` (or a graph nested in it) has a node that draws random numbers.
bool drawsRandomNumbers(const OnnxGraph &graph);
constexpr llvm::StringLiteral kTrainingDomain = "ai.onnx.preview.training";
constexpr llvm::StringLiteral kMlDomain = "ai.onnx.ml";

/// Converts input 0 to `elementType` with ONNX Cast semantics (forwarded when already of that
/// type, evaluated when known): the shared tail of Cast and CastLike.
LogicalResult importCastTo(NodeImporter &n, Type elementType);

/// Sets the node's output 0 to `result` (failure when it is one: already reported).
inline LogicalResult finish(NodeImporter &n, FailureOr<Value> result) {
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

/// Sets the node's outputs to the results of `op`, in order (failure when it is one).
inline LogicalResult finish(NodeImporter &n, FailureOr<Operation *> op) {
  if (failed(op))
    return failure();
  for (auto [i, result] : llvm::enumerate((*op)->getResults()))
    n.setOutput(i, result);
  return success();
}

/// The handler of a one-input, one-output op that maps to the ms op OpTy.
template <typename OpTy>
LogicalResult importUnary(NodeImporter &n) {
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<OpTy>(*x));
}

void registerNNOps(OnnxOpTable &table);
void registerElementwiseOps(OnnxOpTable &table);
void registerMathOps(OnnxOpTable &table);
void registerTensorOps(OnnxOpTable &table);
void registerCompositeOps(OnnxOpTable &table);
void registerIndexingOps(OnnxOpTable &table);
void registerQuantOps(OnnxOpTable &table);
void registerRecurrentOps(OnnxOpTable &table);
void registerControlFlowOps(OnnxOpTable &table);
void registerDynamicShapeOps(OnnxOpTable &table);
void registerTrainingOps(OnnxOpTable &table);
void registerMlOps(OnnxOpTable &table);
void registerMlTreeOps(OnnxOpTable &table);
void registerMlSvmOps(OnnxOpTable &table);
void registerImageOps(OnnxOpTable &table);

/// Ops that take a value with a data-dependent extent and carry it to their outputs: whether
/// `opType` is one (a node of any other op type is refused when such a value reaches it).
bool takesDynamicExtents(StringRef opType);
/// The handler that replaces `opType`'s usual one when a node has an input with a data-dependent
/// extent or tracked element ranges (OnnxDynamicExtentOps.cpp); null when the usual handler plus
/// propagateDynamicExtents does.
OnnxOpHandler dynamicExtentHandler(StringRef opType);
/// The handler of a default-domain op type (null when it has none).
OnnxOpHandler usualOnnxHandler(StringRef opType);
/// The dims [start, end) a Shape node reports (its start/end attributes, opset 15, clamped).
FailureOr<std::pair<int64_t, int64_t>> shapeRange(NodeImporter &node);

// Kept symbolic dims (OnnxSymbolicDims.cpp).
/// Whether input `i` is a size computed from symbolic dims: every element symbolic or exact.
bool hasSymbolicElements(NodeImporter &n, unsigned i);
/// Whether an element of input `i` is an expression of value symbols (a graph input's values,
/// bound from a run's data) rather than of the inputs' dims alone.
bool readsValueSymbols(NodeImporter &n, unsigned i);
/// Shape of dims [start, end) of an input with `?` among them.
LogicalResult importShapeOfSymbolicDims(NodeImporter &n, int64_t start, int64_t end);
/// Reshape of an input with `?` dims, or to sizes computed from symbolic dims.
LogicalResult importReshapeOfSymbolicDims(NodeImporter &n);
/// Slice of an input with `?` dims, or to ends computed from symbolic dims.
LogicalResult importSliceOfSymbolicDims(NodeImporter &n);
/// Expand of an input with `?` dims, or to a shape computed from symbolic dims.
LogicalResult importExpandOfSymbolicDims(NodeImporter &n);
/// Range whose bounds are computed from symbolic dims: an ms.range of a symbolic length.
LogicalResult importRangeOfSymbolicDims(NodeImporter &n);
/// ConstantOfShape of a shape computed from symbolic dims: its value expanded to that shape.
LogicalResult importConstantOfShapeOfSymbolicDims(NodeImporter &n);
/// Tile by repeats computed from symbolic dims: unsqueeze, expand and reshape.
LogicalResult importTileOfSymbolicDims(NodeImporter &n);
/// Pad (opset 11 on) by amounts computed from symbolic dims.
LogicalResult importPadOfSymbolicDims(NodeImporter &n);
/// The sizes that integer input `i` gives dims `axes` of input 0 when each element is a constant
/// or input 0's own symbolic dim at that axis (ShapedType::kDynamic there: the dim is kept, as
/// in `interpolate(x, size=y.shape[-2:])` under a run-time batch); an error otherwise.
FailureOr<SmallVector<int64_t>> sizesKeepingSymbolicDims(NodeImporter &n, unsigned i,
                                                         ArrayRef<int64_t> axes);
/// Slice whose starts are runtime values and whose ends are those starts plus known amounts
/// (`x[i : i + k]` in a loop body): a window of static size read by a gather at the clamped start.
/// Returns false, reporting nothing, when the ends are not such offsets of the starts.
FailureOr<bool> importSliceWindow(NodeImporter &node);

// Run-time parameters with a declared output shape (OnnxDeclaredShapeOps.cpp). Each returns false,
// reporting nothing, where the model declares no static output shape of the node's rank (or the
// op is out of the form's reach); the caller then reports the dynamic input as usual.
/// Slice (opset 10 on) whose starts, ends, axes or steps only a run gives.
FailureOr<bool> importSliceByDeclaredShape(NodeImporter &node);
/// Pad (opset 11 on) whose pads (or constant value) only a run gives; `mode` its mode attribute.
FailureOr<bool> importPadByDeclaredShape(NodeImporter &node, StringRef mode);
/// Range whose start, limit or delta only a run gives.
FailureOr<bool> importRangeByDeclaredShape(NodeImporter &node);
/// If whose branches read data-dependent values (NodeImporter::capturesDynamicValues): both
/// branches imported inline, each output selected between them (OnnxDynamicExtentOps.cpp).
LogicalResult importIfBySelect(NodeImporter &node, OnnxGraph &thenGraph, OnnxGraph &elseGraph);
/// Gives the integer outputs of a node whose inputs have element ranges the ranges their values
/// take (Shape, Gather, Concat, Min, Add, ... of sizes), where the op is one it follows.
void propagateRanges(NodeImporter &node);
/// The range of an expression of the symbolic dims, each symbol in [1, 2^31 - 1].
IntRange rangeOfSymbolic(AffineExpr e);
/// Gives the outputs of a node that took data-dependent inputs their extents (or reports at the
/// node why they cannot have one), after its handler built them.
LogicalResult propagateDynamicExtents(NodeImporter &node);

//===----------------------------------------------------------------------===//
// Shared helpers for handlers
//===----------------------------------------------------------------------===//

/// Normalizes an ONNX axis in [-rank, rank) to [0, rank); reports at the node otherwise.
FailureOr<int64_t> normalizeAxis(NodeImporter &node, int64_t axis, int64_t rank,
                                 StringRef what = "axis");

/// Normalizes a list of axes (each in [-rank, rank), no duplicates); keeps the given order.
FailureOr<SmallVector<int64_t>> normalizeAxes(NodeImporter &node, ArrayRef<int64_t> axes,
                                              int64_t rank, StringRef what = "axes");

/// Reads an optional list of integers given as an attribute (opsets before `inputSinceOpset`) or as
/// input `inputIndex` (from that opset on; the input must then be known). Absent: std::nullopt.
FailureOr<std::optional<SmallVector<int64_t>>> intsFromAttrOrInput(NodeImporter &node,
                                                                   StringRef attrName,
                                                                   unsigned inputIndex,
                                                                   int64_t inputSinceOpset);

/// Input `i` (0 or 1) of a two-input elementwise op. Before opset 7 such ops broadcast only with
/// `broadcast = 1`: B's dims then line up with A's from `axis` (default: the trailing dims), which
/// is B reshaped to A's rank with ones around; without it the shapes must be equal.
FailureOr<Value> legacyBinaryInput(NodeImporter &node, unsigned i);

/// Dropout in training mode (OnnxCompositeRandomOps.cpp): drops each element with probability
/// `ratio` (input `ratioInput` when present, else `defaultRatio`) and scales the kept ones by
/// 1 / (1 - ratio); output 1, when asked for, is the mask of kept elements as `maskType`. With
/// `trainingMode` (a bool tensor of one element known at run time only), the run decides: the
/// input itself and an all-true mask where it is false.
LogicalResult importTrainingDropout(NodeImporter &node, unsigned ratioInput, double defaultRatio,
                                    Type maskType, Value trainingMode = {});

/// A 2-D ms.conv2d of `x` and `w` (plus the optional `bias`) with the node's Conv attributes
/// (strides, pads / auto_pad, dilations, group, kernel_shape): Conv and the quantized convolutions
/// (OnnxQuantOps.cpp) share it. Reports at the node.
FailureOr<Value> buildConvFromAttrs(NodeImporter &node, Value x, Value w, Value bias);

/// BatchNormalization with training_mode = 1 (opset 14+): batch statistics for Y and the updated
/// running mean and variance outputs (OnnxCompositeOps.cpp).
LogicalResult importBatchNormTraining(NodeImporter &node);

/// MaxPool's Indices output for a 4-D input `x` (OnnxCompositeNNOps.cpp): for each window, the
/// flat index into x (row-major, or column-major within a plane when `columnMajor`) of its first
/// maximum, for a pool whose output is `pooled` (a 4-D value).
FailureOr<Value> maxPoolIndices(NodeImporter &node, Value x, Value pooled, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                ArrayRef<int64_t> dilations, bool columnMajor);

/// A string like "[1, 2, 3]" for diagnostics.
std::string listToString(ArrayRef<int64_t> values);

/// One dim of a Slice whose start, end and step (non-zero) are known, over a static extent: ONNX's
/// normalization (negative values from the end, clamping) as ms.slice's start, size and step. A
/// step beyond the dim reads what a step of the dim reads, so the arithmetic cannot overflow.
struct SliceDim {
  int64_t start, size, step;
};
SliceDim normalizeSliceDim(int64_t dim, int64_t start, int64_t end, int64_t step);

} // namespace mlir::mie::onnx_import

#endif // MIE_LIB_IMPORT_ONNX_ONNXIMPORTERINTERNAL_H
