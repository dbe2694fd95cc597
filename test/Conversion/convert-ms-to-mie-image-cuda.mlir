// RUN: ms-opt %s -convert-ms-to-mie -verify-diagnostics

// Tests that ImageDecoder is refused on a cuda target, at the node: the codecs run on the host.

module attributes {mie.target = #mie.target<cuda, "sm_90">} {
  func.func @decode(%bytes: tensor<64xui8>) -> tensor<4x4x3xui8> {
    // expected-error @+1 {{ImageDecoder is not supported on cuda targets (the codecs run on the host); compile for a cpu target}}
    %0 = ms.image_decode %bytes {height = 4, width = 4, pixel_format = #ms<pixel_format rgb>} : (tensor<64xui8>) -> tensor<4x4x3xui8>
    return %0 : tensor<4x4x3xui8>
  }
}
