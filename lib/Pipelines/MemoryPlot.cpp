//===- MemoryPlot.cpp - the arena as a picture ----------------------------===//
//
// `mie-compile --memory-plot=FILE.svg`: every planned buffer as a rectangle over time (kernels, left
// to right) and arena offset (bottom to top), labelled with its ONNX node, with the op where the
// lower bound is reached marked. Read off `mie.memory` (mie-plan-memory's `buffers`, `buffer_nodes`
// and `peak_op`), as the memory report is.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "dialects/mie/IR/MieDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {

constexpr double kWidth = 1200, kPlotHeight = 640, kMargin = 70, kPanelGap = 60;

std::string escapeXml(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

/// One of a few distinguishable fills, the same for the same node name.
StringRef fillFor(StringRef node) {
  static const char *const fills[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2",
                                      "#edc948", "#9c755f", "#e15759", "#bab0ac", "#ff9da7"};
  return fills[llvm::hash_value(node) % std::size(fills)];
}

/// A short label for a buffer: its first ONNX node without the op type, at most its last two path
/// components ("/layer1/layer1.0/conv3/Conv,..." -> "layer1.0/conv3", "/conv1/Conv" -> "conv1").
std::string labelOf(StringRef nodes) {
  StringRef first = nodes.split(',').first;
  SmallVector<StringRef> parts;
  first.split(parts, '/', -1, /*KeepEmpty=*/false);
  if (parts.size() > 1)
    parts.pop_back();
  if (parts.size() > 2)
    parts.erase(parts.begin(), parts.end() - 2);
  return llvm::join(parts, "/");
}

/// One entry function's panel, its top at `top`.
void plotFunction(llvm::raw_ostream &os, func::FuncOp func, int64_t arena, DictionaryAttr summary,
                  double top) {
  auto buffers = summary.getAs<DenseI64ArrayAttr>("buffers");
  auto nodes = summary.getAs<ArrayAttr>("buffer_nodes");
  auto peakOp = summary.getAs<IntegerAttr>("peak_op");
  ArrayRef<int64_t> data = buffers ? buffers.asArrayRef() : ArrayRef<int64_t>();
  const size_t count = data.size() / 4;
  // Time runs over the ops where buffers begin or end, evenly spaced (the block's other ops,
  // views and allocations, take no time).
  SmallVector<int64_t> times;
  for (size_t i = 0; i < count; ++i)
    times.append({data[4 * i + 2], data[4 * i + 3] + 1});
  if (peakOp)
    times.push_back(peakOp.getInt());
  llvm::sort(times);
  times.erase(std::unique(times.begin(), times.end()), times.end());
  auto xOf = [&](int64_t time) {
    size_t rank = llvm::lower_bound(times, time) - times.begin();
    double span = std::max<double>(double(times.size()) - 1, 1);
    return kMargin + (kWidth - 2 * kMargin) * double(rank) / span;
  };
  const double scale = arena > 0 ? kPlotHeight / double(arena) : 0;
  auto yOf = [&](int64_t offset) { return top + kPlotHeight - double(offset) * scale; };

  os << llvm::formatv("<text x='{0}' y='{1}' font-size='15'>@{2}: arena {3} bytes, {4} buffers"
                      "</text>\n",
                      kMargin, top - 12, escapeXml(func.getSymName()), arena, count);
  os << llvm::formatv("<rect x='{0}' y='{1}' width='{2}' height='{3}' fill='none' stroke='#333'/>\n",
                      kMargin, top, kWidth - 2 * kMargin, kPlotHeight);
  for (size_t i = 0; i < count; ++i) {
    const int64_t offset = data[4 * i], size = data[4 * i + 1];
    const double x0 = xOf(data[4 * i + 2]), x1 = xOf(data[4 * i + 3] + 1);
    const double y0 = yOf(offset + size), y1 = yOf(offset);
    StringRef node = nodes && i < nodes.size() ? cast<StringAttr>(nodes[i]).getValue() : "";
    std::string label = node.empty() ? "(unnamed)" : escapeXml(node);
    os << llvm::formatv("<rect x='{0:F1}' y='{1:F1}' width='{2:F1}' height='{3:F1}' fill='{4}' "
                        "fill-opacity='0.75' stroke='#222' stroke-width='0.5'><title>{5}: {6} bytes "
                        "at [{7}, {8}), ops {9}..{10}</title></rect>\n",
                        x0, y0, std::max(x1 - x0, 1.0), std::max(y1 - y0, 0.5), fillFor(node),
                        label, size, offset, offset + size, data[4 * i + 2], data[4 * i + 3]);
    std::string shortName = labelOf(node);
    if (y1 - y0 >= 12 && (x1 - x0) >= 6.0 * double(shortName.size()) && !shortName.empty())
      os << llvm::formatv("<text x='{0:F1}' y='{1:F1}' font-size='10' fill='#fff'>{2}</text>\n",
                          x0 + 2, (y0 + y1) / 2 + 3, escapeXml(shortName));
  }
  if (peakOp && peakOp.getInt() >= 0) {
    const double x = xOf(peakOp.getInt());
    auto lowerBound = summary.getAs<IntegerAttr>("lower_bound");
    os << llvm::formatv("<line x1='{0:F1}' y1='{1}' x2='{0:F1}' y2='{2}' stroke='#d00' "
                        "stroke-width='2' stroke-dasharray='6,4'/>\n",
                        x, top, top + kPlotHeight);
    os << llvm::formatv("<text x='{0:F1}' y='{1}' font-size='12' fill='#d00'>peak: {2} bytes live"
                        "</text>\n",
                        x + 4, top + 14, lowerBound ? lowerBound.getInt() : 0);
  }
  os << llvm::formatv("<text x='{0}' y='{1}' font-size='11' text-anchor='end'>0</text>\n",
                      kMargin - 4, top + kPlotHeight);
  os << llvm::formatv("<text x='{0}' y='{1}' font-size='11' text-anchor='end'>{2:F1} MB</text>\n",
                      kMargin - 4, top + 10, double(arena) / 1e6);
  os << llvm::formatv("<text x='{0}' y='{1}' font-size='12'>time (kernels) -&gt;</text>\n",
                      kWidth / 2 - 40, top + kPlotHeight + 20);
  os << llvm::formatv("<text x='12' y='{0}' font-size='12' transform='rotate(-90 12 {0})'>"
                      "arena offset (bytes) -&gt;</text>\n",
                      top + kPlotHeight / 2 + 60);
}

} // namespace

std::string mlir::mie::buildMemoryPlot(ModuleOp module) {
  SmallVector<std::tuple<func::FuncOp, int64_t, DictionaryAttr>> planned;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto arena = func->getAttrOfType<IntegerAttr>(MieDialect::getArenaBytesAttrName());
    auto summary = func->getAttrOfType<DictionaryAttr>(MieDialect::getMemoryAttrName());
    if (!func.isPrivate() && !func.isExternal() && arena && summary)
      planned.push_back({func, arena.getInt(), summary});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  const double height = double(planned.size()) * (kPlotHeight + kMargin + kPanelGap) + kMargin;
  os << llvm::formatv("<svg xmlns='http://www.w3.org/2000/svg' width='{0}' height='{1}' "
                      "font-family='sans-serif'>\n",
                      kWidth, height);
  os << "<rect width='100%' height='100%' fill='#fff'/>\n";
  double top = kMargin;
  for (auto [func, arena, summary] : planned) {
    plotFunction(os, func, arena, summary, top);
    top += kPlotHeight + kMargin + kPanelGap;
  }
  os << "</svg>\n";
  return text;
}
