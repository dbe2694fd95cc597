"""Real torchvision and timm architectures (random, seeded weights) through mie, checked against
onnxruntime.

Measures whether architectures nobody here wrote compile and match onnxruntime within 1e-4.
Not part of the test suite. Two phases, run with two different Pythons:

1. export (needs Debian's torch + torchvision, so /usr/bin/python3):
     /usr/bin/python3 benchmarks/arch_zoo.py export --out /tmp/arch_zoo [--models a,b] [--opset 17]
   The "timm/<name>" models (architectures torchvision lacks) also need timm importable; timm is
   not imported for the others. timm 0.9.x works with torch 1.13, e.g. from an unpacked wheel:
     PYTHONPATH=/tmp/timm_site /usr/bin/python3 benchmarks/arch_zoo.py export --out /tmp/arch_zoo_timm \
         --models $(/usr/bin/python3 benchmarks/arch_zoo.py list --family timm)
   They are built with timm.create_model(name, pretrained=False, exportable=True) and fed the
   model's default_cfg input_size (copied into the table below); the output is the logits.
   For each model: weights=None, torch.manual_seed(crc32(name)), BatchNorm running stats / gammas /
   betas, LayerNorm affines, all-zero parameters (biases, ViT's class token) and ConvNeXt's layer
   scales (1e-6 at init) given small random values (for timm models also every other parameter
   whose elements are all one constant: layer scales / LayerScale gammas (1e-5, 1e-6: get ~0.3),
   ones-initialised affines and temperatures (get +-10%)), eval mode, torch.onnx.export at --opset
   (falling back to grad-enabled tracing, then lower opsets, when it fails; both are recorded),
   batch 1. Writes
     DIR/<name>/model.onnx, input_<i>.npy, torch_output_<i>.npy, meta.json
     DIR/export.json   {"meta": versions, "models": {name: {"status": "ok"|"export-error", ...}}}
   Every model exports in its own subprocess, so an export crash is recorded, not fatal; each
   export holds the CPU lock described below.

2. check (needs onnxruntime, so the project venv):
     .venv/bin/python benchmarks/arch_zoo.py check /tmp/arch_zoo [--models a,b] \
         [--target x86-64-avx512] [--jobs 2] [--threads 2]
   For each exported model: onnxruntime reference outputs (CPU EP, ORT_DISABLE_ALL, cached as
   DIR/<name>/ref_output_<i>.npy), `mie-compile model.onnx -o model.mie --target=T --jobs=N`
   (600 s limit), `mie-run model.mie --input NAME=input_<i>.npy ... --output NAME=mie_output_<i>.npy
   ...`, then every output compared: shapes must match and max|mie - ort| <= 1e-4 * max(1, max|ort|)
   (integer outputs exactly). Every compile/run/reference holds an exclusive flock(2) on
   /tmp/mie-cpu.lock (the same lock `flock /tmp/mie-cpu.lock CMD` takes), so it never overlaps
   other CPU-heavy jobs that use the lock; compile seconds exclude the wait for the lock.
   Prints one row per model (model, opset, status, max rel err = max|a-b| / max|ref|, max abs err,
   compile s, first line of the diagnostic) and writes DIR/results.json (full stderr tails too).
   Status: pass, mismatch, compile-error, run-error, export-error, ref-error (onnxruntime failed).
   Exit status 1 when any model did not pass.

A dynamic batch (the symbolic-shapes work): `export --batches 1,3` exports every model with its
inputs' and outputs' dim 0 a dynamic axis "batch" (traced at batch 2, as Hugging Face's exporters
do, so no size-1 special case is baked in) and writes input_<i>_b<B>.npy for each B; detectors (one
image, no batch dim) are recorded as no-batch. `check` then compiles ONE package per model with
`--symbolic-dims --dim-range=batch=1..max(B)` and runs it at every B against onnxruntime on the
same export (ref_output_<i>_b<B>.npy); a model passes when every batch does. E.g.
     PYTHONPATH=/tmp/hf_site /usr/bin/python3 benchmarks/arch_zoo.py export --out /tmp/arch_zoo_dyn \
         --batches 1,3 --models $(/usr/bin/python3 benchmarks/arch_zoo.py list --family hf)
     .venv/bin/python benchmarks/arch_zoo.py check /tmp/arch_zoo_dyn
"""
import argparse
import contextlib
import fcntl
import json
import os
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCK = "/tmp/mie-cpu.lock"
TOL = 1e-4

# name -> (family, input shapes). The zoo already has resnet18/50, mobilenet_v2, mobilenet_v3_small.
IMG = [(1, 3, 224, 224)]
MODELS = {
    # classification
    "alexnet": ("cls", IMG),
    "vgg11_bn": ("cls", IMG),
    "squeezenet1_1": ("cls", IMG),
    "densenet121": ("cls", IMG),
    "inception_v3": ("cls", [(1, 3, 299, 299)]),
    "googlenet": ("cls", IMG),
    "shufflenet_v2_x1_0": ("cls", IMG),
    "mnasnet1_0": ("cls", IMG),
    "efficientnet_b0": ("cls", IMG),
    "efficientnet_v2_s": ("cls", IMG),
    "regnet_y_400mf": ("cls", IMG),
    "regnet_x_400mf": ("cls", IMG),
    "convnext_tiny": ("cls", IMG),
    "resnext50_32x4d": ("cls", IMG),
    "wide_resnet50_2": ("cls", IMG),
    "mobilenet_v3_large": ("cls", IMG),
    "vit_b_16": ("cls", IMG),
    "swin_t": ("cls", IMG),
    # semantic segmentation (output "out" only; aux heads are off with weights=None)
    "fcn_resnet50": ("seg", IMG),
    "deeplabv3_mobilenet_v3_large": ("seg", IMG),
    "lraspp_mobilenet_v3_large": ("seg", IMG),
    # video classification; s3d's final AvgPool3d(2,7,7) needs 16 frames at 224
    "r3d_18": ("video", [(1, 3, 8, 112, 112)]),
    "r2plus1d_18": ("video", [(1, 3, 8, 112, 112)]),
    "s3d": ("video", [(1, 3, 16, 224, 224)]),
    # detection: one image; outputs boxes, scores, labels of that image (data-dependent shapes)
    "ssdlite320_mobilenet_v3_large": ("det", [(1, 3, 320, 320)]),
    "fasterrcnn_mobilenet_v3_large_320_fpn": ("det", [(1, 3, 320, 320)]),
    "retinanet_resnet50_fpn": ("det", [(1, 3, 800, 800)]),
    # more detectors (the transform resizes to its own size; batch of one image)
    "fasterrcnn_resnet50_fpn": ("det", [(1, 3, 512, 512)]),
    "retinanet_resnet50_fpn_v2": ("det", [(1, 3, 512, 512)]),
    "fcos_resnet50_fpn": ("det", [(1, 3, 512, 512)]),
    "ssd300_vgg16": ("det", [(1, 3, 300, 300)]),
    "maskrcnn_resnet50_fpn": ("det", [(1, 3, 512, 512)]),
    "keypointrcnn_resnet50_fpn": ("det", [(1, 3, 512, 512)]),
    # optical flow: two images, the final (12th) flow estimate
    "raft_small": ("flow", [(1, 3, 224, 224), (1, 3, 224, 224)]),
}

# timm architectures torchvision lacks: "timm/<timm name>" -> ("timm", [default_cfg input_size]).
IMG256, IMG299 = [(1, 3, 256, 256)], [(1, 3, 299, 299)]
MODELS.update({"timm/" + n: ("timm", shape) for n, shape in [
    # convolutional
    ("res2net50_14w_8s", IMG), ("rexnet_100", IMG), ("ghostnet_100", IMG), ("lcnet_050", IMG),
    ("hrnet_w18_small", IMG), ("dla34", IMG), ("dpn68", IMG), ("nfnet_l0", IMG),
    ("cspdarknet53", IMG256), ("selecsls42b", IMG), ("xception41", IMG299), ("inception_v4", IMG299),
    ("repvgg_a2", IMG), ("mobileone_s0", IMG), ("halonet26t", IMG256),
    # MLP / metaformer
    ("mixer_b16_224", IMG), ("resmlp_12_224", IMG), ("gmlp_ti16_224", IMG), ("poolformer_s12", IMG),
    ("sequencer2d_s", IMG),
    # vision transformers
    ("deit_tiny_patch16_224", IMG), ("cait_xxs24_224", IMG), ("xcit_nano_12_p16_224", IMG),
    ("beit_base_patch16_224", IMG), ("eva02_tiny_patch14_224", IMG), ("convit_tiny", IMG),
    ("pit_ti_224", IMG), ("volo_d1_224", IMG), ("twins_svt_small", IMG), ("pvt_v2_b0", IMG),
    ("coat_lite_tiny", IMG),
    # hybrids
    ("mobilevit_xxs", IMG256), ("levit_128s", IMG), ("edgenext_xx_small", IMG256),
    ("efficientformer_l1", IMG), ("visformer_tiny", IMG), ("maxvit_tiny_rw_224", IMG),
    ("focalnet_tiny_srf", IMG), ("efficientvit_b0", IMG), ("fastvit_t8", IMG256),
]})

# Hugging Face transformers architectures (benchmarks/hf_models.py): "hf/<name>" -> ("hf", shapes).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_models import HF_MODELS  # noqa: E402
MODELS.update({"hf/" + n: ("hf", [s for _, s in spec[3]]) for n, spec in HF_MODELS.items()})


def seed_of(name):
    return zlib.crc32(name.encode())


# --------------------------------------------------------------------------------------------
# export (torch)
# --------------------------------------------------------------------------------------------
def build_model(name):
    """(eval-mode module returning a tensor or a tuple of tensors, input names, output names)."""
    import torch
    import torch.nn as nn
    import torchvision.models as tvm

    family, _ = MODELS[name]
    if family == "hf":
        import hf_models                                # only the hf family needs transformers
        return hf_models.build(name[len("hf/"):])
    if family == "timm":
        import timm                                     # only the timm family needs it
        return timm.create_model(name[len("timm/"):], pretrained=False, exportable=True), None
    if family == "cls":
        return getattr(tvm, name)(weights=None), None
    if family == "video":
        import torchvision.models.video as tvv
        return getattr(tvv, name)(weights=None), None
    if family == "seg":
        import torchvision.models.segmentation as tvs
        inner = getattr(tvs, name)(weights=None, weights_backbone=None)

        class Seg(nn.Module):
            def __init__(self):
                super().__init__()
                self.m = inner

            def forward(self, x):
                return self.m(x)["out"]
        return Seg(), ["out"]
    if family == "det":
        import torchvision.models.detection as tvd
        inner = getattr(tvd, name)(weights=None, weights_backbone=None)

        # Keypoint R-CNN's keypoints are outputs too (without them its keypoint head, which
        # resizes each heatmap to its box's size, is dead code and never imported).
        extra = ["keypoints", "keypoints_scores"] if name.startswith("keypointrcnn") else []

        class Det(nn.Module):
            def __init__(self):
                super().__init__()
                self.m = inner

            def forward(self, x):
                r = self.m([x[0]])[0]
                return tuple(r[k] for k in ["boxes", "scores", "labels"] + extra)
        return Det(), ["boxes", "scores", "labels"] + extra
    if family == "flow":
        import torchvision.models.optical_flow as tvo
        inner = getattr(tvo, name)(weights=None)

        class Flow(nn.Module):
            def __init__(self):
                super().__init__()
                self.m = inner

            def forward(self, a, b):
                return self.m(a, b, num_flow_updates=12)[-1]
        return Flow(), ["flow"]
    raise ValueError(family)


def decorrelate(model, g, constants=False):
    """Like ../shared/models/export_zoo.py's _decorrelate: default-constant tensors (BN running
    stats 0/1, gammas 1, betas 0, zero biases, ...) get small random values, so BN folding and
    affine parts are not numerically trivial and torch.onnx does not dedupe identical
    initializers. With constants (timm), so does every other parameter of more than one element
    that is one constant c: |c| < 1e-3 (layer scales, whose 1e-5 would mute the residual branch)
    -> 0.3 +- 0.05, else c * (1 +- 0.1) (ones-initialised affines, temperatures, ...)."""
    import torch
    import torch.nn as nn

    def rn(t, scale, shift=0.0):
        t.copy_(torch.randn(t.shape, generator=g) * scale + shift)

    done = set()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                if m.affine:
                    rn(m.weight, 0.1, 1.0)
                    rn(m.bias, 0.1)
                    done.update((id(m.weight), id(m.bias)))
                if m.track_running_stats:
                    rn(m.running_mean, 0.1)
                    m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) * 0.5 + 0.75)
            elif isinstance(m, (nn.LayerNorm, nn.GroupNorm)) and m.weight is not None:
                rn(m.weight, 0.1, 1.0)
                rn(m.bias, 0.1)
                done.update((id(m.weight), id(m.bias)))
            elif type(m).__name__ == "CNBlock":          # ConvNeXt layer scale: 1e-6 at init
                rn(m.layer_scale, 0.05, 0.3)
                done.add(id(m.layer_scale))
        for p in model.parameters():                    # zero biases, class tokens, ...
            if id(p) not in done and p.is_floating_point() and not p.any():
                rn(p, 0.02)
                done.add(id(p))
        if constants:
            for p in model.parameters():
                if id(p) in done or not p.is_floating_point() or p.numel() < 2:
                    continue
                c = float(p.reshape(-1)[0])
                if bool((p == c).all()):
                    if abs(c) < 1e-3:
                        rn(p, 0.05, 0.3)
                    else:
                        p.mul_(1.0 + 0.1 * torch.randn(p.shape, generator=g))
                    done.add(id(p))


def export_one(name, out_dir, first_opset, batches=()):
    import warnings
    import numpy as np
    import onnx
    import torch

    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    seed = seed_of(name)
    mdir = os.path.join(out_dir, name)
    os.makedirs(mdir, exist_ok=True)
    torch.manual_seed(seed)
    model, out_names = build_model(name)
    model.eval()
    decorrelate(model, torch.Generator().manual_seed(seed + 1),
                constants=MODELS[name][0] in ("timm", "hf"))
    gen = torch.Generator().manual_seed(seed + 2)
    shapes = MODELS[name][1]
    if batches and MODELS[name][0] == "det":
        return {"status": "no-batch", "reason": "a detector takes one image: it has no batch dim"}

    def inputs(batch=None):
        sized = [s if batch is None else (batch,) + tuple(s[1:]) for s in shapes]
        if MODELS[name][0] == "hf":
            import hf_models
            return hf_models.make_inputs(name[len("hf/"):], gen, sized)
        return tuple(torch.randn(s, generator=gen) for s in sized)

    xs = inputs(2 if batches else None)
    in_names = ["input"] if len(xs) == 1 else ["input_%d" % i for i in range(len(xs))]
    with torch.no_grad():
        ys = model(*xs)
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    out_names = out_names or (["output"] if len(ys) == 1 else ["output_%d" % i for i in range(len(ys))])
    for i, x in enumerate(xs):
        np.save(os.path.join(mdir, "input_%d.npy" % i), x.numpy())
    for i, y in enumerate(ys):
        np.save(os.path.join(mdir, "torch_output_%d.npy" % i), y.numpy())
    for b in batches:
        for i, x in enumerate(inputs(b)):
            np.save(os.path.join(mdir, "input_%d_b%d.npy" % (i, b)), x.numpy())
    dynamic_axes = {n: {0: "batch"} for n in in_names + out_names} if batches else None
    path = os.path.join(mdir, "model.onnx")
    tried = []
    t0 = time.time()
    # Under no_grad, torch 1.13's nn.MultiheadAttention takes its fused fast path
    # (aten::_native_multi_head_attention), which torch.onnx cannot export; with grad enabled
    # (parameters require grad) it takes the plain path. So each opset is tried both ways.
    grad = False
    for opset in range(first_opset, 10, -1):
        for grad in (False, True):
            try:
                with torch.set_grad_enabled(grad):
                    torch.onnx.export(model, xs, path, export_params=True, opset_version=opset,
                                      do_constant_folding=True, input_names=in_names,
                                      output_names=out_names, dynamic_axes=dynamic_axes,
                                      training=torch.onnx.TrainingMode.EVAL)
                break
            except Exception as e:                       # noqa: BLE001 - recorded, next try
                tried.append({"opset": opset, "grad_enabled": grad,
                              "error": ("%s: %s" % (type(e).__name__, e))[:2000]})
        else:
            continue
        break
    else:
        # first line only: some exporter errors go on with a multi-line TorchScript dump
        raise RuntimeError("no opset exported: " + tried[0]["error"].splitlines()[0])
    export_s = time.time() - t0
    m = onnx.load(path)
    checker = "ok"
    try:
        onnx.checker.check_model(path)
    except Exception as e:                               # noqa: BLE001
        checker = str(e)[:500]
    ops = {}
    for n in m.graph.node:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    return {"status": "ok", "opset": opset, "grad_enabled": grad, "failed_tries": tried, "export_s": round(export_s, 1),
            "seed": seed, "inputs": in_names, "input_shapes": [list(s) for s in shapes],
            "batches": list(batches),
            "outputs": [o.name for o in m.graph.output],
            "torch_output_shapes": [list(y.shape) for y in ys],
            "nodes": len(m.graph.node), "ops": ops, "bytes": os.path.getsize(path), "checker": checker}


def cmd_export(args):
    import onnx
    import torch
    import torchvision
    names = [m for m in args.models.split(",") if m] if args.models else list(MODELS)
    versions = {"torch": torch.__version__, "torchvision": torchvision.__version__,
                "onnx": onnx.__version__}
    if any(MODELS.get(n, ("",))[0] == "timm" for n in names):
        import timm
        versions["timm"] = timm.__version__
    if any(MODELS.get(n, ("",))[0] == "hf" for n in names):
        import transformers
        versions["transformers"] = transformers.__version__
    os.makedirs(args.out, exist_ok=True)
    jpath = os.path.join(args.out, "export.json")
    models = {}
    if os.path.exists(jpath):
        with open(jpath) as f:
            models = json.load(f).get("models", {})
    for name in names:
        if name not in MODELS:
            sys.exit("unknown model %s (known: %s)" % (name, ", ".join(MODELS)))
        mdir = os.path.join(args.out, name)
        os.makedirs(mdir, exist_ok=True)
        try:
            with cpu_lock():
                t0 = time.time()
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "_export_one", "--out",
                                    args.out, "--models", name, "--opset", str(args.opset),
                                    "--batches", args.batches],
                                   capture_output=True, text=True, timeout=args.timeout)
            meta_path = os.path.join(mdir, "meta.json")
            if p.returncode == 0 and os.path.exists(meta_path):
                with open(meta_path) as f:
                    entry = json.load(f)
            else:
                lines = [l for l in (p.stderr or "").strip().splitlines() if l.strip()]
                entry = {"status": "export-error", "reason": "\n".join(lines[-6:]) or
                         "exit status %d" % p.returncode}
        except subprocess.TimeoutExpired:
            entry = {"status": "export-error", "reason": "export timed out after %d s" % args.timeout}
        models[name] = entry
        msg = ("opset %d, %d nodes, %.1f MB" % (entry["opset"], entry["nodes"], entry["bytes"] / 1e6)
               if entry["status"] == "ok" else entry["reason"].splitlines()[-1][:200])
        print("%-40s %-12s %6.1fs  %s" % (name, entry["status"], time.time() - t0, msg), flush=True)
        with open(jpath, "w") as f:
            json.dump({"meta": versions, "models": models}, f, indent=1)
    print("wrote", jpath)


def parse_batches(text):
    return [int(b) for b in text.split(",") if b]


def cmd_export_one(args):
    entry = export_one(args.models, args.out, args.opset, parse_batches(args.batches))
    with open(os.path.join(args.out, args.models, "meta.json"), "w") as f:
        json.dump(entry, f, indent=1)


# --------------------------------------------------------------------------------------------
# check (onnxruntime + mie)
# --------------------------------------------------------------------------------------------
@contextlib.contextmanager
def cpu_lock():
    with open(LOCK, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def first_diagnostic(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l
    return lines[0] if lines else ""


def ort_reference(mdir, entry, threads, suffix=""):
    """onnxruntime's outputs for input_<i><suffix>.npy (cached as ref_output_<i><suffix>.npy)."""
    import numpy as np
    import onnxruntime as ort
    paths = [os.path.join(mdir, "ref_output_%d%s.npy" % (i, suffix)) for i in range(len(entry["outputs"]))]
    if all(os.path.exists(p) for p in paths):
        return [np.load(p) for p in paths]
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = threads
    feeds = {n: np.load(os.path.join(mdir, "input_%d%s.npy" % (i, suffix)))
             for i, n in enumerate(entry["inputs"])}
    with cpu_lock():
        sess = ort.InferenceSession(os.path.join(mdir, "model.onnx"), so,
                                    providers=["CPUExecutionProvider"])
        refs = sess.run(entry["outputs"], feeds)
    for p, r in zip(paths, refs):
        np.save(p, r)
    return refs


def compare(ours, ref):
    """(ok, max abs err, max rel err = max|a-b| / max|ref|, note)."""
    import numpy as np
    if ours.shape != ref.shape:
        return False, float("nan"), float("nan"), "shape %s != ort %s" % (list(ours.shape), list(ref.shape))
    if ref.size == 0:
        return True, 0.0, 0.0, ""
    if not np.issubdtype(ref.dtype, np.floating):
        wrong = int(np.count_nonzero(ours != ref))
        return wrong == 0, float(wrong and np.max(np.abs(ours.astype(np.float64) - ref))), float("nan"), \
            ("%d of %d elements differ" % (wrong, ref.size) if wrong else "")
    a, b = ours.astype(np.float64), ref.astype(np.float64)
    scale = float(np.max(np.abs(b))) if np.all(np.isfinite(b)) else float("nan")
    err = np.abs(a - b)
    same_nonfinite = ~np.isfinite(b) & (a == b) | (np.isnan(a) & np.isnan(b))
    err[same_nonfinite] = 0.0
    max_abs = float(np.max(err)) if np.all(np.isfinite(err)) else float("inf")
    rel = max_abs / scale if scale and scale == scale else float("nan")
    ok = max_abs <= TOL * max(1.0, scale if scale == scale else 1.0)
    return ok, max_abs, rel, "" if ok else "max|ref|=%.3g" % scale


def check_one(name, entry, args):
    import numpy as np
    mdir = os.path.join(args.dir, name)
    row = {"model": name, "opset": entry.get("opset"), "status": None, "max_rel": None,
           "max_abs": None, "compile_s": None, "diagnostic": ""}
    if entry["status"] != "ok":
        row.update(status=entry["status"] if entry["status"] == "no-batch" else "export-error",
                   diagnostic=entry["reason"].splitlines()[-1][:300], detail=entry["reason"])
        return row
    # A dynamic-batch export runs at each of its batches (suffix _b<B>), a static one once.
    batches = entry.get("batches") or []
    suffixes = ["_b%d" % b for b in batches] or [""]
    try:
        refs = [ort_reference(mdir, entry, args.threads, sfx) for sfx in suffixes]
    except Exception as e:                               # noqa: BLE001
        row.update(status="ref-error", diagnostic=str(e).splitlines()[0][:300], detail=str(e)[-3000:])
        return row
    package = os.path.join(mdir, "model.mie")
    if os.path.exists(package):
        os.remove(package)
    compile_cmd = [os.path.join(args.build, "bin", "mie-compile"), os.path.join(mdir, "model.onnx"),
                   "-o", package, "--target=" + args.target, "--jobs=%d" % args.jobs]
    if batches:
        compile_cmd += ["--symbolic-dims", "--dim-range=batch=1..%d" % max(batches)]
    row["compile_cmd"] = " ".join(compile_cmd)
    with cpu_lock():
        t0 = time.perf_counter()
        try:
            p = subprocess.run(compile_cmd, capture_output=True, text=True, timeout=args.timeout)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, err = "timeout", "compile timed out after %d s\n" % args.timeout + (
                e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or ""))
        row["compile_s"] = round(time.perf_counter() - t0, 1)
    if rc != 0 or not os.path.exists(package):
        row.update(status="compile-error", diagnostic=first_diagnostic(err)[:300],
                   detail=err[-4000:], rc=rc)
        return row
    runs = [run_and_compare(package, mdir, entry, r, sfx, args) for sfx, r in zip(suffixes, refs)]
    row.update(status=next((r["status"] for r in runs if r["status"] != "pass"), "pass"),
               max_abs=max((r["max_abs"] for r in runs if r.get("max_abs") is not None), default=None),
               max_rel=max((r["max_rel"] for r in runs if r.get("max_rel") is not None), default=None),
               run_cmd=runs[0]["run_cmd"], run_s=runs[0]["run_s"],
               diagnostic="; ".join(("b%d: " % b if batches else "") + r["diagnostic"]
                                    for b, r in zip(batches or [0], runs) if r["diagnostic"])[:300])
    if batches:
        row["batches"] = {b: {k: r.get(k) for k in ("status", "max_abs", "max_rel")}
                          for b, r in zip(batches, runs)}
    for r in runs:
        for k in ("detail", "rc", "outputs"):
            if k in r:
                row.setdefault(k, r[k])
    # how far onnxruntime itself is from PyTorch eager (context for the reference, not graded)
    try:
        row["ort_vs_torch_max_rel"] = [
            compare(ref, np.load(os.path.join(mdir, "torch_output_%d.npy" % i)))[2]
            for i, ref in enumerate(refs[0])] if not batches else None
    except Exception:                                    # noqa: BLE001
        pass
    return row


def run_and_compare(package, mdir, entry, refs, suffix, args):
    """mie-run on input_<i><suffix>.npy, each output compared with refs: a dict of status,
    max_abs, max_rel, diagnostic, run_cmd, run_s (and detail, rc, outputs)."""
    import numpy as np
    row = {"max_abs": None, "max_rel": None, "diagnostic": "", "run_s": None}
    outs = [os.path.join(mdir, "mie_output_%d%s.npy" % (i, suffix)) for i in range(len(entry["outputs"]))]
    for o in outs:
        if os.path.exists(o):
            os.remove(o)
    run_cmd = [os.path.join(args.build, "bin", "mie-run"), package, "--threads", str(args.threads)]
    for i, n in enumerate(entry["inputs"]):
        run_cmd += ["--input", "%s=%s" % (n, os.path.join(mdir, "input_%d%s.npy" % (i, suffix)))]
    for n, o in zip(entry["outputs"], outs):
        run_cmd += ["--output", "%s=%s" % (n, o)]
    row["run_cmd"] = " ".join(run_cmd)
    with cpu_lock():
        t0 = time.perf_counter()
        try:
            p = subprocess.run(run_cmd, capture_output=True, text=True, timeout=args.timeout)
            rc, err = p.returncode, p.stderr + p.stdout
        except subprocess.TimeoutExpired:
            rc, err = "timeout", "mie-run timed out after %d s" % args.timeout
        row["run_s"] = round(time.perf_counter() - t0, 2)
    if rc != 0 or not all(os.path.exists(o) for o in outs):
        row.update(status="run-error", diagnostic=first_diagnostic(err)[:300], detail=err[-4000:], rc=rc)
        return row
    per_out, ok_all, worst_abs, worst_rel, notes = [], True, 0.0, 0.0, []
    for n, o, ref in zip(entry["outputs"], outs, refs):
        ours = np.load(o)
        ok, max_abs, rel, note = compare(ours, ref)
        per_out.append({"output": n, "shape": list(ours.shape), "ref_shape": list(ref.shape), "ok": ok,
                        "max_abs": max_abs, "max_rel": rel, "note": note})
        ok_all &= ok
        if max_abs == max_abs:
            worst_abs = max(worst_abs, max_abs)
        if rel == rel:
            worst_rel = max(worst_rel, rel)
        if not ok:
            notes.append("%s: %s" % (n, note or "max abs %.3g" % max_abs))
    row.update(status="pass" if ok_all else "mismatch", max_abs=worst_abs, max_rel=worst_rel,
               outputs=per_out, diagnostic="; ".join(notes)[:300])
    return row


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def cmd_check(args):
    with open(os.path.join(args.dir, "export.json")) as f:
        exported = json.load(f)["models"]
    names = [m for m in args.models.split(",") if m] if args.models else \
        [m for m in MODELS if m in exported] + [m for m in exported if m not in MODELS]
    rpath = os.path.join(args.dir, "results.json")
    results = {}
    if os.path.exists(rpath):
        with open(rpath) as f:
            results = {r["model"]: r for r in json.load(f)["results"]}
    header = "%-38s %5s %-13s %10s %10s %9s  %s" % ("model", "opset", "status", "max rel", "max abs",
                                                   "compile s", "diagnostic")
    print(header, flush=True)
    for name in names:
        if name not in exported:
            row = {"model": name, "opset": None, "status": "export-error", "max_rel": None,
                   "max_abs": None, "compile_s": None, "diagnostic": "not in export.json"}
        else:
            row = check_one(name, exported[name], args)
        row["target"] = args.target
        results[name] = row
        print("%-38s %5s %-13s %10s %10s %9s  %s" % (
            name, fmt(row["opset"], "d"), row["status"], fmt(row["max_rel"], ".2e"),
            fmt(row["max_abs"], ".2e"), fmt(row["compile_s"], ".1f"), row["diagnostic"][:160]),
            flush=True)
        ordered = [results[m] for m in MODELS if m in results] + \
                  [r for m, r in results.items() if m not in MODELS]
        with open(rpath, "w") as f:
            json.dump({"tolerance": "max|mie-ort| <= %g * max(1, max|ort|)" % TOL,
                       "results": ordered}, f, indent=1)
    rows = [results[n] for n in names]
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("summary: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())) + " (of %d)" % len(rows))
    print("wrote", rpath)
    return 0 if counts.get("pass", 0) == len(rows) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="export the models to ONNX (torch; /usr/bin/python3)")
    e.add_argument("--out", required=True)
    e.add_argument("--models", default="", help="comma-separated (default: all)")
    e.add_argument("--opset", type=int, default=17, help="first opset tried (falls back downwards)")
    e.add_argument("--timeout", type=int, default=3600, help="seconds per model export")
    e.add_argument("--batches", default="",
                   help="export with a dynamic batch dim and inputs at these batches, e.g. 1,3 "
                        "(default: a static export at batch 1)")
    o = sub.add_parser("_export_one")
    o.add_argument("--out", required=True)
    o.add_argument("--models", required=True)
    o.add_argument("--opset", type=int, default=17)
    o.add_argument("--batches", default="")
    ls = sub.add_parser("list", help="print the model names, comma-separated")
    ls.add_argument("--family", default="",
                    help="only this family (cls, seg, video, det, flow, timm, hf)")
    c = sub.add_parser("check", help="compile, run and compare against onnxruntime (project venv)")
    c.add_argument("dir")
    c.add_argument("--models", default="", help="comma-separated (default: all exported)")
    c.add_argument("--target", default="x86-64-avx512")
    c.add_argument("--jobs", type=int, default=2, help="mie-compile --jobs")
    c.add_argument("--threads", type=int, default=2, help="mie-run and onnxruntime threads")
    c.add_argument("--timeout", type=int, default=600, help="seconds per mie-compile / mie-run")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    if args.cmd == "export":
        cmd_export(args)
    elif args.cmd == "_export_one":
        cmd_export_one(args)
    elif args.cmd == "list":
        print(",".join(n for n, (fam, _) in MODELS.items() if args.family in ("", fam)))
    else:
        sys.exit(cmd_check(args))


if __name__ == "__main__":
    main()
