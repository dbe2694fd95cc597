//===- KernelReport.cpp - which products run on microkernels --------------===//
//
// mie-select-kernels marks every convolution, GEMM and attention it leaves to the portable path
// with `mie.portable` (its shapes and the reason), as does ms-to-mie for a matmul with no library
// form; the mark travels to the kernel and its outlined function. The report and the compiler's
// warning read it there, so a slow path is named at compile time instead of found in a profile.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Utils/KernelLaunches.h"
#include "mie/Target/UKernelRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

/// Whether an outlined kernel calls a microkernel of the registry.
static bool callsMicrokernel(func::FuncOp callee) {
  bool found = false;
  callee.walk([&](func::CallOp call) {
    if (call.getCallee().starts_with(mie::kUKernelPrefix))
      found = true;
  });
  return found;
}

std::vector<mie::PortableProduct> mlir::mie::collectPortableProducts(ModuleOp module) {
  std::vector<PortableProduct> products;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    for (func::CallOp launch : collectKernelLaunches(module, func)) {
      auto callee = module.lookupSymbol<func::FuncOp>(launch.getCallee());
      if (!callee)
        continue;
      if (auto reason = callee->getAttrOfType<StringAttr>(MieDialect::getPortableAttrName()))
        products.push_back({launch.getLoc(), launch.getCallee().str(), reason.str()});
    }
  }
  return products;
}

std::string mlir::mie::buildKernelReport(ModuleOp module, StringRef target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "kernel report (" << target << ")\n";
  int64_t microkernel = 0, total = 0;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    for (func::CallOp launch : collectKernelLaunches(module, func)) {
      ++total;
      if (auto callee = module.lookupSymbol<func::FuncOp>(launch.getCallee()))
        microkernel += callsMicrokernel(callee);
    }
  }
  std::vector<PortableProduct> portable = collectPortableProducts(module);
  os << llvm::formatv("  kernels: {0}, calling microkernels: {1}, portable products: {2}\n", total,
                      microkernel, portable.size());
  for (const PortableProduct &product : portable) {
    os << llvm::formatv("  portable  {0,-36} <- ", product.kernel);
    llvm::interleaveComma(sourceNodeNames(product.loc), os);
    os << "\n            " << product.reason << "\n";
  }
  os << "kernels: target=" << target << " microkernel_kernels=" << microkernel
     << " portable_products=" << portable.size() << "\n";
  return text;
}
