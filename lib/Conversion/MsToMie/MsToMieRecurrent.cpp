//===- MsToMieRecurrent.cpp - ms.rnn, ms.gru, ms.lstm -> mie --------------===//
//
// A recurrence becomes one mie.kernel holding the loop over time (the input projection was one
// GEMM before it, see OnnxRecurrentOps.cpp). Per direction (code generated for each, so the
// direction and activations are constants) and step: the products of every batch row's previous
// state with the recurrence weights as dot products along R's contiguous rows, four batch rows per
// pass over a row of R (reassociable sums, which LLVM vectorizes); then, for each batch row still
// within its length, the gate math per hidden unit. The state lives in f32 scratch buffers for
// every element type, so narrow floats round only what is stored in the outputs.
//
// The steps are sequential, so the kernel stays on one thread: all loops are scf.for, which
// mie-parallelize-loops leaves alone. The recurrent product is generated code rather than a
// mie.gemm per step because mie has no loops around library kernels (the memory planner sees one
// straight-line schedule); see docs/recurrent.md.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mie;
using namespace mlir::mie::mstomie;

namespace {

enum class Cell { Rnn, Gru, Lstm };

/// The parts of a recurrence the kernel builder needs, read from any of the three ops.
struct Recurrence {
  Cell cell;
  int64_t steps, batch, dirs, hidden, gates;
  ms::RnnDirection direction;
  ArrayAttr activations;
  ArrayRef<double> alpha, beta;
  std::optional<double> clip;
  bool inputForget = false, linearBeforeReset = false;
  // Operand indices among the kernel inputs (-1: absent).
  int recurrenceBias = -1, initialH = -1, initialC = -1, peepholes = -1, lens = -1;
};

/// f32 arithmetic in one block.
struct F32 {
  OpBuilder &b;
  Location loc;

  Value cst(double v) { return scalarConstant(b, loc, b.getF32Type(), v); }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaximumFOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinimumFOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value select(Value c, Value x, Value y) { return arith::SelectOp::create(b, loc, c, x, y); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value tanh(Value x) { return math::TanhOp::create(b, loc, x); }
  Value sigmoid(Value x) {
    return div(cst(1.0), add(cst(1.0), exp(arith::NegFOp::create(b, loc, x))));
  }
  Value load(Value buf, ValueRange ivs) {
    Value v = memref::LoadOp::create(b, loc, buf, ivs);
    return convertFloat(b, loc, v, b.getF32Type());
  }
  void store(Value v, Value buf, ValueRange ivs) {
    Type et = cast<MemRefType>(buf.getType()).getElementType();
    memref::StoreOp::create(b, loc, convertFloat(b, loc, v, et), buf, ivs);
  }

  /// ONNX's recurrent activation `name` with its alpha and beta.
  Value activation(StringRef name, double alpha, double beta, Value x) {
    Value zero = cst(0.0);
    if (name == "relu")
      return max(x, zero);
    if (name == "tanh")
      return tanh(x);
    if (name == "sigmoid")
      return sigmoid(x);
    if (name == "affine")
      return add(mul(cst(alpha), x), cst(beta));
    if (name == "leakyrelu")
      return select(lt(x, zero), mul(cst(alpha), x), x);
    if (name == "thresholdedrelu")
      return select(lt(cst(alpha), x), x, zero);
    if (name == "scaledtanh")
      return mul(cst(alpha), tanh(mul(cst(beta), x)));
    if (name == "hardsigmoid")
      return max(zero, min(cst(1.0), add(mul(cst(alpha), x), cst(beta))));
    if (name == "elu")
      return select(lt(x, zero), mul(cst(alpha), sub(exp(x), cst(1.0))), x);
    if (name == "softsign")
      return div(x, add(cst(1.0), math::AbsFOp::create(b, loc, x)));
    assert(name == "softplus" && "the verifier admits no other activation");
    // log(1 + e^x) is x to f32 precision past 20, where e^x would overflow sooner or later.
    Value soft = math::Log1pOp::create(b, loc, exp(min(x, cst(20.0))));
    return select(lt(cst(20.0), x), x, soft);
  }
};

/// `body(iv)` for iv in [0, n), sequentially.
void forRange(OpBuilder &b, Location loc, int64_t n, function_ref<void(OpBuilder &, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(b, loc, zero, arith::ConstantIndexOp::create(b, loc, n), one, ValueRange{},
                     [&](OpBuilder &fb, Location fl, Value iv, ValueRange) {
                       body(fb, iv);
                       scf::YieldOp::create(fb, fl);
                     });
}

/// Builds the kernel body. `args`: the kernel's inputs (gates, recurrence, then the optional
/// operands at the indices `r` names), then y, y_h, [y_c], then the f32 scratch: h, [c], the
/// products of one step [B, G·H], and for a GRU without linear_before_reset r ⊙ H [B, H].
void buildRecurrence(OpBuilder &b, Location loc, const Recurrence &r, ValueRange args,
                     unsigned numInputs) {
  bool lstm = r.cell == Cell::Lstm;
  Value gates = args[0], weights = args[1];
  auto input = [&](int i) { return i < 0 ? Value() : args[i]; };
  Value rbias = input(r.recurrenceBias), h0 = input(r.initialH), c0 = input(r.initialC),
        peep = input(r.peepholes), lens = input(r.lens);
  ValueRange outs = args.drop_front(numInputs);
  Value y = outs[0], yh = outs[1], yc = lstm ? outs[2] : Value();
  ValueRange scratch = outs.drop_front(lstm ? 3 : 2);
  Value hs = scratch[0], cs = lstm ? scratch[1] : Value();
  Value prod = scratch[lstm ? 2 : 1];
  bool resetFirst = r.cell == Cell::Gru && !r.linearBeforeReset;
  Value rh = resetFirst ? scratch[2] : Value();
  int64_t H = r.hidden;
  F32 f{b, loc};

  // Initial state and zeroed y (rows past a sequence's length stay zero).
  linalg::FillOp::create(
      b, loc, scalarConstant(b, loc, cast<MemRefType>(y.getType()).getElementType(), 0.0), y);
  forRange(b, loc, r.dirs, [&](OpBuilder &b1, Value d) {
    forRange(b1, loc, r.batch, [&](OpBuilder &b2, Value bi) {
      forRange(b2, loc, H, [&](OpBuilder &b3, Value u) {
        F32 g{b3, loc};
        g.store(h0 ? g.load(h0, {d, bi, u}) : g.cst(0.0), hs, {d, bi, u});
        if (lstm)
          g.store(c0 ? g.load(c0, {d, bi, u}) : g.cst(0.0), cs, {d, bi, u});
      });
    });
  });

  for (int64_t dir = 0; dir < r.dirs; ++dir) {
    bool reverse = r.direction == ms::RnnDirection::reverse || dir == 1;
    int64_t perDir = r.activations.size() / r.dirs;
    auto act = [&](F32 &g, int64_t which, Value x) {
      int64_t i = dir * perDir + which;
      return g.activation(cast<StringAttr>(r.activations[i]).getValue(), r.alpha[i], r.beta[i], x);
    };
    auto clip = [&](F32 &g, Value x) {
      return r.clip ? g.max(g.cst(-*r.clip), g.min(x, g.cst(*r.clip))) : x;
    };
    Value d = f.idx(dir);
    forRange(b, loc, r.steps, [&](OpBuilder &sb, Value s) {
      // prod[b, first + j] = sum_k state[b, k] R[d, first + j, k] for every batch row and j in
      // [0, count): each row of R is read once per step and reused for all batch rows from L1,
      // four rows at a time in one loop over k (four independent sums, one load of R).
      // Rows past their length get products too (their state is unchanged, the result unused).
      auto products = [&](OpBuilder &pb, Value state, bool perDirection, int64_t first,
                          int64_t count) {
        // Dot products of `width` consecutive batch rows from `b0` with row `row` of R in one
        // loop over k: each element of R is loaded once for all of them.
        auto dots = [&](OpBuilder &rb, Value row, Value b0, int64_t width) {
          F32 h{rb, loc};
          SmallVector<Value> rows, zeros;
          for (int64_t w = 0; w < width; ++w) {
            rows.push_back(arith::AddIOp::create(rb, loc, b0, h.idx(w)));
            zeros.push_back(h.cst(0.0));
          }
          auto loop = scf::ForOp::create(
              rb, loc, h.idx(0), h.idx(H), h.idx(1), zeros,
              [&](OpBuilder &kb, Location kl, Value k, ValueRange acc) {
                F32 q{kb, kl};
                Value rk = q.load(weights, {d, row, k});
                SmallVector<Value> next;
                for (int64_t w = 0; w < width; ++w) {
                  Value sv =
                      perDirection ? q.load(state, {d, rows[w], k}) : q.load(state, {rows[w], k});
                  next.push_back(arith::AddFOp::create(kb, kl, acc[w], q.mul(sv, rk), kReassoc));
                }
                scf::YieldOp::create(kb, kl, next);
              });
          for (int64_t w = 0; w < width; ++w)
            h.store(loop.getResult(w), prod, {rows[w], row});
        };
        constexpr int64_t kRowBlock = 4;
        int64_t blocks = r.batch / kRowBlock, rest = r.batch % kRowBlock;
        forRange(pb, loc, count, [&](OpBuilder &jb, Value j) {
          Value row = arith::AddIOp::create(jb, loc, j, F32{jb, loc}.idx(first));
          if (blocks > 0)
            forRange(jb, loc, blocks, [&](OpBuilder &rb, Value blk) {
              dots(rb, row, arith::MulIOp::create(rb, loc, blk, F32{rb, loc}.idx(kRowBlock)),
                   kRowBlock);
            });
          if (rest > 0)
            dots(jb, row, F32{jb, loc}.idx(blocks * kRowBlock), rest);
        });
      };
      // `body(t, bi)` for every batch row still within its length at this step, t its time
      // index: s forward, len - 1 - s backward.
      auto eachActiveRow = [&](OpBuilder &ob, function_ref<void(OpBuilder &, Value, Value)> body) {
        forRange(ob, loc, r.batch, [&](OpBuilder &bb, Value bi) {
          // The row's length, clamped into [0, T]; steps past it leave the state alone.
          Value len = arith::ConstantIndexOp::create(bb, loc, r.steps);
          if (lens) {
            Value raw = memref::LoadOp::create(bb, loc, lens, bi);
            Value l = arith::IndexCastOp::create(bb, loc, bb.getIndexType(), raw);
            l = arith::MaxSIOp::create(bb, loc, l, arith::ConstantIndexOp::create(bb, loc, 0));
            len = arith::MinSIOp::create(bb, loc, l, len);
          }
          auto step = [&](OpBuilder &ib) {
            Value t = s;
            if (reverse)
              t = arith::SubIOp::create(
                  ib, loc, arith::SubIOp::create(ib, loc, len, F32{ib, loc}.idx(1)), s);
            body(ib, t, bi);
          };
          if (!lens) {
            step(bb);
            return;
          }
          Value active = arith::CmpIOp::create(bb, loc, arith::CmpIPredicate::slt, s, len);
          scf::IfOp::create(bb, loc, active, [&](OpBuilder &ib, Location il) {
            step(ib);
            scf::YieldOp::create(ib, il);
          });
        });
      };
      auto gate = [&](F32 &q, Value t, Value bi, Value u, int64_t which) {
        Value col = arith::AddIOp::create(q.b, loc, u, q.idx(which * H));
        return q.add(q.load(gates, {t, bi, d, col}), q.load(prod, {bi, col}));
      };
      if (resetFirst) {
        // z and r, then r ⊙ H, then its product with Rh.
        products(sb, hs, true, 0, 2 * H);
        eachActiveRow(sb, [&](OpBuilder &ib, Value t, Value bi) {
          forRange(ib, loc, H, [&](OpBuilder &ub, Value u) {
            F32 q{ub, loc};
            Value rg = act(q, 0, clip(q, gate(q, t, bi, u, 1)));
            q.store(q.mul(rg, q.load(hs, {d, bi, u})), rh, {bi, u});
          });
        });
        products(sb, rh, false, 2 * H, H);
      } else {
        products(sb, hs, true, 0, r.gates * H);
      }
      eachActiveRow(sb, [&](OpBuilder &ib, Value t, Value bi) {
        forRange(ib, loc, H, [&](OpBuilder &ub, Value u) {
          F32 q{ub, loc};
          Value hPrev = q.load(hs, {d, bi, u});
          Value hNew;
          switch (r.cell) {
          case Cell::Rnn:
            hNew = act(q, 0, clip(q, gate(q, t, bi, u, 0)));
            break;
          case Cell::Gru: {
            Value z = act(q, 0, clip(q, gate(q, t, bi, u, 0)));
            Value pre;
            if (resetFirst) {
              pre = gate(q, t, bi, u, 2);
            } else {
              Value rg = act(q, 0, clip(q, gate(q, t, bi, u, 1)));
              Value col = arith::AddIOp::create(ub, loc, u, q.idx(2 * H));
              Value rec = q.load(prod, {bi, col});
              if (rbias)
                rec = q.add(rec, q.load(rbias, {d, u}));
              pre = q.add(q.load(gates, {t, bi, d, col}), q.mul(rg, rec));
            }
            Value hc = act(q, 1, clip(q, pre));
            // (1 - z) h + z H = h + z (H - h)
            hNew = q.add(hc, q.mul(z, q.sub(hPrev, hc)));
            break;
          }
          case Cell::Lstm: {
            Value cPrev = q.load(cs, {d, bi, u});
            auto peephole = [&](int64_t which, Value c) -> Value {
              if (!peep)
                return q.cst(0.0);
              Value col = arith::AddIOp::create(ub, loc, u, q.idx(which * H));
              return q.mul(q.load(peep, {d, col}), c);
            };
            // Gates i, o, f, c; peepholes i, o, f.
            Value ig = act(q, 0, clip(q, q.add(gate(q, t, bi, u, 0), peephole(0, cPrev))));
            Value fg = r.inputForget
                           ? q.sub(q.cst(1.0), ig)
                           : act(q, 0, clip(q, q.add(gate(q, t, bi, u, 2), peephole(2, cPrev))));
            Value cc = act(q, 1, clip(q, gate(q, t, bi, u, 3)));
            Value cNew = q.add(q.mul(fg, cPrev), q.mul(ig, cc));
            Value og = act(q, 0, clip(q, q.add(gate(q, t, bi, u, 1), peephole(1, cNew))));
            hNew = q.mul(og, act(q, 2, cNew));
            q.store(cNew, cs, {d, bi, u});
            break;
          }
          }
          q.store(hNew, hs, {d, bi, u});
          q.store(hNew, y, {t, d, bi, u});
        });
      });
    });
  }

  // The last states.
  forRange(b, loc, r.dirs, [&](OpBuilder &b1, Value dv) {
    forRange(b1, loc, r.batch, [&](OpBuilder &b2, Value bi) {
      forRange(b2, loc, H, [&](OpBuilder &b3, Value u) {
        F32 g{b3, loc};
        g.store(g.load(hs, {dv, bi, u}), yh, {dv, bi, u});
        if (lstm)
          g.store(g.load(cs, {dv, bi, u}), yc, {dv, bi, u});
      });
    });
  });
}

template <typename OpTy>
struct RecurrenceToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto gatesType = cast<RankedTensorType>(op.getGates().getType());
    auto rType = cast<RankedTensorType>(op.getRecurrence().getType());
    Recurrence r;
    r.steps = gatesType.getDimSize(0);
    r.batch = gatesType.getDimSize(1);
    r.dirs = gatesType.getDimSize(2);
    r.hidden = rType.getDimSize(2);
    r.gates = OpTy::getNumGates();
    r.direction = op.getDirection();
    r.activations = op.getActivations();
    r.alpha = op.getActivationAlpha();
    r.beta = op.getActivationBeta();
    if (auto clip = op.getClipAttr())
      r.clip = clip.getValueAsDouble();

    SmallVector<Value> ins = {adaptor.getGates(), adaptor.getRecurrence()};
    auto addInput = [&](Value v) -> int {
      if (!v)
        return -1;
      ins.push_back(v);
      return ins.size() - 1;
    };
    if constexpr (std::is_same_v<OpTy, ms::RnnOp>) {
      r.cell = Cell::Rnn;
    } else if constexpr (std::is_same_v<OpTy, ms::GruOp>) {
      r.cell = Cell::Gru;
      r.linearBeforeReset = op.getLinearBeforeReset();
      r.recurrenceBias = addInput(adaptor.getRecurrenceBias());
    } else {
      r.cell = Cell::Lstm;
      r.inputForget = op.getInputForget();
      r.initialC = addInput(adaptor.getInitialC());
      r.peepholes = addInput(adaptor.getPeepholes());
    }
    r.initialH = addInput(adaptor.getInitialH());
    r.lens = addInput(adaptor.getSequenceLens());

    SmallVector<Value> outs, results;
    for (Value result : op->getResults()) {
      outs.push_back(allocBuffer(rewriter, loc, result.getType()));
      results.push_back(outs.back());
    }
    // No batch rows or no hidden units: every result is empty, there is nothing to compute.
    if (r.batch == 0 || r.hidden == 0) {
      rewriter.replaceOp(op, results);
      return success();
    }
    Type f32 = Float32Type::get(ctx);
    auto scratch = [&](ArrayRef<int64_t> shape) {
      outs.push_back(AllocOp::create(rewriter, loc, MemRefType::get(shape, f32)));
    };
    scratch({r.dirs, r.batch, r.hidden});
    if (r.cell == Cell::Lstm)
      scratch({r.dirs, r.batch, r.hidden});
    scratch({r.batch, r.gates * r.hidden});
    if (r.cell == Cell::Gru && !r.linearBeforeReset)
      scratch({r.batch, r.hidden});

    unsigned numInputs = ins.size();
    KernelOp::create(rewriter, loc, op->getName().stripDialect(), ins, outs,
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       buildRecurrence(b, l, r, args, numInputs);
                     });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mstomie::populateMsToMieRecurrentPatterns(TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<RecurrenceToKernel<ms::RnnOp>, RecurrenceToKernel<ms::GruOp>,
               RecurrenceToKernel<ms::LstmOp>>(converter, patterns.getContext());
}
