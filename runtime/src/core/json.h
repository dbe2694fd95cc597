// A small strict JSON (RFC 8259) reader and string escaper for package manifests.
// Strict on purpose: a manifest that a lenient parser would "repair" is a corrupt package, so duplicate
// keys, trailing commas, invalid UTF-8, lone surrogates and over-deep nesting are all rejected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mie::rt::json {

enum class Type { Null, Bool, Number, String, Array, Object };

const char *type_name(Type t);  // "null", "boolean", "number", "string", "array", "object"

struct Value {
  Type type = Type::Null;
  bool boolean = false;
  bool is_integer = false;  // number token without fraction/exponent that fits in int64
  int64_t integer = 0;      // valid when is_integer
  double number = 0;        // always set for numbers
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;  // in document order, keys unique

  const Value *find(const std::string &key) const;  // nullptr when absent or not an object
};

// Parses exactly one JSON value (surrounded by optional whitespace). On failure returns false and sets
// *error to "line L, column C: what went wrong".
bool parse(const char *text, size_t size, Value *out, std::string *error);

constexpr int kMaxDepth = 64;

// Appends s as a JSON string literal (with quotes). s must be valid UTF-8; control characters are escaped.
void append_quoted(std::string &out, const std::string &s);

}  // namespace mie::rt::json
