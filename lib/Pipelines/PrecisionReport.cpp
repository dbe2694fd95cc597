//===- PrecisionReport.cpp - what precision assignment did ----------------===//
//
// ms-assign-precision leaves an `ms.precision` summary on every function it ran on (it counts
// what only it can see: the conversions it needed and how many it folded or merged away); the
// report is read off the ms module right after the graph pipeline, before lowering drops it.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "dialects/ms/Transforms/PrecisionAssignment.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

std::string mlir::mie::buildPrecisionReport(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "precision report\n";
  auto get = [](DictionaryAttr dict, StringRef key) -> int64_t {
    auto value = dict.getAs<IntegerAttr>(key);
    return value ? value.getInt() : 0;
  };
  std::string policy = "fp32";
  int64_t castsLeft = 0, before = 0, after = 0;
  bool any = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto summary = func->getAttrOfType<DictionaryAttr>("ms.precision");
    if (!summary)
      continue;
    any = true;
    if (auto name = summary.getAs<StringAttr>("policy"))
      policy = name.str();
    os << "  @" << func.getSymName() << " (policy " << policy << ")\n";
    os << "    ops per element type:";
    if (auto ops = summary.getAs<DictionaryAttr>("ops"))
      for (NamedAttribute entry : ops)
        os << " " << entry.getName().getValue() << "="
           << cast<IntegerAttr>(entry.getValue()).getInt();
    os << "\n";
    os << llvm::formatv("    casts: {0} inserted, {1} removed (folded into weights or merged), "
                        "{2} left\n",
                        get(summary, "casts_inserted"), get(summary, "casts_removed"),
                        get(summary, "casts_left"));
    int64_t b = get(summary, "weight_bytes_before"), a = get(summary, "weight_bytes_after");
    os << llvm::formatv("    constant bytes: {0} -> {1} ({2:F1}%)\n", b, a,
                        b ? 100.0 * double(a) / double(b) : 100.0);
    castsLeft += get(summary, "casts_left");
    before += b;
    after += a;
  }
  if (!any) {
    // Nothing changed: the graph's constants are what they were.
    before = after = ms::constantBytes(module);
    os << "  precision assignment did not run (fp32, no quantization); constant bytes: " << before
       << "\n";
  }
  os << llvm::formatv("precision: policy={0} casts_left={1} weight_bytes={2}->{3}\n", policy,
                      castsLeft, before, after);
  return text;
}
