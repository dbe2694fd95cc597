//===- BFloat16AsBits.cpp - bf16 values as i16 bits in LLVM IR ------------===//

#include "BFloat16AsBits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

static bool isBF16(Type *type) { return type->getScalarType()->isBFloatTy(); }

static Type *bitsOf(Type *type) {
  return type->getWithNewType(Type::getInt16Ty(type->getContext()));
}

/// `v` as its bits: the operand of a bitcast from them, else a new bitcast before `at`.
static Value *toBits(Value *v, IRBuilder<> &b) {
  if (auto *cast = dyn_cast<BitCastInst>(v); cast && cast->getSrcTy() == bitsOf(v->getType()))
    return cast->getOperand(0);
  return b.CreateBitCast(v, bitsOf(v->getType()));
}

/// Rewrites `inst` (a bf16-typed move) to move bits; returns whether it did.
static bool rewrite(Instruction *inst) {
  if (auto *store = dyn_cast<StoreInst>(inst)) {
    if (!isBF16(store->getValueOperand()->getType()))
      return false;
    IRBuilder<> b(store);
    store->setOperand(0, toBits(store->getValueOperand(), b));
    return true;
  }
  if (!isBF16(inst->getType()))
    return false;
  Type *type = inst->getType(), *bits = bitsOf(type);
  Value *moved = nullptr;
  if (auto *phi = dyn_cast<PHINode>(inst)) {
    IRBuilder<> b(phi);
    PHINode *bitsPhi = b.CreatePHI(bits, phi->getNumIncomingValues());
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      IRBuilder<> pred(phi->getIncomingBlock(i)->getTerminator());
      bitsPhi->addIncoming(toBits(phi->getIncomingValue(i), pred), phi->getIncomingBlock(i));
    }
    IRBuilder<> after(phi->getParent(), phi->getParent()->getFirstInsertionPt());
    phi->replaceAllUsesWith(after.CreateBitCast(bitsPhi, type));
    phi->eraseFromParent();
    return true;
  }
  IRBuilder<> b(inst);
  if (auto *load = dyn_cast<LoadInst>(inst)) {
    LoadInst *bitsLoad =
        b.CreateAlignedLoad(bits, load->getPointerOperand(), load->getAlign(), load->isVolatile());
    bitsLoad->copyMetadata(*load);
    moved = bitsLoad;
  } else if (auto *select = dyn_cast<SelectInst>(inst)) {
    moved = b.CreateSelect(select->getCondition(), toBits(select->getTrueValue(), b),
                           toBits(select->getFalseValue(), b));
  } else if (auto *extract = dyn_cast<ExtractElementInst>(inst)) {
    moved =
        b.CreateExtractElement(toBits(extract->getVectorOperand(), b), extract->getIndexOperand());
  } else if (auto *insert = dyn_cast<InsertElementInst>(inst)) {
    moved = b.CreateInsertElement(toBits(insert->getOperand(0), b),
                                  toBits(insert->getOperand(1), b), insert->getOperand(2));
  } else if (auto *shuffle = dyn_cast<ShuffleVectorInst>(inst)) {
    moved = b.CreateShuffleVector(toBits(shuffle->getOperand(0), b),
                                  toBits(shuffle->getOperand(1), b), shuffle->getShuffleMask());
  } else {
    return false;
  }
  inst->replaceAllUsesWith(b.CreateBitCast(moved, type));
  inst->eraseFromParent();
  return true;
}

void mlir::mie::bfloat16AsBits(Module &module) {
  for (Function &function : module) {
    SmallVector<Instruction *> work;
    for (Instruction &inst : instructions(function))
      if (isa<StoreInst, PHINode, LoadInst, SelectInst, ExtractElementInst, InsertElementInst,
              ShuffleVectorInst>(inst))
        work.push_back(&inst);
    bool changed = false;
    for (Instruction *inst : work)
      changed |= rewrite(inst);
    if (!changed)
      continue;
    // Bitcast pairs through bf16 (bits -> bf16 -> bits) fold away; what is left unused goes.
    SmallVector<Instruction *> casts;
    for (Instruction &inst : instructions(function))
      if (isa<BitCastInst>(inst))
        casts.push_back(&inst);
    for (Instruction *inst : casts)
      if (auto *inner = dyn_cast<BitCastInst>(inst->getOperand(0));
          inner && inner->getSrcTy() == inst->getType())
        inst->replaceAllUsesWith(inner->getOperand(0));
    for (Instruction *inst : casts)
      RecursivelyDeleteTriviallyDeadInstructions(inst);
  }
}
