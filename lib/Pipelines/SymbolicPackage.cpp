//===- SymbolicPackage.cpp - packages that keep a model's symbolic dims ---===//

#include "SymbolicPackage.h"

#include "dialects/mie/IR/MieDialect.h"
#include "dialects/ms/IR/MsBatchSlices.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mie;

/// The range of a symbol that code for every shape takes without a --dim-range of its own: as
/// long as BERT's positions, and a batch a server would gather.
static constexpr int64_t kDefaultDimRangeMax = 512;

std::vector<std::vector<int64_t>> SymbolPlan::points() const {
  // A symbol taken at run time only (no sizes) leaves nothing to specialize.
  if (llvm::any_of(values, [](const std::vector<int64_t> &v) { return v.empty(); }))
    return {};
  std::vector<std::vector<int64_t>> out = {{}};
  for (const std::vector<int64_t> &choices : values) {
    std::vector<std::vector<int64_t>> next;
    for (const std::vector<int64_t> &prefix : out)
      for (int64_t v : choices) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    out = std::move(next);
  }
  return out;
}

std::vector<std::string> SymbolPlan::sizes(const std::vector<int64_t> &point) const {
  std::vector<std::string> out;
  for (auto [name, value] : llvm::zip(names, point))
    out.push_back(name + "=" + std::to_string(value));
  return out;
}

static FailureOr<func::FuncOp> symbolicFunction(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal() && func->hasAttr(ms::kSymbolsAttrName))
      return func;
  return module.emitError("no public function with symbolic dims"), failure();
}

/// Splits "name=rest" at its last '=' (symbol names may hold one); false without one.
static bool splitAssignment(StringRef text, StringRef &name, StringRef &rest) {
  size_t eq = text.rfind('=');
  if (eq == StringRef::npos || eq == 0)
    return false;
  name = text.take_front(eq);
  rest = text.drop_front(eq + 1);
  return true;
}

/// `expr` in the manifest's syntax (MLIR's own printing of affine expressions: `s0 * s1`,
/// `(s1 - 1) floordiv 2 + 1`), which the runtime's parser reads.
static std::string exprText(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  expr.print(os);
  return text;
}

/// How the runtime makes value symbol `symbol` of `func` from its input's values (the manifest's
/// reshape_of, one_means, axes_of_rank and axes_of): the attributes the import recorded.
static void setValueResolution(func::FuncOp func, unsigned symbol, ::mie::PackageSymbolSpec &spec) {
  // A Reshape's result dim: the runtime resolves the input's values against these dims.
  if (auto reshaped = func->getAttrOfType<ArrayAttr>(ms::kReshapedValueSymbolsAttrName))
    for (Attribute a : reshaped) {
      auto entry = cast<DictionaryAttr>(a);
      if (cast<IntegerAttr>(entry.get("input")).getInt() != spec.value_input)
        continue;
      for (AffineExpr e : cast<AffineMapAttr>(entry.get("dims")).getValue().getResults())
        spec.reshape_of.push_back(exprText(e));
      spec.reshape_allowzero = cast<BoolAttr>(entry.get("allowzero")).getValue();
    }
  // An Expand's dim against a size: 1 means that size.
  if (auto pairs = func->getAttrOfType<DenseI64ArrayAttr>(ms::kBroadcastValueSymbolsAttrName))
    for (size_t k = 0; k + 1 < size_t(pairs.size()); k += 2)
      if (pairs[k] == int64_t(symbol))
        spec.one_means = pairs[k + 1];
  // An axis: the runtime sorts the input's values made non-negative.
  if (auto axes = func->getAttrOfType<ArrayAttr>(ms::kAxesValueSymbolsAttrName))
    for (Attribute a : axes) {
      auto entry = cast<DictionaryAttr>(a);
      if (cast<IntegerAttr>(entry.get("input")).getInt() != spec.value_input)
        continue;
      spec.axes_rank = int32_t(cast<IntegerAttr>(entry.get("rank")).getInt());
      if (auto op = entry.getAs<StringAttr>("op")) {
        spec.axes_op = op.str();
        ArrayRef<int64_t> dims = entry.getAs<DenseI64ArrayAttr>("input_dims").asArrayRef();
        spec.axes_input_dims.assign(dims.begin(), dims.end());
      }
    }
}

FailureOr<SymbolPlan> mlir::mie::planSymbols(ModuleOp module, const CompileOptions &options) {
  FailureOr<func::FuncOp> func = symbolicFunction(module);
  if (failed(func))
    return failure();
  SymbolPlan plan;
  llvm::StringMap<unsigned> index;
  for (Attribute a : (*func)->getAttrOfType<ArrayAttr>(ms::kSymbolsAttrName)) {
    index[cast<StringAttr>(a).getValue()] = plan.names.size();
    plan.names.push_back(cast<StringAttr>(a).getValue().str());
  }
  plan.values.resize(plan.names.size());
  // Value symbols (an input's element sizing tensors): where their values come from, and the
  // value a declared output shape gives them.
  std::vector<std::optional<std::pair<int32_t, int64_t>>> valueOf(plan.names.size());
  if (auto table = (*func)->getAttrOfType<DenseI64ArrayAttr>(ms::kValueSymbolsAttrName))
    for (size_t k = 0; k + 2 < size_t(table.size()); k += 3)
      valueOf[size_t(table[k])] = std::make_pair(int32_t(table[k + 1]), table[k + 2]);
  std::vector<std::optional<int64_t>> declared(plan.names.size());
  if (auto pins = (*func)->getAttrOfType<DenseI64ArrayAttr>(ms::kDeclaredSymbolValuesAttrName))
    for (size_t k = 0; k + 1 < size_t(pins.size()); k += 2)
      declared[size_t(pins[k])] = pins[k + 1];
  auto describeValue = [&](unsigned i) {
    auto name = func->getArgAttrOfType<StringAttr>(valueOf[i]->first, "mie.name");
    return llvm::formatv("'{0}' (element {1} of input '{2}', whose values size the model's "
                         "tensors)",
                         plan.names[i], valueOf[i]->second, name ? name.getValue() : "?")
        .str();
  };
  std::string known = llvm::join(plan.names, ", ");
  auto lookup = [&](StringRef option, StringRef name) -> std::optional<unsigned> {
    auto it = index.find(name);
    if (it != index.end())
      return it->second;
    emitError(module.getLoc()) << option << ": '" << name
                               << "' is not a symbolic dim of the model (it has " << known << ")";
    return std::nullopt;
  };
  for (const std::string &text : options.specializations) {
    StringRef name, list;
    if (!splitAssignment(text, name, list))
      return emitError(module.getLoc())
                 << "--specialize: expected name=N[,N...], got '" << text << "'",
             failure();
    std::optional<unsigned> i = lookup("--specialize", name);
    if (!i)
      return failure();
    SmallVector<StringRef> parts;
    list.split(parts, ',');
    for (StringRef part : parts) {
      int64_t v;
      // A value symbol may be 0 (an empty tensor's dim); a dim symbol is a size of at least 1.
      if (part.trim().getAsInteger(10, v) || v < (valueOf[*i] ? 0 : 1) || v > INT32_MAX)
        return emitError(module.getLoc()) << "--specialize: '" << part << "' of '" << name
                                          << "' is not a size from 1 to 2^31 - 1",
               failure();
      if (!llvm::is_contained(plan.values[*i], v))
        plan.values[*i].push_back(v);
    }
  }
  std::vector<bool> pinned(plan.names.size(), false);
  for (const std::string &text : options.dimSizes) {
    StringRef name, number;
    int64_t v;
    if (!splitAssignment(text, name, number) || number.getAsInteger(10, v) || v < 0)
      return emitError(module.getLoc()) << "--dim-param: expected name=N, got '" << text << "'",
             failure();
    auto it = index.find(name);
    if (it == index.end())
      continue; // a dim_param the symbolic import never met (the sized compile ignores it too)
    if (!plan.values[it->second].empty())
      return emitError(module.getLoc())
                 << "'" << name << "' is given both --dim-param and --specialize",
             failure();
    plan.values[it->second] = {v};
    pinned[it->second] = true;
  }
  // Ranges first: a symbol with one and no sizes is taken at run time only (generic code).
  std::vector<std::optional<std::pair<int64_t, int64_t>>> ranged(plan.names.size());
  for (const std::string &text : options.dimRanges) {
    StringRef name, span, loText, hiText;
    int64_t lo, hi;
    if (!splitAssignment(text, name, span) || !span.contains("..") ||
        (std::tie(loText, hiText) = span.split(".."), loText.getAsInteger(10, lo)) ||
        hiText.getAsInteger(10, hi) || lo < 0 || lo > hi || hi > INT32_MAX)
      return emitError(module.getLoc())
                 << "--dim-range: expected name=LO..HI with 0 <= LO <= HI < 2^31, got '" << text
                 << "'",
             failure();
    std::optional<unsigned> i = lookup("--dim-range", name);
    if (!i)
      return failure();
    if (valueOf[*i])
      return emitError(module.getLoc())
                 << "--dim-range: the symbol " << describeValue(*i)
                 << " takes the values of --specialize or --dim-param, or the one the model's "
                    "declared output shapes give; code for every value is not supported yet",
             failure();
    if (pinned[*i])
      return emitError(module.getLoc()) << "'" << name << "' is given both --dim-param and --dim-range",
             failure();
    for (int64_t v : plan.values[*i])
      if (v < lo || v > hi)
        return emitError(module.getLoc()) << "--dim-range=" << text << " leaves out " << v
                                          << ", a size the package is compiled for",
               failure();
    ranged[*i] = std::make_pair(lo, hi);
  }
  // A value symbol without values takes the one the declared output shapes give.
  for (auto [i, name] : llvm::enumerate(plan.names)) {
    if (!valueOf[i] || !plan.values[i].empty())
      continue;
    if (!declared[i])
      return emitError(module.getLoc())
                 << "the symbol " << describeValue(i)
                 << " has no value: give --specialize=" << name << "=N[,N...] or --dim-param="
                 << name << "=N, declare the graph output's shape it gives, or bind the input "
                 << "at compile time (--input-value)",
             failure();
    plan.values[i] = {*declared[i]};
  }
  // Code for every shape in the ranges takes every symbol at run time.
  // mie-compile's default (everyShape) takes the model's input values as they size it: a value
  // symbol is not taken at run time by the code for every shape yet.
  plan.generic =
      !options.dimRanges.empty() ||
      (options.everyShape && llvm::none_of(valueOf, [](const auto &v) { return v.has_value(); }));
  for (auto [i, name] : llvm::enumerate(plan.names)) {
    if (plan.generic && valueOf[i])
      return emitError(module.getLoc())
                 << "code for every shape in the ranges (--dim-range) takes every symbol at run "
                    "time, and the symbol "
                 << describeValue(i)
                 << " cannot be yet: bind the input at compile time (--input-value) or give the "
                    "dims --specialize values instead",
             failure();
    if (plan.generic && pinned[i])
      return emitError(module.getLoc())
                 << "code for every shape in the ranges takes every symbolic dim at run time: "
                    "give '"
                 << name << "' a --dim-range instead of --dim-param",
             failure();
    // A symbol the ranges leave out (a --dim-range for seq alone) takes the default range.
    if (plan.generic && !ranged[i] && plan.values[i].empty()) {
      ranged[i] = std::make_pair(int64_t(1), kDefaultDimRangeMax);
      emitRemark(module.getLoc()) << "the symbolic dim '" << name << "' accepts 1.."
                                  << kDefaultDimRangeMax
                                  << ", the default range (set it with --dim-range=" << name
                                  << "=LO..HI)";
    }
    if (plan.generic && !ranged[i])
      return emitError(module.getLoc())
                 << "code for every shape in the ranges takes every symbolic dim at run time: "
                    "give '"
                 << name << "' a --dim-range",
             failure();
  }
  // A specialization sizes every symbol: with code for every shape, --specialize gives each one
  // its values or none.
  bool anySpecialized = llvm::any_of(plan.values, [](const auto &v) { return !v.empty(); });
  for (auto [i, name] : llvm::enumerate(plan.names))
    if (plan.generic && anySpecialized && plan.values[i].empty())
      return emitError(module.getLoc())
                 << "--specialize beside --dim-range gives code for combinations of values of "
                    "every symbolic dim: give '"
                 << name << "' values too (--specialize=" << name << "=N[,N...])",
             failure();
  for (auto [i, name] : llvm::enumerate(plan.names)) {
    if (!plan.values[i].empty() || ranged[i])
      continue;
    if (options.defaultDimSize <= 0)
      return emitError(module.getLoc())
                 << "the symbolic dim '" << name << "' has no size: give --specialize=" << name
                 << "=N[,N...] or --dim-param=" << name << "=N",
             failure();
    emitWarning(module.getLoc()) << "the symbolic dim '" << name << "' is compiled for a size of "
                                 << options.defaultDimSize << " (set it with --specialize=" << name
                                 << "=N[,N...] or --dim-param=" << name << "=N)";
    plan.values[i] = {options.defaultDimSize};
  }
  for (auto [i, name] : llvm::enumerate(plan.names)) {
    if (ranged[i]) {
      plan.ranges.push_back({name, ranged[i]->first, ranged[i]->second});
      continue;
    }
    auto [lo, hi] = std::minmax_element(plan.values[i].begin(), plan.values[i].end());
    plan.ranges.push_back({name, *lo, *hi});
    if (valueOf[i]) {
      plan.ranges.back().value_input = valueOf[i]->first;
      plan.ranges.back().value_element = uint64_t(valueOf[i]->second);
      setValueResolution(*func, i, plan.ranges.back());
    }
    if (plan.values[i].size() > 1)
      emitRemark(module.getLoc())
          << "the symbolic dim '" << name << "' accepts " << *lo << ".." << *hi
          << ", the span of its --specialize values (set it with --dim-range=" << name
          << "=LO..HI)";
  }
  // A symbol whose samples the model computes independently: the runtime may run a large batch
  // in slices that keep their activations in the cache.
  if (std::optional<unsigned> batch = ms::findBatchSliceSymbol(*func))
    plan.ranges[*batch].batch = true;
  return plan;
}


void mlir::mie::setSymbolRanges(ModuleOp module, const SymbolPlan &plan) {
  SmallVector<int64_t> ranges;
  for (const ::mie::PackageSymbolSpec &r : plan.ranges)
    ranges.append({r.min, r.max});
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(ms::kSymbolsAttrName))
      func->setAttr(MieDialect::getSymbolRangesAttrName(), DenseI64ArrayAttr::get(module.getContext(), ranges));
}

FailureOr<SymbolicDims> mlir::mie::readSymbolicDims(ModuleOp module) {
  FailureOr<func::FuncOp> func = symbolicFunction(module);
  if (failed(func))
    return failure();
  ms::SymbolicShapes shapes(*func);
  auto read = [&](Value value, Type type, StringRef what, unsigned index,
                  std::vector<std::vector<std::string>> &out) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return func->emitError() << what << " " << index << " is not a ranked tensor", failure();
    std::vector<std::string> exprs;
    if (!tensor.hasStaticShape()) {
      exprs.assign(tensor.getRank(), "");
      ArrayRef<AffineExpr> dims = shapes.dims(value);
      for (auto [d, size] : llvm::enumerate(tensor.getShape())) {
        if (!ShapedType::isDynamic(size))
          continue;
        if (d >= dims.size() || !dims[d])
          return func->emitError()
                     << what << " " << index << " dim " << d
                     << " is not an expression of the symbolic dims: a package cannot state "
                        "its shape",
                 failure();
        exprs[d] = exprText(dims[d]);
      }
    }
    out.push_back(std::move(exprs));
    return success();
  };
  SymbolicDims result;
  FunctionType type = func->getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i)
    if (failed(read(func->getArgument(i), type.getInput(i), "input", i, result.inputs)))
      return failure();
  auto ret = cast<func::ReturnOp>(func->getBody().front().getTerminator());
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    if (failed(read(ret.getOperand(i), type.getResult(i), "output", i, result.outputs)))
      return failure();
  return result;
}

LogicalResult mlir::mie::applySymbolicDims(PackageSignature &signature, const SymbolicDims &dims,
                                           Location loc) {
  if (signature.inputs.size() != dims.inputs.size() ||
      signature.outputs.size() != dims.outputs.size())
    return emitError(loc, "the sized module's signature does not match the symbolic one"),
           failure();
  auto apply = [&](std::vector<::mie::PackageTensorSpec> &specs,
                   const std::vector<std::vector<std::string>> &exprs) {
    for (auto [spec, e] : llvm::zip(specs, exprs)) {
      if (e.empty())
        continue;
      if (!spec.dynamic_dims.empty() || e.size() != spec.shape.size())
        return false;
      spec.symbolic = e;
      for (auto [d, text] : llvm::enumerate(e))
        if (!text.empty())
          spec.shape[d] = -1;
    }
    return true;
  };
  if (!apply(signature.inputs, dims.inputs) || !apply(signature.outputs, dims.outputs))
    return emitError(loc,
                     "outputs with data-dependent dims cannot be in a package with symbolic dims"),
           failure();
  return success();
}
