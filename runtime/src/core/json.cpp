#include "json.h"

#include <charconv>
#include <cstdio>
#include <cstring>

namespace mie::rt::json {

const char *type_name(Type t) {
  switch (t) {
    case Type::Null: return "null";
    case Type::Bool: return "boolean";
    case Type::Number: return "number";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::Object: return "object";
  }
  return "?";
}

const Value *Value::find(const std::string &key) const {
  if (type != Type::Object) return nullptr;
  for (const auto &kv : object)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

namespace {

class Parser {
 public:
  Parser(const char *text, size_t size) : p_(text), begin_(text), end_(text + size) {}

  bool parse_document(Value *out, std::string *error) {
    skip_ws();
    bool ok = parse_value(out, 0);
    if (ok) {
      skip_ws();
      if (p_ != end_) ok = fail("unexpected data after the JSON value");
    }
    if (!ok) *error = error_;
    return ok;
  }

 private:
  // Records the first error with its position; always returns false so callers can `return fail(...)`.
  bool fail(const std::string &what) {
    if (error_.empty()) {
      int line = 1, col = 1;
      for (const char *q = begin_; q < p_ && q < end_; ++q) {
        if (*q == '\n') { ++line; col = 1; } else { ++col; }
      }
      error_ = "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what;
    }
    return false;
  }

  void skip_ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  bool literal(const char *word, size_t n) {
    if (size_t(end_ - p_) < n || std::memcmp(p_, word, n) != 0)
      return fail("invalid literal");
    p_ += n;
    return true;
  }

  bool parse_value(Value *v, int depth) {
    if (p_ == end_) return fail("unexpected end of input, expected a value");
    switch (*p_) {
      case '{': return parse_object(v, depth + 1);
      case '[': return parse_array(v, depth + 1);
      case '"': v->type = Type::String; return parse_string(&v->string);
      case 't': v->type = Type::Bool; v->boolean = true; return literal("true", 4);
      case 'f': v->type = Type::Bool; v->boolean = false; return literal("false", 5);
      case 'n': v->type = Type::Null; return literal("null", 4);
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return parse_number(v);
        return fail(std::string("unexpected character '") + printable(*p_) + "'");
    }
  }

  static std::string printable(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", u);
    return buf;
  }

  bool parse_object(Value *v, int depth) {
    if (depth > kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    v->type = Type::Object;
    ++p_;  // '{'
    skip_ws();
    if (p_ != end_ && *p_ == '}') { ++p_; return true; }
    for (;;) {
      skip_ws();
      if (p_ == end_ || *p_ != '"') return fail("expected a string key");
      std::string key;
      if (!parse_string(&key)) return false;
      for (const auto &kv : v->object)
        if (kv.first == key) return fail("duplicate key \"" + key + "\"");
      skip_ws();
      if (p_ == end_ || *p_ != ':') return fail("expected ':' after object key");
      ++p_;
      skip_ws();
      v->object.emplace_back(std::move(key), Value());
      if (!parse_value(&v->object.back().second, depth)) return false;
      skip_ws();
      if (p_ == end_) return fail("unexpected end of input, expected ',' or '}'");
      if (*p_ == ',') { ++p_; continue; }
      if (*p_ == '}') { ++p_; return true; }
      return fail("expected ',' or '}'");
    }
  }

  bool parse_array(Value *v, int depth) {
    if (depth > kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    v->type = Type::Array;
    ++p_;  // '['
    skip_ws();
    if (p_ != end_ && *p_ == ']') { ++p_; return true; }
    for (;;) {
      skip_ws();
      v->array.emplace_back();
      if (!parse_value(&v->array.back(), depth)) return false;
      skip_ws();
      if (p_ == end_) return fail("unexpected end of input, expected ',' or ']'");
      if (*p_ == ',') { ++p_; continue; }
      if (*p_ == ']') { ++p_; return true; }
      return fail("expected ',' or ']'");
    }
  }

  bool parse_number(Value *v) {
    const char *start = p_;
    bool integral = true;
    if (*p_ == '-') ++p_;
    if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) return fail("invalid number");
    if (*p_ == '0') {
      ++p_;
      if (p_ != end_ && *p_ >= '0' && *p_ <= '9') return fail("leading zeros are not allowed in numbers");
    } else {
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ != end_ && *p_ == '.') {
      integral = false;
      ++p_;
      if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) return fail("expected digits after '.'");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) return fail("expected digits in exponent");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    v->type = Type::Number;
    // from_chars is locale independent, unlike strtod.
    auto r = std::from_chars(start, p_, v->number);
    if (r.ec == std::errc::result_out_of_range) return fail("number out of range");
    if (r.ec != std::errc() || r.ptr != p_) return fail("invalid number");
    if (integral) {
      auto ri = std::from_chars(start, p_, v->integer);
      v->is_integer = ri.ec == std::errc() && ri.ptr == p_;
    }
    return true;
  }

  bool parse_hex4(uint32_t *out) {
    if (end_ - p_ < 4) return fail("truncated \\u escape");
    uint32_t x = 0;
    for (int i = 0; i < 4; ++i) {
      char c = p_[i];
      int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (d < 0) return fail("invalid hex digit in \\u escape");
      x = x << 4 | uint32_t(d);
    }
    p_ += 4;
    *out = x;
    return true;
  }

  static void append_utf8(std::string *s, uint32_t cp) {
    if (cp < 0x80) {
      s->push_back(char(cp));
    } else if (cp < 0x800) {
      s->push_back(char(0xC0 | cp >> 6));
      s->push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      s->push_back(char(0xE0 | cp >> 12));
      s->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(char(0x80 | (cp & 0x3F)));
    } else {
      s->push_back(char(0xF0 | cp >> 18));
      s->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
      s->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(char(0x80 | (cp & 0x3F)));
    }
  }

  // Validates one UTF-8 sequence starting at p_ (a byte >= 0x80) and copies it.
  bool copy_utf8(std::string *s) {
    const unsigned char *u = reinterpret_cast<const unsigned char *>(p_);
    const size_t avail = size_t(end_ - p_);
    size_t n;
    uint32_t cp, min;
    if ((u[0] & 0xE0) == 0xC0) { n = 2; cp = u[0] & 0x1F; min = 0x80; }
    else if ((u[0] & 0xF0) == 0xE0) { n = 3; cp = u[0] & 0x0F; min = 0x800; }
    else if ((u[0] & 0xF8) == 0xF0) { n = 4; cp = u[0] & 0x07; min = 0x10000; }
    else return fail("invalid UTF-8 in string");
    if (avail < n) return fail("invalid UTF-8 in string");
    for (size_t i = 1; i < n; ++i) {
      if ((u[i] & 0xC0) != 0x80) return fail("invalid UTF-8 in string");
      cp = cp << 6 | (u[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return fail("invalid UTF-8 in string");
    s->append(p_, n);
    p_ += n;
    return true;
  }

  bool parse_string(std::string *s) {
    ++p_;  // opening quote
    for (;;) {
      if (p_ == end_) return fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') { ++p_; return true; }
      if (c < 0x20) return fail("control character in string");
      if (c >= 0x80) {
        if (!copy_utf8(s)) return false;
        continue;
      }
      if (c != '\\') { s->push_back(char(c)); ++p_; continue; }
      ++p_;
      if (p_ == end_) return fail("unterminated string");
      char e = *p_++;
      switch (e) {
        case '"': s->push_back('"'); break;
        case '\\': s->push_back('\\'); break;
        case '/': s->push_back('/'); break;
        case 'b': s->push_back('\b'); break;
        case 'f': s->push_back('\f'); break;
        case 'n': s->push_back('\n'); break;
        case 'r': s->push_back('\r'); break;
        case 't': s->push_back('\t'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!parse_hex4(&cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("unpaired low surrogate in \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t lo = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return fail("unpaired high surrogate in \\u escape");
            p_ += 2;
            if (!parse_hex4(&lo)) return false;
            if (lo < 0xDC00 || lo > 0xDFFF) return fail("unpaired high surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(s, cp);
          break;
        }
        default:
          --p_;
          return fail(std::string("invalid escape '\\") + printable(e) + "'");
      }
    }
  }

  const char *p_;
  const char *begin_;
  const char *end_;
  std::string error_;
};

}  // namespace

bool parse(const char *text, size_t size, Value *out, std::string *error) {
  *out = Value();
  Parser parser(text, size);
  return parser.parse_document(out, error);
}

void append_quoted(std::string &out, const std::string &s) {
  out.push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(char(c));
        }
    }
  }
  out.push_back('"');
}

}  // namespace mie::rt::json
