//===- OnnxImporter.cpp - model, graph, values, constants, diagnostics ----===//
//
// Walks the nodes of an OnnxModel in topological order and dispatches each to its handler. Owns the
// map from ONNX value names to SSA values / known tensors, materializes constants on demand
// (weights as `dense_resource`, folded values as small `dense` attributes, all at the top of
// @main), gives every op the location of its node, and reports unsupported or invalid nodes.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include <limits>

#include "dialects/ms/IR/MsConstantFold.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"

#include <queue>

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::onnx_import;

/// The bytes of a static tensor type, or nullopt past 2^64 (element count times element bytes).
static std::optional<uint64_t> tensorBytes(RankedTensorType type) {
  uint64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  for (int64_t d : type.getShape()) {
    if (d < 0)
      return uint64_t(0); // dynamic: sized later
    if (d != 0 && bytes > std::numeric_limits<uint64_t>::max() / uint64_t(d))
      return std::nullopt;
    bytes *= uint64_t(d);
  }
  return bytes;
}

std::string mlir::mie::onnx_import::formatByteLimit(uint64_t bytes) {
  if (bytes && bytes % (uint64_t(1) << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  return std::to_string(bytes) + " bytes";
}

/// Errs at `loc` when a tensor of `type` would exceed `limit` bytes (OnnxImportOptions::
/// maxTensorBytes): checked on every value the import builds, before a constant of that size is.
/// `prefix` names the node ("Expand node 'e': "), so that the diagnostic is one line.
static LogicalResult checkTensorSize(Type t, Location loc, StringRef prefix, StringRef what,
                                     uint64_t limit) {
  auto type = dyn_cast<RankedTensorType>(t);
  if (!type || !type.getElementType().isIntOrFloat())
    return success();
  std::optional<uint64_t> bytes = tensorBytes(type);
  if (bytes && *bytes <= limit)
    return success();
  return emitError(loc) << prefix << "'" << what << "' would produce a tensor of "
                        << (bytes ? std::to_string(*bytes) + " bytes"
                                  : std::string("over 2^64 bytes"))
                        << " (" << type << "), more than the " << formatByteLimit(limit)
                        << " one tensor may have (--max-tensor-bytes)";
}

std::string mlir::mie::formatUnsupported(const OnnxUnsupportedNode &node) {
  return "unsupported ONNX op '" + node.opType + "' (domain '" + node.domain + "', opset " +
         std::to_string(node.opset) + ") at node '" + node.nodeName + "'";
}

static const OnnxOpTable &opTable() {
  static const OnnxOpTable table = [] {
    OnnxOpTable t;
    registerNNOps(t);
    registerElementwiseOps(t);
    registerMathOps(t);
    registerTensorOps(t);
    registerCompositeOps(t);
    // After the composites: CumSum is a real op (ms.cumsum) here, not a composition.
    registerIndexingOps(t);
    registerDynamicShapeOps(t);
    registerQuantOps(t);
    registerRecurrentOps(t);
    registerControlFlowOps(t);
    registerTrainingOps(t);
    registerMlOps(t);
    registerMlTreeOps(t);
    registerMlSvmOps(t);
    registerImageOps(t);
    return t;
  }();
  return table;
}

OnnxOpHandler mlir::mie::onnx_import::usualOnnxHandler(StringRef opType) {
  auto it = opTable().find(opType);
  return it == opTable().end() ? nullptr : it->second.handler;
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

namespace mlir::mie::onnx_import {

class GraphImporter {
public:
  /// What an ONNX value name stands for. Aliases (Identity) share one entry, so a weight or a known
  /// value is materialized at most once.
  struct ValueEntry {
    RankedTensorType type;
    Value value;                      // the SSA value, once there is one
    std::optional<KnownTensor> known; // compile-time contents, when known
    OnnxTensor *tensor = nullptr;     // model data to materialize as a resource
    Location loc;
    std::optional<DynamicExtent> extent; // a data-dependent extent (docs/dynamic-shapes.md)
    // The ranges of an integer value's elements computed from such extents (not known values).
    std::optional<SmallVector<IntRange>> ranges;
  };

  GraphImporter(MLIRContext &ctx, OnnxModel &model, const OnnxImportOptions &opts)
      : ctx(ctx), model(model), opts(opts), fileLoc(FileLineColLoc::get(&ctx, model.path, 0, 0)),
        builder(&ctx) {}

  FailureOr<OwningOpRef<ModuleOp>> run();

  int64_t semanticOpset() const { return std::min(model.opset, kMaxOpset); }
  int64_t domainVersion(StringRef domain) const {
    return domain.empty() ? model.opset : model.opsets.lookup(domain);
  }
  uint64_t maxTensorBytes() const { return opts.maxTensorBytes; }
  ValueEntry *lookup(StringRef name) const { return values.lookup(name); }
  /// The shape declared for the value `name` (docs: NodeImporter::declaredOutputShape).
  std::optional<SmallVector<int64_t>> declaredShape(StringRef name) const;
  /// The graph inputs `v` is computed from, sorted: its operands' producers followed back (through
  /// the regions of ms.if / ms.loop / ms.scan too) to the main function's arguments. For reports
  /// that say which inputs --input-value would bind.
  SmallVector<std::string> graphInputsBehind(Value v) const;
  ValueEntry &newEntry(RankedTensorType type, Location loc) {
    entries.push_back(
        ValueEntry{type, Value(), std::nullopt, nullptr, loc, std::nullopt, std::nullopt});
    return entries.back();
  }
  void define(StringRef name, ValueEntry &entry) { values[name] = &entry; }
  FailureOr<Value> materialize(ValueEntry &entry);
  /// The contents of `value` for folding: a dense constant, or a tracked initializer's resource
  /// read as one; null otherwise.
  Attribute foldOperand(Value value);
  /// Records a constant made by folding, which may be erased again once its value is known.
  void addFoldedConstant(Operation *op) { foldedConstants.insert(op); }
  bool takeFoldedConstant(Operation *op) { return foldedConstants.erase(op); }
  void reportUnsupported(const OnnxNode &node, Location loc);
  /// Imports `graph` at the end of `block` with its inputs bound to `args` (as many as it has
  /// inputs); returns its outputs. Its nodes may use every value visible where `block` is (implicit
  /// captures); the names it defines are forgotten again afterwards.
  FailureOr<SmallVector<Value>>
  importSubgraph(OnnxGraph &graph, Block *block, ArrayRef<Value> args,
                 SmallVectorImpl<std::optional<DynamicExtent>> *extents = nullptr);
  bool capturesDynamicValues(const OnnxGraph &graph) const;

private:
  Location nodeLoc(StringRef name) { return NameLoc::get(StringAttr::get(&ctx, name), fileLoc); }
  FailureOr<SmallVector<Type>> inputTypes();
  /// The symbol a kept symbolic input dim stands for (a new one for a new name).
  AffineExpr symbolFor(StringRef name);
  LogicalResult sortNodes(const std::vector<OnnxNode> &nodes, std::vector<size_t> &order);
  LogicalResult importNode(const OnnxNode &node);
  /// Defines the initializers that no input of the same name shadows (`isInput`), then imports
  /// `nodes` in dependency order. Failure stops the import at once; with collectAllUnsupported a
  /// failing node only sets `hadError` and the others are still imported (and reported).
  LogicalResult importBody(std::deque<OnnxTensor> &initializers, const std::vector<OnnxNode> &nodes,
                           function_ref<bool(StringRef)> isInput,
                           const std::vector<OnnxGraphValue> &outputs, bool &hadError);
  void poisonOutputs(const OnnxNode &node);
  LogicalResult buildReturn();

  MLIRContext &ctx;
  OnnxModel &model;
  const OnnxImportOptions &opts;
  Location fileLoc;
  OpBuilder builder; // at the end of @main's body
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  // Kept symbolic dims (OnnxImportOptions::keepSymbolicDims): the names, in order of first
  // appearance, and each graph input's dims over them (empty for an input with none).
  SmallVector<std::string> symbolNames;
  SmallVector<SmallVector<AffineExpr>> inputDims;
  Block *body = nullptr;
  Operation *lastConstant = nullptr;
  std::deque<ValueEntry> entries;
  llvm::StringMap<ValueEntry *> values;
  llvm::StringSet<> poisoned; // outputs of failed nodes (collect mode)
  llvm::SmallPtrSet<Operation *, 16> foldedConstants;
};

} // namespace mlir::mie::onnx_import

FailureOr<Value> GraphImporter::materialize(ValueEntry &entry) {
  if (entry.value)
    return entry.value;
  ElementsAttr attr;
  // A Constant node's small float table is known without being tracked as initializers are
  // (shouldTrackAsKnown): it becomes a `dense` constant, so that ms folders see through it.
  bool knownTable = entry.known && !shouldTrackAsKnown(entry.type);
  if (entry.tensor && !entry.tensor->materialized && !knownTable) {
    entry.tensor->materialized = true;
    attr = DenseResourceElementsAttr::get(entry.tensor->type, entry.tensor->name,
                                          std::move(entry.tensor->blob));
  } else if (entry.known) {
    attr = entry.known->toAttr();
  } else {
    return emitError(entry.loc) << "internal error: value without data or producer";
  }
  // Constants go to the top of @main in order of first use, where they dominate every user.
  OpBuilder constBuilder(&ctx);
  if (lastConstant)
    constBuilder.setInsertionPointAfter(lastConstant);
  else
    constBuilder.setInsertionPointToStart(body);
  auto constant = ms::ConstantOp::create(constBuilder, entry.loc, attr);
  lastConstant = constant;
  entry.value = constant.getResult();
  return entry.value;
}

Attribute GraphImporter::foldOperand(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  if (isa<DenseElementsAttr>(attr))
    return attr;
  // Model data stays a resource, but small integer tensors (shapes, axes) and scalars take part
  // in folding, as their known values do.
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  auto type = cast<RankedTensorType>(value.getType());
  if (!resource || !shouldTrackAsKnown(type) || !resource.getRawHandle().getBlob())
    return {};
  ArrayRef<char> bytes = resource.getData();
  int64_t width = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  if ((int64_t)bytes.size() != type.getNumElements() * width)
    return {};
  return knownFromBytes(type, bytes).toAttr();
}

void GraphImporter::reportUnsupported(const OnnxNode &node, Location loc) {
  auto it = model.opsets.find(node.domain);
  OnnxUnsupportedNode report{node.opType, node.domain, it == model.opsets.end() ? 0 : it->second,
                             node.name};
  if (opts.unsupportedNodes)
    opts.unsupportedNodes->push_back(std::move(report));
  else
    emitError(loc) << formatUnsupported(report);
}

FailureOr<SmallVector<Type>> GraphImporter::inputTypes() {
  SmallVector<Type> types;
  llvm::StringSet<> inputNames;
  // Symbolic dims given the default size, each name once: a model exported with dynamic axes
  // compiles for batch 1 and sequence 1 unless told otherwise, which the user should hear.
  llvm::StringSet<> defaulted;
  for (const OnnxGraphValue &input : model.inputs) {
    if (!inputNames.insert(input.name).second)
      return emitError(fileLoc) << "graph input '" << input.name << "' is listed twice";
    Type elementType = elementTypeFor(&ctx, input.dataType);
    if (!elementType)
      return emitError(fileLoc) << "graph input '" << input.name
                                << "' has unsupported element type "
                                << dataTypeName(input.dataType);
    SmallVector<int64_t> shape;
    auto override = opts.inputShapes.find(input.name);
    if (override != opts.inputShapes.end()) {
      if (input.dims && input.dims->size() != override->second.size())
        return emitError(fileLoc) << "input shape " << listToString(override->second) << " for '"
                                  << input.name << "' has rank " << override->second.size()
                                  << ", but the model declares rank " << input.dims->size();
      if (llvm::any_of(override->second, [](int64_t d) { return d < 0; }))
        return emitError(fileLoc) << "input shape " << listToString(override->second) << " for '"
                                  << input.name << "' has a negative dim";
      shape.assign(override->second.begin(), override->second.end());
    } else if (!input.dims) {
      return emitError(fileLoc) << "graph input '" << input.name
                                << "' has no shape; give one as an input shape override";
    } else {
      for (auto [index, dim] : llvm::enumerate(*input.dims)) {
        if (dim.size >= 0) {
          shape.push_back(dim.size);
          continue;
        }
        if (opts.keepSymbolicDims) {
          shape.push_back(ShapedType::kDynamic);
          continue;
        }
        if (!dim.param.empty()) {
          auto named = opts.symbolicDims.find(dim.param);
          if (named != opts.symbolicDims.end()) {
            shape.push_back(named->second);
            continue;
          }
        }
        if (opts.defaultSymbolicDim <= 0)
          return emitError(fileLoc)
                 << "graph input '" << input.name << "' has "
                 << (dim.param.empty() ? std::string("an unknown dim")
                                       : "the symbolic dim '" + dim.param + "'")
                 << " at index " << index << "; give its size with an input shape override";
        shape.push_back(opts.defaultSymbolicDim);
        std::string what =
            dim.param.empty() ? "an unknown dim" : "the symbolic dim '" + dim.param + "'";
        if (defaulted
                .insert(dim.param.empty() ? input.name + "#" + std::to_string(index) : dim.param)
                .second)
          emitWarning(fileLoc) << "graph input '" << input.name << "' has " << what << " at index "
                               << index << ": compiled for a size of " << opts.defaultSymbolicDim
                               << " (set it with "
                               << (dim.param.empty()
                                       ? std::string("--input-shape=") + input.name + "=..."
                                       : "--dim-param=" + dim.param +
                                             "=N, or keep it symbolic for every size with "
                                             "--dim-range=" +
                                             dim.param + "=LO..HI")
                               << "; --symbolic-dim-default=0 makes this an error)";
      }
    }
    // A kept symbolic dim is sized by its symbol; it is checked as 1 here.
    SmallVector<AffineExpr> dims;
    SmallVector<int64_t> smallest(shape);
    if (llvm::any_of(shape, ShapedType::isDynamic)) {
      for (auto [index, d] : llvm::enumerate(shape)) {
        if (!ShapedType::isDynamic(d)) {
          dims.push_back(getAffineConstantExpr(d, &ctx));
          continue;
        }
        const OnnxDim &dim = (*input.dims)[index];
        dims.push_back(
            symbolFor(dim.param.empty() ? input.name + "." + std::to_string(index) : dim.param));
        smallest[index] = 1;
      }
    }
    inputDims.push_back(std::move(dims));
    if (!isReasonableShape(smallest))
      return emitError(fileLoc) << "graph input '" << input.name << "' of shape "
                                << listToString(shape) << " is too large";
    auto type = RankedTensorType::get(shape, elementType);
    std::optional<uint64_t> bytes = tensorBytes(RankedTensorType::get(smallest, elementType));
    if (!bytes || *bytes > opts.maxTensorBytes)
      return emitError(fileLoc) << "graph input '" << input.name << "' of shape "
                                << listToString(shape) << " needs "
                                << (bytes ? std::to_string(*bytes) : std::string("over 2^64"))
                                << " bytes, more than the " << formatByteLimit(opts.maxTensorBytes)
                                << " one tensor may have (--max-tensor-bytes)";
    types.push_back(type);
  }
  for (const auto &entry : opts.inputShapes)
    if (!inputNames.contains(entry.getKey()))
      return emitError(fileLoc) << "input shape given for '" << entry.getKey()
                                << "', which is not a graph input";
  return types;
}

AffineExpr GraphImporter::symbolFor(StringRef name) {
  auto it = llvm::find(symbolNames, name);
  if (it == symbolNames.end()) {
    symbolNames.push_back(name.str());
    it = std::prev(symbolNames.end());
  }
  return getAffineSymbolExpr(it - symbolNames.begin(), &ctx);
}

LogicalResult GraphImporter::sortNodes(const std::vector<OnnxNode> &nodes,
                                       std::vector<size_t> &order) {
  size_t n = nodes.size();
  llvm::StringMap<size_t> producer;
  for (const OnnxNode &node : nodes) {
    for (const std::string &output : node.outputs) {
      if (output.empty())
        continue;
      if (values.count(output) || !producer.try_emplace(output, node.index).second)
        return emitError(nodeLoc(node.name))
               << node.opType << " node '" << node.name << "': value '" << output
               << "' is defined more than once";
    }
  }
  std::vector<unsigned> indegree(n, 0);
  std::vector<SmallVector<size_t, 2>> consumers(n);
  for (const OnnxNode &node : nodes) {
    for (const std::string &input : node.inputs) {
      if (input.empty() || values.count(input))
        continue;
      auto it = producer.find(input);
      if (it == producer.end())
        return emitError(nodeLoc(node.name)) << node.opType << " node '" << node.name
                                             << "': input '" << input << "' is not defined";
      ++indegree[node.index];
      consumers[it->second].push_back(node.index);
    }
  }
  // Kahn's algorithm, taking the lowest node index first: a sorted graph keeps its order.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < n; ++i)
    if (indegree[i] == 0)
      ready.push(i);
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t c : consumers[i])
      if (--indegree[c] == 0)
        ready.push(c);
  }
  if (order.size() != n) {
    for (size_t i = 0; i < n; ++i)
      if (indegree[i] != 0)
        return emitError(nodeLoc(nodes[i].name)) << "graph has a cycle through " << nodes[i].opType
                                                 << " node '" << nodes[i].name << "'";
  }
  return success();
}

void GraphImporter::poisonOutputs(const OnnxNode &node) {
  for (const std::string &output : node.outputs)
    if (!output.empty() && !values.count(output))
      poisoned.insert(output);
}

LogicalResult GraphImporter::importNode(const OnnxNode &node) {
  Location loc = nodeLoc(node.name);
  const OnnxOpTable &table = opTable();
  auto it = table.find(domainOpKey(node.domain, node.opType));
  // Whether the op exists is a question of the model's own opset: an op introduced after
  // kMaxOpset (Gelu, opset 20) has one version only, so clamping its semantics changes nothing.
  int64_t version = domainVersion(node.domain);
  if (it == table.end() || version < it->second.sinceOpset) {
    reportUnsupported(node, loc);
    poisonOutputs(node);
    return failure();
  }
  // Downstream of a failed node (collect mode): nothing to say that was not said already.
  if (llvm::any_of(node.inputs, [&](const std::string &in) { return poisoned.contains(in); })) {
    poisonOutputs(node);
    return success();
  }

  const OnnxOpInfo &info = it->second;
  NodeImporter importer(*this, node, loc, builder);
  LogicalResult result = success();
  size_t numInputs = node.inputs.size();
  if (numInputs > info.maxInputs) {
    importer.error() << "expects at most " << info.maxInputs << " inputs, got " << numInputs;
    result = failure();
  } else {
    for (unsigned i = 0; i < info.minInputs; ++i) {
      if (i < numInputs && !node.inputs[i].empty())
        continue;
      importer.error() << "expects at least " << info.minInputs << " inputs, got "
                       << llvm::count_if(node.inputs,
                                         [](const std::string &s) { return !s.empty(); });
      result = failure();
      break;
    }
  }
  // A value with a data-dependent extent only reaches ops that keep it as the bound plus a count;
  // some ops have a handler of their own for such inputs and for sizes computed from them
  // (values with tracked element ranges).
  bool takesExtents = false, takesRanges = false;
  for (unsigned i = 0; i < numInputs; ++i)
    takesRanges |= importer.hasTrackedRanges(i);
  OnnxOpHandler dynamicHandler = dynamicExtentHandler(node.opType);
  for (unsigned i = 0; succeeded(result) && i < numInputs; ++i) {
    if (!importer.hasInput(i) || !importer.inputExtent(i))
      continue;
    takesExtents = true;
    if (!takesDynamicExtents(node.opType) && !dynamicHandler) {
      importer.unsupportedFeature()
          << "input " << i << " ('" << node.inputs[i]
          << "') has a data-dependent shape, which this op does not take (docs/dynamic-shapes.md "
             "lists the ops that do)";
      result = failure();
    }
  }
  // Sizes computed from kept symbolic dims are not bounds: the plain handlers take them (Reshape
  // keeps them symbolic; the integer arithmetic on them carries their expressions on).
  bool symbolicSizes = takesRanges && !takesExtents;
  for (unsigned i = 0; symbolicSizes && i < numInputs; ++i)
    symbolicSizes = !importer.hasTrackedRanges(i) || hasSymbolicElements(importer, i);
  bool ownHandler = dynamicHandler && (takesExtents || takesRanges) && !symbolicSizes;
  if (succeeded(result))
    result = ownHandler ? dynamicHandler(importer) : info.handler(importer);
  if (succeeded(result) && importer.hasFailed())
    result = failure(); // an attribute error the handler did not act on
  if (succeeded(result) && takesExtents && !ownHandler)
    result = propagateDynamicExtents(importer);
  if (succeeded(result) && (takesExtents || takesRanges))
    propagateRanges(importer);
  if (succeeded(result)) {
    for (unsigned i = 0; i < node.outputs.size(); ++i) {
      if (importer.hasOutput(i) && !values.count(node.outputs[i])) {
        importer.error() << "output " << i << " ('" << node.outputs[i] << "') is not supported";
        result = failure();
        break;
      }
    }
  }
  if (failed(result))
    poisonOutputs(node);
  return result;
}

/// Every name a node's subgraphs read (their nodes' inputs, nested graphs too): what a node with
/// subgraphs captures from the graphs around it.
static void collectSubgraphReads(const OnnxNode &node, llvm::StringSet<> &names) {
  for (const auto &attr : node.attributes) {
    if (!attr.second.graph)
      continue;
    for (const OnnxNode &inner : attr.second.graph->nodes) {
      for (const std::string &in : inner.inputs)
        names.insert(in);
      collectSubgraphReads(inner, names);
    }
    for (const OnnxGraphValue &out : attr.second.graph->outputs)
      names.insert(out.name);
  }
}

LogicalResult GraphImporter::importBody(std::deque<OnnxTensor> &initializers,
                                        const std::vector<OnnxNode> &nodes,
                                        function_ref<bool(StringRef)> isInput,
                                        const std::vector<OnnxGraphValue> &outputs,
                                        bool &hadError) {
  for (OnnxTensor &tensor : initializers) {
    if (isInput(tensor.name))
      continue;
    ValueEntry &entry = newEntry(tensor.type, nodeLoc(tensor.name));
    entry.tensor = &tensor;
    entry.known = tensor.known;
    define(tensor.name, entry);
  }
  std::vector<size_t> order;
  if (failed(sortNodes(nodes, order)))
    return failure();
  // Nodes that no output depends on are not imported: exporters leave such branches (Mask R-CNN's
  // mask pasting when only the boxes are outputs), which onnxruntime drops as well.
  llvm::StringSet<> needed;
  for (const OnnxGraphValue &output : outputs)
    needed.insert(output.name);
  std::vector<bool> live(nodes.size(), false);
  for (size_t index : llvm::reverse(order)) {
    const OnnxNode &node = nodes[index];
    if (llvm::none_of(node.outputs, [&](const std::string &o) { return needed.contains(o); }))
      continue;
    live[index] = true;
    for (const std::string &in : node.inputs)
      needed.insert(in);
    collectSubgraphReads(node, needed);
  }
  hadError = false;
  for (size_t index : order) {
    if (!live[index])
      continue;
    if (succeeded(importNode(nodes[index])))
      continue;
    hadError = true;
    if (!opts.collectAllUnsupported)
      return failure();
  }
  return success();
}

FailureOr<SmallVector<Value>>
GraphImporter::importSubgraph(OnnxGraph &graph, Block *block, ArrayRef<Value> args,
                              SmallVectorImpl<std::optional<DynamicExtent>> *extents) {
  // The subgraph's names shadow nothing (ONNX forbids it) but must not outlive it: a sibling
  // branch may define the same names.
  llvm::StringMap<ValueEntry *> outerValues = values;
  llvm::StringSet<> outerPoisoned = poisoned;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  llvm::scope_exit restore([&] {
    values = std::move(outerValues);
    poisoned = std::move(outerPoisoned);
  });

  assert(args.size() == graph.inputs.size() && "one value per subgraph input");
  for (auto [input, arg] : llvm::zip(graph.inputs, args)) {
    ValueEntry &entry = newEntry(cast<RankedTensorType>(arg.getType()), nodeLoc(input.name));
    entry.value = arg;
    define(input.name, entry);
  }
  bool hadError = false;
  if (failed(importBody(
          graph.initializers, graph.nodes,
          [&](StringRef name) {
            return llvm::any_of(graph.inputs,
                                [&](const OnnxGraphValue &v) { return v.name == name; });
          },
          graph.outputs, hadError)) ||
      hadError)
    return failure();
  SmallVector<Value> results;
  for (const OnnxGraphValue &output : graph.outputs) {
    ValueEntry *entry = lookup(output.name);
    if (!entry)
      return emitError(fileLoc) << "subgraph output '" << output.name
                                << "' is not produced by any node";
    if (poisoned.contains(output.name))
      return failure();
    if (entry->extent && !extents)
      return emitError(entry->loc) << "unsupported feature: subgraph output '" << output.name
                                   << "' has a data-dependent shape";
    if (extents)
      extents->push_back(entry->extent);
    Type declared = elementTypeFor(&ctx, output.dataType);
    if (output.dataType != 0 && declared != entry->type.getElementType())
      return emitError(entry->loc)
             << "subgraph output '" << output.name << "' is declared as "
             << dataTypeName(output.dataType) << ", but the import computes " << entry->type;
    FailureOr<Value> value = materialize(*entry);
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  return results;
}

bool GraphImporter::capturesDynamicValues(const OnnxGraph &graph) const {
  llvm::StringSet<> local;
  for (const OnnxGraphValue &v : graph.inputs)
    local.insert(v.name);
  for (const OnnxTensor &t : graph.initializers)
    local.insert(t.name);
  for (const OnnxNode &node : graph.nodes) {
    for (const std::string &in : node.inputs) {
      if (in.empty() || local.contains(in))
        continue;
      if (ValueEntry *entry = lookup(in); entry && (entry->extent || entry->ranges))
        return true;
    }
    for (const auto &attr : node.attributes)
      if (attr.second.graph && capturesDynamicValues(*attr.second.graph))
        return true;
    for (const std::string &out : node.outputs)
      local.insert(out);
  }
  return false;
}

LogicalResult GraphImporter::buildReturn() {
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  bool failedOutput = false;
  for (const OnnxGraphValue &output : model.outputs) {
    if (poisoned.contains(output.name)) {
      failedOutput = true;
      continue;
    }
    ValueEntry *entry = lookup(output.name);
    if (!entry)
      return emitError(fileLoc) << "graph output '" << output.name
                                << "' is not produced by any node";
    Type declared = elementTypeFor(&ctx, output.dataType);
    if (output.dataType != 0 && declared != entry->type.getElementType())
      return emitError(entry->loc)
             << "graph output '" << output.name << "' is declared as "
             << dataTypeName(output.dataType) << ", but the import computes " << entry->type;
    FailureOr<Value> value = materialize(*entry);
    if (failed(value))
      return failure();
    results.push_back(*value);
    resultTypes.push_back(value->getType());
  }
  if (failedOutput)
    return failure();
  // Outputs with a data-dependent extent: their counts follow as extra results, which the package
  // passes as the outputs' extent buffers (docs/package-format.md, format 3).
  SmallVector<std::pair<unsigned, DynamicExtent>> extents;
  for (auto [i, output] : llvm::enumerate(model.outputs))
    if (ValueEntry *entry = lookup(output.name); entry->extent)
      extents.push_back({unsigned(i), *entry->extent});
  for (auto &[i, extent] : extents) {
    results.push_back(extent.count);
    resultTypes.push_back(extent.count.getType());
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(FunctionType::get(&ctx, func.getArgumentTypes(), resultTypes));
  for (auto [i, output] : llvm::enumerate(model.outputs))
    func.setResultAttr(i, "mie.name", StringAttr::get(&ctx, output.name));
  for (auto [k, item] : llvm::enumerate(extents)) {
    auto &[i, extent] = item;
    func.setResultAttr(i, "mie.dynamic_dims", DenseI64ArrayAttr::get(&ctx, {extent.dim}));
    func.setResultAttr(model.outputs.size() + k, "mie.extent_of",
                       IntegerAttr::get(IntegerType::get(&ctx, 64), i));
  }
  return success();
}

FailureOr<OwningOpRef<ModuleOp>> GraphImporter::run() {
  module = ModuleOp::create(fileLoc);
  // How many nodes the source graph had, for the fusion report ("ONNX nodes in").
  (*module)->setAttr("ms.source_nodes",
                     IntegerAttr::get(IntegerType::get(&ctx, 64), (int64_t)model.nodes.size()));
  FailureOr<SmallVector<Type>> argTypes = inputTypes();
  if (failed(argTypes))
    return failure();
  // Graph inputs whose elements size tensors: a value symbol each (OnnxValueSymbols.cpp).
  SmallVector<ValueSymbolSource> valueSources = findValueSymbolSources(model);
  SmallVector<unsigned> valueSymbols;
  for (const ValueSymbolSource &source : valueSources)
    valueSymbols.push_back(cast<AffineSymbolExpr>(symbolFor(source.name)).getPosition());
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module->getBody());
  func =
      func::FuncOp::create(moduleBuilder, fileLoc, "main", FunctionType::get(&ctx, *argTypes, {}));
  body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);

  if (!symbolNames.empty()) {
    SmallVector<Attribute> names;
    for (const std::string &name : symbolNames)
      names.push_back(StringAttr::get(&ctx, name));
    func->setAttr(ms::kSymbolsAttrName, ArrayAttr::get(&ctx, names));
  }
  if (!valueSources.empty())
    recordValueSymbols(func, valueSources, valueSymbols);
  for (auto [i, input] : llvm::enumerate(model.inputs)) {
    func.setArgAttr(i, "mie.name", StringAttr::get(&ctx, input.name));
    if (!inputDims[i].empty())
      func.setArgAttr(
          i, ms::kArgShapeAttrName,
          AffineMapAttr::get(ms::symbolicShapeMap(&ctx, symbolNames.size(), inputDims[i])));
    ValueEntry &entry = newEntry(cast<RankedTensorType>((*argTypes)[i]), nodeLoc(input.name));
    entry.value = body->getArgument(i);
    entry.value.setLoc(entry.loc);
    // A value symbol's element is that symbol, a size (never below 0).
    SmallVector<IntRange> elements;
    for (auto [source, symbol] : llvm::zip(valueSources, valueSymbols))
      if (source.input == i)
        elements.push_back({0, INT32_MAX, nullptr, getAffineSymbolExpr(symbol, &ctx)});
    if (!elements.empty())
      entry.ranges = std::move(elements);
    define(input.name, entry);
  }
  // An input of the same name as an initializer wins, as ONNX says.
  bool hadError = false;
  if (failed(importBody(
          model.initializers, model.nodes, [&](StringRef name) { return values.count(name) != 0; },
          model.outputs, hadError)))
    return failure();
  if (failed(buildReturn()) || hadError)
    return failure();
  if (!valueSources.empty() &&
      failed(pinDeclaredValueSymbols(func, model.outputs,
                                     SmallVector<Value>(body->getTerminator()->getOperands()))))
    return failure();
  // The Shape chains of symbolic dims that a symbolic reshape made dead (OnnxSymbolicDims.cpp);
  // only a function with symbols has any.
  if (!symbolNames.empty()) {
    llvm::SmallPtrSet<Operation *, 16> fromShapes;
    for (Operation &op : *body)
      if (isa<ms::ShapeOfOp>(op) || llvm::any_of(op.getOperands(), [&](Value v) {
            return v.getDefiningOp() && fromShapes.contains(v.getDefiningOp());
          }))
        fromShapes.insert(&op);
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
      if (fromShapes.contains(&op) && isOpTriviallyDead(&op))
        op.erase();
  }
  // Known values whose only users folded away (the operands of shape arithmetic, small integer
  // initializers among them). Other model data is left to the pipeline's own clean-up.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (auto constant = dyn_cast<ms::ConstantOp>(op);
        constant && op.use_empty() &&
        (isa<DenseElementsAttr>(constant.getValue()) || shouldTrackAsKnown(constant.getType())))
      op.erase();
  // Values known at import time (a ConstantOfShape's splat) become constants without a node's op:
  // every tensor of the graph, inputs included, is held to the size limit here.
  bool tooLarge = false;
  // (Graph inputs were checked with their types.)
  module->walk([&](Operation *op) {
    auto name = dyn_cast<NameLoc>(op->getLoc());
    std::string prefix = name ? "node '" + name.getName().str() + "': " : std::string();
    for (Value v : op->getResults())
      tooLarge |= failed(checkTensorSize(v.getType(), op->getLoc(), prefix,
                                         op->getName().getStringRef(), opts.maxTensorBytes));
  });
  if (tooLarge || failed(mlir::verify(*module)))
    return failure();
  return std::move(module);
}

//===----------------------------------------------------------------------===//
// NodeImporter
//===----------------------------------------------------------------------===//

NodeImporter::NodeImporter(GraphImporter &graph, const OnnxNode &node, Location loc,
                           OpBuilder &builder)
    : graph(graph), onnxNode(node), location(loc), b(builder) {}

int64_t NodeImporter::opset() const { return graph.semanticOpset(); }

int64_t NodeImporter::domainOpset() const { return graph.domainVersion(onnxNode.domain); }

bool NodeImporter::hasInput(unsigned i) const {
  return i < onnxNode.inputs.size() && !onnxNode.inputs[i].empty();
}

RankedTensorType NodeImporter::inputType(unsigned i) const {
  return graph.lookup(inputName(i))->type;
}

const KnownTensor *NodeImporter::known(unsigned i) const {
  if (!hasInput(i))
    return nullptr;
  GraphImporter::ValueEntry *entry = graph.lookup(inputName(i));
  // A value with a data-dependent extent holds padding past its count: never a known value.
  if (replacedInputs.count(i) || entry->extent)
    return nullptr;
  return entry->known ? &*entry->known : nullptr;
}

bool NodeImporter::allInputsKnown() const {
  for (unsigned i = 0; i < onnxNode.inputs.size(); ++i)
    if (hasInput(i) && !known(i))
      return false;
  return true;
}

FailureOr<Value> NodeImporter::input(unsigned i) {
  if (Value replaced = replacedInputs.lookup(i))
    return replaced;
  return graph.materialize(*graph.lookup(inputName(i)));
}

Attribute NodeImporter::constantValue(Value value) { return graph.foldOperand(value); }

void NodeImporter::replaceInput(unsigned i, Value value) {
  assert(value.getType() == inputType(i) && "a replacement keeps the input's type");
  replacedInputs[i] = value;
}

std::optional<SmallVector<IntRange>> NodeImporter::inputRanges(unsigned i) const {
  if (!hasInput(i))
    return std::nullopt;
  GraphImporter::ValueEntry *entry = graph.lookup(inputName(i));
  if (entry->ranges)
    return entry->ranges;
  if (!entry->known || entry->known->isFloat() || entry->known->numElements() > kMaxBoundedElements)
    return std::nullopt;
  SmallVector<IntRange> exact;
  for (int64_t v : entry->known->toInts())
    exact.push_back({v, v});
  return exact;
}

bool NodeImporter::hasTrackedRanges(unsigned i) const {
  return hasInput(i) && graph.lookup(inputName(i))->ranges.has_value();
}

void NodeImporter::setOutputRanges(unsigned i, ArrayRef<IntRange> ranges) {
  if (!hasOutput(i))
    return;
  GraphImporter::ValueEntry *entry = graph.lookup(onnxNode.outputs[i]);
  if (!entry || entry->known || entry->type.getNumElements() != (int64_t)ranges.size())
    return;
  // Ranges of one value each (a dim that is static whatever the counts) are a known value.
  if (llvm::all_of(ranges, [](const IntRange &r) { return r.exact(); })) {
    SmallVector<int64_t> values;
    for (const IntRange &r : ranges)
      values.push_back(r.lo);
    entry->known =
        KnownTensor::fromInts(entry->type.getShape(), entry->type.getElementType(), values);
    entry->value = Value(); // consumers get a constant, and fold through it
    return;
  }
  entry->ranges = SmallVector<IntRange>(ranges);
}

FailureOr<SmallVector<Value>>
NodeImporter::importSubgraphInline(OnnxGraph &graph,
                                   SmallVectorImpl<std::optional<DynamicExtent>> &extents) {
  return this->graph.importSubgraph(graph, b.getInsertionBlock(), {}, &extents);
}

bool NodeImporter::capturesDynamicValues(const OnnxGraph &g) const {
  return graph.capturesDynamicValues(g);
}

const KnownTensor *NodeImporter::constantData(unsigned i) {
  if (!hasInput(i))
    return nullptr;
  if (const KnownTensor *value = known(i))
    return value;
  // Model data the importer does not track (float tensors of more than one element) is read from
  // its bytes: it is a constant all the same.
  GraphImporter::ValueEntry *entry = graph.lookup(inputName(i));
  // A tensor of no elements has its one value whatever computes it: a graph input of shape [0]
  // (a ReduceSum's empty axes given as an input) is as known as an empty initializer.
  if (entry->type && entry->type.hasStaticShape() && entry->type.getNumElements() == 0) {
    entry->known = knownFromBytes(entry->type, {});
    return &*entry->known;
  }
  if (entry->tensor && entry->type.getNumElements() <= kMaxKnownElements) {
    ArrayRef<char> bytes;
    if (!entry->tensor->materialized)
      bytes = entry->tensor->blob.getData();
    else if (auto constant = entry->value.getDefiningOp<ms::ConstantOp>())
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
        if (resource.getRawHandle().getBlob())
          bytes = resource.getData();
    int64_t width = std::max<int64_t>(1, entry->type.getElementTypeBitWidth() / 8);
    if ((int64_t)bytes.size() == entry->type.getNumElements() * width) {
      entry->known = knownFromBytes(entry->type, bytes);
      return &*entry->known;
    }
  }
  return nullptr;
}

SmallVector<std::string> GraphImporter::graphInputsBehind(Value v) const {
  SmallVector<std::string> names;
  llvm::DenseSet<Value> seen;
  SmallVector<Value> todo = {v};
  // Bounded: a report must not cost more than the import.
  while (!todo.empty() && seen.size() < 100000) {
    Value current = todo.pop_back_val();
    if (!current || !seen.insert(current).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(current)) {
      if (arg.getOwner() == body)
        if (auto name =
                func::FuncOp(func).getArgAttrOfType<StringAttr>(arg.getArgNumber(), "mie.name"))
          names.push_back(name.str());
      continue;
    }
    current.getDefiningOp()->walk(
        [&](Operation *op) { llvm::append_range(todo, op->getOperands()); });
  }
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

FailureOr<const KnownTensor *> NodeImporter::requireKnown(unsigned i, StringRef what) {
  if (!hasInput(i))
    return error() << what << " input is missing";
  if (const KnownTensor *value = constantData(i))
    return value;
  failedFlag = true;
  InFlightDiagnostic d = emitError(location)
                         << "unsupported dynamic input '" << what << "' of " << opType()
                         << " at node '" << name()
                         << "': this compiler needs shape-determining inputs to be constants "
                            "(initializers or Constant nodes)";
  // Which graph inputs it comes from, so that the user knows what --input-value would bind.
  const GraphImporter::ValueEntry *entry = graph.lookup(inputName(i));
  SmallVector<std::string> inputs =
      entry && entry->value ? graph.graphInputsBehind(entry->value) : SmallVector<std::string>();
  if (!inputs.empty()) {
    d << "; it comes from the graph input" << (inputs.size() > 1 ? "s " : " ");
    llvm::interleave(
        inputs, d, [&](const std::string &s) { d << "'" << s << "'"; }, ", ");
    d << " (mie-compile --input-value=NAME=FILE compiles for one value of "
      << (inputs.size() > 1 ? "them" : "it") << ")";
  }
  return d;
}

Value NodeImporter::foldCreated(Operation *op) {
  Value result = op->getResult(0);
  // Only computations on known values are evaluated here; simplifications of computations on
  // run-time values (log(exp(x)), x + 0) are the canonicalizer's, later in the pipeline.
  SmallVector<Attribute> operands;
  for (Value v : op->getOperands()) {
    operands.push_back(graph.foldOperand(v));
    if (!operands.back())
      return result;
  }
  ms::ConstantOperandFold folded = ms::foldOnConstantOperands(op, operands, [&](Value value) {
    return dyn_cast_or_null<DenseElementsAttr>(graph.foldOperand(value));
  });
  if (folded.value) {
    op->erase();
    return folded.value;
  }
  if (!folded.constant)
    return result;
  auto constant = ms::ConstantOp::create(b, location, folded.constant);
  graph.addFoldedConstant(constant);
  op->erase();
  return constant.getResult();
}

Value NodeImporter::expandKnown(Operation *op) {
  Value result = ms::expandImportComposite(
      op, [&](Value v) { return dyn_cast_or_null<DenseElementsAttr>(graph.foldOperand(v)); });
  if (auto constant = result.getDefiningOp<ms::ConstantOp>())
    graph.addFoldedConstant(constant);
  return result;
}

void NodeImporter::setOutput(unsigned i, Value value) {
  if (!hasOutput(i))
    return;
  GraphImporter::ValueEntry &entry =
      graph.newEntry(cast<RankedTensorType>(value.getType()), location);
  entry.value = value;
  // A folded result is a known value: later nodes fold through it or read it (Reshape's shape),
  // and it is materialized again, at the top of @main, only where a real op needs it.
  if (auto constant = value.getDefiningOp<ms::ConstantOp>()) {
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        dense && dense.getNumElements() <= kMaxKnownElements) {
      entry.known = knownFromAttr(dense);
      if (constant->use_empty() && graph.takeFoldedConstant(constant)) {
        constant->erase();
        entry.value = Value();
      }
    }
  }
  graph.define(onnxNode.outputs[i], entry);
}

void NodeImporter::setKnownOutput(unsigned i, KnownTensor value) {
  if (!hasOutput(i))
    return;
  GraphImporter::ValueEntry &entry = graph.newEntry(value.type, location);
  entry.known = std::move(value);
  graph.define(onnxNode.outputs[i], entry);
}

void NodeImporter::setTensorOutput(unsigned i, OnnxTensor &tensor) {
  if (!hasOutput(i))
    return;
  GraphImporter::ValueEntry &entry = graph.newEntry(tensor.type, location);
  entry.tensor = &tensor;
  entry.known = tensor.known;
  graph.define(onnxNode.outputs[i], entry);
}

void NodeImporter::setOutputExtent(unsigned i, Value count, int64_t dim) {
  if (!hasOutput(i))
    return;
  GraphImporter::ValueEntry *entry = graph.lookup(onnxNode.outputs[i]);
  assert(entry && "the output is defined before its extent");
  // An alias (forwardInput) shares the entry of its input, which already has the extent.
  entry->extent = DynamicExtent{count, dim};
}

std::optional<DynamicExtent> NodeImporter::inputExtent(unsigned i) const {
  if (!hasInput(i))
    return std::nullopt;
  return graph.lookup(inputName(i))->extent;
}

RankedTensorType NodeImporter::outputType(unsigned i) const {
  return graph.lookup(onnxNode.outputs[i])->type;
}

std::optional<SmallVector<int64_t>> GraphImporter::declaredShape(StringRef name) const {
  auto find = [&](const std::vector<OnnxGraphValue> &list) -> const OnnxGraphValue * {
    for (const OnnxGraphValue &v : list)
      if (v.name == name && v.dims)
        return &v;
    return nullptr;
  };
  const OnnxGraphValue *declared = find(model.outputs);
  if (!declared)
    declared = find(model.valueInfo);
  if (!declared)
    return std::nullopt;
  SmallVector<int64_t> shape;
  for (const OnnxDim &dim : *declared->dims) {
    auto named = dim.param.empty() ? opts.symbolicDims.end() : opts.symbolicDims.find(dim.param);
    shape.push_back(dim.size >= 0                      ? dim.size
                    : named != opts.symbolicDims.end() ? named->second
                                                       : -1);
  }
  return shape;
}

std::optional<SmallVector<int64_t>> NodeImporter::declaredOutputShape(unsigned i) const {
  if (!hasOutput(i))
    return std::nullopt;
  return graph.declaredShape(onnxNode.outputs[i]);
}

std::optional<DynamicExtent> NodeImporter::outputExtent(unsigned i) const {
  if (!hasOutput(i))
    return std::nullopt;
  GraphImporter::ValueEntry *entry = graph.lookup(onnxNode.outputs[i]);
  return entry ? entry->extent : std::nullopt;
}

void NodeImporter::forwardInput(unsigned out, unsigned in) {
  if (hasOutput(out))
    graph.define(onnxNode.outputs[out], *graph.lookup(inputName(in)));
}

LogicalResult NodeImporter::onlyOutputs(unsigned count, StringRef why) {
  for (unsigned i = count; i < numOutputs(); ++i)
    if (hasOutput(i))
      return unsupportedFeature() << "output " << i << " ('" << onnxNode.outputs[i]
                                  << "') is not computed: " << why;
  return success();
}

const OnnxAttribute *NodeImporter::findAttr(StringRef attrName, OnnxAttribute::Kind kind,
                                            StringRef kindName) {
  auto it = onnxNode.attributes.find(attrName);
  if (it == onnxNode.attributes.end())
    return nullptr;
  const OnnxAttribute &attr = it->second;
  // Ints are accepted where floats are expected; some exporters write `alpha = 1`.
  if (attr.kind == kind ||
      (kind == OnnxAttribute::Kind::Float && attr.kind == OnnxAttribute::Kind::Int))
    return &attr;
  error() << "attribute '" << attrName << "' must be " << kindName << ", got " << attr.typeName;
  return nullptr;
}

bool NodeImporter::hasAttr(StringRef attrName) const { return onnxNode.attributes.count(attrName); }

int64_t NodeImporter::getInt(StringRef attrName, int64_t defaultValue) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::Int, "an INT");
  return attr ? attr->i : defaultValue;
}

double NodeImporter::getFloat(StringRef attrName, double defaultValue) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::Float, "a FLOAT");
  if (!attr)
    return defaultValue;
  return attr->kind == OnnxAttribute::Kind::Int ? static_cast<double>(attr->i) : attr->f;
}

std::string NodeImporter::getString(StringRef attrName, StringRef defaultValue) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::String, "a STRING");
  return attr ? attr->s : defaultValue.str();
}

std::optional<SmallVector<int64_t>> NodeImporter::getInts(StringRef attrName) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::Ints, "INTS");
  if (!attr)
    return std::nullopt;
  return SmallVector<int64_t>(attr->ints.begin(), attr->ints.end());
}

std::optional<SmallVector<double>> NodeImporter::getFloats(StringRef attrName) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::Floats, "FLOATS");
  if (!attr)
    return std::nullopt;
  return SmallVector<double>(attr->floats.begin(), attr->floats.end());
}

OnnxTensor *NodeImporter::getTensor(StringRef attrName) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::Tensor, "a TENSOR");
  return attr ? attr->tensor.get() : nullptr;
}

OnnxGraph *NodeImporter::getGraph(StringRef attrName) {
  const OnnxAttribute *attr = findAttr(attrName, OnnxAttribute::Kind::Graph, "a GRAPH");
  return attr ? attr->graph.get() : nullptr;
}

FailureOr<SmallVector<Value>> NodeImporter::importSubgraph(OnnxGraph &subgraph, Block *block,
                                                           ArrayRef<Value> args) {
  return graph.importSubgraph(subgraph, block, args);
}

InFlightDiagnostic NodeImporter::error() {
  failedFlag = true;
  InFlightDiagnostic diag = emitError(location);
  diag << onnxNode.opType << " node '" << onnxNode.name << "': ";
  return diag;
}

LogicalResult NodeImporter::unsupported() {
  failedFlag = true;
  graph.reportUnsupported(onnxNode, location);
  return failure();
}

InFlightDiagnostic NodeImporter::unsupportedFeature() {
  failedFlag = true;
  InFlightDiagnostic diag = emitError(location);
  diag << "unsupported feature of " << onnxNode.opType << " at node '" << onnxNode.name << "': ";
  return diag;
}

/// Runs `fn` with diagnostics captured instead of reported; returns the first message.
static std::string captureDiagnostics(MLIRContext *ctx, function_ref<LogicalResult()> fn,
                                      LogicalResult &result) {
  std::string message;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  result = fn();
  return message;
}

LogicalResult
NodeImporter::inferTypes(OperationState &state, SmallVectorImpl<Type> &types,
                         function_ref<LogicalResult(Location, SmallVectorImpl<Type> &)> infer) {
  LogicalResult result = success();
  std::string message = captureDiagnostics(
      context(), [&] { return infer(location, types); }, result);
  if (succeeded(result))
    return success();
  return error() << "cannot build '" << state.name.getStringRef()
                 << "': " << (message.empty() ? "invalid operands or attributes" : message);
}

FailureOr<Operation *> NodeImporter::finishOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  for (Type t : op->getResultTypes())
    if (failed(checkTensorSize(t, location, (opType() + " node '" + this->name() + "': ").str(),
                               name, graph.maxTensorBytes()))) {
      op->erase();
      return failure();
    }
  LogicalResult result = success();
  std::string message = captureDiagnostics(
      context(), [&] { return mlir::verify(op); }, result);
  if (succeeded(result))
    return op;
  op->erase();
  return error() << "invalid '" << name << "': " << message;
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::mie::onnx_import::normalizeAxis(NodeImporter &node, int64_t axis,
                                                         int64_t rank, StringRef what) {
  if (axis < -rank || axis >= rank)
    return node.error() << what << " " << axis << " is out of range for rank " << rank
                        << " (expected [" << -rank << ", " << rank - 1 << "])";
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>> mlir::mie::onnx_import::normalizeAxes(NodeImporter &node,
                                                                      ArrayRef<int64_t> axes,
                                                                      int64_t rank,
                                                                      StringRef what) {
  SmallVector<int64_t> result;
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = normalizeAxis(node, axis, rank, what);
    if (failed(normalized))
      return failure();
    if (llvm::is_contained(result, *normalized))
      return node.error() << what << " " << listToString(axes) << " name dim " << *normalized
                          << " twice";
    result.push_back(*normalized);
  }
  return result;
}

FailureOr<std::optional<SmallVector<int64_t>>>
mlir::mie::onnx_import::intsFromAttrOrInput(NodeImporter &node, StringRef attrName,
                                            unsigned inputIndex, int64_t inputSinceOpset) {
  // The opset decides which form is valid; the other one is accepted when the valid one is absent,
  // since some exporters mix them up.
  bool preferInput = node.opset() >= inputSinceOpset;
  if (!preferInput || !node.hasInput(inputIndex)) {
    if (std::optional<SmallVector<int64_t>> fromAttr = node.getInts(attrName))
      return std::optional<SmallVector<int64_t>>(std::move(fromAttr));
    if (node.hasFailed())
      return failure();
  }
  if (!node.hasInput(inputIndex))
    return std::optional<SmallVector<int64_t>>();
  // Axes given as a graph input: those the declared output shape gives, checked at run time.
  if (attrName == "axes" && node.hasTrackedRanges(inputIndex)) {
    FailureOr<std::optional<SmallVector<int64_t>>> declared =
        axesFromDeclaredShape(node, inputIndex);
    if (failed(declared) || *declared)
      return declared;
  }
  FailureOr<const KnownTensor *> known = node.requireKnown(inputIndex, attrName);
  if (failed(known))
    return failure();
  if ((*known)->isFloat() || (*known)->rank() > 1)
    return node.error() << attrName << " input must be a 1-D integer tensor, got "
                        << (*known)->type;
  return std::optional<SmallVector<int64_t>>((*known)->toInts());
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

/// Turns the graph inputs bound by `opts.inputValues` into initializers: same element type as the
/// model declares, a shape that agrees with its declared static dims, within the tensor limit.
static LogicalResult bindInputValues(OnnxModel &model, MLIRContext &ctx,
                                     const OnnxImportOptions &opts) {
  Location fileLoc = FileLineColLoc::get(&ctx, model.path, 0, 0);
  for (const auto &entry : opts.inputValues) {
    StringRef name = entry.getKey();
    const OnnxImportOptions::BoundInput &bound = entry.getValue();
    auto input =
        llvm::find_if(model.inputs, [&](const OnnxGraphValue &v) { return v.name == name; });
    if (input == model.inputs.end())
      return emitError(fileLoc) << "input value given for '" << name
                                << "', which is not a graph input";
    if (opts.inputShapes.contains(name))
      return emitError(fileLoc) << "input '" << name << "' is given both a shape and a value";
    if (bound.dataType != input->dataType)
      return emitError(fileLoc) << "input value for '" << name << "' (" << bound.source << ") is "
                                << dataTypeName(bound.dataType) << ", but the model declares "
                                << dataTypeName(input->dataType);
    Type elementType = elementTypeFor(&ctx, input->dataType);
    if (!elementType)
      return emitError(fileLoc) << "graph input '" << name << "' has unsupported element type "
                                << dataTypeName(input->dataType);
    bool agrees = !input->dims || input->dims->size() == bound.shape.size();
    for (size_t d = 0; agrees && input->dims && d < bound.shape.size(); ++d)
      agrees = (*input->dims)[d].size < 0 || (*input->dims)[d].size == bound.shape[d];
    if (!agrees || !isReasonableShape(bound.shape))
      return emitError(fileLoc) << "input value for '" << name << "' (" << bound.source
                                << ") has shape " << listToString(bound.shape)
                                << ", which the model's declaration of it does not allow";
    auto type = RankedTensorType::get(bound.shape, elementType);
    std::optional<uint64_t> bytes = tensorBytes(type);
    if (!bytes || *bytes > opts.maxTensorBytes)
      return emitError(fileLoc) << "input value for '" << name << "' is larger than the "
                                << formatByteLimit(opts.maxTensorBytes)
                                << " one tensor may have (--max-tensor-bytes)";
    if (*bytes != bound.bytes.size())
      return emitError(fileLoc) << "input value for '" << name << "' (" << bound.source
                                << ") holds " << bound.bytes.size() << " bytes, its shape needs "
                                << *bytes;
    OnnxTensor tensor;
    tensor.name = name.str();
    tensor.type = type;
    tensor.blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(bound.bytes), /*align=*/64, /*dataIsMutable=*/true);
    if (shouldTrackAsKnown(type))
      tensor.known = knownFromBytes(type, tensor.blob.getData());
    model.initializers.push_back(std::move(tensor));
    model.inputs.erase(input);
  }
  return success();
}

FailureOr<OwningOpRef<ModuleOp>> mlir::mie::importOnnxModel(StringRef path, MLIRContext &ctx,
                                                            const OnnxImportOptions &opts) {
  ctx.loadDialect<ms::MsDialect, func::FuncDialect>();
  OnnxModel model;
  if (failed(readOnnxModel(path, ctx, opts, model)) || failed(bindInputValues(model, ctx, opts)))
    return failure();
  GraphImporter importer(ctx, model, opts);
  return importer.run();
}
