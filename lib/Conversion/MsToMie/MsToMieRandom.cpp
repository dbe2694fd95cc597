//===- MsToMieRandom.cpp - ms.random_* -> Philox kernels ------------------===//
//
// Every element of a random tensor is a function of its linear index: Philox-4x32-10 (Salmon et
// al., "Parallel random numbers: as easy as 1, 2, 3", SC'11; the generator of cuRAND, JAX and
// PyTorch's CUDA backend) encrypts the counter (index, stream, run) under the 64-bit key, and the
// four 32-bit words it returns make one uniform or normal number. So the kernel is an ordinary
// parallel linalg.generic: no state, no sequential dependence, the same numbers on any thread
// count.
//
// The key and the run counter come from the runtime (docs/random.md): the kernel reads them from a
// two-word buffer, the memref.global @mie_random_key, which mie-bind-random-key turns into an entry
// argument that the runtime fills before every run. An op with a `seed` keys Philox with the seed
// instead of the session's key. An op in a loop body (with an `iteration` operand) keys it with
// mix64(key ^ mix64(iteration)), a key of its own per iteration.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

/// splitmix64's finalizer: spreads a seed's bits over the whole 64-bit key. Its constants serve
/// Bits::mix64 as well, the same function in the kernel.
constexpr uint64_t kMixIncrement = 0x9E3779B97F4A7C15ull, kMixMultiplier1 = 0xBF58476D1CE4E5B9ull,
                   kMixMultiplier2 = 0x94D049BB133111EBull;
uint64_t mix64(uint64_t x) {
  x += kMixIncrement;
  x = (x ^ (x >> 30)) * kMixMultiplier1;
  x = (x ^ (x >> 27)) * kMixMultiplier2;
  return x ^ (x >> 31);
}

/// The run's key buffer (memref<2xi64>: key, run counter): a get of the module's one
/// @mie_random_key global, created on first use.
Value randomKeyBuffer(ConversionPatternRewriter &rewriter, Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto type = MemRefType::get({2}, rewriter.getI64Type());
  if (!module.lookupSymbol<memref::GlobalOp>(kRandomKeyGlobal)) {
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    memref::GlobalOp::create(top, op->getLoc(), kRandomKeyGlobal, top.getStringAttr("private"),
                             type, Attribute(), /*constant=*/false, top.getI64IntegerAttr(16));
  }
  return memref::GetGlobalOp::create(rewriter, op->getLoc(), type, kRandomKeyGlobal);
}

/// Scalar integer arithmetic inside the kernel body.
struct Bits {
  OpBuilder &b;
  Location loc;
  Value i32(uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI32Type(), APInt(32, v)));
  }
  Value i64(uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI64Type(), APInt(64, v)));
  }
  Value low32(Value v) { return arith::TruncIOp::create(b, loc, b.getI32Type(), v); }
  Value high32(Value v) { return low32(arith::ShRUIOp::create(b, loc, v, i64(32))); }
  Value xori(Value a, Value c) { return arith::XOrIOp::create(b, loc, a, c); }
  Value addi(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
  Value muli(Value a, Value c) { return arith::MulIOp::create(b, loc, a, c); }
  Value shrui(Value a, uint64_t n) { return arith::ShRUIOp::create(b, loc, a, i64(n)); }
  /// mix64 (below) of an i64 value, in the kernel.
  Value mix64(Value x) {
    x = addi(x, i64(kMixIncrement));
    x = muli(xori(x, shrui(x, 30)), i64(kMixMultiplier1));
    x = muli(xori(x, shrui(x, 27)), i64(kMixMultiplier2));
    return xori(x, shrui(x, 31));
  }
};

/// Philox-4x32-10 of counter `c` under key (k0, k1): the four random words.
std::array<Value, 4> philox(Bits &x, std::array<Value, 4> c, Value k0, Value k1) {
  Value m0 = x.i32(0xD2511F53), m1 = x.i32(0xCD9E8D57);
  Value w0 = x.i32(0x9E3779B9), w1 = x.i32(0xBB67AE85);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 = x.addi(k0, w0);
      k1 = x.addi(k1, w1);
    }
    auto p0 = arith::MulUIExtendedOp::create(x.b, x.loc, m0, c[0]);
    auto p1 = arith::MulUIExtendedOp::create(x.b, x.loc, m1, c[2]);
    c = {x.xori(x.xori(p1.getHigh(), c[1]), k0), p1.getLow(),
         x.xori(x.xori(p0.getHigh(), c[3]), k1), p0.getLow()};
  }
  return c;
}

/// A uniform float in [0, 1) of type `t` from random words: the top 24 bits of one word (f32), or
/// 53 bits of two (f64). With `open`, in (0, 1] instead (a logarithm's argument).
Value unitFloat(Bits &x, FloatType t, Value hi, Value lo, bool open) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  bool wide = t.isF64();
  Value bits =
      wide ? arith::OrIOp::create(
                 b, loc,
                 arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), hi),
                                       x.i64(32)),
                 arith::ExtUIOp::create(b, loc, b.getI64Type(), lo))
           : hi;
  bits = arith::ShRUIOp::create(b, loc, bits, wide ? x.i64(11) : x.i32(8));
  if (open)
    bits = x.addi(bits, wide ? x.i64(1) : x.i32(1));
  Value f = arith::UIToFPOp::create(b, loc, t, bits);
  APFloat scale = wide ? APFloat(0x1p-53) : APFloat(0x1p-24f);
  return arith::MulFOp::create(b, loc, f, arith::ConstantFloatOp::create(b, loc, t, scale));
}

/// The kernel of one random op: `compute(words, computeType)` turns the element's four random
/// words into its value in `computeType` (f64 for f64 results, else f32), rounded to the result's
/// element type afterwards.
template <typename OpTy>
struct RandomToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value out = allocBuffer(rewriter, loc, type);
    Value keys = randomKeyBuffer(rewriter, op);
    SmallVector<Value> inputs = {keys};
    if (Value iteration = adaptor.getIteration())
      inputs.push_back(iteration);
    int64_t rank = type.getRank();
    SmallVector<int64_t> strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * type.getDimSize(d + 1);
    std::optional<uint64_t> seededKey;
    if (std::optional<APFloat> seed = op.getSeed()) {
      double value = seed->convertToDouble();
      uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      seededKey = mix64(bits);
    }
    uint32_t stream = uint32_t(op.getStream());
    Type elementType = type.getElementType();
    FloatType computeType = elementType.isF64() ? FloatType(Float64Type::get(op.getContext()))
                                                : FloatType(Float32Type::get(op.getContext()));
    KernelOp::create(
        rewriter, loc, OpTy::getOperationName().drop_front(3), inputs, out,
        [&](OpBuilder &kb, Location kl, ValueRange args) {
          MLIRContext *ctx = kb.getContext();
          // The key buffer is read twice, element 0 (key) and 1 (run counter), by every element;
          // so is the iteration in a loop body.
          AffineMap keyMap = AffineMap::get(rank, 0, getAffineConstantExpr(0, ctx));
          AffineMap runMap = AffineMap::get(rank, 0, getAffineConstantExpr(1, ctx));
          SmallVector<AffineMap> maps = {keyMap, runMap};
          SmallVector<Value> reads = {args[0], args[0]};
          bool inLoop = inputs.size() == 2;
          if (inLoop) {
            maps.push_back(AffineMap::get(rank, 0, {}, ctx));
            reads.push_back(args[1]);
          }
          maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
          SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
          linalg::GenericOp::create(
              kb, kl, reads, args.back(), maps, iters,
              [&](OpBuilder &gb, Location gl, ValueRange e) {
                Bits x{gb, gl};
                Value linear = arith::ConstantIndexOp::create(gb, gl, 0);
                for (int64_t d = 0; d < rank; ++d) {
                  Value i = linalg::IndexOp::create(gb, gl, d);
                  Value scaled = arith::MulIOp::create(
                      gb, gl, i, arith::ConstantIndexOp::create(gb, gl, strides[d]));
                  linear = arith::AddIOp::create(gb, gl, linear, scaled);
                }
                Value index = arith::IndexCastUIOp::create(gb, gl, gb.getI64Type(), linear);
                Value key = seededKey ? x.i64(*seededKey) : e[0];
                // A key per iteration of the enclosing loops: mix64 is a bijection, so two
                // iterations never share one.
                if (inLoop)
                  key = x.mix64(x.xori(key, x.mix64(e[2])));
                Value run = e[1];
                std::array<Value, 4> counter = {x.low32(index), x.high32(index),
                                                x.xori(x.i32(stream), x.high32(run)), x.low32(run)};
                std::array<Value, 4> words = philox(x, counter, x.low32(key), x.high32(key));
                Value value = compute(op, x, words, computeType);
                if (value.getType() != elementType)
                  value = arith::TruncFOp::create(gb, gl, elementType, value);
                linalg::YieldOp::create(gb, gl, value);
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }

  static Value compute(ms::RandomUniformOp op, Bits &x, std::array<Value, 4> w, FloatType t) {
    Value u = unitFloat(x, t, w[0], w[1], /*open=*/false);
    double low = op.getLow().convertToDouble(), high = op.getHigh().convertToDouble();
    return math::FmaOp::create(x.b, x.loc, u, scalarConstant(x.b, x.loc, t, high - low),
                               scalarConstant(x.b, x.loc, t, low));
  }

  /// Box-Muller: sqrt(-2 ln u1) cos(2 pi u2) with u1 in (0, 1], u2 in [0, 1).
  static Value compute(ms::RandomNormalOp op, Bits &x, std::array<Value, 4> w, FloatType t) {
    OpBuilder &b = x.b;
    Location loc = x.loc;
    auto constant = [&](double v) { return scalarConstant(b, loc, t, v); };
    Value u1 = unitFloat(x, t, w[0], w[1], /*open=*/true);
    Value u2 = unitFloat(x, t, w[2], w[3], /*open=*/false);
    Value radius = math::SqrtOp::create(
        b, loc, arith::MulFOp::create(b, loc, constant(-2.0), math::LogOp::create(b, loc, u1)));
    Value angle = arith::MulFOp::create(b, loc, u2, constant(2.0 * llvm::numbers::pi));
    Value z = arith::MulFOp::create(b, loc, radius, math::CosOp::create(b, loc, angle));
    return math::FmaOp::create(b, loc, z, constant(op.getScale().convertToDouble()),
                               constant(op.getMean().convertToDouble()));
  }
};

} // namespace

void mstomie::populateMsToMieRandomPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RandomToKernel<ms::RandomUniformOp>, RandomToKernel<ms::RandomNormalOp>>(
      converter, patterns.getContext());
}
