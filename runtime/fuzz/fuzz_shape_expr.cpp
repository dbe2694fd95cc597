// libFuzzer target: the shape checker of packages with symbolic dims. The input is an expression (a
// manifest's dim over symbols s0..s3, up to the first NUL) and then the symbols' values (8 bytes
// each, read as int64): parsing and evaluating must never crash, overflow silently or divide by
// zero; a value evaluated must be what the expression computes (checked against a second parse of
// the expression's own text).
#include "core/shape_expr.h"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const void *nul = std::memchr(data, 0, size);
  const size_t text_size = nul ? size_t(static_cast<const uint8_t *>(nul) - data) : size;
  const std::string text(reinterpret_cast<const char *>(data), text_size);
  mie::rt::ShapeExpr expr;
  std::string error;
  if (!mie::rt::ShapeExpr::parse(text, 4, &expr, &error)) return 0;
  std::vector<int64_t> values(4, 1);
  const uint8_t *rest = data + text_size + (nul ? 1 : 0);
  const size_t rest_size = size - size_t(rest - data);
  for (size_t i = 0; i < 4 && (i + 1) * 8 <= rest_size; ++i) std::memcpy(&values[i], rest + 8 * i, 8);
  int64_t value = 0;
  const bool ok = expr.evaluate(values, &value);
  // The same text parses to the same value: evaluation depends on the text alone.
  mie::rt::ShapeExpr again;
  if (!mie::rt::ShapeExpr::parse(expr.text(), 4, &again, &error)) __builtin_trap();
  int64_t value_again = 0;
  if (again.evaluate(values, &value_again) != ok || (ok && value != value_again)) __builtin_trap();
  return 0;
}
