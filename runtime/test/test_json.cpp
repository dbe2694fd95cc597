#include <gtest/gtest.h>

#include <string>

#include "core/json.h"

using mie::rt::json::Type;
using mie::rt::json::Value;

namespace {

bool parse(const std::string &text, Value *v, std::string *error) {
  return mie::rt::json::parse(text.data(), text.size(), v, error);
}

std::string error_of(const std::string &text) {
  Value v;
  std::string error;
  EXPECT_FALSE(parse(text, &v, &error)) << text;
  return error;
}

TEST(Json, ParsesDocument) {
  Value v;
  std::string error;
  ASSERT_TRUE(parse(" {\"a\": [1, -2, 3.5, 1e3, true, false, null], \"b\": {\"c\": \"d\"}, \"e\": []}\n", &v, &error))
      << error;
  ASSERT_EQ(v.type, Type::Object);
  const Value *a = v.find("a");
  ASSERT_TRUE(a && a->type == Type::Array);
  ASSERT_EQ(a->array.size(), 7u);
  EXPECT_TRUE(a->array[0].is_integer);
  EXPECT_EQ(a->array[0].integer, 1);
  EXPECT_EQ(a->array[1].integer, -2);
  EXPECT_FALSE(a->array[2].is_integer);
  EXPECT_DOUBLE_EQ(a->array[2].number, 3.5);
  EXPECT_FALSE(a->array[3].is_integer);  // exponent: not an integer token
  EXPECT_DOUBLE_EQ(a->array[3].number, 1000);
  EXPECT_TRUE(a->array[4].boolean);
  EXPECT_EQ(a->array[6].type, Type::Null);
  EXPECT_EQ(v.find("b")->find("c")->string, "d");
  EXPECT_EQ(v.find("zz"), nullptr);
}

TEST(Json, StringEscapesAndUnicode) {
  Value v;
  std::string error;
  ASSERT_TRUE(parse(R"(["a\"b\\c\/\b\f\n\r\t", "\u00e9\u4e2d", "\ud83d\ude00", "h\u00e9llo caf\u00e9", "ü"])", &v, &error))
      << error;
  EXPECT_EQ(v.array[0].string, "a\"b\\c/\b\f\n\r\t");
  EXPECT_EQ(v.array[1].string, "\xc3\xa9\xe4\xb8\xad");
  EXPECT_EQ(v.array[2].string, "\xf0\x9f\x98\x80");
  EXPECT_EQ(v.array[4].string, "\xc3\xbc");
}

TEST(Json, Integers) {
  Value v;
  std::string error;
  ASSERT_TRUE(parse("[9223372036854775807, -9223372036854775808, 9223372036854775808, 0, -0]", &v, &error));
  EXPECT_TRUE(v.array[0].is_integer);
  EXPECT_EQ(v.array[0].integer, INT64_MAX);
  EXPECT_EQ(v.array[1].integer, INT64_MIN);
  EXPECT_FALSE(v.array[2].is_integer);  // too large for int64: only a double
  EXPECT_TRUE(v.array[3].is_integer);
}

TEST(Json, AppendQuotedRoundTrips) {
  std::string s;
  mie::rt::json::append_quoted(s, "q\"\\\n\x01 é");
  Value v;
  std::string error;
  ASSERT_TRUE(parse(s, &v, &error)) << error;
  EXPECT_EQ(v.string, "q\"\\\n\x01 é");
}

TEST(Json, RejectsInvalid) {
  EXPECT_EQ(error_of(""), "line 1, column 1: unexpected end of input, expected a value");
  EXPECT_EQ(error_of("{\"a\": 1,}"), "line 1, column 9: expected a string key");
  EXPECT_EQ(error_of("[1, 2,]"), "line 1, column 7: unexpected character ']'");
  EXPECT_EQ(error_of("{a: 1}"), "line 1, column 2: expected a string key");
  EXPECT_EQ(error_of("{\"a\" 1}"), "line 1, column 6: expected ':' after object key");
  EXPECT_EQ(error_of("[01]"), "line 1, column 3: leading zeros are not allowed in numbers");
  EXPECT_EQ(error_of("[1.]"), "line 1, column 4: expected digits after '.'");
  EXPECT_EQ(error_of("[-]"), "line 1, column 3: invalid number");
  EXPECT_EQ(error_of("[1e]"), "line 1, column 4: expected digits in exponent");
  EXPECT_EQ(error_of("\"abc"), "line 1, column 5: unterminated string");
  EXPECT_EQ(error_of("\"a\tb\""), "line 1, column 3: control character in string");
  EXPECT_EQ(error_of("\"\\x\""), "line 1, column 3: invalid escape '\\x'");
  EXPECT_EQ(error_of("\"\\ud800\""), "line 1, column 8: unpaired high surrogate in \\u escape");
  EXPECT_EQ(error_of("\"\\udc00\""), "line 1, column 8: unpaired low surrogate in \\u escape");
  EXPECT_EQ(error_of("\"\\u12g4\""), "line 1, column 4: invalid hex digit in \\u escape");
  EXPECT_EQ(error_of("\"\xc3\x28\""), "line 1, column 2: invalid UTF-8 in string");
  EXPECT_EQ(error_of("\"\xc0\xaf\""), "line 1, column 2: invalid UTF-8 in string");  // overlong '/'
  EXPECT_EQ(error_of("\"\xed\xa0\x80\""), "line 1, column 2: invalid UTF-8 in string");  // encoded surrogate
  EXPECT_EQ(error_of("{\"a\": 1, \"a\": 2}"), "line 1, column 13: duplicate key \"a\"");
  EXPECT_EQ(error_of("{} x"), "line 1, column 4: unexpected data after the JSON value");
  EXPECT_EQ(error_of("[tru]"), "line 1, column 2: invalid literal");
  EXPECT_EQ(error_of("{\n  \"a\": [1 2]\n}"), "line 2, column 11: expected ',' or ']'");
  EXPECT_EQ(error_of("[1e999]"), "line 1, column 7: number out of range");
  EXPECT_EQ(error_of(std::string("[1]\0", 4)), "line 1, column 4: unexpected data after the JSON value");
}

TEST(Json, NestingLimit) {
  Value v;
  std::string error;
  const int ok_depth = mie::rt::json::kMaxDepth;
  ASSERT_TRUE(parse(std::string(ok_depth, '[') + std::string(ok_depth, ']'), &v, &error)) << error;
  // Deeper input must fail cleanly instead of exhausting the stack.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(error_of(deep), "line 1, column 65: nesting deeper than 64 levels");
}

}  // namespace
