// The dims of a package's tensors over its symbols (format 4, docs/package-format.md "Symbolic
// dims"): an integer, or an affine expression in MLIR's syntax over s0, s1, ... (the indices of the
// manifest's "symbols"): `s0`, `s0 * s1`, `(s1 - 1) floordiv 2 + 1`, `s1 ceildiv 64`, `s0 mod 8`.
// Shared by the runtime (which evaluates output shapes for the run's symbol values) and the package
// writer (which refuses to write what the runtime would not read).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mie::rt {

class ShapeExpr {
public:
  // Parses `text` over `num_symbols` symbols. On failure *error says what and where ("at offset 4:
  // unknown symbol s7 (the package has 2)").
  static bool parse(const std::string &text, size_t num_symbols, ShapeExpr *out,
                    std::string *error);
  // The expression's value for the symbols' `values`; false on a division by zero or an int64
  // overflow.
  bool evaluate(const std::vector<int64_t> &values, int64_t *out) const;
  // The symbol's index when the expression is one symbol alone, else -1.
  int single_symbol() const;
  // Whether symbol `index` occurs in the expression.
  bool uses_symbol(size_t index) const;
  // Whether the expression is symbol `index` times factors free of it (`s0`, `s0 * s1`,
  // `s0 * 12`): a dim that grows by whole blocks with the symbol (a batch symbol's dim 0).
  bool is_multiple_of(size_t index) const;
  const std::string &text() const { return text_; }

private:
  enum class Kind { Constant, Symbol, Add, Sub, Mul, FloorDiv, CeilDiv, Mod, Neg };
  struct Node {
    Kind kind;
    int64_t value; // Constant: the number; Symbol: the index
    int lhs, rhs;  // operands (node indices); Neg uses lhs
  };
  friend class ShapeExprParser;
  bool eval(int node, const std::vector<int64_t> &values, int64_t *out) const;
  bool node_uses(int node, size_t index) const;
  bool node_is_multiple_of(int node, size_t index) const;
  std::vector<Node> nodes_;
  int root_ = -1;
  std::string text_;
};

} // namespace mie::rt
