//===- MemoryReport.cpp - the arena against its bounds --------------------===//
//
// mie-plan-memory leaves its numbers on the entry function (`mie.arena_bytes`, and `mie.memory`:
// the lower bound, the bytes without reuse and the largest buffers live at the peak), so the report
// is read off the lowered module, as the fusion report is.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "dialects/mie/IR/MieDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

std::string mlir::mie::buildMemoryReport(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "memory report\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    auto arenaAttr = func->getAttrOfType<IntegerAttr>(MieDialect::getArenaBytesAttrName());
    auto summary = func->getAttrOfType<DictionaryAttr>(MieDialect::getMemoryAttrName());
    if (!arenaAttr || !summary) {
      os << "  @" << func.getSymName() << ": not planned\n";
      continue;
    }
    const int64_t arena = arenaAttr.getInt();
    auto get = [&](StringRef key) {
      auto value = summary.getAs<IntegerAttr>(key);
      return value ? value.getInt() : int64_t(0);
    };
    const int64_t lowerBound = get("lower_bound"), naive = get("naive");
    auto ratio = [](int64_t a, int64_t b) { return b > 0 ? double(a) / double(b) : 1.0; };
    os << "  @" << func.getSymName() << "\n";
    os << llvm::formatv("  arena        {0,12} bytes\n", arena);
    os << llvm::formatv("  lower bound  {0,12} bytes   arena / lower bound {1:F3}\n", lowerBound,
                        ratio(arena, lowerBound));
    os << llvm::formatv("  naive        {0,12} bytes   naive / arena {1:F2}\n", naive,
                        ratio(naive, arena));
    os << llvm::formatv("  in place     {0,12} buffers written over the bytes of an input that "
                        "dies at their kernel\n",
                        get("in_place"));
    if (auto peaks = func->getAttrOfType<DenseI64ArrayAttr>(MieDialect::getSchedulePeakAttrName());
        peaks && peaks.size() == 2) {
      if (peaks[1] < peaks[0])
        os << llvm::formatv("  schedule     kernels reordered for memory: {0} -> {1} bytes live at "
                            "the peak\n",
                            peaks[0], peaks[1]);
      else
        os << "  schedule     as given (no reordering of the kernels lowers the peak)\n";
    }
    auto heuristic = summary.getAs<StringAttr>("heuristic");
    auto optimal = summary.getAs<BoolAttr>("optimal");
    os << "  heuristic    " << (heuristic ? heuristic.getValue() : StringRef("?"))
       << (optimal && optimal.getValue() ? " (optimal)" : " (the smallest found)") << "\n";
    os << "  largest buffers live at the peak:\n";
    if (auto peak = summary.getAs<ArrayAttr>("peak"))
      for (Attribute entry : peak) {
        auto pair = dyn_cast<ArrayAttr>(entry);
        if (!pair || pair.size() != 2)
          continue;
        auto bytes = dyn_cast<IntegerAttr>(pair[0]);
        auto node = dyn_cast<StringAttr>(pair[1]);
        os << llvm::formatv("    {0,12} bytes  {1}\n", bytes ? bytes.getInt() : 0,
                            node && !node.getValue().empty() ? node.getValue()
                                                             : StringRef("(unnamed)"));
      }
    // One line for scripts, in exactly this form.
    os << "memory: arena=" << arena << " lower_bound=" << lowerBound << " naive=" << naive << "\n";
  }
  return text;
}
