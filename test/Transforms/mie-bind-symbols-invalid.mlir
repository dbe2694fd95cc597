// RUN: ms-opt %s -split-input-file -mie-bind-symbols -verify-diagnostics

// Tests that a symbol read in a private function is refused: kernels get values as arguments.

// expected-error@+1 {{mie-bind-symbols: symbol values in private function 'kernel'}}
func.func private @kernel() {
  %s = mie.symbol 0 : index
  return
}

// -----

// Tests that a dynamic argument without its dims over the symbols is refused.

// expected-error@+1 {{mie-bind-symbols: argument 0 of dynamic type 'memref<?xf32>' needs the identity layout and an 'ms.shape' map of its rank}}
func.func @main(%x: memref<?xf32>) attributes {ms.symbols = ["n"]} {
  %s = mie.symbol 0 : index
  return
}

// -----

// Tests that symbol values of another count than the function's symbols are refused.

func.func @main(%a: memref<1xi8> {mie.slot = "arena"}) attributes {ms.symbols = ["n"]} {
  // expected-error@+1 {{'mie.symbol_values' op expects one element per symbol of the function (1), got 'memref<2xi64>'}}
  %dims = mie.symbol_values : memref<2xi64>
  return
}
