// RUN: mie-compile %s --emit=llvm --parallel-min-bytes=0 -o - | FileCheck %s --implicit-check-not=scatter_elements_p1 \
// RUN:   --implicit-check-not=scatter_nd_p1 --implicit-check-not=main_k4_cumsum_p1

// Tests, through the whole pipeline, which loops of the scan and scatter kernels
// mie-parallelize-loops splits across threads (each split loop becomes a <kernel>_pN body run by
// parallel_for): a scatter only its copy of the data (p0), never its update loop, where duplicate
// indices would race; top_k, a constant-axis cumsum and arg_max their loops over independent lines.
// A runtime cumsum axis gives loop bounds known at run time only: the loop over its lines is split
// by a trip count computed before the dispatch.

// CHECK-DAG: define internal void @main_k0_scatter_elements_p0__trampoline
// CHECK-DAG: define internal void @main_k1_scatter_nd_p0__trampoline
// CHECK-DAG: define internal void @main_k2_top_k_p0__trampoline
// CHECK-DAG: define internal void @main_k3_cumsum_p0__trampoline
// CHECK-DAG: define internal void @main_k4_cumsum_p0__trampoline
// CHECK-DAG: define internal void @main_k5_arg_max_p{{[0-9]}}__trampoline
func.func @main(%d: tensor<8x4xf32> {mie.name = "d"}, %i: tensor<300x4xi64> {mie.name = "i"},
                %u: tensor<300x4xf32> {mie.name = "u"}, %t: tensor<50x1xi64> {mie.name = "t"},
                %r: tensor<50x4xf32> {mie.name = "r"}, %x: tensor<6x50xf32> {mie.name = "x"},
                %a: tensor<1xi64> {mie.name = "a"})
    -> (tensor<8x4xf32> {mie.name = "se"}, tensor<8x4xf32> {mie.name = "snd"},
        tensor<6x5xf32> {mie.name = "v"}, tensor<6x5xi64> {mie.name = "k"},
        tensor<6x50xf32> {mie.name = "c"}, tensor<6x50xf32> {mie.name = "cr"}, tensor<6xi64> {mie.name = "am"}) {
  %0 = ms.scatter_elements %d, %i, %u {reduction = #ms<scatter_reduction add>} : (tensor<8x4xf32>, tensor<300x4xi64>, tensor<300x4xf32>) -> tensor<8x4xf32>
  %1 = ms.scatter_nd %d, %t, %r {reduction = #ms<scatter_reduction add>} : (tensor<8x4xf32>, tensor<50x1xi64>, tensor<50x4xf32>) -> tensor<8x4xf32>
  %2:2 = ms.top_k %x {k = 5 : i64} : (tensor<6x50xf32>) -> (tensor<6x5xf32>, tensor<6x5xi64>)
  %c = ms.constant dense<1> : tensor<i64>
  %3 = ms.cumsum %x, %c : (tensor<6x50xf32>, tensor<i64>) -> tensor<6x50xf32>
  %4 = ms.cumsum %x, %a : (tensor<6x50xf32>, tensor<1xi64>) -> tensor<6x50xf32>
  %5 = ms.arg_max %x {axis = 1 : i64} : (tensor<6x50xf32>) -> tensor<6xi64>
  return %0, %1, %2#0, %2#1, %3, %4, %5 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<6x5xf32>, tensor<6x5xi64>, tensor<6x50xf32>, tensor<6x50xf32>, tensor<6xi64>
}
