//===- LayoutAssignment.cpp - channels-last components of a graph ---------===//
//
// Why channels last: on a few cores, a chain of small kernels (a MobileNet's 1x1 and depthwise
// layers over 14x14 and 7x7 maps) scales only if every core reads what it wrote itself in the
// kernel before. Split by output channels, each core reads the whole previous activation, half
// of it from the other core's cache; split by pixels in NCHW, a core's pixels are a short run in
// every channel plane, and the runs of two cores share the cache line where they meet, in every
// plane. In NHWC a core's pixels are one contiguous block of every activation: measured on a
// 2-core Xeon, a chain of ten 1x1 bf16 layers at 14x14 ran 1.7x faster on two threads split by
// pixel rows, and 0.8x (slower than one thread) split by channels.
//
// The components: 4-D values joined by the ops that carry them channels last (elementwise ops,
// 1x1 stride-1 convolutions, depthwise convolutions, global average pooling), found with a
// union-find over the function body in block order, so the rewrite is deterministic.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/LayoutAssignment.h"

#include "dialects/ms/IR/MsConstantFold.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/MapVector.h"

#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::ms;

namespace {

constexpr int64_t kToNhwc[] = {0, 2, 3, 1};
constexpr int64_t kToNchw[] = {0, 3, 1, 2};

RankedTensorType rank4(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getRank() == 4 && type.hasStaticShape() ? type : RankedTensorType();
}

/// [N, C, H, W] -> [N, H, W, C].
RankedTensorType nhwcType(RankedTensorType type) {
  ArrayRef<int64_t> s = type.getShape();
  return type.clone({s[0], s[2], s[3], s[1]});
}

/// Whether [N, C, H, W] `type` has a 1x1 map: NCHW and NHWC are then the same bytes.
bool isUnitMap(RankedTensorType type) { return type.getDimSize(2) == 1 && type.getDimSize(3) == 1; }

/// What an op does for a component.
enum class Role {
  None,        // needs NCHW: its 4-D operands leave the component, its results enter one
  Elementwise, // every 4-D operand and the result in one layout; constants transposed
  Pointwise,   // 1x1 stride-1 convolution of one group: becomes a matmul over pixel rows
  Depthwise,   // depthwise convolution: gets channels_last
  GlobalPool,  // global average pooling: becomes a mean over H and W
};

/// Whether the bytes of `cst` can be read back to transpose it (a splat always can).
bool isPermutable(ConstantOp cst) {
  auto type = cast<RankedTensorType>(cst.getType());
  Attribute value = cst.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && dense.isSplat())
    return true;
  if (!type.getElementType().isIntOrFloat() || type.getElementType().getIntOrFloatBitWidth() % 8)
    return false;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return resource.getRawHandle().getBlob() != nullptr;
  return isa<DenseElementsAttr>(value);
}

Role roleOf(Operation *op) {
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    RankedTensorType in = rank4(conv.getInput()), w = rank4(conv.getFilter());
    if (!in || !w || !rank4(conv.getResult()) || conv.getChannelsLast())
      return Role::None;
    ArrayRef<int64_t> ws = w.getShape();
    const int64_t groups = conv.getGroups();
    auto ones = [](ArrayRef<int64_t> a) { return llvm::all_of(a, [](int64_t v) { return v == 1; }); };
    auto zeros = [](ArrayRef<int64_t> a) { return llvm::all_of(a, [](int64_t v) { return v == 0; }); };
    if (groups == 1 && ws[2] == 1 && ws[3] == 1 && ones(conv.getStrides()) &&
        zeros(conv.getPads()))
      return Role::Pointwise;
    if (groups == in.getDimSize(1) && groups == ws[0] && ws[1] == 1)
      return Role::Depthwise;
    return Role::None;
  }
  if (auto pool = dyn_cast<GlobalAvgPoolOp>(op))
    return rank4(pool.getInput()) && rank4(pool.getResult()) ? Role::GlobalPool : Role::None;
  if (isElementwiseOp(op) && op->getNumResults() == 1 && rank4(op->getResult(0)))
    return Role::Elementwise;
  return Role::None;
}

/// `cst`'s elements read as `shape` (row-major, the same count) and permuted by `perm` (result dim
/// d is dim perm[d]), as a new constant at `b`'s insertion point.
FailureOr<Value> permutedConstant(OpBuilder &b, Location loc, ConstantOp cst,
                                  ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(cst.getType());
  SmallVector<int64_t> outShape;
  for (int64_t p : perm)
    outShape.push_back(shape[p]);
  RankedTensorType outType = type.clone(outShape);
  Attribute value = cst.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && dense.isSplat())
    return ConstantOp::create(b, loc, dense.resizeSplat(outType)).getResult();
  if (!isPermutable(cst))
    return failure();
  ArrayRef<char> bytes;
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  if (resource)
    bytes = resource.getRawHandle().getBlob()->getData();
  else
    bytes = cast<DenseElementsAttr>(value).getRawData();
  const size_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  const int64_t count = type.getNumElements();
  if (bytes.size() != size_t(count) * elementBytes)
    return failure();
  SmallVector<int64_t> inStrides = rowMajorStrides(shape), outStrides = rowMajorStrides(outShape);
  std::vector<char> out(bytes.size());
  for (int64_t i = 0; i < count; ++i) {
    int64_t from = 0;
    for (size_t d = 0; d < outShape.size(); ++d)
      from += ((i / outStrides[d]) % outShape[d]) * inStrides[perm[d]];
    std::memcpy(&out[i * elementBytes], &bytes[from * elementBytes], elementBytes);
  }
  if (!resource)
    return ConstantOp::create(b, loc, DenseElementsAttr::getFromRawBuffer(outType, out))
        .getResult();
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(out, elementBytes);
  auto attr = DenseResourceElementsAttr::get(
      outType, (resource.getRawHandle().getKey() + "_nhwc").str(), std::move(blob));
  return ConstantOp::create(b, loc, attr).getResult();
}

/// The operand `cst` of an elementwise op with a rank-4 result, broadcast numpy-style against
/// [N, C, H, W], as the constant that broadcasts the same way against [N, H, W, C].
FailureOr<Value> nhwcConstant(OpBuilder &b, Location loc, ConstantOp cst) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(cst.getType()).getShape();
  SmallVector<int64_t> padded(4 - shape.size(), 1);
  llvm::append_range(padded, shape);
  return permutedConstant(b, loc, cst, padded, kToNhwc);
}

/// A union-find over values, whose root is a component's name.
struct Components {
  DenseMap<Value, Value> parent;

  Value find(Value v) {
    Value root = v;
    for (auto it = parent.find(root); it != parent.end() && it->second != root;
         it = parent.find(root))
      root = it->second;
    parent.try_emplace(root, root);
    // Path compression: every value on the way points at the root.
    while (v != root) {
      Value next = parent[v];
      parent[v] = root;
      v = next;
    }
    return root;
  }
  void join(Value a, Value b) {
    Value ra = find(a), rb = find(b);
    if (ra != rb)
      parent[ra] = rb;
  }
  bool contains(Value v) const { return parent.count(v); }
};

struct Component {
  SmallVector<Value> values; // in block order
  bool eligible = true;
  int64_t convolutions = 0;
};

class LayoutAssignment {
public:
  explicit LayoutAssignment(Block &body) : body(body), b(body.getParentOp()->getContext()) {}

  FailureOr<int64_t> run() {
    analyze();
    int64_t converted = 0;
    for (auto &entry : components)
      converted += entry.second.eligible;
    if (converted == 0)
      return 0;
    if (failed(rewrite()))
      return failure();
    return converted;
  }

private:
  /// The component of `v`, when it is one being converted.
  const Component *convertedComponentOf(Value v) {
    if (!sets.contains(v))
      return nullptr;
    auto it = components.find(sets.find(v));
    return it != components.end() && it->second.eligible ? &it->second : nullptr;
  }

  /// Whether `op` is a member being converted: its result is then computed channels last.
  bool isConvertedMember(Operation *op) {
    return roles.count(op) && convertedComponentOf(op->getResult(0));
  }

  /// Whether `use` reads its value as a member of the value's component (the activation operand
  /// of a convolution or pool, any operand of an elementwise op).
  bool isMemberUse(OpOperand &use) {
    auto it = roles.find(use.getOwner());
    return it != roles.end() && (it->second == Role::Elementwise || use.getOperandNumber() == 0);
  }

  void analyze() {
    for (Operation &op : body) {
      Role role = roleOf(&op);
      if (role == Role::None)
        continue;
      roles[&op] = role;
      Value result = op.getResult(0);
      sets.find(result);
      if (role != Role::Elementwise) {
        sets.join(result, op.getOperand(0));
        continue;
      }
      for (Value operand : op.getOperands()) {
        if (auto cst = operand.getDefiningOp<ConstantOp>()) {
          if (cast<RankedTensorType>(cst.getType()).getRank() > 4 || !isPermutable(cst))
            blocked.insert(result);
        } else if (rank4(operand)) {
          sets.join(result, operand);
        } else {
          // A non-constant operand broadcast from a lower rank would need its own transpose.
          blocked.insert(result);
        }
      }
    }
    auto add = [&](Value v) {
      if (sets.contains(v))
        components[sets.find(v)].values.push_back(v);
    };
    for (BlockArgument arg : body.getArguments())
      add(arg);
    for (Operation &op : body)
      for (Value result : op.getResults())
        add(result);

    for (auto &[root, component] : components) {
      for (Value v : component.values) {
        RankedTensorType type = rank4(v);
        Operation *def = v.getDefiningOp();
        bool member = def && roles.count(def);
        if (blocked.contains(v))
          component.eligible = false;
        if (member && (roles[def] == Role::Pointwise || roles[def] == Role::Depthwise))
          ++component.convolutions;
        // NCHW data enters at graph inputs, after a convolution that stays NCHW (one transpose
        // next to the kernel that made it), or for free on a 1x1 map.
        if (!member && !isa<BlockArgument>(v) && !isa<Conv2dOp>(def) && !isUnitMap(type))
          component.eligible = false;
        // And leaves at graph outputs or for free on a 1x1 map: any other NCHW reader would
        // need a transpose between two kernels.
        for (OpOperand &use : v.getUses())
          if (!isMemberUse(use) && !isa<func::ReturnOp>(use.getOwner()) && !isUnitMap(type))
            component.eligible = false;
      }
      if (component.convolutions == 0)
        component.eligible = false;
    }
  }

  /// A value entering or leaving channels last: a transpose, or a reshape on a 1x1 map.
  Value toNhwc(Location loc, Value v) {
    RankedTensorType type = rank4(v);
    if (isUnitMap(type))
      return ReshapeOp::create(b, loc, v, nhwcType(type).getShape());
    return TransposeOp::create(b, loc, v, kToNhwc);
  }

  Value toNchw(Location loc, Value nhwc, RankedTensorType nchwType) {
    if (isUnitMap(nchwType))
      return ReshapeOp::create(b, loc, nhwc, nchwType.getShape());
    return TransposeOp::create(b, loc, nhwc, kToNchw);
  }

  LogicalResult convert(Operation *op) {
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    Value result = op->getResult(0);
    RankedTensorType type = rank4(result);
    Value converted;
    switch (roles[op]) {
    case Role::Elementwise: {
      SmallVector<Value> operands;
      for (Value operand : op->getOperands()) {
        if (Value mapped = nhwc.lookup(operand)) {
          operands.push_back(mapped);
          continue;
        }
        FailureOr<Value> cst = nhwcConstant(b, loc, operand.getDefiningOp<ConstantOp>());
        if (failed(cst))
          return op->emitError("ms-assign-layout: cannot read the constant operand to transpose");
        operands.push_back(*cst);
      }
      Operation *clone = b.clone(*op);
      clone->setOperands(operands);
      clone->getResult(0).setType(nhwcType(type));
      converted = clone->getResult(0);
      break;
    }
    case Role::Pointwise: {
      // out[n, h, w, f] = sum_c x[n, h, w, c] * w[f, c]: a matmul by the [C, F] weight.
      auto conv = cast<Conv2dOp>(op);
      ArrayRef<int64_t> ws = rank4(conv.getFilter()).getShape();
      Value weight;
      if (auto cst = conv.getFilter().getDefiningOp<ConstantOp>(); cst && isPermutable(cst)) {
        FailureOr<Value> permuted = permutedConstant(b, loc, cst, {ws[0], ws[1]}, {1, 0});
        if (failed(permuted))
          return op->emitError("ms-assign-layout: cannot read the filter to transpose");
        weight = *permuted;
      } else {
        Value matrix = ReshapeOp::create(b, loc, conv.getFilter(), ArrayRef<int64_t>{ws[0], ws[1]});
        weight = TransposeOp::create(b, loc, matrix, ArrayRef<int64_t>{1, 0});
      }
      auto matmul = MatMulOp::create(b, loc, nhwc.lookup(conv.getInput()), weight,
                                     conv.getAccTypeAttr());
      converted = matmul.getResult();
      if (Value bias = conv.getBias())
        converted = AddOp::create(b, loc, converted, bias);
      break;
    }
    case Role::Depthwise: {
      auto clone = cast<Conv2dOp>(b.clone(*op));
      clone.getInputMutable().assign(nhwc.lookup(cast<Conv2dOp>(op).getInput()));
      clone.setChannelsLast(true);
      clone.getResult().setType(nhwcType(type));
      converted = clone.getResult();
      break;
    }
    case Role::GlobalPool:
      converted = ReduceMeanOp::create(b, loc, nhwc.lookup(op->getOperand(0)),
                                       ArrayRef<int64_t>{1, 2}, /*keep_dims=*/true);
      break;
    case Role::None:
      llvm_unreachable("only members are converted");
    }
    nhwc[result] = converted;
    return success();
  }

  LogicalResult rewrite() {
    // Graph inputs enter at the top of the body.
    b.setInsertionPointToStart(&body);
    for (BlockArgument arg : body.getArguments())
      if (convertedComponentOf(arg))
        nhwc[arg] = toNhwc(arg.getLoc(), arg);
    SmallVector<Operation *> ops = llvm::to_vector(llvm::make_pointer_range(body));
    SmallVector<Operation *> members;
    for (Operation *op : ops) {
      if (isConvertedMember(op)) {
        if (failed(convert(op)))
          return failure();
        members.push_back(op);
        continue;
      }
      // A result entering a component: transposed once, right after the op that made it.
      for (Value result : op->getResults())
        if (convertedComponentOf(result)) {
          b.setInsertionPointAfter(op);
          nhwc[result] = toNhwc(op->getLoc(), result);
        }
    }
    // Readers outside the components get NCHW back (graph outputs, 1x1 maps).
    for (Operation *op : members) {
      Value result = op->getResult(0);
      SmallVector<OpOperand *> outside;
      for (OpOperand &use : result.getUses())
        if (!isConvertedMember(use.getOwner()) || !isMemberUse(use))
          outside.push_back(&use);
      if (outside.empty())
        continue;
      Value mapped = nhwc.lookup(result);
      b.setInsertionPointAfterValue(mapped);
      Value back = toNchw(op->getLoc(), mapped, rank4(result));
      for (OpOperand *use : outside)
        use->set(back);
    }
    for (Operation *op : llvm::reverse(members))
      op->erase();
    return success();
  }

  Block &body;
  OpBuilder b;
  Components sets;
  DenseSet<Value> blocked;
  DenseMap<Operation *, Role> roles;
  llvm::MapVector<Value, Component> components;
  DenseMap<Value, Value> nhwc;
};

} // namespace

FailureOr<int64_t> ms::assignChannelsLast(func::FuncOp func) {
  if (func.getBody().empty())
    return 0;
  return LayoutAssignment(func.getBody().front()).run();
}
