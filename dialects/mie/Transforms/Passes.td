//===- Passes.td - mie dialect passes -------------------------------------===//

#ifndef MIE_TRANSFORMS_PASSES_TD
#define MIE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MieSelectKernelsPass : Pass<"mie-select-kernels", "ModuleOp"> {
  let summary = "Choose the microkernel family and tiling of every library op the target's kernels serve.";
  let description = [{
    For every f32 `mie.conv2d` (groups = 1) and 2-D f32 `mie.gemm` whose weights are constant, picks
    the register tile of the target's microkernel family (`mie.target` of the module: AVX-512 when
    its features have +avx512f, else AVX2 on x86-64, NEON on aarch64) and the K / thread blocks from
    a cost model: the tile's measured efficiency times the share of its lanes the shape fills, K
    blocks that keep a tile's panels in L1, thread blocks that fit L2 and give every thread several
    work items. The choice is recorded as `ukernel = #mie.ukernel<family, isa, tiling...>` on the op
    (`conv_gemm`, the implicit GEMM, for a convolution; `gemm` for a product).

    3x3 stride-1 convolutions with at least 16 input and output channels take `winograd_2x2` or
    `winograd_4x4` (F(2x2, 3x3): 16 GEMMs of F x tiles x C, 2.25x fewer multiplications; off with
    winograd=false).
    A 1x1 stride-1 unpadded convolution of one image whose pixels fill the vector lanes poorly
    (late layers: 7x7 = 49 pixels) becomes `mie.gemm` with the pixels as rows: x^T [P, C] times
    w^T [C, F] on collapsed 2-D views, written back transposed (`trans_c`), when the cost model
    predicts 2% more for it than for the NCHW form, its transposed store counted. Any other
    convolution the same cost model prefers that way (3x3 or 1x1 stride 2 on a small map, a batch)
    takes `conv_pixel_rows`: the transposed implicit GEMM, its pixels packed as rows. Convolutions
    with at most 8 input channels and K = C * KH * KW <= 256 (stems) take `conv_direct`: the
    direct kernel reads their input rows in place, where packing pixel panels would cost as much as
    the products. Depthwise convolutions (strides 1 or 2) take `depthwise`, f32 max pooling
    `max_pool` and f32 attention `attention`. On targets with AMX-BF16, bf16 convolutions (groups = 1, constant filter) and 2-D
    bf16 products with constant weights, summed in f32, take the "amx" tiling, and bf16 depthwise
    convolutions on every ISA get the bf16 depthwise microkernel. Any other f16/bf16 product with
    an f32 `accumulator` is first rewritten onto f32 copies of its operands (constant weights
    converted at compile time, activations by a "widen" kernel, the result rounded back by a
    "narrow" kernel) and then takes the f32 tiles like any f32 op. Ops it does not serve (grouped
    convolutions, batched products with alpha != 1, narrow products summed in their own type) keep
    no `ukernel` and take the portable linalg path of `mie-lower-library-kernels`.
  }];
  let options = [
    Option<"isa", "isa", "std::string", /*default=*/"\"\"",
           "Microkernel ISA (avx512, avx2, neon); empty: from the module's mie.target">,
    Option<"minWorkItems", "min-work-items", "int64_t", /*default=*/"16",
           "Split thread blocks until a kernel has at least this many work items">,
    Option<"winograd", "winograd", "bool", /*default=*/"true",
           "Compute 3x3 stride-1 convolutions (>= 16 channels in and out) by Winograd F(2x2, 3x3)">,
  ];
  let dependentDialects = ["::mlir::mie::MieDialect", "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def MiePackWeightsPass : Pass<"mie-pack-weights", "ModuleOp"> {
  let summary = "Pack constant weights at compile time into the panel layout their microkernel reads.";
  let description = [{
    For every `mie.conv2d` with a tiled `ukernel` whose filter is a constant `memref.global`,
    writes a new constant global holding the filter as its family reads it: LHS panels
    [ceil(F / mr), C * KH * KW, mr] (zero-padded past F, K in (c, kh, kw) order; conv_gemm and
    conv_direct), RHS panels [ceil(F / nr), K, nr] of w^T (conv_pixel_rows), or the Winograd-
    transformed panels, and records the logical shape as `filter_shape`; a channels-last
    depthwise filter becomes [KH * KW, C]. For every 2-D `mie.gemm` with a `ukernel` whose `b` is
    constant, writes op(b) * alpha as RHS panels
    [ceil(N / nr), K, nr], sets `b_packed` and alpha = 1. Old globals no longer read are erased. Ops
    whose weights are not constant lose their `ukernel` (the portable path computes them).

    Nothing is repacked at run time: the panels go to the package's weights blob as they are.
  }];
  let dependentDialects = ["::mlir::mie::MieDialect", "::mlir::memref::MemRefDialect"];
}

def MieWidenAccumulationPass : Pass<"mie-widen-accumulation", "ModuleOp"> {
  let summary = "Give f16/bf16 convolutions and GEMMs left to the portable path an f32 accumulator";
  let description = [{
    The portable lowering of `mie.conv2d` / `mie.gemm` (mie-lower-library-kernels without a
    `ukernel`) sums products in the element type of its buffers. For every such op
    whose buffers are f16 or bf16 and whose `accumulator` is wider (f32, set from the ms op's
    `acc_type` by precision assignment), this pass widens the operands into f32 buffers (constant
    weights and biases converted once at compile time into f32 globals, the others by one
    conversion kernel each), runs the op on them, epilogue
    included, with no `accumulator` left to honour, and rounds the result into the original output
    once. Products of two f16/bf16 values are exact in f32, so this is f32 accumulation of the
    narrow operands. Ops with a `ukernel` are left to their microkernels, which take
    `accumulator` themselves. Runs after mie-select-kernels and mie-pack-weights, before
    mie-lower-library-kernels.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect"];
}

def MieGpuLibraryCallsPass : Pass<"mie-gpu-library-calls", "ModuleOp"> {
  let summary = "Place the convolutions and GEMMs of a cuda target on cuDNN and cuBLASLt.";
  let description = [{
    Acts on modules whose `mie.target` is a cuda target (others are left alone). Each `mie.gemm`
    and `mie.conv2d` the libraries serve is wrapped in a `mie.kernel` (named `gemm_cublaslt` /
    `conv2d_cudnn`) whose body holds the op itself, marked `mie.gpu_library = "cublaslt"` /
    `"cudnn"`, on the kernel's arguments: planning, scheduling and outlining treat it like any
    kernel, `mie-lower-library-kernels` leaves it alone, and `mie-gpu-lower-launches` turns it
    into a call of the runtime's `matmul` / `conv2d` (gpu api 2).

    What of the epilogue the library fuses stays on the op: bias, residual and relu / gelu_tanh
    for cuBLASLt (its RELU / GELU epilogues, GELU being the tanh form), bias, residual and relu
    for cuDNN (cudnnConvolutionBiasActivationForward). The rest (other activations, a clamp) is
    applied in place on the output by a `linalg.generic` after the op in the same kernel, which
    becomes a generated GPU kernel.

    Served: f32, f16 and bf16 buffers of one element type with an f32 (or no) accumulator, static
    identity layouts, no `ukernel`; GEMMs 2-D or batched, without `trans_c`;
    convolutions with the same padding on both sides of each dimension. Anything else keeps the
    generated kernel.
  }];
  let options = [
    Option<"libraries", "libraries", "std::string", /*default=*/"\"cublaslt,cudnn\"",
           "Which libraries to call: a comma-separated subset of cublaslt,cudnn, or none">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def MieLowerLibraryKernelsPass : Pass<"mie-lower-library-kernels", "ModuleOp"> {
  let summary = "Implement library kernels (mie.conv2d, mie.gemm) as generated kernels.";
  let description = [{
    Replaces each `mie.conv2d` / `mie.gemm` by a `mie.kernel`.

    With a `ukernel` the kernel calls the microkernels (runtime/src/ukernels), the lowering looked
    up by the family (a table in LowerLibraryKernels.cpp; a file per family,
    *UKernelLowering.cpp); the register tile must be one the registry lists. For the GEMM-based
    families: one
    `scf.parallel` over thread work items (image x pixel block x filter block for a convolution, row
    block x column block for a GEMM), K blocks inside, each packing its activation panels into a
    stack buffer (`mie_uk_f32_pack_*`) and running the register tiles (`mie_uk_f32_gemm_*`) with the
    epilogue applied to the last K block before the store. The microkernels are declared here and
    linked from bitcode at code generation.

    Otherwise the body is linalg on the same buffers: a zero-padded copy of the input when the
    convolution pads (a new `mie.alloc`, so memory planning places it), the convolution or matrix
    product, then the epilogue (bias, residual, activation, clamp) applied in place on the output.
    Grouped and depthwise convolutions use the grouped linalg form through reshaped views.

    Runs before memory planning so that its scratch buffers are planned like any other.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def MieResultsToOutputsPass : Pass<"mie-results-to-outputs", "ModuleOp"> {
  let summary = "Turn buffer results of public functions into caller-provided output arguments.";
  let description = [{
    For every public function returning memrefs, appends one argument per result (after the inputs,
    keeping the result's attributes, e.g. `mie.name`) and returns nothing. A result that is a
    `mie.alloc` of the function, returned once, is replaced by the output argument itself, so the
    kernel producing it writes straight into the caller's buffer; any other result (an input, a
    constant, a buffer returned twice) is copied into its output by a `mie.kernel "copy_output"`.
  }];
  let dependentDialects = ["::mlir::mie::MieDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MieScheduleForMemoryPass : Pass<"mie-schedule-for-memory", "func::FuncOp"> {
  let summary = "Reorder independent kernels to lower the most bytes live at once.";
  let description = [{
    A memory-aware schedule for `mie-plan-memory`: the kernels of a public single-block function
    are list-scheduled over their dependencies (a kernel reading a buffer after the kernel writing
    it, and a kernel writing a buffer after every earlier kernel reading or writing it), each step
    taking, among the kernels whose dependencies have run, the one that adds the fewest bytes of
    `mie.alloc` buffers to those alive (the bytes of the buffers it touches first, less those of the
    buffers it touches last), the earlier one in the current order on a tie. The new order is kept
    only if its peak of live bytes (what `mie-plan-memory` reports as the lower bound) is lower than
    the current order's; otherwise the function is left unchanged. Reordering kernels that share no
    buffer changes no result and, on one stream of kernels, no time.

    Side-effect-free ops (views, constants) and allocations move with the first kernel that uses
    them. Ops other than `mie.kernel` with memory effects stay ordered against everything.
  }];
  let dependentDialects = ["::mlir::mie::MieDialect"];
}

def MiePlanMemoryPass : Pass<"mie-plan-memory", "func::FuncOp"> {
  let summary = "Place every mie.alloc at an offset of one arena, reusing memory by lifetime.";
  let description = [{
    Computes each `mie.alloc`'s lifetime over the function's (single-block) op sequence, from its
    first to its last use, and packs the buffers into one arena: two buffers share bytes only if
    their lifetimes are disjoint, with one exception: an output first written by an elementwise
    kernel at which an input of the same type is read for the last time takes over that input's
    bytes (in-place reuse; `mayWriteInPlace` checks the kernel body). Packing (`planArena`): greedy
    best and first fit in several orders, a deterministic local search over the order, and an
    exhaustive branch and bound on small problems; `alignment`-aligned offsets. Each alloc becomes a
    `mie.view` of a new trailing function argument `%arena : memref<Nxi8>` and the function gets
    `mie.arena_bytes = N` and `mie.memory`, the plan for `mie-compile --report=memory` and
    `--memory-plot`: `heuristic` (how the plan was found), `optimal`, `in_place` (buffers written
    over an input), `lower_bound` (the most bytes live at one op) and `peak_op` (where), `naive`
    (the sum of all buffers), `peak` (the largest buffers live at the peak with the ONNX nodes of
    their locations), and `buffers` / `buffer_nodes` (every packed buffer's offset, size, first and
    last op, and nodes). The op where buffers are used for the last time gets `mie.dead_after`,
    their bytes (what `mie-run --poison-dead-buffers` overwrites after it).

    Buffers reached through view-like ops (collapse/expand/subview/cast) live as long as their
    last alias is used. Only public functions are planned (the arena is their argument).

    Expects: buffers only used by ops of the same block (no escaping through returns or calls).
  }];
  let dependentDialects = ["::mlir::mie::MieDialect", "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def MieCheckMemoryPlanPass : Pass<"mie-check-memory-plan", "func::FuncOp"> {
  let summary = "Fail if two buffers alive at the same op share bytes of the arena.";
  let description = [{
    The safety check of memory planning, run after `mie-plan-memory` in the pipeline and the tests.
    It re-derives everything from the planned IR rather than trusting the planner: each `mie.view`
    of the function's arena argument (`mie.name = "arena"`) is one buffer covering
    [offset, offset + size); it is alive from the first to the last op that uses it or a view of it.
    Two buffers alive at the same op must not share a byte, with one exception: an output written
    in place over an input that dies at that kernel (the same bytes, and a kernel body for which
    in-place writing is safe, as `mie-plan-memory` decides it). Every buffer must also lie inside
    the arena (`mie.arena_bytes`).

    Expects: one `mie.view` per buffer, as `mie-plan-memory` leaves them (CSE may later merge the
    views of two buffers planned at the same offset, which would read as one long-lived buffer).
  }];
}

def MieBundleWeightsPass : Pass<"mie-bundle-weights", "ModuleOp"> {
  let summary = "Move constant memref.globals into one aligned weights blob.";
  let description = [{
    Concatenates the bytes of every constant `memref.global` (64-byte aligned) into one blob stored
    as the module attribute `mie.weights` (a `dense_resource` of i8, written to the package's weights
    section), and replaces each `memref.get_global` by a `mie.view` of a new function argument
    `%weights : memref<Nxi8>` placed after the arena. The globals are erased; a private function
    reading one is an error (weights reach kernels as arguments, so run this before outlining).
  }];
  let dependentDialects = ["::mlir::mie::MieDialect"];
}

def MieBindRandomKeyPass : Pass<"mie-bind-random-key", "ModuleOp"> {
  let summary = "Make the run's random key an entry argument the runtime fills.";
  let description = [{
    The kernels of `ms.random_uniform` / `ms.random_normal` read the run's Philox key and run
    counter from `memref.global @mie_random_key : memref<2xi64>` (docs/random.md). This pass
    replaces every `memref.get_global @mie_random_key` of the public function by a new last
    argument `%random_key : memref<2xi64>` (`mie.name = "random_key"`; after the arena and the
    weights, so it is the last slot of mie_entry's `args`, which only kernel ABI 5 passes) and
    erases the global. A module without the global is left alone. Errors: a private function
    reading the global (run before outlining), or a cuda target (its entry takes device pointers,
    and no device copy of the key is made yet).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MieBindSymbolsPass : Pass<"mie-bind-symbols", "ModuleOp"> {
  let summary = "Give code for symbolic dims the run's symbol values and its arena size function.";
  let description = [{
    Code compiled for every shape of a model's symbolic dims (docs/dynamic-shapes.md) reads the
    run's symbol values through `mie.symbol` ops and has entry arguments of dynamic shape. The
    runtime passes bare pointers and, as the last slot of mie_entry's `args` (kernel ABI 7), the
    symbol values as int64s. This pass:
      - adds `mie_arena_bytes`, the public function the runtime calls with the symbol values to size
        the arena before a run: a copy of the computation of the total that mie-plan-memory left at
        the start of the entry (the size of the arena argument's cast);
      - makes each dynamic input and output argument its pointer alone (a one-element buffer), seen with the dims
        its `ms.shape` map gives (identity layout) through a `memref.reinterpret_cast`;
      - appends `%dims : memref<Nxi64>` (`mie.name = "dims"`) to both functions, after the random
        key slot in the entry (an unused `random_key` argument is added where the code draws no random
        numbers, so that the slot positions match), and replaces every `mie.symbol` by a load of
        its value.
    A module without `mie.symbol` is left alone. Errors: a `mie.symbol` in a private function (run
    before outlining), a dynamic entry argument without an `ms.shape`, or a non-identity layout.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def MieOutlineKernelsPass : Pass<"mie-outline-kernels", "ModuleOp"> {
  let summary = "Turn every mie.kernel into a private function and a call.";
  let description = [{
    Each `mie.kernel "name"` becomes `func.func private @<function>_k<N>_<name>` taking its buffers
    and a `func.call` in its place, so that every kernel is one symbol in the generated code (for
    profiling and for per-kernel code generation choices).

    Buffer arguments are marked `llvm.noalias`: a kernel's outputs never share bytes with its inputs
    (each op writes a fresh buffer, and memory planning keeps buffers that are alive at the same
    kernel apart), which lets LLVM keep accumulators in registers and vectorize.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MieParallelizeLoopsPass : Pass<"mie-parallelize-loops", "ModuleOp"> {
  let summary = "Run the outer parallel loop of every kernel on the runtime's thread pool.";
  let description = [{
    Expects outlined kernels whose linalg ops were lowered to `scf.parallel` nests. Each top-level
    `scf.parallel` of a kernel with a dimension of static trip count > 1 is split on that dimension:
    its body moves into `@<kernel>_p<N>(captures..., %begin, %end)`, which runs the iterations
    [begin, end) of that dimension, and the loop is replaced by a call to the declaration
    `@<kernel>_p<N>__dispatch(%env, captures..., %count)`. Code generation implements each dispatch
    as one `env->parallel_for(pool, count, 0, trampoline, captures)` call (the kernel ABI of
    runtime/include/mie/mie_kernel_abi.h). Every public function and every kernel that dispatches
    gets the environment pointer as a new first argument `%env : !llvm.ptr`.

    Calls of runtime services, external functions named `mie_host_*` (`mie_host_decode_image`:
    convert-ms-to-mie's ImageDecoder kernel), get the environment as a new first operand, their
    declarations a new first parameter, and the kernels that call them the environment too; code
    generation implements them through the environment's host api (kernel ABI 6).

    Captures must be function arguments (buffers, passed as bare pointers) or index values; constants
    and pure views are cloned into the body. A loop whose captures do not fit stays serial, and so
    does one whose buffers all hold fewer than `min-bytes` bytes: waking threads would cost more than
    the split saves.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"65536",
           "Keep a loop serial when every buffer it reads or writes is smaller than this">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def MieGpuMapLoopsPass : Pass<"mie-gpu-map-loops", "ModuleOp"> {
  let summary = "Turn the parallel loops of every kernel into GPU launches (cuda targets).";
  let description = [{
    Expects outlined kernels whose linalg ops were lowered to `scf.parallel` nests (as
    `mie-parallelize-loops` does for cpu targets). In every function, each top-level `scf.parallel`
    becomes a `gpu.launch` of one-dimensional blocks of `block-size` threads: the loop's iteration
    space is flattened, innermost dimension fastest (so neighbouring threads touch neighbouring
    elements of the innermost dimension: coalesced), and each thread runs a grid-stride loop over
    the flat index, at most `max-blocks` blocks. Inner parallel loops stay in the body (sequential
    per thread). `memref.copy` becomes such a loop first.

    A function with any other op of memory effect at its top level (a sequential loop around
    parallel ones, a scalar load) runs as one single-thread launch: correct, slow, and reported by
    the kernel name in docs/cuda.md. Calls (the entry's kernel launches) stay on the host.

    Constants, pure index arithmetic, views and `memref.alloca` used by a launch are cloned into it,
    so that its captures are only function arguments (static buffers, passed as bare pointers) and
    scalars, as `gpu-kernel-outlining` and the bare-pointer NVVM lowering need.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256", "Threads per block">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"65536",
           "The most blocks of one launch (threads then stride over the rest)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def MieGpuMergeModulesPass : Pass<"mie-gpu-merge-modules", "ModuleOp"> {
  let summary = "Move every outlined GPU kernel into one gpu.module.";
  let description = [{
    `gpu-kernel-outlining` makes one `gpu.module` per kernel; each would become a cubin of its own
    (one ptxas run and one module load each). This pass moves every `gpu.func` into the first
    module, renamed `module-name`, and points the `gpu.launch_func` ops at it. Outlining makes
    module names unique but not the kernels in them (two launches in `f` give modules `f_kernel`
    and `f_kernel_0`, each holding a kernel `f_kernel`), so each kernel takes its module's name.
  }];
  let options = [
    Option<"moduleName", "module-name", "std::string", /*default=*/"\"mie_gpu\"",
           "Name of the merged module">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def MieGpuLowerLaunchesPass : Pass<"mie-gpu-lower-launches", "ModuleOp"> {
  let summary = "Lower gpu.launch_func to calls through the runtime's GPU API (kernel ABI 4).";
  let description = [{
    Runs after `gpu-module-to-binary`: the `gpu.binary` ops, in module order, are the images the
    code object exports as `mie_gpu_modules` (their index is the `module` argument below). Each
    `gpu.launch_func` becomes, through `env->gpu` (`mie_kernel_env` offset 48) and `env->gpu_ctx`
    (offset 40):

      fn = gpu->get_function(ctx, module, "kernel")         // offset 8 of mie_gpu_api
      rc = gpu->launch(ctx, fn, grid xyz, block xyz, shared bytes, params)  // offset 16

    with `params` an array of pointers to each kernel argument (a buffer's aligned pointer, an
    index as i64, other scalars as they are): the bare-pointer calling convention of
    `convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv}`. A missing function is status 1.

    Every public function and every function that launches gets `%env : !llvm.ptr` as a new first
    argument and returns an i32 status: 0, or the first non-zero one of a launch or of a call to
    such a function, returned at once (later launches do not run). Launches and such calls must be
    at the top level of their function's body.

    Library ops (`mie.gemm` / `mie.conv2d` marked `mie.gpu_library` by `mie-gpu-library-calls`)
    become calls of `gpu->matmul` (offset 40) / `gpu->conv2d` (offset 48) with a constant
    descriptor (`struct mie_gpu_matmul_desc` / `mie_gpu_conv2d_desc` of mie_kernel_abi.h, emitted
    as an array of i64 words) and the operands' device pointers (NULL for an absent bias or
    residual), their status handled as a launch's; status 2 where the runtime's gpu api is older
    than version 2 (`mie_gpu_api::version` < 2). The module then defines the exported i64
    `mie_gpu_libraries`: the MIE_GPU_LIBRARY_* bits of the libraries it calls.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def MieInsertProfileHooksPass : Pass<"mie-insert-profile-hooks", "ModuleOp"> {
  let summary = "Call the runtime's profile hook around every kernel launch.";
  let description = [{
    In every public function (an entry, whose first argument is the environment `%env : !llvm.ptr`
    that `mie-parallelize-loops` added), each kernel launch number N (launches in program order, the
    numbering of the manifest's "kernels" list) gets `func.call @mie_profile_hook(%env, N, 0)` before
    it and `func.call @mie_profile_hook(%env, N, 1)` after it. The hook is declared here; code
    generation implements it as a test of `env->profile` (kernel ABI 2) and a call when it is set, so
    an unprofiled run pays two predictable branches per kernel.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def MieLowerViewsPass : Pass<"mie-lower-views", "ModuleOp"> {
  let summary = "Lower mie.view to memref.view.";
  let description = [{
    `mie.view %base[offset]` becomes `memref.view %base[%c_offset][]`: the placed buffer as a typed
    view of the arena or weights bytes. Runs after planning, before lowering to LLVM.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def MieExpandMathPass : Pass<"mie-expand-math", "ModuleOp"> {
  let summary = "Replace transcendental math ops by polynomial approximations.";
  let description = [{
    exp, log, tanh, erf, sin, cos, atan, asin, acos and the powers and hyperbolic functions built
    from them become arithmetic (upstream expansions and polynomial approximations), so generated
    code vectorizes and needs no libm symbols. bf16 arithmetic is then emulated in f32 and bf16
    conversions become integer bit operations, so no soft-float helper (`__truncsfbf2`) is called.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect",
                           "::mlir::math::MathDialect"];
}

#endif // MIE_TRANSFORMS_PASSES_TD
