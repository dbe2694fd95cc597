//===- OnnxControlFlowOps.cpp - If, Loop, Scan ----------------------------===//
//
// Each node becomes ms.if / ms.loop / ms.scan with its subgraphs imported as the op's regions
// (docs/control-flow.md). A subgraph's references to values of enclosing graphs are plain uses of
// those SSA values: the regions are not isolated from above. The compiler is static-shape, so what
// would need a shape decided at run time (branches of different shapes, loop-carried values that
// change shape, scan outputs of a data-dependent length) is reported at the node.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/ScopeExit.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// The subgraph of attribute `name`, reported at the node when it is missing.
FailureOr<OnnxGraph *> requireGraph(NodeImporter &n, StringRef name) {
  OnnxGraph *graph = n.getGraph(name);
  if (!graph) {
    if (!n.hasFailed())
      n.error() << "expects the GRAPH attribute '" << name << "'";
    return failure();
  }
  return graph;
}

/// Imports `graph` into a new block of `region` with arguments of `argTypes`, terminated by
/// ms.region_yield of the subgraph's outputs. Null when the import failed (reported).
///
/// The region belongs to a holder, an op of the same kind without results (the result types are
/// those of the subgraph's outputs, known only now): the real op takes the region over (takeOver).
Block *importRegion(NodeImporter &n, OnnxGraph &graph, TypeRange argTypes, Region &region) {
  Block *block = new Block();
  region.push_back(block);
  for (Type type : argTypes)
    block->addArgument(type, n.loc());
  // Arguments past the graph's inputs are the importer's own (a Scan's step number).
  FailureOr<SmallVector<Value>> results = n.importSubgraph(
      graph, block, SmallVector<Value>(block->getArguments().take_front(graph.inputs.size())));
  if (failed(results))
    return nullptr;
  OpBuilder b = OpBuilder::atBlockEnd(block);
  ms::RegionYieldOp::create(b, n.loc(), *results);
  return block;
}

/// Moves the regions of `holder` into `op` and erases the holder.
void takeOver(Operation *op, Operation *holder) {
  for (auto [to, from] : llvm::zip(op->getRegions(), holder->getRegions()))
    to.takeBody(from);
  holder->erase();
}

ValueRange yieldedValues(Block &block) {
  return cast<ms::RegionYieldOp>(block.getTerminator()).getValues();
}

/// Whether `v` holds one i1 element.
bool isOneBool(Value v) {
  auto type = typeOf(v);
  return type.hasStaticShape() && type.getNumElements() == 1 && type.getElementType().isInteger(1);
}

/// Verifies a region op built here; its verifier's message is reported at the node.
FailureOr<Operation *> finishRegionOp(NodeImporter &n, Operation *op) {
  if (succeeded(mlir::verify(op)))
    return op;
  op->erase();
  return failure();
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

LogicalResult importIf(NodeImporter &n) {
  FailureOr<OnnxGraph *> thenGraph = requireGraph(n, "then_branch");
  FailureOr<OnnxGraph *> elseGraph = requireGraph(n, "else_branch");
  if (failed(thenGraph) || failed(elseGraph))
    return failure();
  for (OnnxGraph *g : {*thenGraph, *elseGraph}) {
    if (!g->inputs.empty())
      return n.error() << "a branch takes no inputs, got " << g->inputs.size();
    if (g->outputs.size() != n.numOutputs())
      return n.error() << "each branch must produce the node's " << n.numOutputs()
                       << " outputs, got " << g->outputs.size();
  }
  if (!n.inputType(0).getElementType().isInteger(1) || !n.inputType(0).hasStaticShape() ||
      n.inputType(0).getNumElements() != 1)
    return n.error() << "expects a condition of one bool element, got " << n.inputType(0);

  // A condition known at compile time selects its branch now; the other one is never imported.
  // So does one computed from data-dependent sizes whose range decides it (a dim that is 1
  // whatever the count).
  std::optional<bool> decided;
  if (const KnownTensor *known = n.known(0))
    decided = known->intAt(0) != 0;
  else if (std::optional<SmallVector<IntRange>> r = n.inputRanges(0); r && (*r)[0].exact())
    decided = (*r)[0].lo != 0;
  if (decided) {
    OnnxGraph &taken = *decided ? **thenGraph : **elseGraph;
    SmallVector<std::optional<DynamicExtent>> extents;
    FailureOr<SmallVector<Value>> results = n.importSubgraphInline(taken, extents);
    if (failed(results))
      return failure();
    for (auto [i, v] : llvm::enumerate(*results)) {
      n.setOutput(i, v);
      if (extents[i])
        n.setOutputExtent(i, extents[i]->count, extents[i]->dim);
    }
    return success();
  }

  // Branches over data-dependent values may produce outputs of different bounds and extents,
  // which a region op cannot return: both run and the outputs are selected.
  if (n.capturesDynamicValues(**thenGraph) || n.capturesDynamicValues(**elseGraph))
    return importIfBySelect(n, **thenGraph, **elseGraph);

  FailureOr<Value> cond = n.input(0);
  if (failed(cond))
    return failure();
  auto holder = ms::IfOp::create(n.builder(), n.loc(), TypeRange(), *cond);
  llvm::scope_exit eraseHolder([&] {
    if (holder)
      holder->erase();
  });
  Block *thenBlock = importRegion(n, **thenGraph, {}, holder.getThenRegion());
  if (!thenBlock)
    return failure();
  Block *elseBlock = importRegion(n, **elseGraph, {}, holder.getElseRegion());
  if (!elseBlock)
    return failure();
  ValueRange thenValues = yieldedValues(*thenBlock), elseValues = yieldedValues(*elseBlock);
  for (unsigned i = 0; i < n.numOutputs(); ++i) {
    if (thenValues[i].getType() == elseValues[i].getType())
      continue;
    return n.unsupportedFeature()
           << "output " << i << " ('" << n.node().outputs[i] << "') is "
           << typeString(thenValues[i].getType()) << " in then_branch but "
           << typeString(elseValues[i].getType())
           << " in else_branch: both branches must produce the same static shape and type (this "
              "compiler needs shapes known at compile time)";
  }
  auto op = ms::IfOp::create(n.builder(), n.loc(), thenValues.getTypes(), *cond);
  takeOver(op, holder);
  holder = nullptr;
  return finish(n, finishRegionOp(n, op));
}

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

LogicalResult importLoop(NodeImporter &n) {
  FailureOr<OnnxGraph *> body = requireGraph(n, "body");
  if (failed(body))
    return failure();
  MLIRContext *ctx = n.context();
  unsigned numCarried = n.node().inputs.size() < 2 ? 0 : n.node().inputs.size() - 2;
  if ((*body)->inputs.size() != 2 + numCarried)
    return n.error() << "the body must take the iteration number, the condition and the "
                     << numCarried << " loop-carried values, got " << (*body)->inputs.size()
                     << " inputs";
  if ((*body)->outputs.size() < 1 + numCarried)
    return n.error() << "the body must produce the condition and the " << numCarried
                     << " loop-carried values, got " << (*body)->outputs.size() << " outputs";
  unsigned numScans = (*body)->outputs.size() - 1 - numCarried;
  if (n.numOutputs() > numCarried + numScans)
    return n.error() << "has " << n.numOutputs() << " outputs, but its body produces only "
                     << numCarried << " loop-carried values and " << numScans << " scan outputs";
  if (!n.hasInput(0) && !n.hasInput(1))
    return n.unsupportedFeature() << "neither a trip count nor a condition: the loop never ends";
  if (n.hasInput(0) && (!n.inputType(0).getElementType().isInteger(64) ||
                        !n.inputType(0).hasStaticShape() || n.inputType(0).getNumElements() != 1))
    return n.error() << "expects a trip count M of one int64 element, got " << n.inputType(0);
  if (n.hasInput(1) && (!n.inputType(1).getElementType().isInteger(1) ||
                        !n.inputType(1).hasStaticShape() || n.inputType(1).getNumElements() != 1))
    return n.error() << "expects a condition of one bool element, got " << n.inputType(1);

  SmallVector<Value> inits;
  SmallVector<Type> argTypes = {RankedTensorType::get({}, IntegerType::get(ctx, 64)),
                                RankedTensorType::get({}, IntegerType::get(ctx, 1))};
  for (unsigned k = 0; k < numCarried; ++k) {
    if (!n.hasInput(2 + k))
      return n.error() << "loop-carried value " << k << " has no initial value";
    FailureOr<Value> init = n.input(2 + k);
    if (failed(init))
      return failure();
    inits.push_back(*init);
    argTypes.push_back(init->getType());
  }
  FailureOr<Value> m = n.optionalInput(0);
  FailureOr<Value> c = succeeded(m) ? n.optionalInput(1) : FailureOr<Value>(failure());
  if (failed(c))
    return failure();
  Value tripCount = *m, cond = *c;
  auto holder = ms::LoopOp::create(n.builder(), n.loc(), TypeRange(), tripCount, cond, inits);
  llvm::scope_exit eraseHolder([&] {
    if (holder)
      holder->erase();
  });
  Block *block = importRegion(n, **body, argTypes, holder.getBody());
  if (!block)
    return failure();
  ValueRange yielded = yieldedValues(*block);
  if (!isOneBool(yielded[0]))
    return n.error() << "the body's condition output must be one bool element, got "
                     << yielded[0].getType();
  for (unsigned k = 0; k < numCarried; ++k) {
    if (yielded[1 + k].getType() == argTypes[2 + k])
      continue;
    return n.unsupportedFeature()
           << "loop-carried value " << k << " ('" << n.node().inputs[2 + k] << "') is "
           << typeString(argTypes[2 + k]) << " before the loop but the body produces "
           << typeString(yielded[1 + k].getType())
           << ": loop-carried values must keep a static shape and type across iterations";
  }

  SmallVector<Type> resultTypes(argTypes.begin() + 2, argTypes.end());
  if (numScans) {
    // A scan output has one element per iteration: its length must be a compile-time constant.
    if (!n.hasInput(0))
      return n.unsupportedFeature()
             << "scan outputs need a trip count M (without one the number of iterations, and so "
                "their length, is known only at run time)";
    FailureOr<const KnownTensor *> m = n.requireKnown(0, "M");
    if (failed(m))
      return failure();
    // A condition that can turn false would end the loop early, after a number of iterations
    // known only at run time. One that is true and passed on unchanged never does: it is dropped.
    bool never = false;
    if (cond) {
      const KnownTensor *initial = n.known(1);
      Value next = yielded[0];
      DenseIntElementsAttr constant;
      bool passedOn = next == block->getArgument(1) || (matchPattern(next, m_Constant(&constant)) &&
                                                        !constant.getValues<APInt>()[0].isZero());
      // Passed on unchanged, the initial condition decides between M iterations and none: a
      // shape-determining input, reported (and bindable) as such.
      if (!initial && passedOn) {
        (void)n.requireKnown(1, "cond");
        return failure();
      }
      never = initial && !initial->intAt(0) && passedOn;
      if (never) {
        FailureOr<Value> zero = n.create<ms::ConstantOp>(cast<ElementsAttr>(DenseElementsAttr::get(
            cast<RankedTensorType>(tripCount.getType()),
            IntegerAttr::get(cast<RankedTensorType>(tripCount.getType()).getElementType(), 0))));
        if (failed(zero))
          return failure();
        tripCount = *zero;
      } else if (!initial || !passedOn)
        return n.unsupportedFeature()
               << "the loop may end early (its condition is computed at run time), so the length "
                  "of its scan outputs would depend on data; this compiler needs static shapes";
      cond = Value();
    }
    // A condition false from the start and passed on: no iteration.
    int64_t length = never ? 0 : std::max<int64_t>(0, (*m)->intAt(0));
    for (unsigned j = 0; j < numScans; ++j) {
      auto element = typeOf(yielded[1 + numCarried + j]);
      SmallVector<int64_t> shape = {length};
      llvm::append_range(shape, element.getShape());
      if (!isReasonableShape(shape))
        return n.error() << "scan output " << j << " of " << length << " elements of " << element
                         << " is too large";
      resultTypes.push_back(RankedTensorType::get(shape, element.getElementType()));
    }
  }
  auto op = ms::LoopOp::create(n.builder(), n.loc(), resultTypes, tripCount, cond, inits);
  takeOver(op, holder);
  holder = nullptr;
  return finish(n, finishRegionOp(n, op));
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

/// An ms.scan of `states` and `inputs` (sliced along `inAxes`) with the body `graph`; output axes
/// are normalized here, once the rank of the body's outputs is known.
FailureOr<ms::ScanOp> buildScan(NodeImporter &n, OnnxGraph &graph, ArrayRef<Value> states,
                                ArrayRef<Value> inputs, ArrayRef<int64_t> inAxes,
                                ArrayRef<int64_t> inDirections, ArrayRef<int64_t> outAxes,
                                ArrayRef<int64_t> outDirections) {
  if (graph.inputs.size() != states.size() + inputs.size())
    return n.error() << "the body must take the " << states.size() << " states and "
                     << inputs.size() << " scan input slices, got " << graph.inputs.size()
                     << " inputs";
  if (graph.outputs.size() < states.size())
    return n.error() << "the body must produce the " << states.size() << " states, got "
                     << graph.outputs.size() << " outputs";
  unsigned numScans = graph.outputs.size() - states.size();
  if (!outAxes.empty() && outAxes.size() != numScans)
    return n.error() << "expects " << numScans << " scan_output_axes, got " << outAxes.size();
  if (!outDirections.empty() && outDirections.size() != numScans)
    return n.error() << "expects " << numScans << " scan_output_directions, got "
                     << outDirections.size();
  SmallVector<Type> argTypes;
  for (Value s : states)
    argTypes.push_back(s.getType());
  int64_t length = -1;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    RankedTensorType type = typeOf(input);
    int64_t size = type.getDimSize(inAxes[i]);
    if (length >= 0 && size != length)
      return n.error() << "scan inputs have different lengths (" << length << " and " << size
                       << ")";
    length = size;
    SmallVector<int64_t> slice(type.getShape());
    slice.erase(slice.begin() + inAxes[i]);
    argTypes.push_back(RankedTensorType::get(slice, type.getElementType()));
  }
  // A body that draws random numbers gets the step number as one more scan input (forward, 0, 1,
  // ...): the draws are keyed by it, as those of a Loop body by its iteration number.
  SmallVector<Value> scanInputs(inputs);
  SmallVector<int64_t> scanAxes(inAxes), scanDirections(inDirections);
  bool stepInput = drawsRandomNumbers(graph) && length >= 0;
  if (stepInput) {
    SmallVector<int64_t> steps(length);
    std::iota(steps.begin(), steps.end(), 0);
    Ops o(n);
    scanInputs.push_back(
        o.constant(KnownTensor::fromInts({length}, n.builder().getI64Type(), steps)));
    if (o.failed())
      return failure();
    scanAxes.push_back(0);
    scanDirections.push_back(0);
    argTypes.push_back(RankedTensorType::get({}, n.builder().getI64Type()));
  }
  auto holder = ms::ScanOp::create(n.builder(), n.loc(), TypeRange(), states, scanInputs, scanAxes,
                                   scanDirections, outAxes, outDirections);
  if (stepInput)
    holder->setAttr(kScanStepAttr, n.builder().getUnitAttr());
  llvm::scope_exit eraseHolder([&] {
    if (holder)
      holder->erase();
  });
  Block *block = importRegion(n, graph, argTypes, holder.getBody());
  if (!block)
    return failure();
  ValueRange yielded = yieldedValues(*block);
  SmallVector<Type> resultTypes;
  for (auto [k, state] : llvm::enumerate(states)) {
    if (yielded[k].getType() != state.getType())
      return n.unsupportedFeature()
             << "state " << k << " is " << typeString(state.getType())
             << " initially but the body produces " << typeString(yielded[k].getType())
             << ": states must keep a static shape and type across iterations";
    resultTypes.push_back(state.getType());
  }
  SmallVector<int64_t> axes, directions;
  for (unsigned j = 0; j < numScans; ++j) {
    RankedTensorType element = typeOf(yielded[states.size() + j]);
    FailureOr<int64_t> axis = normalizeAxis(n, outAxes.empty() ? 0 : outAxes[j],
                                            element.getRank() + 1, "scan_output_axes");
    if (failed(axis))
      return failure();
    SmallVector<int64_t> shape(element.getShape());
    shape.insert(shape.begin() + *axis, length);
    resultTypes.push_back(RankedTensorType::get(shape, element.getElementType()));
    axes.push_back(*axis);
    directions.push_back(outDirections.empty() ? 0 : outDirections[j]);
  }
  auto op = ms::ScanOp::create(n.builder(), n.loc(), resultTypes, states, scanInputs, scanAxes,
                               scanDirections, axes, directions);
  takeOver(op, holder);
  holder = nullptr;
  if (failed(finishRegionOp(n, op)))
    return failure();
  return op;
}

/// Directions given as an attribute: every value 0 or 1, one per entry (`count`), default 0.
FailureOr<SmallVector<int64_t>> readDirections(NodeImporter &n, StringRef name, unsigned count) {
  std::optional<SmallVector<int64_t>> given = n.getInts(name);
  if (n.hasFailed())
    return failure();
  if (!given)
    return SmallVector<int64_t>(count, 0);
  if (given->size() != count)
    return n.error() << "expects " << count << " " << name << ", got " << given->size();
  for (int64_t d : *given)
    if (d != 0 && d != 1)
      return n.error() << name << " must be 0 or 1, got " << d;
  return *given;
}

LogicalResult importScan(NodeImporter &n) {
  FailureOr<OnnxGraph *> body = requireGraph(n, "body");
  if (failed(body))
    return failure();
  int64_t numInputs = n.getInt("num_scan_inputs", 0);
  if (n.hasFailed())
    return failure();
  // Opset 8 has a leading batch axis (and optional sequence lengths) before the states.
  bool batched = n.opset() < 9;
  unsigned first = batched ? 1 : 0;
  int64_t given = int64_t(n.node().inputs.size()) - first;
  if (numInputs < 1 || numInputs > given)
    return n.error() << "num_scan_inputs must be in [1, " << given << "], got " << numInputs;
  unsigned numStates = given - numInputs;
  Ops o(n);
  SmallVector<Value> states, inputs;
  for (unsigned i = 0; i < given; ++i) {
    if (!n.hasInput(first + i))
      return n.error() << "input " << first + i << " is missing";
    Value v = o.in(first + i);
    if (o.failed())
      return failure();
    (i < numStates ? states : inputs).push_back(v);
  }

  if (!batched) {
    FailureOr<SmallVector<int64_t>> inDirections =
        readDirections(n, "scan_input_directions", numInputs);
    FailureOr<SmallVector<int64_t>> outDirections = readDirections(
        n, "scan_output_directions",
        (*body)->outputs.size() - std::min<size_t>(numStates, (*body)->outputs.size()));
    if (failed(inDirections) || failed(outDirections))
      return failure();
    SmallVector<int64_t> inAxes(numInputs, 0);
    if (std::optional<SmallVector<int64_t>> axes = n.getInts("scan_input_axes")) {
      if (axes->size() != size_t(numInputs))
        return n.error() << "expects " << numInputs << " scan_input_axes, got " << axes->size();
      for (unsigned i = 0; i < numInputs; ++i) {
        FailureOr<int64_t> axis =
            normalizeAxis(n, (*axes)[i], typeOf(inputs[i]).getRank(), "scan_input_axes");
        if (failed(axis))
          return failure();
        inAxes[i] = *axis;
      }
    }
    for (unsigned i = 0; i < numInputs; ++i)
      if (typeOf(inputs[i]).getRank() == 0)
        return n.error() << "scan input " << i << " is a scalar: it has no axis to scan";
    SmallVector<int64_t> outAxes(n.getInts("scan_output_axes").value_or(SmallVector<int64_t>()));
    if (n.hasFailed())
      return failure();
    FailureOr<ms::ScanOp> scan =
        buildScan(n, **body, states, inputs, inAxes, *inDirections, outAxes, *outDirections);
    if (failed(scan))
      return failure();
    for (unsigned i = 0; i < n.numOutputs(); ++i)
      n.setOutput(i, scan->getResult(i));
    return success();
  }

  // Opset 8: [batch, ...] states, [batch, sequence, ...] inputs and outputs. A batch of one is
  // the opset-9 form with the batch dim reshaped away.
  for (Value v : llvm::concat<Value>(states, inputs))
    if (typeOf(v).getRank() == 0 || typeOf(v).getDimSize(0) != 1)
      return n.unsupportedFeature() << "opset-8 Scan with a batch of more than one (" << typeOf(v)
                                    << "); opset 9 and later have no batch";
  for (Value v : inputs)
    if (typeOf(v).getRank() < 2)
      return n.error() << "a scan input of opset 8 is [batch, sequence, ...], got " << typeOf(v);
  int64_t length = typeOf(inputs[0]).getDimSize(1);
  if (n.hasInput(0)) {
    FailureOr<const KnownTensor *> lens = n.requireKnown(0, "sequence_lens");
    if (failed(lens))
      return failure();
    for (int64_t l : (*lens)->toInts())
      if (l != length)
        return n.unsupportedFeature()
               << "sequence_lens shorter than the sequence (" << l << " of " << length << ")";
  }
  FailureOr<SmallVector<int64_t>> directions = readDirections(n, "directions", numInputs);
  if (failed(directions))
    return failure();
  auto dropBatch = [&](Value v) { return o.reshape(v, typeOf(v).getShape().drop_front()); };
  SmallVector<Value> unbatchedStates, unbatchedInputs;
  for (Value s : states)
    unbatchedStates.push_back(dropBatch(s));
  for (Value x : inputs)
    unbatchedInputs.push_back(dropBatch(x));
  if (o.failed())
    return failure();
  FailureOr<ms::ScanOp> scan = buildScan(n, **body, unbatchedStates, unbatchedInputs,
                                         SmallVector<int64_t>(numInputs, 0), *directions, {}, {});
  if (failed(scan))
    return failure();
  for (unsigned i = 0; i < n.numOutputs(); ++i) {
    Value r = scan->getResult(i);
    SmallVector<int64_t> shape = {1};
    llvm::append_range(shape, typeOf(r).getShape());
    Value batchedResult = o.reshape(r, shape);
    if (o.failed())
      return failure();
    n.setOutput(i, batchedResult);
  }
  return success();
}

} // namespace

bool mlir::mie::onnx_import::drawsRandomNumbers(const OnnxGraph &graph) {
  for (const OnnxNode &node : graph.nodes) {
    if (!node.domain.empty())
      continue;
    if (llvm::is_contained({"RandomUniform", "RandomNormal", "RandomUniformLike",
                            "RandomNormalLike", "Bernoulli", "Multinomial"},
                           node.opType))
      return true;
    // Dropout draws in training mode only: a training_mode input, or opsets 1-6's is_test = 0.
    if (node.opType == "Dropout") {
      auto isTest = node.attributes.find("is_test");
      if ((node.inputs.size() > 2 && !node.inputs[2].empty()) ||
          (isTest != node.attributes.end() && isTest->second.i == 0))
        return true;
    }
    for (const auto &attribute : node.attributes)
      if (attribute.second.graph && drawsRandomNumbers(*attribute.second.graph))
        return true;
  }
  return false;
}

void mlir::mie::onnx_import::registerControlFlowOps(OnnxOpTable &table) {
  table["If"] = {importIf, 1, 1};
  table["Loop"] = {importLoop, 0, ~0u};
  table["Scan"] = {importScan, 0, ~0u, 8};
}
