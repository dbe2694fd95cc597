//===- OnnxValueSymbols.cpp - graph inputs whose values size tensors ------===//
//
// A Reshape's shape, an Expand's or ConstantOfShape's shape, a Tile's repeats, a Split's sizes, a
// OneHot's depth, a window's size, a Resize's sizes or a Squeeze's axes given as a graph input (or
// computed from one by shape arithmetic) decide the model's shapes by their values, which only a
// run knows. Each element of such an input becomes a *value symbol* of the function (`shape[1]`):
// a symbol like `batch`, whose value the runtime reads from the run's data instead of a shape
// (docs/dynamic-shapes.md). The ops' symbolic paths (OnnxSymbolicDims.cpp) take the element as an
// expression of the symbols; a Reshape's elements are its result dims as ONNX resolves them, axes
// the sorted non-negative ones, an Expand's 1 against a size that size.
//
// The package needs values to compile for: where the model's declared output shapes state the
// size a symbol makes (`y: [2, 3, 4]` after a Reshape to [shape[0], shape[1], shape[2]]), or the
// axes or sizes an op takes, the symbol takes that value (pinned:
// ms::kDeclaredSymbolValuesAttrName) and the runtime refuses data that gives another; otherwise
// --specialize gives the values.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// The inputs of `opType` whose values decide its result's shape: the operands whose elements
/// become value symbols. Not a Slice's starts and ends (their negative and clamped values mean
/// other offsets) nor a Pad's pads (the declared shape gives their sums, not where they go): those
/// are run-time parameters of a declared output shape (OnnxDeclaredShapeOps.cpp).
ArrayRef<unsigned> sizingOperands(StringRef opType) {
  static const unsigned first[] = {0}, second[] = {1}, third[] = {2}, bounds[] = {0, 1},
                        fourth[] = {3};
  // Sizes (Range's only where integer, with a known delta: OnnxSymbolicDims.cpp), and axes given
  // as an input (axesFromDeclaredShape).
  if (opType == "Reshape" || opType == "Expand" || opType == "Tile" || opType == "Split" ||
      opType == "OneHot" || opType == "Squeeze" || opType == "Unsqueeze" ||
      opType.starts_with("Reduce"))
    return second;
  if (opType == "ConstantOfShape" || opType.ends_with("Window"))
    return first;
  if (opType == "Range")
    return bounds;
  if (opType == "Resize") // its `sizes`; its scales are floats the coordinates use
    return fourth;
  if (opType == "MaxUnpool") // its output_shape
    return third;
  return {};
}

/// Ops that compute sizes from sizes (the arithmetic exporters emit, OnnxValueRanges.cpp): a
/// graph input reaching a sizing operand through them sizes tensors too.
bool isShapeArithmetic(StringRef opType) {
  return llvm::is_contained({"Concat", "Gather", "Unsqueeze", "Squeeze", "Cast", "Add", "Sub",
                             "Mul", "Div", "Max", "Min", "Identity", "Neg", "Abs"},
                            opType);
}

} // namespace

static LogicalResult addPins(Operation *func, ArrayRef<std::pair<unsigned, int64_t>> pins);

SmallVector<ValueSymbolSource>
mlir::mie::onnx_import::findValueSymbolSources(const OnnxModel &model) {
  // Values that size tensors, followed back through shape arithmetic.
  llvm::StringMap<const OnnxNode *> producer;
  for (const OnnxNode &node : model.nodes)
    for (const std::string &out : node.outputs)
      if (!out.empty())
        producer[out] = &node;
  llvm::StringSet<> data; // model data: initializers and Constant nodes' values
  for (const OnnxTensor &t : model.initializers)
    data.insert(t.name);
  for (const OnnxNode &node : model.nodes)
    if (node.opType == "Constant" && !node.outputs.empty())
      data.insert(node.outputs.front());
  llvm::StringSet<> sizing;
  SmallVector<std::string> todo;
  for (const OnnxNode &node : model.nodes) {
    // A Range's bounds size it only by a known delta (a run-time delta makes it a run-time
    // parameter of its declared shape: OnnxDeclaredShapeOps.cpp).
    if (node.opType == "Range" && (node.inputs.size() < 3 || !data.contains(node.inputs[2])))
      continue;
    for (unsigned i : sizingOperands(node.opType))
      if (i < node.inputs.size() && !node.inputs[i].empty())
        todo.push_back(node.inputs[i]);
  }
  while (!todo.empty()) {
    std::string name = todo.pop_back_val();
    if (!sizing.insert(name).second)
      continue;
    auto it = producer.find(name);
    if (it == producer.end() || !isShapeArithmetic(it->second->opType))
      continue;
    for (const std::string &in : it->second->inputs)
      if (!in.empty())
        todo.push_back(in);
  }
  SmallVector<ValueSymbolSource> sources;
  for (auto [index, input] : llvm::enumerate(model.inputs)) {
    if (!sizing.contains(input.name) || !input.dims || input.dims->size() > 1)
      continue;
    // ONNX's integer types (INT8..UINT64), and FLOAT and DOUBLE (a OneHot's depth, cast to an
    // integer): the ops whose sizes they are take integers.
    static const int64_t numberTypes[] = {1, 2, 3, 4, 5, 6, 7, 11, 12, 13};
    if (!llvm::is_contained(numberTypes, input.dataType))
      continue;
    int64_t elements = input.dims->empty() ? 1 : input.dims->front().size;
    if (elements < 1 || elements > kMaxBoundedElements)
      continue;
    for (int64_t e = 0; e < elements; ++e)
      sources.push_back({unsigned(index),
                         input.dims->empty() ? input.name
                                             : input.name + "[" + std::to_string(e) + "]",
                         e});
  }
  return sources;
}

bool mlir::mie::onnx_import::usesValueSymbol(Operation *func, AffineExpr expr) {
  bool uses = false;
  if (expr)
    expr.walk([&](AffineExpr sub) {
      if (auto s = dyn_cast<AffineSymbolExpr>(sub))
        uses |= valueSymbolSource(func, s.getPosition()).has_value();
    });
  return uses;
}

std::optional<unsigned> mlir::mie::onnx_import::wholeValueInput(Operation *func,
                                                                ArrayRef<IntRange> elements) {
  std::optional<unsigned> input;
  for (auto [i, r] : llvm::enumerate(elements)) {
    auto s = dyn_cast_or_null<AffineSymbolExpr>(r.sym);
    std::optional<std::pair<unsigned, int64_t>> source =
        s ? valueSymbolSource(func, s.getPosition()) : std::nullopt;
    if (!source || source->second != int64_t(i) || (input && *input != source->first))
      return std::nullopt;
    input = source->first;
  }
  return input;
}

/// Adds `pins` (symbol, value) to the function's declared values; fails on a contradiction.
static LogicalResult addPins(Operation *func, ArrayRef<std::pair<unsigned, int64_t>> pins) {
  SmallVector<int64_t> all;
  if (auto old = func->getAttrOfType<DenseI64ArrayAttr>(ms::kDeclaredSymbolValuesAttrName))
    all.assign(old.asArrayRef().begin(), old.asArrayRef().end());
  for (auto [symbol, value] : pins) {
    bool seen = false;
    for (size_t k = 0; k + 1 < all.size(); k += 2)
      if (all[k] == int64_t(symbol)) {
        if (all[k + 1] != value)
          return func->emitError() << "the declared shapes give the symbol '"
                                   << ms::SymbolicShapes(func).symbols()[symbol] << "' both "
                                   << all[k + 1] << " and " << value;
        seen = true;
      }
    if (!seen)
      all.append({int64_t(symbol), value});
  }
  func->setAttr(ms::kDeclaredSymbolValuesAttrName,
                DenseI64ArrayAttr::get(func->getContext(), all));
  return success();
}

/// The axes an op removes or inserts between `from` and `to` (`to` the longer when inserting):
/// the lexicographically first set of positions of the longer shape whose removal leaves the
/// shorter, each removed dim satisfying `removable`; std::nullopt when there is none.
static std::optional<SmallVector<int64_t>>
firstRemoval(ArrayRef<int64_t> longer, ArrayRef<int64_t> shorter,
             function_ref<bool(int64_t)> removable, bool last = false) {
  // Which suffixes of `longer` can still become which of `shorter`; then greedy on the earliest
  // removal that keeps a match (the latest with `last`). Quadratic, as the runtime's.
  const size_t n = longer.size(), m = shorter.size();
  std::vector<char> fits((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> char & { return fits[i * (m + 1) + j]; };
  at(n, m) = 1;
  for (size_t i = n; i-- > 0;)
    for (size_t j = 0; j <= m; ++j)
      at(i, j) = (removable(longer[i]) && at(i + 1, j)) ||
                 (j < m && longer[i] == shorter[j] && at(i + 1, j + 1));
  if (!at(0, 0))
    return std::nullopt;
  SmallVector<int64_t> removed;
  for (size_t i = 0, j = 0; i < n; ++i) {
    bool keep = j < m && longer[i] == shorter[j] && at(i + 1, j + 1);
    bool drop = removable(longer[i]) && at(i + 1, j);
    if (drop && (!last || !keep))
      removed.push_back(int64_t(i));
    else
      ++j;
  }
  return removed;
}

LogicalResult mlir::mie::onnx_import::broadcastValueSymbol(Operation *func, unsigned symbol,
                                                           int64_t size) {
  SmallVector<int64_t> pairs;
  if (auto old = func->getAttrOfType<DenseI64ArrayAttr>(ms::kBroadcastValueSymbolsAttrName))
    pairs.assign(old.asArrayRef().begin(), old.asArrayRef().end());
  for (size_t k = 0; k + 1 < pairs.size(); k += 2)
    if (pairs[k] == int64_t(symbol))
      return success(pairs[k + 1] == size);
  pairs.append({int64_t(symbol), size});
  func->setAttr(ms::kBroadcastValueSymbolsAttrName,
                DenseI64ArrayAttr::get(func->getContext(), pairs));
  // Resolved, the symbol is that size or the run is refused: the package is compiled for it.
  return addPins(func, {{symbol, size}});
}

FailureOr<bool> mlir::mie::onnx_import::pinValueInput(NodeImporter &n, unsigned i,
                                                      ArrayRef<int64_t> values) {
  Operation *func = n.builder().getInsertionBlock()->getParentOp();
  std::optional<SmallVector<IntRange>> elements = n.inputRanges(i);
  if (!elements || !wholeValueInput(func, *elements))
    return false;
  if (elements->size() != values.size())
    return n.error() << "input " << i << " has " << elements->size()
                     << " elements, the declared output shapes give " << values.size(),
           failure();
  SmallVector<std::pair<unsigned, int64_t>> pins;
  for (auto [r, value] : llvm::zip(*elements, values))
    pins.push_back({cast<AffineSymbolExpr>(r.sym).getPosition(), value});
  if (failed(addPins(func, pins)))
    return failure();
  return true;
}

FailureOr<std::optional<SmallVector<int64_t>>>
mlir::mie::onnx_import::axesFromDeclaredShape(NodeImporter &n, unsigned axesInput) {
  using Result = std::optional<SmallVector<int64_t>>;
  Operation *func = n.builder().getInsertionBlock()->getParentOp();
  std::optional<SmallVector<IntRange>> elements = n.inputRanges(axesInput);
  std::optional<unsigned> input =
      elements ? wholeValueInput(func, *elements) : std::optional<unsigned>();
  if (!input)
    return Result();
  RankedTensorType xType = n.inputType(0);
  std::optional<SmallVector<int64_t>> declared = n.declaredOutputShape(0);
  // Where the declared shape does not give them, the usual report of a dynamic input (which
  // names the graph input to bind), after a remark saying why.
  auto refuse = [&](const Twine &why) -> LogicalResult {
    emitRemark(n.loc()) << "the declared output shape of " << n.opType() << " node '" << n.name()
                        << "' does not give its axes: " << why;
    (void)n.requireKnown(axesInput, "axes");
    return failure();
  };
  if (!xType.hasStaticShape() || !declared || llvm::any_of(*declared, [](int64_t d) {
        return d < 0;
      }))
    return refuse("the input or the output shape is not static");
  ArrayRef<int64_t> in = xType.getShape();
  int64_t count = int64_t(elements->size());
  std::optional<SmallVector<int64_t>> axes;
  int64_t rank = int64_t(in.size());
  if (n.opType() == "Unsqueeze") {
    rank = int64_t(declared->size());
    if (rank == int64_t(in.size()) + count)
      axes = firstRemoval(*declared, in, [](int64_t d) { return d == 1; });
  } else if (n.opType() == "Squeeze") {
    if (int64_t(declared->size()) + count == rank)
      axes = firstRemoval(in, *declared, [](int64_t d) { return d == 1; });
  } else if (n.getInt("keepdims", 1) != 0) {
    // Kept dims: the reduced ones are 1 in the output (a dim of 1 reduced or not is the same).
    axes.emplace();
    if (int64_t(declared->size()) != rank)
      axes.reset();
    for (int64_t d = 0; axes && d < rank; ++d) {
      if ((*declared)[d] == in[d] && in[d] != 1)
        continue;
      if ((*declared)[d] != 1)
        axes.reset();
      else if (in[d] != 1)
        axes->push_back(d);
    }
    if (axes && int64_t(axes->size()) != count)
      axes.reset();
  } else if (int64_t(declared->size()) + count == rank) {
    // Reduced dims dropped: where dims repeat, several axes give the declared shape and results
    // that differ; the package takes the first, and says so.
    auto any = [](int64_t) { return true; };
    axes = firstRemoval(in, *declared, any);
    std::optional<SmallVector<int64_t>> latest = firstRemoval(in, *declared, any, true);
    if (axes && latest && *axes != *latest)
      emitWarning(n.loc()) << "the axes of " << n.opType() << " node '" << n.name()
                           << "' (a graph input) may be any that drop dims of " << xType
                           << " to the declared " << listToString(*declared) << ": compiled for "
                           << listToString(*axes) << ", the runtime refuses others";
  }
  if (!axes)
    return refuse("no " + Twine(count) + " axes make the " + Twine(declared->size()) +
                  "-D output of the input");
  // The elements, sorted and made non-negative, are those axes: the runtime resolves them so
  // (the manifest's axes_of_rank) and refuses others.
  Builder b(n.context());
  SmallVector<Attribute> entries;
  if (auto old = func->getAttrOfType<ArrayAttr>(ms::kAxesValueSymbolsAttrName))
    entries.assign(old.begin(), old.end());
  SmallVector<NamedAttribute> entry = {b.getNamedAttr("input", b.getI64IntegerAttr(*input)),
                                       b.getNamedAttr("rank", b.getI64IntegerAttr(rank))};
  // A Squeeze's or Unsqueeze's axes that make the same shape are the same: the runtime takes the
  // first such set, as here.
  if (n.opType() == "Squeeze" || n.opType() == "Unsqueeze")
    entry.append({b.getNamedAttr("op", b.getStringAttr(n.opType().lower())),
                  b.getNamedAttr("input_dims", b.getDenseI64ArrayAttr(in))});
  entries.push_back(b.getDictionaryAttr(entry));
  func->setAttr(ms::kAxesValueSymbolsAttrName, b.getArrayAttr(entries));
  SmallVector<std::pair<unsigned, int64_t>> pins;
  for (auto [r, axis] : llvm::zip(*elements, *axes))
    pins.push_back({cast<AffineSymbolExpr>(r.sym).getPosition(), axis});
  if (failed(addPins(func, pins)))
    return failure();
  return Result(*axes);
}

/// `expr` as `a * s + b` over one symbol `s`, when it is one.
static std::optional<std::tuple<unsigned, int64_t, int64_t>> linearInOneSymbol(AffineExpr expr) {
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return std::make_tuple(s.getPosition(), int64_t(1), int64_t(0));
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c)
    return std::nullopt;
  std::optional<std::tuple<unsigned, int64_t, int64_t>> lhs = linearInOneSymbol(bin.getLHS());
  if (!lhs)
    return std::nullopt;
  auto [s, a, b] = *lhs;
  if (bin.getKind() == AffineExprKind::Add)
    return std::make_tuple(s, a, b + c.getValue());
  if (bin.getKind() == AffineExprKind::Mul)
    return std::make_tuple(s, a * c.getValue(), b * c.getValue());
  return std::nullopt;
}

void mlir::mie::onnx_import::recordValueSymbols(func::FuncOp func,
                                               ArrayRef<ValueSymbolSource> sources,
                                               ArrayRef<unsigned> symbols) {
  SmallVector<int64_t> table;
  for (auto [source, symbol] : llvm::zip(sources, symbols))
    table.append({int64_t(symbol), int64_t(source.input), source.element});
  func->setAttr(ms::kValueSymbolsAttrName, DenseI64ArrayAttr::get(func.getContext(), table));
}

std::optional<std::pair<unsigned, int64_t>>
mlir::mie::onnx_import::valueSymbolSource(Operation *func, unsigned symbol) {
  auto table = func->getAttrOfType<DenseI64ArrayAttr>(ms::kValueSymbolsAttrName);
  if (!table)
    return std::nullopt;
  for (size_t k = 0; k + 2 < size_t(table.size()); k += 3)
    if (table[k] == int64_t(symbol))
      return std::make_pair(unsigned(table[k + 1]), table[k + 2]);
  return std::nullopt;
}

LogicalResult mlir::mie::onnx_import::pinDeclaredValueSymbols(func::FuncOp func,
                                                              ArrayRef<OnnxGraphValue> outputs,
                                                              ArrayRef<Value> results) {
  SmallVector<unsigned> symbols;
  if (auto table = func->getAttrOfType<DenseI64ArrayAttr>(ms::kValueSymbolsAttrName))
    for (size_t k = 0; k + 2 < size_t(table.size()); k += 3)
      symbols.push_back(unsigned(table[k]));

  // Declared output dims that one value symbol makes: the value it must take.
  llvm::DenseMap<unsigned, std::pair<int64_t, std::string>> declared;
  ms::SymbolicShapes shapes(func);
  for (auto [output, result] : llvm::zip(outputs, results)) {
    if (!output.dims)
      continue;
    ArrayRef<AffineExpr> dims = shapes.dims(result);
    for (auto [d, dim] : llvm::enumerate(*output.dims)) {
      if (dim.size < 0 || d >= dims.size() || !dims[d])
        continue;
      std::optional<std::tuple<unsigned, int64_t, int64_t>> linear =
          linearInOneSymbol(simplifyAffineExpr(dims[d], 0, shapes.numSymbols()));
      if (!linear || !llvm::is_contained(symbols, std::get<0>(*linear)))
        continue;
      auto [s, a, b] = *linear;
      if (a == 0 || (dim.size - b) % a != 0 || (dim.size - b) / a < 0)
        return emitError(func.getLoc())
               << "graph output '" << output.name << "' is declared with " << dim.size
               << " at dim " << d << ", which no value of the input element '"
               << shapes.symbols()[s] << "' gives";
      int64_t value = (dim.size - b) / a;
      std::string where = "graph output '" + output.name + "' dim " + std::to_string(d);
      auto [it, inserted] = declared.try_emplace(s, value, where);
      if (!inserted && it->second.first != value)
        return emitError(func.getLoc())
               << where << " makes the input element '" << shapes.symbols()[s] << "' "
               << value << ", " << it->second.second << " makes it " << it->second.first;
    }
  }
  SmallVector<std::pair<unsigned, int64_t>> pins;
  for (unsigned s : symbols)
    if (auto it = declared.find(s); it != declared.end())
      pins.push_back({s, it->second.first});
  return pins.empty() ? success() : addPins(func, pins);
}
