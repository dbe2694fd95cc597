#include "shape_expr.h"

#include <cctype>

namespace mie::rt {

// Recursive descent with MLIR's precedence: + and - below *, floordiv, ceildiv and mod; unary minus
// binds tightest. Nesting is bounded so that a hostile manifest cannot exhaust the stack.
class ShapeExprParser {
public:
  ShapeExprParser(const std::string &text, size_t num_symbols, ShapeExpr *out, std::string *error)
      : text_(text), num_symbols_(num_symbols), out_(out), error_(error) {}

  bool run() {
    int root;
    if (!sum(&root))
      return false;
    skip();
    if (pos_ != text_.size())
      return fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    out_->root_ = root;
    return true;
  }

private:
  static constexpr int kMaxDepth = 64;
  static constexpr size_t kMaxNodes = 1024;

  bool fail(const std::string &what) {
    *error_ = "at offset " + std::to_string(pos_) + ": " + what;
    return false;
  }
  void skip() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool word(const char *w) {
    skip();
    size_t n = 0;
    while (w[n])
      ++n;
    if (text_.compare(pos_, n, w) != 0)
      return false;
    // A keyword ends where an identifier character does not follow it.
    if (pos_ + n < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[pos_ + n])) || text_[pos_ + n] == '_'))
      return false;
    pos_ += n;
    return true;
  }
  bool add(ShapeExpr::Kind kind, int64_t value, int lhs, int rhs, int *out) {
    if (out_->nodes_.size() >= kMaxNodes)
      return fail("expression has more than " + std::to_string(kMaxNodes) + " terms");
    out_->nodes_.push_back({kind, value, lhs, rhs});
    *out = int(out_->nodes_.size() - 1);
    return true;
  }
  bool sum(int *out) {
    if (!product(out))
      return false;
    while (true) {
      skip();
      if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-'))
        return true;
      const bool plus = text_[pos_++] == '+';
      int rhs;
      if (!product(&rhs) ||
          !add(plus ? ShapeExpr::Kind::Add : ShapeExpr::Kind::Sub, 0, *out, rhs, out))
        return false;
    }
  }
  bool product(int *out) {
    if (!unary(out))
      return false;
    while (true) {
      skip();
      ShapeExpr::Kind kind;
      if (pos_ < text_.size() && text_[pos_] == '*') {
        ++pos_;
        kind = ShapeExpr::Kind::Mul;
      } else if (word("floordiv")) {
        kind = ShapeExpr::Kind::FloorDiv;
      } else if (word("ceildiv")) {
        kind = ShapeExpr::Kind::CeilDiv;
      } else if (word("mod")) {
        kind = ShapeExpr::Kind::Mod;
      } else {
        return true;
      }
      int rhs;
      if (!unary(&rhs) || !add(kind, 0, *out, rhs, out))
        return false;
    }
  }
  bool unary(int *out) {
    skip();
    if (++depth_ > kMaxDepth)
      return fail("expression nests deeper than " + std::to_string(kMaxDepth));
    bool ok;
    if (pos_ < text_.size() && text_[pos_] == '-') {
      ++pos_;
      int operand;
      ok = unary(&operand) && add(ShapeExpr::Kind::Neg, 0, operand, -1, out);
    } else {
      ok = primary(out);
    }
    --depth_;
    return ok;
  }
  bool number(int64_t *value) {
    const size_t start = pos_;
    uint64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      v = v * 10 + uint64_t(text_[pos_++] - '0');
      if (v > uint64_t(INT64_MAX))
        return fail("number is too large");
    }
    if (pos_ == start)
      return fail("expected a number");
    *value = int64_t(v);
    return true;
  }
  bool primary(int *out) {
    skip();
    if (pos_ >= text_.size())
      return fail("expression ends early");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      if (!sum(out))
        return false;
      skip();
      if (pos_ >= text_.size() || text_[pos_] != ')')
        return fail("expected ')'");
      ++pos_;
      return true;
    }
    int64_t value;
    if (std::isdigit(static_cast<unsigned char>(c)))
      return number(&value) && add(ShapeExpr::Kind::Constant, value, -1, -1, out);
    if (c == 's') {
      ++pos_;
      if (!number(&value))
        return false;
      if (uint64_t(value) >= num_symbols_)
        return fail("unknown symbol s" + std::to_string(value) + " (the package has " +
                    std::to_string(num_symbols_) + ")");
      return add(ShapeExpr::Kind::Symbol, value, -1, -1, out);
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }

  const std::string &text_;
  size_t num_symbols_;
  ShapeExpr *out_;
  std::string *error_;
  size_t pos_ = 0;
  int depth_ = 0;
};

bool ShapeExpr::parse(const std::string &text, size_t num_symbols, ShapeExpr *out,
                      std::string *error) {
  ShapeExpr e;
  e.text_ = text;
  ShapeExprParser parser(text, num_symbols, &e, error);
  if (!parser.run())
    return false;
  *out = std::move(e);
  return true;
}

int ShapeExpr::single_symbol() const {
  return root_ >= 0 && nodes_[size_t(root_)].kind == Kind::Symbol ? int(nodes_[size_t(root_)].value)
                                                                  : -1;
}

bool ShapeExpr::uses_symbol(size_t index) const {
  for (const Node &n : nodes_)
    if (n.kind == Kind::Symbol && size_t(n.value) == index)
      return true;
  return false;
}

bool ShapeExpr::node_uses(int node, size_t index) const {
  const Node &n = nodes_[size_t(node)];
  switch (n.kind) {
    case Kind::Constant:
      return false;
    case Kind::Symbol:
      return size_t(n.value) == index;
    case Kind::Neg:
      return node_uses(n.lhs, index);
    default:
      return node_uses(n.lhs, index) || node_uses(n.rhs, index);
  }
}

bool ShapeExpr::node_is_multiple_of(int node, size_t index) const {
  const Node &n = nodes_[size_t(node)];
  if (n.kind == Kind::Symbol)
    return size_t(n.value) == index;
  if (n.kind != Kind::Mul)
    return false;
  return (node_is_multiple_of(n.lhs, index) && !node_uses(n.rhs, index)) ||
         (node_is_multiple_of(n.rhs, index) && !node_uses(n.lhs, index));
}

bool ShapeExpr::is_multiple_of(size_t index) const {
  return root_ >= 0 && node_is_multiple_of(root_, index);
}

bool ShapeExpr::evaluate(const std::vector<int64_t> &values, int64_t *out) const {
  return root_ >= 0 && eval(root_, values, out);
}

bool ShapeExpr::eval(int node, const std::vector<int64_t> &values, int64_t *out) const {
  const Node &n = nodes_[size_t(node)];
  int64_t a = 0, b = 0;
  switch (n.kind) {
  case Kind::Constant:
    *out = n.value;
    return true;
  case Kind::Symbol:
    if (size_t(n.value) >= values.size())
      return false;
    *out = values[size_t(n.value)];
    return true;
  case Kind::Neg:
    if (!eval(n.lhs, values, &a) || a == INT64_MIN)
      return false;
    *out = -a;
    return true;
  default:
    break;
  }
  if (!eval(n.lhs, values, &a) || !eval(n.rhs, values, &b))
    return false;
  switch (n.kind) {
  case Kind::Add:
    return !__builtin_add_overflow(a, b, out);
  case Kind::Sub:
    return !__builtin_sub_overflow(a, b, out);
  case Kind::Mul:
    return !__builtin_mul_overflow(a, b, out);
  case Kind::FloorDiv:
  case Kind::CeilDiv:
  case Kind::Mod: {
    if (b == 0 || (a == INT64_MIN && b == -1))
      return false;
    int64_t q = a / b, r = a % b;
    // Round toward -inf (floordiv, mod: MLIR's semantics) or +inf (ceildiv).
    if (n.kind == Kind::CeilDiv) {
      if (r != 0 && ((r > 0) == (b > 0)))
        ++q;
      *out = q;
    } else {
      if (r != 0 && ((r < 0) != (b < 0))) {
        --q;
        r += b;
      }
      *out = n.kind == Kind::FloorDiv ? q : r;
    }
    return true;
  }
  default:
    return false;
  }
}

} // namespace mie::rt
