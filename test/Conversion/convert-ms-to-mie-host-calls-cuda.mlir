// RUN: ms-opt %s -split-input-file -convert-ms-to-mie -verify-diagnostics

// Tests that ImageDecoder is refused on a cuda target, at the node: the codecs run on the host.

module attributes {mie.target = #mie.target<cuda, "sm_90">} {
  func.func @decode(%bytes: tensor<64xui8>) -> tensor<4x4x3xui8> {
    // expected-error @+1 {{ImageDecoder is not supported on cuda targets (the codecs run on the host); compile for a cpu target}}
    %0 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format rgb>} : (tensor<64xui8>) -> tensor<4x4x3xui8>
    return %0 : tensor<4x4x3xui8>
  }
}

// -----

// Tests that a run-time check is refused on a cuda target too, with its message: the host api that
// reports it is the cpu runtime's.

module attributes {mie.target = #mie.target<cuda, "sm_90">} {
  func.func @check(%i: tensor<3xi64>, %ok: tensor<i1>) -> tensor<3xi64> {
    // expected-error @+1 {{run-time checks of values against declared shapes are not supported on cuda targets yet (Slice node 's': bad); compile for a cpu target}}
    %0 = ms.check %i, %ok {message = "Slice node 's': bad"} : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
    return %0 : tensor<3xi64>
  }
}
