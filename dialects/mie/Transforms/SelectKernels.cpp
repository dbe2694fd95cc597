//===- SelectKernels.cpp - the mie-select-kernels pass --------------------===//
//
// The cost model that picks a microkernel tile and cache blocks per op. It is deliberately simple
// and explicit: a tile's measured full-tile efficiency times the share of its lanes a shape fills,
// K blocks sized so the panel reused by the inner loop stays in L1, thread blocks sized for L2 and
// split until every thread has several work items.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Transforms/WidenOperands.h"
#include "dialects/mie/Utils/SymbolicDims.h"
#include "mie/Target/UKernelRegistry.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include <cmath>
#include <optional>

namespace mlir::mie {
#define GEN_PASS_DEF_MIESELECTKERNELSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Cache budgets in bytes. Conservative for the x86-64 and AArch64 cores we target (L1D 32-48 KiB,
/// L2 512 KiB-2 MiB per core): the panel an inner loop re-reads gets L1_BUDGET, a thread's blocks
/// L2_BUDGET each.
constexpr int64_t kL1Budget = 16 * 1024;
constexpr int64_t kL2Budget = 256 * 1024;
constexpr int64_t kElementBytes = 4;

/// The GEMM an op computes: M rows (broadcast side), N columns (vector side), K, `batch`
/// independent copies (images of a convolution).
struct GemmShape {
  int64_t m, n, k, batch;
};

double utilization(int64_t size, int64_t tile) {
  return double(size) / double(llvm::divideCeil(size, tile) * tile);
}

/// Largest activation operand packed once for all work items (an arena buffer, reused across
/// kernels by memory planning).
constexpr int64_t kSharedPanelsBudget = 4 * 1024 * 1024;

/// What a one-vector-wide tile keeps of its efficiency when its LHS panels stream from L2 (the
/// filters of an NCHW convolution, larger than the L1 budget, re-read for every pixel panel): it
/// broadcasts one LHS float per FMA (24x16: 24 a K step), twice the rate of the two-vector tiles,
/// and its K loop then waits on L2. Measured on an Intel Xeon (Sapphire Rapids class): a chain of
/// 96 -> 576 -> 96 1x1 convolutions at 14x14 ran its NCHW expand layers 1.1x faster on 12x32 than
/// on 24x16; with the factor, mobilenet_v2's 14x14 expand layers (384 and 576 filters, K = 64 and
/// 96) leave the NCHW form's 24x16 tiles for pixels as rows (8x32) and run in 0.91x (1 thread) and
/// 0.78-0.83x (2 threads) their time, mobilenet_v3_small's 28x28 and 14x14 ones in 0.94x. Filters
/// within L1 keep the table's efficiency.
constexpr double kStreamedLhsOneVectorFactor = 0.9;

/// The tile maximizing efficiency x the share of its lanes an M x N product fills (ties keep the
/// list's order), with that score; none when the ISA has no tiles. A copy, so that no caller keeps
/// a pointer into a temporary list (getF32GemmTiles builds one per call). `lhsBytes`: the bytes
/// of the LHS that every column panel re-reads when they are constant filters (0: packed per block).
std::optional<UKernelTile> bestTile(ArrayRef<UKernelTile> tiles, int64_t m, int64_t n,
                                    double *bestScore = nullptr, int64_t lhsBytes = 0) {
  std::optional<UKernelTile> best;
  double score = -1;
  for (const UKernelTile &t : tiles) {
    double s = t.efficiency * utilization(m, t.mr) * utilization(n, t.nr);
    if (lhsBytes > kL1Budget && t.nr == t.vectorLanes())
      s *= kStreamedLhsOneVectorFactor;
    if (s > score + 1e-9) {
      best = t;
      score = s;
    }
  }
  if (bestScore)
    *bestScore = best ? score : 0;
  return best;
}

/// K blocks of at most `maxKc` (rounded to 8), all of about the same length: K split evenly.
int64_t balancedKc(int64_t k, int64_t maxKc) {
  int64_t blocks = (int64_t)llvm::divideCeil(k, maxKc);
  return std::min<int64_t>(k, llvm::alignTo(llvm::divideCeil(k, blocks), 8));
}

/// A row block's packed K block (mc x kc) gets half of a 1 MiB L2: the weight panel streaming
/// past it takes the rest. Row-GEMM K blocks are at most kRowsMaxKc long.
constexpr int64_t kRowBlockBudget = 512 * 1024, kRowsMaxKc = 1024;

/// Packed weights every thread may read whole (they stay in its L2 next to its rows).
constexpr int64_t kRowSplitWeightBudget = 1024 * 1024;

/// K blocks of a GEMM of two activations: both operands' blocks are packed per item, so shorter.
constexpr int64_t kActivationsMaxKc = 512;

/// Tiling of a GEMM whose rows (M, the broadcast side) are the activation and whose columns are a
/// constant weight packed in column panels. The weights are the large operand and every row block
/// streams all of them once, so a row block takes every row its L2 budget allows, and the items
/// split the columns before the rows. K blocks are long (whole K up to kRowsMaxKc): each one
/// re-reads the C tiles, and the weight panel streams from L2 about as fast as from L1 (measured
/// on BERT's 128 x 768 x 3072 and 128 x 3072 x 768 products: 20-30% faster than L1-sized panels
/// and 32-row blocks).
/// `kc` and `elementBytes`: the K block and the size of a packed element (f32 by default; the
/// AMX tiling packs bf16 and takes all of K).
TilingAttr chooseRowsTiling(MLIRContext *ctx, StringRef isa, GemmShape s, int64_t minItems,
                            int64_t mr, int64_t nr, int64_t kc, int64_t elementBytes) {
  int64_t mPanels = llvm::divideCeil(s.m, mr), nPanels = llvm::divideCeil(s.n, nr);
  // Row blocks of equal size: each streams all the weights, so a small tail block (256 rows of
  // 6-row tiles in 252-row blocks left one of 4 rows) pays a whole weight pass for little work.
  // A block may exceed the budget by an eighth to stay whole.
  int64_t mcMax = std::max<int64_t>(1, kRowBlockBudget * 9 / 8 / (elementBytes * kc * mr));
  int64_t mcPanels = llvm::divideCeil(mPanels, llvm::divideCeil(mPanels, mcMax));
  int64_t ncPanels = nPanels;
  auto items = [&] {
    return s.batch * (int64_t)llvm::divideCeil(mPanels, mcPanels) *
           (int64_t)llvm::divideCeil(nPanels, ncPanels);
  };
  while (items() < minItems && (ncPanels >= 2 || mcPanels >= 2)) {
    if (ncPanels >= 2)
      ncPanels = llvm::divideCeil(ncPanels, 2);
    else
      mcPanels = llvm::divideCeil(mcPanels, 2);
  }
  // Rows packed once for all items when they fit the shared budget, else per item.
  bool shared = s.batch * elementBytes * kc * mPanels * mr <= kSharedPanelsBudget;
  return TilingAttr::get(ctx, isa, mr, nr, kc, mcPanels * mr, ncPanels * nr, shared);
}

/// The AMX tiling of a bf16 product whose columns are constant weights: the row GEMM's blocking
/// with 32 x 32 tiles, bf16 panels and all of K in one block (the tile registers hold the sums
/// over the whole reduction, so a bf16 output is rounded once).
///
/// Products of small weights over many rows (a channels-last 1x1 convolution: rows are pixels)
/// split the rows only: each item is a block of rows times every column, packing its own rows.
/// Consecutive layers then split their pixels alike, so each thread reads the rows it wrote in
/// the layer before from its own cache, where a column split has every thread read all rows,
/// half of them from another core's cache (measured on a 2-core Xeon: a chain of ten 14x14 1x1
/// layers 1.7x faster on two threads split by rows, 0.8x split by columns). Each thread then
/// reads all the weights, which is why they must be small.
TilingAttr chooseAmxTiling(MLIRContext *ctx, GemmShape s, int64_t minItems) {
  const int64_t t = MIE_UK_BF16_AMX_TILE;
  const int64_t kp = llvm::alignTo(s.k, t);
  const int64_t mPanels = llvm::divideCeil(s.m, t), nPanels = llvm::divideCeil(s.n, t);
  if (s.batch == 1 && mPanels >= 2 && 2 * kp * nPanels * t <= kRowSplitWeightBudget) {
    // Row blocks of whole tiles, as many as minItems asks for (at least one tile each).
    int64_t mcPanels = std::max<int64_t>(1, mPanels / minItems);
    return TilingAttr::get(ctx, "amx", t, t, kp, mcPanels * t, nPanels * t, /*shared=*/false);
  }
  return chooseRowsTiling(ctx, "amx", s, minItems, t, t, kp, /*elementBytes=*/2);
}


/// Tiling of a GEMM of two activations (attention's products when attention is not recognized,
/// a matmul by a computed matrix): each work item packs its row block and column block of every
/// K block, both sized for L2 (the column panel the inner loop re-reads stays in L1). Blocks are
/// split until there are enough items, the larger first: the other block is then packed once more
/// per item, so that costs the least.
TilingAttr chooseActivationsTiling(MLIRContext *ctx, StringRef isa, GemmShape s,
                                   int64_t minItems) {
  std::optional<UKernelTile> best = bestTile(getF32GemmTiles(isa), s.m, s.n);
  if (!best)
    return {};
  int64_t mr = best->mr, nr = best->nr;
  int64_t kc = balancedKc(s.k, kActivationsMaxKc);
  int64_t mPanels = llvm::divideCeil(s.m, mr), nPanels = llvm::divideCeil(s.n, nr);
  int64_t mcPanels = std::clamp<int64_t>(kL2Budget / (kElementBytes * kc * mr), 1, mPanels);
  int64_t ncPanels = std::clamp<int64_t>(kL2Budget / (kElementBytes * kc * nr), 1, nPanels);
  auto items = [&] {
    return s.batch * (int64_t)llvm::divideCeil(mPanels, mcPanels) *
           (int64_t)llvm::divideCeil(nPanels, ncPanels);
  };
  while (items() < minItems && (mcPanels >= 2 || ncPanels >= 2)) {
    if (mcPanels >= 2 && (mcPanels * mr >= ncPanels * nr || ncPanels < 2))
      mcPanels = llvm::divideCeil(mcPanels, 2);
    else
      ncPanels = llvm::divideCeil(ncPanels, 2);
  }
  return TilingAttr::get(ctx, isa, mr, nr, kc, mcPanels * mr, ncPanels * nr, false);
}

/// `activationIsN`: the operand packed at run time is the N (vector) side, as for an NCHW
/// convolution's pixels; else the M (broadcast) side, as for a GEMM's rows.
/// `f16`: the "neon_f16" tiling of an f16 product on the f16 tiles (the NEON f32 tiles' shapes and
/// cost model, 2-byte panels, all of K in one block so the f16 output is rounded once).
TilingAttr chooseTiling(MLIRContext *ctx, StringRef isa, GemmShape s, int64_t minItems,
                        bool activationIsN, bool f16 = false) {
  const int64_t elementBytes = f16 ? 2 : kElementBytes;
  const StringRef family = f16 ? StringRef("neon_f16") : isa;
  SmallVector<UKernelTile> tiles = getF32GemmTiles(isa);
  std::optional<UKernelTile> best =
      bestTile(tiles, s.m, s.n, nullptr, activationIsN ? elementBytes * s.m * s.k : 0);
  if (!best)
    return {};
  int64_t mr = best->mr, nr = best->nr;
  if (!activationIsN)
    return chooseRowsTiling(ctx, family, s, minItems, mr, nr,
                            f16 ? s.k : balancedKc(s.k, kRowsMaxKc), elementBytes);
  auto blocks = [](int64_t panels, int64_t per) { return (int64_t)llvm::divideCeil(panels, per); };
  // K blocks: the vector-side panel (kc x nr) is re-read by every row tile of the inner loop.
  int64_t kcMax = std::max<int64_t>(64, kL1Budget / (elementBytes * nr));
  int64_t kc = f16 ? s.k : balancedKc(s.k, kcMax);
  // Thread blocks: each side's block of kc-long panels fits the L2 budget.
  int64_t mPanels = llvm::divideCeil(s.m, mr), nPanels = llvm::divideCeil(s.n, nr);
  int64_t mcPanels = std::clamp<int64_t>(kL2Budget / (elementBytes * kc * mr), 1, mPanels);
  int64_t ncPanels = std::clamp<int64_t>(kL2Budget / (elementBytes * kc * nr), 1, nPanels);
  int64_t activationBytes = s.batch * elementBytes * s.k * nPanels * nr;

  // Per-item packing: an item is (image, pixel block) and runs every filter on its panels, so
  // nothing is packed twice. Taken when there are enough pixel blocks, or no room to share.
  auto items = [&] { return s.batch * blocks(nPanels, ncPanels); };
  while (items() < minItems && ncPanels >= 2)
    ncPanels = llvm::divideCeil(ncPanels, 2);
  if (items() >= minItems || activationBytes > kSharedPanelsBudget)
    return TilingAttr::get(ctx, family, mr, nr, kc, mcPanels * mr, ncPanels * nr, false);
  ncPanels = std::clamp<int64_t>(kL2Budget / (elementBytes * kc * nr), 1, nPanels);
  // Shared panels: packed once; items are (image, filter block, pixel block) and only compute, so
  // split the larger block until there is work for every thread (the pool balances dynamically).
  // Larger in elements, not panels: an item streams both blocks (its traffic is K x (mc + nc)
  // per mc x nc outputs), so square blocks move the least; comparing panel counts (6-row filter
  // panels against 16-wide pixel panels) cut the filters to two tiles per item, and every pixel
  // panel then came from L3 for 12 filters (resnet50's stride-2 3x3 layers at 40-45 GFLOP/s).
  auto sharedItems = [&] {
    return s.batch * blocks(mPanels, mcPanels) * blocks(nPanels, ncPanels);
  };
  while (sharedItems() < minItems) {
    if (mcPanels >= 2 && (mcPanels * mr >= ncPanels * nr || ncPanels < 2))
      mcPanels = llvm::divideCeil(mcPanels, 2);
    else if (ncPanels >= 2)
      ncPanels = llvm::divideCeil(ncPanels, 2);
    else
      break;
  }
  return TilingAttr::get(ctx, family, mr, nr, kc, mcPanels * mr, ncPanels * nr, true);
}

/// Dim `d` of `buffer` for a choice over the symbols' ranges (code for symbolic dims): its static
/// size, or the most (`most`) or the fewest of a run-time extent, at least 1; none where the dim
/// has no bounds.
std::optional<int64_t> boundOf(Value buffer, int64_t d, bool most) {
  std::optional<std::pair<int64_t, int64_t>> range = dimBounds(buffer, d);
  if (!range)
    return std::nullopt;
  return std::max<int64_t>(1, most ? range->second : range->first);
}

/// A row product's tiling `t` for rows known at run time only (code for symbolic dims), chosen
/// for the most rows in the ranges (`s.m`). The row panels are packed once per run and shared by
/// the items (an arena buffer sized for the run's rows, as large as the product's left operand):
/// packed per item, every column block would pack its rows again (BERT's 128 x 3072 x 768 product
/// ran 3x slower so). The columns are then split, at no packing cost, until a run of the fewest
/// rows (`fewestRows`) still gives every thread work.
TilingAttr runTimeRowsTiling(MLIRContext *ctx, TilingAttr t, GemmShape s, int64_t fewestRows,
                             int64_t minItems) {
  const int64_t mr = t.getMr(), nr = t.getNr();
  const int64_t rowBlocks = llvm::divideCeil(llvm::divideCeil(std::max<int64_t>(fewestRows, 1), mr),
                                             std::max<int64_t>(t.getMc() / mr, 1));
  const int64_t nPanels = llvm::divideCeil(s.n, nr);
  int64_t ncPanels = std::max<int64_t>(t.getNc() / nr, 1);
  while (s.batch * rowBlocks * (int64_t)llvm::divideCeil(nPanels, ncPanels) < minItems &&
         ncPanels >= 2)
    ncPanels = llvm::divideCeil(ncPanels, 2);
  return TilingAttr::get(ctx, t.getIsa(), mr, nr, t.getKc(), t.getMc(), ncPanels * nr,
                         /*shared_panels=*/true, t.getFewRowsMr());
}

/// The f32 tiling of a product by constant weights over rows known at run time only, `s.m` the
/// most of them: the register tiles suit the rows of every run, the blocks are sized for the
/// largest runs (chooseRowsTiling), then runTimeRowsTiling.
///
/// The kernel may carry two tiles of one nr (they read the same packed weights) and run, per run,
/// the one that pads the run's rows less (`few_rows_mr`); a static package
/// picks its tile for its exact rows, and a single tile chosen for a typical run lost up to 1.24x
/// to it where the rows fill that tile badly (bert_base 1x7 on the 8-row tile: 39 ms against 29
/// ms on the 7-row tile). Each candidate (a tile alone, or a tile with a second of the same nr and
/// no more FMAs per load, taken only where it pads less) is scored over row counts spread evenly
/// in log scale from the fewest to the most rows, each run on the tile of its pair that pads it
/// less. The score is the rows' and columns' utilization times FMAs per load
/// (UKernelTile::fmasPerLoad): the runs of few rows stream the weights, which the table's
/// efficiency does not model.
///
/// Weights that stay in cache (at most kRowSplitWeightBudget packed) are not streamed: one tile,
/// that of a typical run (the power of two nearest the geometric mean of the fewest and the most
/// rows), serves them, and their kernels keep the constant tile of a static package's (a second
/// tile costs each call a run-time choice: bert_tiny's 1-token run lost 1.3x so).
TilingAttr chooseRunTimeRowsTiling(MLIRContext *ctx, StringRef isa, GemmShape s, int64_t fewestRows,
                                   int64_t minItems) {
  SmallVector<UKernelTile> tiles = getF32GemmTiles(isa);
  if (tiles.empty())
    return {};
  if (s.n * s.k * kElementBytes <= kRowSplitWeightBudget) {
    const double mean = std::sqrt(double(std::max<int64_t>(fewestRows, 1)) * double(s.m));
    const int64_t typical = int64_t(1) << std::max<int64_t>(0, std::llround(std::log2(mean)));
    std::optional<UKernelTile> best = bestTile(tiles, typical, s.n);
    return chooseRowsTiling(ctx, isa, s, minItems, best->mr, best->nr, balancedKc(s.k, kRowsMaxKc),
                            kElementBytes);
  }
  constexpr int kSamples = 64;
  const double lo = std::log(double(std::max<int64_t>(fewestRows, 1)));
  const double hi = std::log(double(std::max<int64_t>(s.m, 1)));
  SmallVector<int64_t> samples;
  for (int i = 0; i < kSamples; ++i)
    samples.push_back(
        std::max<int64_t>(1, std::llround(std::exp(lo + (hi - lo) * i / (kSamples - 1)))));
  auto score = [&](const UKernelTile &t, int64_t rows) {
    return t.fmasPerLoad() * utilization(rows, t.mr) * utilization(s.n, t.nr);
  };
  auto padded = [](const UKernelTile &t, int64_t rows) {
    return (int64_t)llvm::divideCeil(rows, t.mr) * t.mr;
  };
  const UKernelTile *bestMain = nullptr, *bestFew = nullptr;
  double bestScore = -1;
  for (const UKernelTile &main : tiles) {
    // The tile alone (few == &main), or with a second of its nr.
    for (const UKernelTile &few : tiles) {
      if (&few != &main && (few.nr != main.nr || few.fmasPerLoad() > main.fmasPerLoad()))
        continue;
      // Each run on the tile that pads its rows less (the first on a tie), as the kernel picks.
      double total = 0;
      for (int64_t rows : samples)
        total += padded(few, rows) < padded(main, rows) ? score(few, rows) : score(main, rows);
      if (total > bestScore + 1e-9) {
        bestScore = total;
        bestMain = &main;
        bestFew = &few;
      }
    }
  }
  TilingAttr t = chooseRowsTiling(ctx, isa, s, minItems, bestMain->mr, bestMain->nr,
                                  balancedKc(s.k, kRowsMaxKc), kElementBytes);
  if (bestFew == bestMain)
    return t;
  return TilingAttr::get(ctx, t.getIsa(), t.getMr(), t.getNr(), t.getKc(), t.getMc(), t.getNc(),
                         t.getSharedPanels(), bestFew->mr);
}

/// The tiling of a product of two activations over run-time extents (lowerRunTimeActivationGemm),
/// or none where an extent has no bounds over the ranges or the product is not one the tiles take
/// (f32, alpha 1, an untransposed output).
TilingAttr chooseRunTimeActivationsTiling(MLIRContext *ctx, StringRef isa, GemmOp gemm,
                                          int64_t minItems) {
  auto out = cast<MemRefType>(gemm.getOutput().getType());
  const int64_t r = out.getRank();
  if (!out.getElementType().isF32() || gemm.getAlpha().convertToDouble() != 1.0 || gemm.getTransC())
    return {};
  std::optional<int64_t> m = boundOf(gemm.getOutput(), r - 2, true),
                         n = boundOf(gemm.getOutput(), r - 1, true),
                         k = boundOf(gemm.getA(), gemm.getTransA() ? r - 2 : r - 1, true),
                         batch = r == 3 ? boundOf(gemm.getOutput(), 0, false) : 1;
  if (!m || !n || !k || !batch)
    return {};
  return chooseActivationsTiling(ctx, isa, GemmShape{*m, *n, *k, *batch}, minItems);
}

/// Query rows per attention work item: a multiple of the ISA's query block (the kernel's
/// queries-in-lanes layout takes them NV * VL at a time), so only a head's last item has a partial
/// block, and small enough that batch x heads x groups gives every thread several items.
int64_t attentionRowsPerItem(StringRef isa, int64_t batch, int64_t seq, int64_t minItems) {
  const int64_t rowMultiple = isa == "avx512" ? MIE_UK_ATTENTION_QUERY_BLOCK_AVX512
                              : isa == "avx2" ? MIE_UK_ATTENTION_QUERY_BLOCK_AVX2
                                              : MIE_UK_ATTENTION_QUERY_BLOCK_NEON;
  int64_t groups = llvm::divideCeil(std::max<int64_t>(minItems, 1), std::max<int64_t>(batch, 1));
  int64_t rows = llvm::alignTo(llvm::divideCeil(seq, groups), rowMultiple);
  return std::max<int64_t>(1, std::min(rows, seq));
}

/// The microkernel ISA of the module's target, or "" when it has none.
std::string isaOfModule(ModuleOp module) {
  auto target = module->getAttrOfType<TargetAttr>(MieDialect::getTargetAttrName());
  if (!target || target.getKind() != TargetKind::cpu)
    return "";
  return getUKernelIsa(target.getArch(), target.getFeatures()).str();
}

/// Weights: a global, or a collapsed view of one (the filter of a 1x1 convolution run as a GEMM).
bool isConstantBuffer(Value v) {
  if (auto collapse = v.getDefiningOp<memref::CollapseShapeOp>())
    v = collapse.getSrc();
  return v.getDefiningOp<memref::GetGlobalOp>() != nullptr;
}

/// Whether the module's target runs the AMX bf16 tiles (its features have AMX-BF16).
bool targetHasAmx(ModuleOp module) {
  auto target = module->getAttrOfType<TargetAttr>(MieDialect::getTargetAttrName());
  return target && target.getKind() == TargetKind::cpu &&
         target.getFeatures().contains("+amx-bf16");
}

/// A product for the AMX tiles: 2-D, bf16 buffers summed in f32 (an absent accumulator means
/// bf16 sums; f32 ones are at least as precise), constant weights as the columns.
bool suitsAmx(GemmOp gemm) {
  auto out = cast<MemRefType>(gemm.getOutput().getType());
  std::optional<Type> acc = gemm.getAccumulator();
  return out.getElementType().isBF16() && out.getRank() == 2 && (!acc || acc->isF32()) &&
         isConstantBuffer(gemm.getB());
}

/// Whether the module's target runs the f16 tiles: every AArch64 CPU (the base build widens in
/// registers; FCVTL / FCVTN are ARMv8's).
bool targetHasF16Tiles(StringRef isa) { return isa == "neon"; }

bool isF16(Value v) { return cast<MemRefType>(v.getType()).getElementType().isF16(); }

/// A product for the f16 tiles: 2-D f16 a, b and output summed in f32 (the contract of a reduced
/// product: an absent accumulator keeps f16 semantics and today's route), constant weights as the
/// columns, alpha 1 (the weights stay the model's f16 values; scaling them would round again).
bool suitsF16Tiles(GemmOp gemm) {
  auto out = cast<MemRefType>(gemm.getOutput().getType());
  std::optional<Type> acc = gemm.getAccumulator();
  return isF16(gemm.getOutput()) && isF16(gemm.getA()) && isF16(gemm.getB()) &&
         out.getRank() == 2 && acc && acc->isF32() && isConstantBuffer(gemm.getB()) &&
         gemm.getAlpha().convertToDouble() == 1.0;
}

/// A convolution for the f16 tiles (the NCHW implicit GEMM): f16 image, constant filter and output
/// summed in f32, one group. Depthwise and grouped ones keep their kernels.
bool suitsF16TilesConv(Conv2dOp conv) {
  std::optional<Type> acc = conv.getAccumulator();
  return isF16(conv.getInput()) && isF16(conv.getFilter()) && isF16(conv.getOutput()) && acc &&
         acc->isF32() && conv.getGroups() == 1 && isConstantBuffer(conv.getFilter());
}

/// Image, filter and output in bf16 (bias and residual have the output's type).
bool isBf16Throughout(Conv2dOp conv) {
  auto isBf16 = [](Value v) { return cast<MemRefType>(v.getType()).getElementType().isBF16(); };
  return isBf16(conv.getInput()) && isBf16(conv.getFilter()) && isBf16(conv.getOutput());
}

/// A convolution for the AMX tiles: bf16 image, filter (constant) and output summed in f32 (or in
/// bf16 when no accumulator is set: f32 sums are at least as precise), one group, a window the
/// packing's staging block holds.
bool suitsAmxConv(Conv2dOp conv) {
  auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
  std::optional<Type> acc = conv.getAccumulator();
  return isBf16Throughout(conv) && (!acc || acc->isF32()) && conv.getGroups() == 1 && isConstantBuffer(conv.getFilter()) &&
         w[2] * w[3] <= MIE_UK_BF16_AMX_CONV_MAX_TAPS;
}

/// The AMX tiling of a bf16 convolution (M = filters, N = pixels, K all in one call, bf16 panels
/// of 32 x K32): a filter block's A panels get half an L2 and are streamed past each pixel panel,
/// a pixel block's B panels a quarter. The pixel panels are packed once per image and shared
/// (an arena buffer) when they fit kSharedPanelsBudget, so items may split the filters too; else
/// each item packs its own pixel block and runs every filter on it.
TilingAttr chooseAmxConvTiling(MLIRContext *ctx, GemmShape s, int64_t minItems) {
  const int64_t t = MIE_UK_BF16_AMX_TILE, kp = llvm::alignTo(s.k, t), panelBytes = 2 * kp * t;
  const int64_t fPanels = llvm::divideCeil(s.m, t), pPanels = llvm::divideCeil(s.n, t);
  int64_t mcPanels = std::clamp<int64_t>(2 * kL2Budget / panelBytes, 1, fPanels);
  int64_t ncPanels = std::clamp<int64_t>(kL2Budget / panelBytes, 1, pPanels);
  auto blocks = [](int64_t panels, int64_t per) { return (int64_t)llvm::divideCeil(panels, per); };
  const bool shared = s.batch * pPanels * panelBytes <= kSharedPanelsBudget;
  if (!shared) {
    while (s.batch * blocks(pPanels, ncPanels) < minItems && ncPanels >= 2)
      ncPanels = llvm::divideCeil(ncPanels, 2);
    return TilingAttr::get(ctx, "amx", t, t, kp, mcPanels * t, ncPanels * t, false);
  }
  // Split the larger block (in elements) until every thread has work.
  while (s.batch * blocks(fPanels, mcPanels) * blocks(pPanels, ncPanels) < minItems) {
    if (mcPanels >= 2 && (mcPanels >= ncPanels || ncPanels < 2))
      mcPanels = llvm::divideCeil(mcPanels, 2);
    else if (ncPanels >= 2)
      ncPanels = llvm::divideCeil(ncPanels, 2);
    else
      break;
  }
  return TilingAttr::get(ctx, "amx", t, t, kp, mcPanels * t, ncPanels * t, true);
}

/// The best tile's predicted efficiency for the NCHW form of a convolution, M = filters x N =
/// pixels over K (the cost model of chooseTiling).
double bestNchwTileScore(StringRef isa, int64_t m, int64_t n, int64_t k) {
  double score;
  bestTile(getF32GemmTiles(isa), m, n, &score, kElementBytes * m * k);
  return score;
}

/// A 1x1 stride-1 unpadded convolution of one image: the GEMM out[F, P] = w[F, C] x[C, P].
bool isPointwise(Conv2dOp conv) {
  auto in = cast<MemRefType>(conv.getInput().getType()).getShape();
  auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
  auto one = [](int64_t v) { return v == 1; };
  return in[0] == 1 && w[2] == 1 && w[3] == 1 && llvm::all_of(conv.getStrides(), one) &&
         llvm::all_of(conv.getDilations(), one) &&
         llvm::all_of(conv.getPads(), [](int64_t p) { return p == 0; });
}

/// K steps a pixels-as-rows tile's transposed store costs about as much as: it scatters MR x NR
/// scalars (one run of MR per filter) where the NCHW form stores NR / VL vectors per row, about 16
/// steps of a 6x16 tile's K loop (measured on 1x1 convolutions with K = 40..2048, 7x7 and 14x14).
/// AVX-512's 8-row tiles transpose in registers instead (f32_tile.h), about 4 steps: with that,
/// mobilenet_v3_small's 96 -> 576 at 7x7 runs 1.5x faster as pixel rows, mobilenet_v2's
/// 160 -> 960 1.05x.
constexpr int64_t kTransposedStoreKSteps = 16, kTransposedStore8x16KSteps = 4;

/// How much more the pixel rows' score must be: the tiles' efficiencies are measured to about 2%,
/// and on a tie the NCHW form, which reads the image in place where the rows are packed, is faster
/// (resnet50's 512 -> 128 at 28x28, scores 1.3% apart, ran 1.08x slower as pixel rows).
constexpr double kRowsMargin = 1.02;

/// Pixels as rows pays when the output rows are short: the NCHW form puts the P pixels of a channel
/// in the vector lanes (7x7 = 49 fill 49 of 64 lanes of 16-wide tiles), the transposed product
/// puts the filters there (multiples of 16 in real networks) and the pixels on the broadcast side,
/// whose tiles are a few rows. Its tiles end in a transposed store, which a short K does not
/// amortize (mobilenet_v3's 40 -> 240 channels at 14x14 ran 1.17x slower as pixel rows, 1024 ->
/// 256 at 14x14 1.13x faster).
bool prefersPixelRows(StringRef isa, int64_t filters, int64_t pixels, int64_t k) {
  double rowsScore;
  std::optional<UKernelTile> rows =
      bestTile(getF32GemmTiles(isa), pixels, filters, &rowsScore);
  if (!rows)
    return false;
  // The scatter shrinks with the rows a tile really has (one pixel: a contiguous run per tile).
  double perTile =
      rows->transposesInRegisters() ? kTransposedStore8x16KSteps : kTransposedStoreKSteps;
  double storeSteps = perTile * double(std::min(pixels, rows->mr)) / rows->mr;
  return rowsScore * double(k) / (double(k) + storeSteps) >
         kRowsMargin * bestNchwTileScore(isa, filters, pixels, k);
}

/// The direct kernel (no pixel panels) for convolutions whose packing would cost as much as their
/// products: few input channels (an image network's stem, C = 3), where every packed element
/// serves only F multiply-adds, and a reduction short enough for its offset table. A work item is a
/// band of output rows whose padded input rows (all channels) stay within kDirectPlaneBudget.
constexpr int64_t kDirectMaxChannels = 8, kDirectPlaneBudget = 128 * 1024;

/// `images`: the batch to choose for where it is a run-time extent (the output's own otherwise).
TilingAttr chooseDirectTiling(MLIRContext *ctx, StringRef isa, Conv2dOp conv, int64_t minItems,
                              std::optional<int64_t> images = std::nullopt) {
  auto in = cast<MemRefType>(conv.getInput().getType()).getShape();
  auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
  SmallVector<int64_t> out(cast<MemRefType>(conv.getOutput().getType()).getShape());
  if (images)
    out[0] = *images;
  ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations();
  int64_t k = w[1] * w[2] * w[3];
  if (in[1] > kDirectMaxChannels || k > MIE_UK_CONV_DIRECT_MAX_K || s[1] > 2)
    return {};
  // Tiles run along one output row: N is OW, not OH * OW.
  SmallVector<UKernelTile> tiles = getF32GemmTiles(isa);
  std::optional<UKernelTile> best = bestTile(tiles, out[1], out[3]);
  if (!best)
    return {};
  // Bands: enough items for every thread, then no larger than the plane budget allows.
  int64_t band = std::max<int64_t>(1, out[2] * out[0] / minItems);
  while (band > 1 && kElementBytes * mie_uk_conv_direct_plane_floats(in[1], w[2], w[3], s[0], s[1],
                                                                     d[0], d[1], out[3], best->nr,
                                                                     band) > kDirectPlaneBudget)
    band = llvm::divideCeil(band, 2);
  // nc: the pixels of a work item, whole rows of whole tiles.
  return TilingAttr::get(ctx, isa, best->mr, best->nr, k, llvm::alignTo(out[1], best->mr),
                         band * llvm::alignTo(out[3], best->nr), false);
}

/// Replaces a pointwise convolution by the GEMM out^T[P, F] = x^T[P, C] w^T[C, F] written back
/// transposed (trans_c): the same bytes in, the same NCHW bytes out, on 2-D views.
GemmOp rewriteAsPixelRowsGemm(Conv2dOp conv) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  // [1, C, H, W] -> [C, H * W]; the filter [F, C, 1, 1] -> [F, C].
  SmallVector<ReassociationIndices> image = {{0, 1}, {2, 3}}, filter = {{0}, {1, 2, 3}};
  auto collapse = [&](Value v, ArrayRef<ReassociationIndices> groups) -> Value {
    return v ? memref::CollapseShapeOp::create(b, loc, v, groups).getResult() : Value();
  };
  auto gemm = GemmOp::create(
      b, loc, collapse(conv.getInput(), image), collapse(conv.getFilter(), filter), conv.getBias(),
      collapse(conv.getResidual(), image), collapse(conv.getOutput(), image),
      /*trans_a=*/b.getUnitAttr(), /*trans_b=*/b.getUnitAttr(), b.getF64FloatAttr(1.0),
      conv.getEpilogueAttr(), conv.getAccumulatorAttr(), /*ukernel=*/UKernelAttr(),
      /*b_packed=*/UnitAttr(), /*trans_c=*/b.getUnitAttr());
  conv.erase();
  return gemm;
}

/// Multiplier-1 depthwise: one filter per input channel.
bool isDepthwise(Conv2dOp conv) {
  auto in = cast<MemRefType>(conv.getInput().getType()).getShape();
  auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
  const int64_t c = conv.getChannelsLast() ? in[3] : in[1];
  return static_cast<int64_t>(conv.getGroups()) == c && w[0] == c && w[1] == 1 && c > 1;
}

/// Winograd pays off for 3x3 stride-1 layers with enough channels that its GEMMs dominate the
/// transforms (about 16 adds per input and output element for F(2x2, 3x3), 36 for F(4x4, 3x3)).
bool suitsWinograd(Conv2dOp conv) {
  auto in = cast<MemRefType>(conv.getInput().getType()).getShape();
  auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
  return w[2] == 3 && w[3] == 3 &&
         llvm::all_of(conv.getStrides(), [](int64_t s) { return s == 1; }) &&
         llvm::all_of(conv.getDilations(), [](int64_t d) { return d == 1; }) && in[1] >= 16 &&
         w[0] >= 16;
}

/// Output tile of the Winograd variant: F(4x4, 3x3) (36 GEMMs, 2.25 multiplications an output
/// against F(2x2, 3x3)'s 4) once the feature map has at least two 4x4 tiles each way; smaller maps
/// (7x7: four tiles of which most lanes would be padding) keep F(2x2, 3x3).
constexpr int64_t kWinograd4MinSize = 8;
int64_t winogradTile(ArrayRef<int64_t> outShape) {
  return outShape[2] >= kWinograd4MinSize && outShape[3] >= kWinograd4MinSize ? 4 : 2;
}

bool isF32(Value v) { return cast<MemRefType>(v.getType()).getElementType().isF32(); }

/// "[1, 64, 56, 56] f32": a buffer's shape and element type, for the reasons below.
std::string describeBuffer(Value v) {
  auto type = cast<MemRefType>(v.getType());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(type.getShape(), os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
  os << "] " << type.getElementType();
  return text;
}

/// Why a product of narrow (or integer) buffers has no microkernel: the narrow families sum in f32.
std::string narrowReason(Type et, std::optional<Type> accumulator) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (accumulator && !accumulator->isF32())
    os << et << " summed in " << *accumulator << " (the microkernels sum narrow floats in f32)";
  else
    os << et << " buffers with no " << et << " microkernel for this target";
  return text;
}

/// Why a product mie-select-kernels left without a `ukernel` runs portable generated code: the
/// op, its shapes and the first condition no microkernel family meets (the `mie.portable`
/// attribute that --report=kernels and the compile-time warning read).
std::string portableReason(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    const int64_t groups = conv.getGroups();
    os << "convolution " << describeBuffer(conv.getInput()) << " * "
       << describeBuffer(conv.getFilter()) << ": ";
    Type et = cast<MemRefType>(conv.getOutput().getType()).getElementType();
    if (conv.getChannelsLast() && !isDepthwise(conv))
      os << "channels last with " << groups << " group(s) (the NHWC microkernel is depthwise)";
    else if (isDepthwise(conv) && !conv.getChannelsLast() &&
             (conv.getStrides()[0] > 2 || conv.getStrides()[1] > 2))
      os << "depthwise with a stride above 2";
    else if (isDepthwise(conv))
      os << "depthwise in " << et << " (the depthwise microkernels are f32 and bf16)";
    else if (groups != 1)
      os << groups << " groups of " << cast<MemRefType>(conv.getFilter().getType()).getDimSize(1)
         << " channels (the convolution microkernels take one group)";
    else if (!isConstantBuffer(conv.getFilter()))
      os << "its filter is computed at run time (the microkernels read filters packed at compile "
            "time)";
    else if (!et.isF32())
      os << narrowReason(et, conv.getAccumulator());
    else
      os << "no register tile fits the shape";
    return text;
  }
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    os << "product " << describeBuffer(gemm.getA()) << " * " << describeBuffer(gemm.getB()) << ": ";
    auto outType = cast<MemRefType>(gemm.getOutput().getType());
    Type et = outType.getElementType();
    if (!outType.hasStaticShape())
      os << "run-time extents in a product the f32 tiles do not take";
    else if (!et.isF32())
      os << narrowReason(et, gemm.getAccumulator());
    else if (gemm.getAlpha().convertToDouble() != 1.0)
      os << "alpha != 1 on operands packed at run time";
    else
      os << "no register tile fits the shape";
    return text;
  }
  auto attention = cast<AttentionOp>(op);
  os << "attention " << describeBuffer(attention.getQuery()) << ": "
     << cast<MemRefType>(attention.getOutput().getType()).getElementType()
     << " (the attention microkernel is f32)";
  return text;
}

/// Code for symbolic dims: a convolution over a run-time batch (dim 0 of its image and output;
/// every other dim static) runs the f32 NCHW families that loop over images (the direct kernel,
/// the implicit GEMM, Winograd, pixels as rows) or the depthwise kernels, tiled as for the fewest
/// images in the ranges: every thread has work in the smallest runs, and packed panels shared
/// across a run's items grow with its images as the activations do (a static compile for a large
/// batch would pack per item instead, within kSharedPanelsBudget). Anything else keeps the
/// portable path (grouped NCHW convolutions read their batch there; the rest is refused at
/// lowering).
void selectRunTimeBatchConv(MLIRContext *ctx, StringRef isa, Conv2dOp conv, int64_t minItems,
                            bool winograd) {
  auto in = cast<MemRefType>(conv.getInput().getType());
  auto out = cast<MemRefType>(conv.getOutput().getType());
  auto onlyBatch = [](MemRefType t) {
    return llvm::all_of(llvm::seq<int64_t>(1, t.getRank()),
                        [&](int64_t d) { return !t.isDynamicDim(d); });
  };
  std::optional<int64_t> fewestImages = boundOf(conv.getOutput(), 0, /*most=*/false);
  if (!fewestImages || !onlyBatch(in) || !onlyBatch(out) || !isF32(conv.getOutput()) ||
      !isF32(conv.getInput()) || !isConstantBuffer(conv.getFilter()))
    return;
  const int64_t fewest = *fewestImages;
  const bool smallStrides = conv.getStrides()[0] <= 2 && conv.getStrides()[1] <= 2;
  if (isDepthwise(conv)) {
    if (conv.getChannelsLast() || smallStrides)
      conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::depthwise, isa));
    return;
  }
  if (conv.getChannelsLast() || conv.getGroups() != 1)
    return;
  auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
  if (winograd && suitsWinograd(conv)) {
    // (m + 2)^2 GEMMs per image, their items enough at the fewest images; V and M per image.
    const int64_t m = winogradTile(out.getShape());
    int64_t tiles = llvm::divideCeil(out.getDimSize(2), m) * llvm::divideCeil(out.getDimSize(3), m);
    GemmShape shape{out.getDimSize(1), tiles, in.getDimSize(1), (m + 2) * (m + 2) * fewest};
    if (TilingAttr t = chooseTiling(ctx, isa, shape, minItems, true))
      conv.setUkernelAttr(UKernelAttr::get(
          ctx, m == 4 ? UKernelFamily::winograd_4x4 : UKernelFamily::winograd_2x2, t));
    return;
  }
  if (TilingAttr t = chooseDirectTiling(ctx, isa, conv, minItems, fewest)) {
    conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_direct, t));
    return;
  }
  const int64_t pixels = out.getDimSize(2) * out.getDimSize(3), k = w[1] * w[2] * w[3];
  if (prefersPixelRows(isa, out.getDimSize(1), pixels, k)) {
    // Pixels as rows, per image (a pointwise one too: the static path's GEMM on views takes one
    // image only).
    GemmShape rows{pixels, out.getDimSize(1), k, fewest};
    if (TilingAttr t = chooseTiling(ctx, isa, rows, minItems, /*activationIsN=*/false))
      conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_pixel_rows, t));
    return;
  }
  GemmShape shape{out.getDimSize(1), pixels, k, fewest};
  if (TilingAttr t = chooseTiling(ctx, isa, shape, minItems, /*activationIsN=*/true))
    conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_gemm, t));
}

struct MieSelectKernelsPass : impl::MieSelectKernelsPassBase<MieSelectKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string chosenIsa = isa.empty() ? isaOfModule(module) : isa;
    if (chosenIsa.empty())
      return;
    if (getF32GemmTiles(chosenIsa).empty()) {
      module.emitError() << "mie-select-kernels: no microkernels for ISA '" << chosenIsa << "'";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    const bool amx = targetHasAmx(module);
    const bool f16Tiles = targetHasF16Tiles(chosenIsa);
    SymbolTable symbols(module);
    // Collected first: widening inserts kernels next to the ops it rewrites.
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (llvm::isa<Conv2dOp, AttentionOp, GemmOp, MaxPool2dOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto pool = dyn_cast<MaxPool2dOp>(op)) {
        // f32 max pooling has a microkernel (any window, stride, padding and dilation).
        if (!pool.getUkernel() && isF32(pool.getOutput()))
          pool.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::max_pool, chosenIsa));
        continue;
      }
      if (auto conv = dyn_cast<Conv2dOp>(op)) {
        if (conv.getUkernel())
          continue;
        if (!cast<MemRefType>(conv.getOutput().getType()).hasStaticShape()) {
          selectRunTimeBatchConv(ctx, chosenIsa, conv, minWorkItems, winograd);
          continue;
        }
        // The depthwise kernels' choice: the lowering takes the f32 or bf16, NCHW or NHWC kernel
        // of the ISA from the op's buffers.
        auto depthwise = UKernelAttr::get(ctx, UKernelFamily::depthwise, chosenIsa);
        if (conv.getChannelsLast()) {
          // The NHWC depthwise kernel (any window, stride and dilation; bf16 summed in f32); a
          // channels-last convolution of one group runs the generic lowering.
          // Its filter is packed at compile time, so it must be a constant.
          std::optional<Type> acc = conv.getAccumulator();
          if (!isDepthwise(conv) || !isConstantBuffer(conv.getFilter()))
            continue;
          if ((isBf16Throughout(conv) && (!acc || acc->isF32())) ||
              (isF32(conv.getOutput()) && isF32(conv.getInput())))
            conv.setUkernelAttr(depthwise);
          continue;
        }
        if (amx && suitsAmxConv(conv)) {
          auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
          auto out = cast<MemRefType>(conv.getOutput().getType()).getShape();
          GemmShape shape{out[1], out[2] * out[3], w[1] * w[2] * w[3], out[0]};
          conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_gemm,
                                               chooseAmxConvTiling(ctx, shape, minWorkItems)));
          continue;
        }
        if (f16Tiles && suitsF16TilesConv(conv)) {
          // The NCHW implicit GEMM on the f16 tiles: filters packed at compile time, pixels at run
          // time (or read in place by a pointwise one), all of K per tile call.
          auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
          auto out = cast<MemRefType>(conv.getOutput().getType()).getShape();
          GemmShape shape{out[1], out[2] * out[3], w[1] * w[2] * w[3], out[0]};
          if (TilingAttr t = chooseTiling(ctx, chosenIsa, shape, minWorkItems,
                                          /*activationIsN=*/true, /*f16=*/true)) {
            conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_gemm, t));
            continue;
          }
        }
        // A bf16 depthwise one (summed in f32: no accumulator, or an f32 one) has its own kernel.
        const bool smallStrides = conv.getStrides()[0] <= 2 && conv.getStrides()[1] <= 2;
        if (std::optional<Type> acc = conv.getAccumulator();
            isDepthwise(conv) && isBf16Throughout(conv) && (!acc || acc->isF32()) && smallStrides) {
          conv.setUkernelAttr(depthwise);
          continue;
        }
        // A narrow product no reduced-precision kernel took: the f32 kernels on widened copies.
        if (Type wide = wideAccumulatorOf(conv); wide && wide.isF32())
          widenToF32(conv, wide, symbols);
        if (!isF32(conv.getOutput()))
          continue;
        if (isDepthwise(conv)) {
          if (smallStrides)
            conv.setUkernelAttr(depthwise);
          continue;
        }
        if (conv.getGroups() != 1 || !isConstantBuffer(conv.getFilter()))
          continue;
        auto in = cast<MemRefType>(conv.getInput().getType()).getShape();
        auto w = cast<MemRefType>(conv.getFilter().getType()).getShape();
        auto out = cast<MemRefType>(conv.getOutput().getType()).getShape();
        if (winograd && suitsWinograd(conv)) {
          // (m + 2)^2 GEMMs: F x (m x m tiles) x C each.
          const int64_t m = winogradTile(out);
          int64_t tiles = llvm::divideCeil(out[2], m) * llvm::divideCeil(out[3], m);
          GemmShape shape{out[1], tiles, in[1], (m + 2) * (m + 2) * out[0]};
          if (TilingAttr t = chooseTiling(ctx, chosenIsa, shape, minWorkItems, true))
            conv.setUkernelAttr(UKernelAttr::get(
                ctx, m == 4 ? UKernelFamily::winograd_4x4 : UKernelFamily::winograd_2x2, t));
          continue;
        }
        const int64_t k = in[1] * w[2] * w[3];
        const bool pixelRows = prefersPixelRows(chosenIsa, out[1], out[2] * out[3], k);
        if (isPointwise(conv) && pixelRows) {
          GemmShape shape{out[2] * out[3], out[1], in[1], 1};
          if (TilingAttr t = chooseTiling(ctx, chosenIsa, shape, minWorkItems, false))
            rewriteAsPixelRowsGemm(conv).setUkernelAttr(
                UKernelAttr::get(ctx, UKernelFamily::gemm, t));
          continue;
        }
        if (TilingAttr t = chooseDirectTiling(ctx, chosenIsa, conv, minWorkItems)) {
          conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_direct, t));
          continue;
        }
        // Any other window, stride or batch (3x3 stride 2, 1x1 stride 2) on a map of few pixels:
        // the transposed implicit GEMM, its pixel rows packed by the convolution packing (a
        // pointwise one on one image became a GEMM on views above). Its packed filter has the
        // layout and key of that GEMM's transposed B, so the two share it.
        if (pixelRows) {
          GemmShape shape{out[2] * out[3], out[1], k, out[0]};
          if (TilingAttr t = chooseTiling(ctx, chosenIsa, shape, minWorkItems, false))
            conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_pixel_rows, t));
          continue;
        }
        GemmShape shape{out[1], out[2] * out[3], k, out[0]};
        if (TilingAttr t =
                chooseTiling(ctx, chosenIsa, shape, minWorkItems, /*activationIsN=*/true))
          conv.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::conv_gemm, t));
        continue;
      }
      if (auto attention = dyn_cast<AttentionOp>(op)) {
        if (attention.getUkernel() || !isF32(attention.getOutput()))
          continue;
        attention.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::attention, chosenIsa));
        SmallVector<int64_t> q = attention.getLogicalShape(attention.getQuery());
        // A run-time extent (code for symbolic dims) counts with its bound over the ranges: the
        // most rows (blocks sized for the longest sequences) and the fewest batch indices (enough
        // items for the smallest runs).
        const int64_t rank = q.size();
        auto bound = [&](int64_t logical, bool most) -> int64_t {
          if (!ShapedType::isDynamic(q[logical]))
            return q[logical];
          return boundOf(attention.getQuery(), attention.getPhysicalDim(logical, rank), most)
              .value_or(1);
        };
        int64_t seq = bound(rank - 2, /*most=*/true), batch = 1;
        for (int64_t d = 0; d < rank - 2; ++d)
          batch *= bound(d, /*most=*/false);
        attention.setQueryRows(attentionRowsPerItem(chosenIsa, batch, seq, minWorkItems));
        continue;
      }
      if (auto gemm = dyn_cast<GemmOp>(op)) {
        auto outType = cast<MemRefType>(gemm.getOutput().getType());
        auto out = outType.getShape();
        auto a = cast<MemRefType>(gemm.getA().getType()).getShape();
        int64_t r = out.size();
        bool tc = gemm.getTransC();
        GemmShape shape{tc ? out[r - 1] : out[r - 2], tc ? out[r - 2] : out[r - 1],
                        gemm.getTransA() ? a[r - 2] : a[r - 1], r == 3 ? out[0] : 1};
        if (gemm.getUkernel())
          continue;
        // Rows known at run time only (code for symbolic dims): the tiles of a 2-D product by
        // constant weights, the f32 ones or the target's own, chosen over the rows' range.
        std::optional<std::pair<int64_t, int64_t>> rows;
        auto isDynamic = [](Value v) { return !cast<MemRefType>(v.getType()).hasStaticShape(); };
        if (isDynamic(gemm.getOutput()) || isDynamic(gemm.getA()) || isDynamic(gemm.getB())) {
          if (r != 2 || !isConstantBuffer(gemm.getB())) {
            // Two activations (attention's products over the sequence): the f32 tiles, every
            // extent at run time, chosen for the most rows, columns and K of the ranges and the
            // fewest batch indices.
            if (TilingAttr t = chooseRunTimeActivationsTiling(ctx, chosenIsa, gemm, minWorkItems))
              gemm.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::gemm, t));
            continue;
          }
          rows = dimBounds(gemm.getOutput(), tc ? r - 1 : r - 2);
          if (!rows || tc ||
              (!isF32(gemm.getOutput()) && !(amx && suitsAmx(gemm)) &&
               !(f16Tiles && suitsF16Tiles(gemm))))
            continue;
          shape.m = std::max<int64_t>(rows->second, 1);
        }
        auto setTiling = [&](TilingAttr t) {
          if (rows)
            t = runTimeRowsTiling(ctx, t, shape, rows->first, minWorkItems);
          gemm.setUkernelAttr(UKernelAttr::get(ctx, UKernelFamily::gemm, t));
        };
        if (amx && suitsAmx(gemm)) {
          setTiling(chooseAmxTiling(ctx, shape, minWorkItems));
          continue;
        }
        if (f16Tiles && suitsF16Tiles(gemm)) {
          if (TilingAttr t = chooseTiling(ctx, chosenIsa, shape, minWorkItems,
                                          /*activationIsN=*/false, /*f16=*/true)) {
            setTiling(t);
            continue;
          }
        }
        if (Type wide = wideAccumulatorOf(gemm); wide && wide.isF32())
          widenToF32(gemm, wide, symbols);
        if (!isF32(gemm.getOutput()))
          continue;
        TilingAttr t;
        if (rows)
          t = chooseRunTimeRowsTiling(ctx, chosenIsa, shape, rows->first, minWorkItems);
        else if (r == 2 && isConstantBuffer(gemm.getB()))
          t = chooseTiling(ctx, chosenIsa, shape, minWorkItems, /*activationIsN=*/false);
        else if (gemm.getAlpha().convertToDouble() == 1.0)
          t = chooseActivationsTiling(ctx, chosenIsa, shape, minWorkItems);
        if (t)
          setTiling(t);
      }
    }
    // Every product left to the portable path says why (ops were replaced above: walk again).
    module.walk([&](Operation *op) {
      if (!llvm::isa<Conv2dOp, GemmOp, AttentionOp>(op))
        return;
      auto kernel = op->getAttrOfType<UKernelAttr>("ukernel");
      if (!kernel)
        op->setAttr(MieDialect::getPortableAttrName(), StringAttr::get(ctx, portableReason(op)));
    });
  }
};

} // namespace
} // namespace mlir::mie
