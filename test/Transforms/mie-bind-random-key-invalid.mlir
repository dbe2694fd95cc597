// RUN: ms-opt %s -split-input-file -mie-bind-random-key -verify-diagnostics

// Tests that the key read in a private function (after outlining) is rejected.

memref.global "private" @mie_random_key : memref<2xi64>

func.func private @kernel(%y: memref<4xf32>) {
  // expected-error @+1 {{mie-bind-random-key: the random key is read in private function 'kernel'; it reaches kernels as an argument (bind before outlining)}}
  %k = memref.get_global @mie_random_key : memref<2xi64>
  return
}

// -----

// Tests that a cuda target is refused with the ops named.

module attributes {mie.target = #mie.target<cuda, "sm_90">} {
  memref.global "private" @mie_random_key : memref<2xi64>
  func.func @main(%y: memref<4xf32>) {
    // expected-error @+1 {{random numbers (RandomUniform, RandomNormal, Bernoulli, Multinomial, Dropout in training mode) are not supported on cuda targets yet; compile for a cpu target}}
    %k = memref.get_global @mie_random_key : memref<2xi64>
    return
  }
}
