//===- OnnxValueSymbols.cpp - graph inputs whose values size tensors ------===//
//
// A Reshape's shape, an Expand's or ConstantOfShape's shape, a Tile's repeats, a Slice's starts
// and ends or a Range's bounds given as a graph input (or computed from one by shape arithmetic)
// size the model's tensors by their values, which only a run knows. Each element of such an
// input becomes a *value symbol* of the function (`shape[1]`): a symbol like `batch`, whose value
// the runtime reads from the run's data instead of a shape (docs/dynamic-shapes.md). The ops'
// symbolic paths (OnnxSymbolicDims.cpp) then take the element as an expression of the symbols.
//
// Where a graph output's declared shape states the size the symbol makes (`y: [2, 3, 4]` after a
// Reshape to [shape[0], shape[1], shape[2]]), the symbol takes that value: the package holds code
// for it and the runtime refuses data that gives another. Otherwise the symbol needs a range
// (--dim-range) for code over all its values.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// The inputs of `opType` that size its result by their values: the operands whose elements
/// the symbolic paths take as expressions of the symbols.
ArrayRef<unsigned> sizingOperands(StringRef opType) {
  // Not yet a Slice's starts and ends: their negative and clamped values mean other offsets.
  static const unsigned one[] = {1}, zero[] = {0}, bounds[] = {0, 1};
  if (opType == "Reshape" || opType == "Expand" || opType == "Tile")
    return one;
  if (opType == "ConstantOfShape")
    return zero;
  if (opType == "Range")
    return bounds;
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

SmallVector<ValueSymbolSource>
mlir::mie::onnx_import::findValueSymbolSources(const OnnxModel &model) {
  // Values that size tensors, followed back through shape arithmetic.
  llvm::StringMap<const OnnxNode *> producer;
  for (const OnnxNode &node : model.nodes)
    for (const std::string &out : node.outputs)
      if (!out.empty())
        producer[out] = &node;
  llvm::StringSet<> sizing;
  SmallVector<std::string> todo;
  for (const OnnxNode &node : model.nodes)
    for (unsigned i : sizingOperands(node.opType))
      if (i < node.inputs.size() && !node.inputs[i].empty())
        todo.push_back(node.inputs[i]);
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
    // ONNX's integer types (INT8..UINT64): sizes are integers.
    static const int64_t integerTypes[] = {2, 3, 4, 5, 6, 7, 12, 13};
    if (!llvm::is_contained(integerTypes, input.dataType))
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
  MLIRContext *ctx = func.getContext();
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
  SmallVector<int64_t> pins;
  for (unsigned s : symbols)
    if (auto it = declared.find(s); it != declared.end())
      pins.append({int64_t(s), it->second.first});
  if (!pins.empty())
    func->setAttr(ms::kDeclaredSymbolValuesAttrName, DenseI64ArrayAttr::get(ctx, pins));
  return success();
}
