"""Keras applications converted with tf2onnx, in arch_zoo.py's layout, so that
`arch_zoo.py check DIR` compiles them with mie and compares them with onnxruntime.

A second exporter's view of real architectures: tf2onnx writes NHWC graphs (transposes around
every convolution that the converter could not push away), fused BatchNorm as Mul/Add, Keras'
own padding and activation patterns. Weights are random (weights=None, seeded), BatchNorm
statistics and affines are given random values so that nothing is numerically trivial; the
output is the classifier's logits.

Needs TensorFlow and tf2onnx, in a venv of their own:
    python3 -m venv /tmp/tfv && /tmp/tfv/bin/pip install tensorflow-cpu==2.15.1 tf2onnx==1.16.1 \\
        onnxruntime "numpy<2"
    /tmp/tfv/bin/python benchmarks/keras_zoo.py --out /tmp/keras_zoo [--models ResNet50,...]
    .venv/bin/python benchmarks/arch_zoo.py check /tmp/keras_zoo
"""
import argparse
import json
import os
import subprocess
import sys
import time
import zlib

# name -> input size (NHWC, batch 1)
MODELS = {
    "ResNet50": 224, "ResNet50V2": 224, "MobileNet": 224, "MobileNetV2": 224,
    "MobileNetV3Small": 224, "MobileNetV3Large": 224, "EfficientNetB0": 224,
    "EfficientNetV2B0": 224, "DenseNet121": 224, "InceptionV3": 299, "Xception": 299,
    "NASNetMobile": 224, "VGG16": 224, "ConvNeXtTiny": 224, "RegNetX002": 224,
    "InceptionResNetV2": 299,
}


def export_one(name, out_dir, opset):
    import numpy as np
    import tensorflow as tf
    import tf2onnx

    seed = zlib.crc32(name.encode())
    tf.keras.utils.set_random_seed(seed)
    size = MODELS[name]
    # Logits (no final softmax): a softmax over 1000 random logits is ~1e-3 everywhere, which
    # would hide errors under the comparison's scale.
    model = getattr(tf.keras.applications, name)(weights=None, input_shape=(size, size, 3),
                                                 classifier_activation=None)
    rng = np.random.RandomState(seed + 1)
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            ws = layer.get_weights()
            new = []
            for w, kind in zip(ws, (["gamma"] if layer.scale else []) +
                               (["beta"] if layer.center else []) + ["mean", "var"]):
                if kind == "gamma":
                    new.append((1.0 + 0.1 * rng.randn(*w.shape)).astype(w.dtype))
                elif kind == "var":
                    new.append((0.75 + 0.5 * rng.rand(*w.shape)).astype(w.dtype))
                else:
                    new.append((0.1 * rng.randn(*w.shape)).astype(w.dtype))
            layer.set_weights(new)
    x = rng.rand(1, size, size, 3).astype(np.float32) * 255.0 if "EfficientNet" in name or \
        "ConvNeXt" in name or "RegNet" in name else rng.randn(1, size, size, 3).astype(np.float32)
    mdir = os.path.join(out_dir, name)
    os.makedirs(mdir, exist_ok=True)
    np.save(os.path.join(mdir, "input_0.npy"), x)
    spec = (tf.TensorSpec((1, size, size, 3), tf.float32, name="input"),)
    t0 = time.time()
    proto, _ = tf2onnx.convert.from_keras(model, input_signature=spec, opset=opset,
                                          output_path=os.path.join(mdir, "model.onnx"))
    ops = {}
    for n in proto.graph.node:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    return {"status": "ok", "opset": opset, "export_s": round(time.time() - t0, 1), "seed": seed,
            "inputs": [i.name for i in proto.graph.input], "input_shapes": [[1, size, size, 3]],
            "outputs": [o.name for o in proto.graph.output], "nodes": len(proto.graph.node),
            "ops": ops, "bytes": os.path.getsize(os.path.join(mdir, "model.onnx"))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default="")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--_one", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._one:
        entry = export_one(args._one, args.out, args.opset)
        with open(os.path.join(args.out, args._one, "meta.json"), "w") as f:
            json.dump(entry, f, indent=1)
        return
    names = [m for m in args.models.split(",") if m] or list(MODELS)
    os.makedirs(args.out, exist_ok=True)
    jpath = os.path.join(args.out, "export.json")
    models = json.load(open(jpath))["models"] if os.path.exists(jpath) else {}
    for name in names:
        t0 = time.time()
        # One process per model: TensorFlow keeps every graph it built.
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--out", args.out,
                            "--opset", str(args.opset), "--_one", name],
                           capture_output=True, text=True)
        meta = os.path.join(args.out, name, "meta.json")
        if p.returncode == 0 and os.path.exists(meta):
            entry = json.load(open(meta))
        else:
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            entry = {"status": "export-error", "reason": "\n".join(lines[-6:])}
        models[name] = entry
        print("%-20s %-12s %6.1fs %s" % (name, entry["status"], time.time() - t0,
                                         entry.get("nodes", entry.get("reason", "")[-150:])),
              flush=True)
        with open(jpath, "w") as f:
            json.dump({"meta": {"exporter": "tf2onnx"}, "models": models}, f, indent=1)


if __name__ == "__main__":
    main()
