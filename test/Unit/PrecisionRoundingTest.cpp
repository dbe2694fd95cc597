//===- PrecisionRoundingTest.cpp - f32 -> bf16/f16 rounding of weights ----===//
//
// The bit-level round-to-nearest-even that ms-assign-precision folds weights with, against LLVM's
// APFloat conversion, over f32 bit patterns spread across the whole range (both signs, zeros,
// subnormals, the f16 subnormal and overflow boundaries, ties, infinities and NaNs).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/PrecisionAssignment.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace {

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t reference(float value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool lost;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint16_t(f.bitcastToAPInt().getZExtValue());
}

/// Bit patterns: a stride over all 2^32, plus the neighbourhoods of the interesting boundaries.
std::vector<uint32_t> samples() {
  std::vector<uint32_t> bits;
  for (uint64_t b = 0; b < (1ull << 32); b += 4099)
    bits.push_back(uint32_t(b));
  for (uint32_t center : {0x00000000u, 0x00800000u, 0x33000000u, 0x33800000u, 0x38800000u,
                          0x387fe000u, 0x477fe000u, 0x477ff000u, 0x47800000u, 0x3f808000u,
                          0x3f818000u, 0x7f7f8000u, 0x7f7fffffu, 0x7f800000u, 0x7fc00000u})
    for (int64_t d = -300; d <= 300; ++d)
      for (uint32_t sign : {0u, 0x80000000u})
        bits.push_back(sign | uint32_t(int64_t(center) + d));
  return bits;
}

TEST(PrecisionRounding, BF16MatchesAPFloat) {
  for (uint32_t b : samples()) {
    float f = fromBits(b);
    uint16_t got = mlir::ms::roundToBF16(f), want = reference(f, llvm::APFloat::BFloat());
    if (std::isnan(f)) {
      EXPECT_EQ(got & 0x7f80u, 0x7f80u) << std::hex << b;
      EXPECT_NE(got & 0x7fu, 0u) << std::hex << b;
      continue;
    }
    ASSERT_EQ(got, want) << "f32 bits 0x" << std::hex << b;
  }
}

TEST(PrecisionRounding, F16MatchesAPFloat) {
  for (uint32_t b : samples()) {
    float f = fromBits(b);
    uint16_t got = mlir::ms::roundToF16(f), want = reference(f, llvm::APFloat::IEEEhalf());
    if (std::isnan(f)) {
      EXPECT_EQ(got & 0x7c00u, 0x7c00u) << std::hex << b;
      EXPECT_NE(got & 0x3ffu, 0u) << std::hex << b;
      continue;
    }
    ASSERT_EQ(got, want) << "f32 bits 0x" << std::hex << b;
  }
}

TEST(PrecisionRounding, KnownValues) {
  EXPECT_EQ(mlir::ms::roundToBF16(1.0f), 0x3f80);
  EXPECT_EQ(mlir::ms::roundToF16(1.0f), 0x3c00);
  EXPECT_EQ(mlir::ms::roundToF16(65504.0f), 0x7bff);
  EXPECT_EQ(mlir::ms::roundToF16(65519.0f), 0x7bff); // below the halfway point to 65536
  EXPECT_EQ(mlir::ms::roundToF16(65520.0f), 0x7c00); // a tie, to even: infinity
  EXPECT_EQ(mlir::ms::roundToF16(5.9604645e-8f), 0x0001); // 2^-24, the smallest subnormal
  EXPECT_EQ(mlir::ms::roundToF16(2.9802322e-8f), 0x0000); // 2^-25: a tie, to even zero
  EXPECT_EQ(mlir::ms::roundToF16(-0.0f), 0x8000);
}

} // namespace
