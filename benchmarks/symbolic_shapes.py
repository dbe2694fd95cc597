"""The measurements of the symbolic-shapes issue, in one command: one package per model compiled for
every shape in the dim ranges, next to one static package per shape and to onnxruntime.

Per model (bert_tiny, bert_base, gpt: a GPT-2-like decoder built here, resnet50, mobilenet_v2):
  1. export with dynamic axes (torch.onnx, opset 17; {0: batch, 1: seq} for token inputs, {0: batch}
     for images), random seeded weights, cached in --work;
  2. compile ONE dynamic package (--mode dim-range: `--symbolic-dims --dim-range=batch=1..8
     --dim-range=seq=1..384`, CNNs batch 1..32; --mode default: no symbol flag, mie-compile's
     default of code for every shape with each symbol over 1..512; --mode specialize: `--specialize=` with the grid's
     values, which compiles today) and one static package per grid shape (`--dim-param=...`, with
     --symbolic-dims under --static symbolic), timing every compile: dynamic / static compile time;
  3. run the grid (batch {1,3,8} x seq {1,7,64,128,384}; CNNs batch {1,3,8,32}) from the dynamic
     package (mie-run) against onnxruntime on the same export: max abs and relative error, pass if
     allclose(atol=1e-4, rtol=1e-4);
  4. latency per shape and thread count: dynamic package, static package (`mie-run --benchmark`) and
     onnxruntime (in-process, intra_op_num_threads, sequential), interleaved, the order reversed
     every other round; the median over --repeats rounds of each round's median;
  5. arena: the dynamic package's arena for the shape (what mie-run reports for the run: code for
     every shape sizes it from the symbols' values), the static package's arena and lower bound
     (`--report=memory`);
and the KV-cache line (model gpt_kv): the decoder with past_key_values.N.key/value inputs and
present.N.key/value outputs (as Hugging Face exports them), one package, a greedy generation
(--prompt tokens, then --new-tokens one at a time, presents fed back as pasts) with onnxruntime and
with the mie Python runtime: token sequences, logits error and tokens/s. The first step has a
past of length 0; where the compiler refuses a zero-size dim, both runtimes start from a one-token
past of zeros instead (the table says so).

A failure (an export, a compile, a run) is reported in the tables as its first error line (an op
without code for every shape stops a `--mode dim-range` compile at its node; docs/dynamic-shapes.md
lists the ops that have it).

Runs under an interpreter with numpy, onnx and onnxruntime (the project's .venv); the exports run
this file again under --torch-python (Debian's python3 with torch and torchvision).

Usage (--help lists every option with its default):
  .venv/bin/python benchmarks/symbolic_shapes.py [--models bert_tiny,bert_base,gpt,gpt_kv,resnet50,
      mobilenet_v2] [--mode default|dim-range|specialize] [--quick] [--threads 1,2] [--tools build/bin]
      [--work DIR] [--out FILE] [--zoo ../shared/models] [--gpt-qkv split|separate]
Example (small, one thread):
  .venv/bin/python benchmarks/symbolic_shapes.py --models bert_tiny,gpt,gpt_kv --quick --threads 1
      --mode specialize --gpt-qkv separate
Never part of the test suite: the numbers go into the issue's notes.
"""
import argparse
import json
import os
import shlex
import statistics
import struct
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE = ("resnet50", "mobilenet_v2")
BERT = {"bert_tiny": dict(vocab=1000, hidden=128, layers=2, heads=2, ffn=512),
        "bert_base": dict(vocab=30522, hidden=768, layers=12, heads=12, ffn=3072)}
SEED = 1234


# ------------------------------------------------------------------------------------------------
# Export (runs under --torch-python: `symbolic_shapes.py _export NAME DIR JSON_OPTIONS`)
# ------------------------------------------------------------------------------------------------

def export_main(name, out_dir, opts):
    import math
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Attention(nn.Module):
        """Self-attention; `fused`: one qkv projection split in three (GPT-2's c_attn)."""

        def __init__(self, hidden, heads, fused):
            super().__init__()
            self.h, self.d, self.fused = heads, hidden // heads, fused
            if fused:
                self.qkv = nn.Linear(hidden, 3 * hidden)
            else:
                self.q, self.k, self.v = (nn.Linear(hidden, hidden) for _ in range(3))
            self.o = nn.Linear(hidden, hidden)

        def forward(self, x, mask=None, past=None):
            b, s, c = x.shape
            q, k, v = self.qkv(x).split(c, dim=2) if self.fused else (self.q(x), self.k(x), self.v(x))
            q, k, v = (t.view(b, s, self.h, self.d).transpose(1, 2) for t in (q, k, v))
            if past is not None:
                k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
            att = torch.matmul(q, k.transpose(2, 3)) * (1.0 / math.sqrt(self.d))
            if mask is not None:
                att = att.masked_fill(mask, torch.finfo(att.dtype).min)
            y = torch.matmul(F.softmax(att, dim=-1), v).transpose(1, 2).reshape(b, s, c)
            return self.o(y), (k, v)

    class Bert(nn.Module):
        """Post-LN encoder as shared/models/export_zoo.py's BertEncoder (512 positions)."""

        def __init__(self, vocab, hidden, layers, heads, ffn, max_pos=512):
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, hidden), nn.Embedding(max_pos, hidden)
            self.ln = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList(nn.ModuleDict(dict(
                attn=Attention(hidden, heads, False), ln1=nn.LayerNorm(hidden, eps=1e-12),
                fc1=nn.Linear(hidden, ffn), fc2=nn.Linear(ffn, hidden),
                ln2=nn.LayerNorm(hidden, eps=1e-12))) for _ in range(layers))
            self.register_buffer("pos_ids", torch.arange(max_pos).unsqueeze(0), persistent=False)

        def forward(self, input_ids):
            x = self.ln(self.tok(input_ids) + self.pos(self.pos_ids[:, :input_ids.shape[1]]))
            for l in self.layers:
                x = l.ln1(x + l.attn(x)[0])
                x = l.ln2(x + l.fc2(F.gelu(l.fc1(x))))
            return x

    class GPT(nn.Module):
        """GPT-2-like decoder: token + position embeddings, pre-LN blocks, causal self-attention
        whose mask is built from the lengths (arange > arange), LM head; with `kv` it takes
        past_key_values and returns the presents."""

        def __init__(self, vocab, hidden, layers, heads, fused, kv, max_pos=1024):
            super().__init__()
            self.kv = kv
            self.tok, self.pos = nn.Embedding(vocab, hidden), nn.Embedding(max_pos, hidden)
            self.blocks = nn.ModuleList(nn.ModuleDict(dict(
                ln1=nn.LayerNorm(hidden), attn=Attention(hidden, heads, fused), ln2=nn.LayerNorm(hidden),
                fc=nn.Linear(hidden, 4 * hidden), proj=nn.Linear(4 * hidden, hidden)))
                for _ in range(layers))
            self.ln, self.head = nn.LayerNorm(hidden), nn.Linear(hidden, vocab, bias=False)

        def forward(self, input_ids, *past):
            s = input_ids.shape[1]
            p = past[0].shape[2] if past else 0
            pos = torch.arange(p, p + s)
            x = self.tok(input_ids) + self.pos(pos).unsqueeze(0)
            mask = torch.arange(p + s).unsqueeze(0) > pos.unsqueeze(1)        # [s, p + s]
            presents = []
            for i, blk in enumerate(self.blocks):
                y, kv = blk.attn(blk.ln1(x), mask, past[2 * i:2 * i + 2] if past else None)
                x = x + y
                x = x + blk.proj(F.gelu(blk.fc(blk.ln2(x))))
                presents += kv
            logits = self.head(self.ln(x))
            return (logits, *presents) if self.kv else logits

    torch.manual_seed(SEED)
    meta = {"kind": "image" if name in IMAGE else "text"}
    zoo = opts.get("zoo") and name in tuple(BERT) + IMAGE
    if zoo:
        sys.path.insert(0, opts["zoo"])
        import export_zoo
        model, _ = export_zoo.build(name)
        if name in BERT:
            meta["max_seq"] = model.pos.num_embeddings
    elif name in BERT:
        model = Bert(**BERT[name])
        meta["max_seq"] = 512
    elif name in IMAGE:
        import torchvision
        model = getattr(torchvision.models, name)(weights=None)
    else:
        h, layers, heads = opts["gpt_hidden"], opts["gpt_layers"], opts["gpt_heads"]
        model = GPT(1000, h, layers, heads, opts["gpt_qkv"] == "split", name == "gpt_kv")
        meta.update(max_seq=1024, layers=layers, heads=heads, head_dim=h // heads)
    model.eval()
    with torch.no_grad():  # small random biases and norms: no deduplicated initializers, no trivial LN
        for m in [] if zoo else model.modules():
            if isinstance(m, (nn.LayerNorm, nn.BatchNorm2d)):
                m.weight.copy_(1 + 0.1 * torch.randn(m.weight.shape))
                m.bias.copy_(0.1 * torch.randn(m.bias.shape))
            elif isinstance(m, (nn.Linear, nn.Embedding)) and name not in IMAGE:
                m.weight.normal_(0, 0.02)
            if isinstance(m, (nn.Linear, nn.Conv2d)) and m.bias is not None:
                m.bias.copy_(0.02 * torch.randn(m.bias.shape))
    path = os.path.join(out_dir, "model.onnx")
    if meta["kind"] == "image":
        args, ins, outs = (torch.randn(1, 3, 224, 224),), ["input"], ["output"]
        axes = {"input": {0: "batch"}, "output": {0: "batch"}}
        meta.update(vocab=0)
    else:
        ids = torch.randint(0, 1000, (1, 7))
        ins, outs = ["input_ids"], ["last_hidden_state" if name in BERT else "logits"]
        axes = {"input_ids": {0: "batch", 1: "seq"}, outs[0]: {0: "batch", 1: "seq"}}
        args = (ids,)
        meta.update(vocab=1000 if name != "bert_base" else 30522)
        if name == "gpt_kv":
            for i in range(meta["layers"]):
                for t in ("key", "value"):
                    ins.append(f"past_key_values.{i}.{t}")
                    outs.append(f"present.{i}.{t}")
                    axes[ins[-1]] = {0: "batch", 2: "past_seq"}
                    axes[outs[-1]] = {0: "batch", 2: "past_seq + seq"}
            args += tuple(torch.randn(1, meta["heads"], 4, meta["head_dim"]) for _ in ins[1:])
    with torch.no_grad():
        torch.onnx.export(model, args, path, opset_version=17, input_names=ins, output_names=outs,
                          dynamic_axes=axes)
    meta.update(inputs=ins, outputs=outs)
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f)


# ------------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------------

class Log:
    """Every command run, in order, once each."""

    def __init__(self, subs):
        self.commands, self.subs = [], subs   # subs: (path, "$NAME") shortening the lines

    def run(self, cmd, timeout, dry=False):
        line = shlex.join(cmd)
        for path, var in self.subs:
            line = line.replace(path, var)
        if line not in self.commands:
            self.commands.append(line)
        if dry:
            return None, 0, None
        start = time.perf_counter()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, time.perf_counter() - start, "timed out after %d s" % timeout
        secs = time.perf_counter() - start
        return r, secs, (None if r.returncode == 0 else first_error(r.stderr, r.returncode))


def first_error(text, rc=None):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    err = [i for i, l in enumerate(lines) if "error" in l.lower()]
    msg = lines[err[0]] if err else (lines[-1:] or ["exit code %s" % rc])[0]
    msg = msg[msg.index("error:"):] if "error:" in msg else msg   # without the model's path
    if err and err[0] + 1 < len(lines) and "note: at ONNX node" in lines[err[0] + 1]:
        msg += " (%s)" % lines[err[0] + 1].split("note: ", 1)[1]
    return msg.replace("|", "\\|")[:240]


def parse_ranges(text):
    out = {}
    for item in filter(None, text.split(",")):
        name, span = item.split("=")
        lo, hi = span.split("..")
        out[name] = (int(lo), int(hi))
    return out


def ints(text):
    return [int(v) for v in text.split(",") if v]


def manifest(path):
    with open(path, "rb") as f:
        head = f.read(128)
        off, size = struct.unpack_from("<QQ", head, 16)
        f.seek(off)
        return json.loads(f.read(size))


def arena_of(package, dims):
    """The package's arena for these symbol values (name -> value): its specialization's
    arena_bytes, or None where only code for every shape (arena sized at run time) would run."""
    m = manifest(package)
    names = [s["name"] for s in m.get("symbols", [])]
    want = [dims.get(n) for n in names]
    for t in m["targets"]:
        if t.get("dims") == want:
            return t["arena_bytes"]
    return None


def arena_targets(package):
    return [t for t in manifest(package)["targets"] if "dims" in t]


def memory_line(stdout):
    for line in stdout.splitlines():
        if line.startswith("memory: arena="):
            f = dict(kv.split("=") for kv in line.split()[1:])
            return int(f["arena"]), int(f["lower_bound"])
    return None, None


def fmt_ms(v, digits=3):
    return "n/a" if v is None else "%.*f" % (digits, v)


def ratio(a, b):
    return "n/a" if a is None or b is None or not b else "%.2f" % (a / b)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def interleave(runners, repeats):
    """Each runner `repeats` times, the order reversed every other round: ({name: [results]},
    {name: first error}); None results are left out, a runner that raised is not run again."""
    got, errs = {k: [] for k in runners}, {}
    for rnd in range(repeats):
        for k in (list(runners) if rnd % 2 == 0 else list(runners)[::-1]):
            try:
                v = None if k in errs else runners[k]()
            except Exception as e:  # noqa: BLE001 (reported in the table)
                v, errs[k] = None, first_error(str(e))
            if v is not None:
                got[k].append(v)
    return got, errs


def ort_session(path, threads):
    import onnxruntime as ort
    o = ort.SessionOptions()
    o.intra_op_num_threads, o.inter_op_num_threads = threads, 1
    o.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])


def ort_median(sess, feeds, runs):
    sess.run(None, feeds)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        sess.run(None, feeds)
        times.append((time.perf_counter() - t) * 1e3)
    # onnxruntime's pool threads spin after a run: the next measurement (a mie-run started right
    # after) would share the cores with them, which halved the 2-thread speed of whichever package
    # came next. They park within milliseconds.
    time.sleep(0.2)
    return statistics.median(times)


# ------------------------------------------------------------------------------------------------
# The grid lines
# ------------------------------------------------------------------------------------------------

class Bench:
    def __init__(self, args):
        self.a = args
        self.compile_exe = os.path.join(os.path.abspath(args.tools), "mie-compile")
        self.run_exe = os.path.join(os.path.abspath(args.tools), "mie-run")
        self.base = ([] if args.target == "default" else ["--target=" + args.target]) + \
                    (["--jobs=%d" % args.jobs] if args.jobs else [])
        self.sections = {k: [] for k in ("compile", "accuracy", "latency", "arena", "kv")}
        self.log = Log([(args.work, "$WORK"), (os.path.abspath(args.tools), "$TOOLS"),
                        (os.path.abspath(__file__), "$SCRIPT")])

    def export(self, name):
        a = self.a
        tag = name if name not in ("gpt", "gpt_kv") else "%s_l%d_h%d_n%d_%s" % (
            name, a.gpt_layers, a.gpt_hidden, a.gpt_heads, a.gpt_qkv)
        d = os.path.join(a.work, tag + ("_zoo" if a.zoo and name not in ("gpt", "gpt_kv") else ""))
        os.makedirs(d, exist_ok=True)
        opts = dict(gpt_layers=a.gpt_layers, gpt_hidden=a.gpt_hidden, gpt_heads=a.gpt_heads,
                    gpt_qkv=a.gpt_qkv, zoo=a.zoo)
        cmd = [a.torch_python, os.path.abspath(__file__), "_export", name, d, json.dumps(opts)]
        if os.path.exists(os.path.join(d, "meta.json")):
            self.log.run(cmd, a.timeout, dry=True)     # cached: listed, not run
        else:
            r, _, err = self.log.run(cmd, a.timeout)
            if err:
                raise RuntimeError("export: " + first_error(r.stderr if r else err))
        with open(os.path.join(d, "meta.json")) as f:
            return d, json.load(f)

    def compile(self, model, out, opts):
        r, secs, err = self.log.run([self.compile_exe, model, "-o", out] + self.base + opts,
                                    self.a.timeout)
        return secs, err, (r.stdout if r else "")

    def inputs(self, d, meta, shape):
        b, s = shape["batch"], shape.get("seq")
        rng = np.random.default_rng(1000 * b + (s or 0))
        x = (rng.integers(0, meta["vocab"], (b, s)).astype(np.int64) if s is not None else
             rng.standard_normal((b, 3, 224, 224)).astype(np.float32))
        path = os.path.join(d, "in_%s.npy" % label(shape).replace(" ", "_"))
        np.save(path, x)
        return {meta["inputs"][0]: x}, path

    def mie_median(self, package, in_name, in_path, threads):
        r, _, err = self.log.run([self.run_exe, package, "--input", "%s=%s" % (in_name, in_path),
                                  "--threads", str(threads), "--benchmark", str(self.a.runs)],
                                 self.a.timeout)
        if err:
            return None
        for line in r.stdout.splitlines():
            if line.startswith("benchmark:"):
                return float(line.split("median ")[1].split(" ms")[0])
        return None

    def accuracy(self, package, meta, in_path, ref, d, lab):
        """[max abs err, rel err, pass, result] of the package's output for one input."""
        out_path = os.path.join(d, "out_dyn_%s.npy" % lab.replace(" ", "_"))
        r, _, err = self.log.run([self.run_exe, package, "--input", "%s=%s" % (meta["inputs"][0], in_path),
                                  "--output", "%s=%s" % (meta["outputs"][0], out_path), "--threads", "1"],
                                 self.a.timeout)
        # mie-run says the run's arena: "symbolic dims: batch=3, seq=7 (arena N bytes)".
        self.run_arena = None
        for line in ([] if err else r.stdout.splitlines()):
            if line.startswith("symbolic dims:") and "(arena " in line:
                self.run_arena = int(line.split("(arena ")[1].split(" ")[0])
        y = None if err else np.load(out_path)
        if y is None or y.shape != ref.shape:
            return ["n/a", "n/a", "no", err or "shape %s, onnxruntime %s" % (y.shape, ref.shape)]
        diff = np.abs(y.astype(np.float64) - ref)
        ok = bool(np.all(diff <= self.a.atol + self.a.rtol * np.abs(ref)))
        return ["%.2e" % diff.max(), "%.2e" % (diff.max() / max(np.abs(ref).max(), 1e-30)),
                "yes" if ok else "no", "ok"]

    def model(self, name):
        a = self.a
        d, meta = self.export(name)
        onnx_path = os.path.join(d, "model.onnx")
        image = meta["kind"] == "image"
        ranges = parse_ranges(a.image_ranges if image else a.text_ranges)
        grid = [{"batch": b} for b in ints(a.image_batches)] if image else \
            [{"batch": b, "seq": s} for b in ints(a.batches) for s in ints(a.seqs)]
        skipped = []
        if "seq" in ranges and ranges["seq"][1] > meta.get("max_seq", 1 << 30):
            ranges["seq"] = (ranges["seq"][0], meta["max_seq"])
            skipped = [g for g in grid if g["seq"] > meta["max_seq"]]
            grid = [g for g in grid if g["seq"] <= meta["max_seq"]]
        syms = list(ranges)
        dyn = os.path.join(d, "dyn-%s.mie" % a.mode)
        if a.mode == "default":
            opts = []  # mie-compile's default: code for every shape, each symbol 1..512
        elif a.mode == "dim-range":
            opts = ["--symbolic-dims"] + ["--dim-range=%s=%d..%d" % (k, lo, hi)
                                          for k, (lo, hi) in ranges.items()]
        else:
            opts = ["--symbolic-dims"] + [
                "--specialize=%s=%s" % (k, ",".join(str(v) for v in sorted({g[k] for g in grid})))
                for k in syms]
        dyn_secs, dyn_err, _ = self.compile(onnx_path, dyn, opts)
        statics = {}
        for g in grid:
            pkg = os.path.join(d, "static-%s.mie" % label(g).replace(" ", "_"))
            extra = ["--symbolic-dims"] if a.static == "symbolic" else []
            secs, err, out = self.compile(onnx_path, pkg, extra + ["--report=memory"] + [
                "--dim-param=%s=%d" % (k, g[k]) for k in syms])
            statics[label(g)] = (pkg, secs, err, memory_line(out))
        ok_static = [v[1] for v in statics.values() if not v[2]]
        static_med = statistics.median(ok_static) if ok_static else None
        errs = [v[2] for v in statics.values() if v[2]]
        result = "ok" if not dyn_err else dyn_err
        if a.mode == "specialize" and not dyn_err:
            result += " (%d specializations)" % len(arena_targets(dyn))
        if errs:
            result += "; %d static compile(s) failed: %s" % (len(errs), errs[0])
        if skipped:
            result += "; seq > %d (the model's positions) left out" % meta["max_seq"]
        dyn_t = None if dyn_err else dyn_secs
        r = ratio(dyn_t, static_med)
        self.sections["compile"].append([
            name, a.mode, " ".join(opts), fmt_ms(dyn_t, 2), "%s (%d)" % (fmt_ms(static_med, 2), len(ok_static)),
            r, "n/a" if r == "n/a" else ("yes" if float(r) <= 1.5 else "no"), result])

        sessions = {t: ort_session(onnx_path, t) for t in ints(a.threads)}
        ref_sess = sessions[min(sessions)]
        out_name = meta["outputs"][0]
        for g in grid:
            feeds, in_path = self.inputs(d, meta, g)
            lab = label(g)
            pkg, _, serr, (s_arena, s_lb) = statics[lab]
            self.sections["accuracy"].append([name, lab] + (
                ["n/a", "n/a", "no", "dynamic compile failed"] if dyn_err else
                self.accuracy(dyn, meta, in_path, ref_sess.run([out_name], feeds)[0], d, lab)))
            dyn_arena = None if dyn_err else (self.run_arena or arena_of(dyn, g))
            self.sections["arena"].append([
                name, lab, "n/a" if dyn_arena is None else dyn_arena,
                "n/a" if serr or s_arena is None else s_arena, "n/a" if s_lb is None else s_lb,
                "n/a" if dyn_arena is None else ratio(dyn_arena, s_lb)])
            for t, sess in sessions.items():
                runners = {"ort": lambda: ort_median(sess, feeds, a.runs)}
                if not dyn_err:
                    runners["dyn"] = lambda: self.mie_median(dyn, meta["inputs"][0], in_path, t)
                if not serr:
                    runners["static"] = lambda: self.mie_median(pkg, meta["inputs"][0], in_path, t)
                m = {k: (statistics.median(v) if v else None)
                     for k, v in interleave(runners, a.repeats)[0].items()}
                dm, sm, om = m.get("dyn"), m.get("static"), m.get("ort")
                self.sections["latency"].append([name, lab, t, fmt_ms(dm), fmt_ms(sm), fmt_ms(om),
                                                 ratio(dm, sm), ratio(dm, om)])

    # --------------------------------------------------------------------------------------------
    # The KV-cache line
    # --------------------------------------------------------------------------------------------

    def kv(self):
        a = self.a
        d, meta = self.export("gpt_kv")
        onnx_path = os.path.join(d, "model.onnx")
        ranges = parse_ranges(a.text_ranges)
        top = a.prompt + a.new_tokens - 1            # the longest past + 1
        note, pkg = "", os.path.join(d, "kv-%s.mie" % a.mode)
        for p0 in (1,) if a.mode == "default" else (0, 1):
            past = list(range(p0 + a.prompt, p0 + top))
            if a.mode == "default":
                opts = []  # each symbol 1..512: a past starts at one token
                note = " (default ranges 1..512: both runtimes start from a 1-token past of zeros)"
            elif a.mode == "dim-range":
                opts = ["--dim-range=batch=%d..%d" % ranges["batch"],
                        "--dim-range=seq=%d..%d" % (1, max(a.prompt, ranges["seq"][1])),
                        "--dim-range=past_seq=%d..%d" % (p0, p0 + top)]
            else:
                opts = ["--dim-param=batch=1", "--specialize=seq=1,%d" % a.prompt,
                        "--specialize=past_seq=" + ",".join(str(v) for v in [p0] + past)]
            secs, err, _ = self.compile(onnx_path, pkg, (["--symbolic-dims"] if opts else []) + opts)
            if not err or p0 == 1 or not ("'0'" in err or "zero" in err.lower()):
                break
            note = " (past_seq = 0 refused: %s; both runtimes start from a 1-token past of zeros)" % err
        head = [name for name in meta["inputs"][1:]]
        rows = self.sections["kv"]
        self.kv_opts = " ".join(opts) + "; compile %s s" % fmt_ms(None if err else secs, 2)
        if err:
            rows.append(["mie (%s)" % a.mode, "n/a", "n/a", "n/a", "n/a", err])
        rng = np.random.default_rng(7)
        prompt = rng.integers(0, meta["vocab"], (1, a.prompt)).astype(np.int64)
        zeros = np.zeros((1, meta["heads"], p0, meta["head_dim"]), np.float32)

        def generate(run):
            feeds = {"input_ids": prompt, **{n: zeros for n in head}}
            tokens, logits = [], []
            start = time.perf_counter()
            for _ in range(a.new_tokens):
                outs = run(feeds)
                last = outs[0][0, -1]
                logits.append(last)
                tokens.append(int(np.argmax(last)))
                feeds = {"input_ids": np.array([[tokens[-1]]], np.int64),
                         **{n: np.ascontiguousarray(o) for n, o in zip(head, outs[1:])}}
            return tokens, logits, time.perf_counter() - start

        sess_mie = None
        if not err:
            try:
                sys.path.insert(0, os.path.join(ROOT, "python-bindings"))
                os.environ.setdefault("MIE_BUILD_DIR", os.path.dirname(os.path.abspath(a.tools)))
                import mie
                sess_mie = mie.load(pkg, threads=1)
            except Exception as e:  # noqa: BLE001 (a missing native module is reported, not raised)
                rows.append(["mie", "n/a", "n/a", "n/a", "n/a", first_error(str(e))])
        outs_names = meta["outputs"]
        for t in ints(a.threads):
            ort_s = ort_session(onnx_path, t)
            runners = {"onnxruntime": lambda f: ort_s.run(None, f)}
            if sess_mie is not None:
                sess_mie.set_threads(t)
                def run_mie(f):
                    outs = sess_mie.run(f)
                    return [outs[n] for n in outs_names]
                runners["mie"] = run_mie
            res, errs = interleave({k: (lambda r=r: generate(r)) for k, r in runners.items()}, a.repeats)
            ref = res["onnxruntime"][0] if res["onnxruntime"] else ([], [], 0)
            for k in runners:
                if k in errs:
                    rows.append(["%s (%s)" % (k, a.mode) if k == "mie" else k, t, "n/a", "n/a", "n/a",
                                 errs[k]])
                    continue
                toks, logits, _ = res[k][0]
                tps = statistics.median(len(toks) / r[2] for r in res[k])
                same = next((i for i, (x, y) in enumerate(zip(toks, ref[0])) if x != y), None)
                n = len(toks) if same is None else same
                err_l = max((float(np.abs(x - y).max()) for x, y in zip(logits[:n + 1], ref[1])), default=0)
                rows.append(["%s (%s)" % (k, a.mode) if k == "mie" else k, t, "%.1f" % tps,
                             "%d/%d" % (n, len(toks)), "%.2e" % err_l,
                             ("tokens " + " ".join(map(str, toks[:12])) + " ..." if k == "onnxruntime"
                                     else "same tokens" if same is None else "first differs at %d" % same)])
        self.kv_p0 = "%d%s" % (p0, note)

    def report(self, argv):
        a = self.a
        parts = ["# Symbolic shapes: measurements", "", "`" + shlex.join(argv) + "`", "",
                 "mode `%s`, static packages `%s`, target `%s`, %d runs x %d rounds (median of medians)"
                 % (a.mode, a.static, a.target, a.runs, a.repeats), ""]
        titles = {
            "compile": ("Compile time: one dynamic package against one static package per shape "
                        "(dynamic <= 1.5x static)", ["model", "mode", "dynamic options", "dynamic s",
                                                     "static s (median, n)", "dyn/static", "<= 1.5x", "result"]),
            "accuracy": ("Accuracy: the dynamic package over the grid against onnxruntime (pass: |mie - ort| "
                         "<= %g + %g |ort|; rel = max abs err / max |ort|)" % (a.atol, a.rtol),
                         ["model", "shape", "max abs err", "rel err", "pass", "result"]),
            "latency": ("Latency (ms, median of the rounds' medians; mie-run --benchmark, onnxruntime "
                        "in-process, sequential)", ["model", "shape", "threads", "dynamic", "static",
                                                   "onnxruntime", "dyn/static", "dyn/ort"]),
            "arena": ("Arena (bytes): the dynamic package's for the run (mie-run's report; code for "
                      "every shape sizes it from the symbols' values), the static package's for the "
                      "shape and that shape's lower bound (--report=memory)",
                      ["model", "shape", "dynamic", "static", "lower bound", "dyn/lower bound"]),
            "kv": ("KV-cache generation: GPT decoder (%d layers, hidden %d, qkv %s), %d-token prompt, %d new "
                   "tokens (greedy), one package (`%s`)\n\nfirst step's past_seq: %s" % (
                       a.gpt_layers, a.gpt_hidden, a.gpt_qkv, a.prompt, a.new_tokens,
                       getattr(self, "kv_opts", ""), getattr(self, "kv_p0", "n/a")),
                   ["runtime", "threads", "tokens/s", "tokens equal to ort", "max logits err", "result"])}
        for key, (title, header) in titles.items():
            if self.sections[key]:
                parts += ["## " + title, "", table(header, self.sections[key]), ""]
        parts += ["## Commands", "", "```", "WORK=%s TOOLS=%s SCRIPT=%s" % (
            a.work, os.path.abspath(a.tools), os.path.abspath(__file__))] + self.log.commands + ["```", "",
                  "onnxruntime: InferenceSession(CPUExecutionProvider, intra_op_num_threads=T, "
                  "inter_op_num_threads=1, ORT_SEQUENTIAL); the KV-cache line runs mie through the "
                  "Python runtime (mie.load(package, threads=T).run(feeds), which binds the "
                  "symbols from the inputs' shapes)."]
        return "\n".join(parts) + "\n"


def label(shape):
    return " ".join("%s=%d" % (k[0], v) for k, v in shape.items())


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_export":
        export_main(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="bert_tiny,bert_base,gpt,gpt_kv,resnet50,mobilenet_v2")
    ap.add_argument("--mode", choices=("default", "dim-range", "specialize"), default="dim-range",
                    help="the dynamic package: no symbol flag (mie-compile's default: code for "
                         "every shape, each symbol 1..512), --dim-range (code for every shape in "
                         "the ranges) or --specialize (code for each grid value)")
    ap.add_argument("--static", choices=("plain", "symbolic"), default="plain",
                    help="static packages with --dim-param alone, or with --symbolic-dims too")
    ap.add_argument("--quick", action="store_true",
                    help="a small grid: batches 1,3; seqs 1,7; image batches 1,3; 5 runs x 2 rounds; "
                         "an 8-token prompt and 8 new tokens")
    for flag, default in (("threads", "1,2"), ("batches", "1,3,8"), ("seqs", "1,7,64,128,384"),
                          ("image-batches", "1,3,8,32"), ("text-ranges", "batch=1..8,seq=1..384"),
                          ("image-ranges", "batch=1..32"), ("runs", 20), ("repeats", 5), ("atol", 1e-4),
                          ("rtol", 1e-4), ("prompt", 32), ("new-tokens", 128), ("gpt-layers", 2),
                          ("gpt-hidden", 128), ("gpt-heads", 2), ("timeout", 3600)):
        ap.add_argument("--" + flag, default=default, type=type(default), help="default: %(default)s")
    ap.add_argument("--gpt-qkv", choices=("split", "separate"), default="split",
                    help="one qkv projection split in three (GPT-2), or three projections")
    ap.add_argument("--target", default="host", help="mie-compile --target; 'default': none given")
    ap.add_argument("--jobs", type=int, default=0, help="mie-compile --jobs (0: not given)")
    ap.add_argument("--tools", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--torch-python", default="/usr/bin/python3")
    ap.add_argument("--zoo", help="shared/models directory: build bert_*, resnet50, mobilenet_v2 with "
                                  "its export_zoo.build (the zoo's weights) instead of this file's copies")
    ap.add_argument("--work", default=os.path.expanduser("~/.cache/mie-symbolic-shapes"))
    ap.add_argument("--out", help="the markdown report (default: WORK/report-MODE.md)")
    a = ap.parse_args()
    if a.quick:
        for k, v in dict(batches="1,3", seqs="1,7", image_batches="1,3", runs=5, repeats=2,
                         prompt=8, new_tokens=8).items():
            if getattr(a, k) == ap.get_default(k):
                setattr(a, k, v)
    a.work = os.path.abspath(a.work)
    os.makedirs(a.work, exist_ok=True)
    bench = Bench(a)
    for name in a.models.split(","):
        print("== %s" % name, file=sys.stderr, flush=True)
        try:
            bench.kv() if name == "gpt_kv" else bench.model(name)
        except Exception as e:  # noqa: BLE001 (one model's failure is a row, not the end of the run)
            row = [name, a.mode, "", "n/a", "n/a", "n/a", "n/a", first_error(str(e))]
            (bench.sections["kv"].append([name, "n/a", "n/a", "n/a", "n/a", row[-1]]) if name == "gpt_kv"
             else bench.sections["compile"].append(row))
    text = bench.report([sys.executable] + sys.argv)
    out = a.out or os.path.join(a.work, "report-%s.md" % a.mode)
    with open(out, "w") as f:
        f.write(text)
    print(text)
    print("written to %s" % out)


if __name__ == "__main__":
    main()
