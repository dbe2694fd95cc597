//===- InitAll.h - register every dialect and pass of the project -*- C++ -*-===//
//
// The one place that lists our dialects and passes, shared by ms-opt, mie-compile and the Python
// bindings so all of them accept the same IR and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_INITALL_H
#define MIE_INITALL_H

namespace mlir {
class DialectRegistry;
namespace mie {

/// Adds the ms and mie dialects to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers the project's passes (and pipelines) with the global pass registry.
void registerAllPasses();

} // namespace mie
} // namespace mlir

#endif // MIE_INITALL_H
