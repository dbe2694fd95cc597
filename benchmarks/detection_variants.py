"""Variants of arch_zoo's torchvision detection models whose outputs do not hang on score ties.

With random weights the detectors' class scores are nearly uniform (SSDlite: ~1/91 everywhere,
many exactly equal because saturated feature maps repeat), and Faster R-CNN keeps no box above
its 0.05 score threshold at all. Equal or nearly equal scores make the ranking, and with it the
boxes NonMaxSuppression keeps, depend on tie order and on the last bit of a float: onnxruntime's
TopK does not even return equal values lower index first, as ONNX specifies. So the stock models
test little (Faster R-CNN: 0 detections) or compare tie orders (SSDlite). These variants edit the
exported graphs to make the scores confident and distinct, so that a match means the whole
post-processing (per-class top-k from Shape arithmetic, batched NMS in an If, RoI pooling over
the kept proposals, ...) computes what onnxruntime computes:

- ssdlite320_mobilenet_v3_large: classification-head weights x40, and a distinct offset
  (a random permutation x 1e-7) added to every softmax score;
- fasterrcnn_mobilenet_v3_large_320_fpn (and fasterrcnn_resnet50_fpn, maskrcnn_resnet50_fpn):
  cls_score weights x60 (Faster R-CNN ResNet-50: x0.1), and 0.05 sin(proposal corners x a random [4, 91] matrix of scale 10)
  added to the class logits (an offset of its own for every proposal and class, however close two
  proposals are);
- retinanet_resnet50_fpn_v2, fcos_resnet50_fpn: class logits x8 (RetinaNet v2: x1) and a random
  offset in [0, 3) per logit.

    .venv/bin/python benchmarks/detection_variants.py /tmp/arch_zoo /tmp/det_variants
    .venv/bin/python benchmarks/arch_zoo.py check /tmp/det_variants

Reads SRC/<model>/model.onnx, input_0.npy and meta.json (arch_zoo.py export), writes
OUT/<model>_confident/ in arch_zoo's layout plus OUT/export.json; arch_zoo.py check computes the
onnxruntime references.
"""
import json
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def scale_weights(model, name_part, factor):
    for init in model.graph.initializer:
        if name_part in init.name and init.name.endswith("weight"):
            array = numpy_helper.to_array(init) * factor
            init.CopyFrom(numpy_helper.from_array(array.astype(np.float32), init.name))


def rename_uses(model, old, new):
    for node in model.graph.node:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new


def insert_after(model, node, new_nodes):
    index = list(model.graph.node).index(node)
    for k, n in enumerate(new_nodes):
        model.graph.node.insert(index + 1 + k, n)


def softmax_node(model):
    nodes = [n for n in model.graph.node if n.op_type == "Softmax"]
    if len(nodes) != 1:
        sys.exit("expected one Softmax, found %d" % len(nodes))
    return nodes[0]


def ssdlite(model, inputs):
    scale_weights(model, "classification_head", 40.0)
    softmax = softmax_node(model)
    out = softmax.output[0]
    # The offsets need the scores' static shape: ask onnxruntime for it.
    shape = static_shapes(model, [out], inputs)[0]
    offsets = np.random.default_rng(1).permutation(int(np.prod(shape))).reshape(shape) * 1e-7
    model.graph.initializer.append(numpy_helper.from_array(offsets.astype(np.float32), "untie"))
    rename_uses(model, out, out + "_untied")
    insert_after(model, softmax, [helper.make_node("Add", [out, "untie"], [out + "_untied"],
                                                   name="untie_scores")])


def fasterrcnn(model, inputs, factor=60.0):
    scale_weights(model, "cls_score", factor)
    softmax = softmax_node(model)
    # The proposals the class logits are computed for (RoI pooling's boxes): a high-frequency
    # function of their corners gives every proposal and class its own offset, however close two
    # proposals are.
    pool = [n for n in model.graph.node if n.name.endswith("box_roi_pool/Concat_2")][0]
    proposals = pool.input[1]
    rng = np.random.default_rng(3)
    model.graph.initializer.append(numpy_helper.from_array(
        (rng.standard_normal([4, 91]) * 10).astype(np.float32), "u_freq"))
    model.graph.initializer.append(numpy_helper.from_array(np.array(0.05, np.float32), "u_scale"))
    logits = softmax.input[0]
    new = [helper.make_node("Cast", [proposals], ["u_boxes"], to=onnx.TensorProto.FLOAT,
                            name="untie_cast"),
           helper.make_node("MatMul", ["u_boxes", "u_freq"], ["u_phase"], name="untie_phase"),
           helper.make_node("Sin", ["u_phase"], ["u_wave"], name="untie_wave"),
           helper.make_node("Mul", ["u_wave", "u_scale"], ["u_mul"], name="untie_mul"),
           helper.make_node("Add", [logits, "u_mul"], ["u_logits"], name="untie_logits")]
    softmax.input[0] = "u_logits"
    index = list(model.graph.node).index(softmax)
    for k, n in enumerate(new):
        model.graph.node.insert(index + k, n)


def static_shapes(model, names, inputs):
    """The shapes onnxruntime computes for the values `names` of `model` on `inputs`."""
    import onnxruntime as ort
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for name in names:
        probe.graph.output.append(helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    session = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    return [r.shape for r in session.run(list(names), inputs)]


def sigmoid_heads(model, inputs, factor=8.0):
    """RetinaNet and FCOS: class logits x factor (their prior bias keeps every sigmoid score under the
    0.05 threshold otherwise), and a random offset in [0, 3) added to every logit that a score's
    Sigmoid takes, per level."""
    scale_weights(model, "classification_head.cls_logits", factor)
    sigmoids = [n for n in model.graph.node if n.op_type == "Sigmoid"]
    shapes = static_shapes(model, [n.input[0] for n in sigmoids], inputs)
    rng = np.random.default_rng(4)
    for k, (node, shape) in enumerate(zip(sigmoids, shapes)):
        # continuous random offsets: distinct at float resolution among the few hundred kept
        offsets = rng.random(shape) * 3.0
        name = "untie_%d" % k
        model.graph.initializer.append(numpy_helper.from_array(offsets.astype(np.float32), name))
        add = helper.make_node("Add", [node.input[0], name], [name + "_logits"], name=name)
        model.graph.node.insert(list(model.graph.node).index(node), add)
        node.input[0] = name + "_logits"


EDITS = {"ssdlite320_mobilenet_v3_large": ssdlite,
         "fasterrcnn_mobilenet_v3_large_320_fpn": fasterrcnn,
         # the ResNet-50 box head gives larger logits: a smaller factor keeps the scores below 1
         "fasterrcnn_resnet50_fpn": lambda m, i: fasterrcnn(m, i, 0.1),
         "maskrcnn_resnet50_fpn": fasterrcnn,
         "retinanet_resnet50_fpn_v2": lambda m, i: sigmoid_heads(m, i, 1.0),
         "fcos_resnet50_fpn": sigmoid_heads}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(src, "export.json")) as f:
        exported = json.load(f)
    manifest = {"meta": exported["meta"], "models": {}}
    for name, edit in EDITS.items():
        sdir = os.path.join(src, name)
        if not os.path.exists(os.path.join(src, "export.json")) or name not in exported["models"]:
            continue
        if not os.path.exists(os.path.join(sdir, "model.onnx")):
            print("skipped %s: not exported in %s" % (name, src))
            continue
        model = onnx.load(os.path.join(sdir, "model.onnx"))
        x = np.load(os.path.join(sdir, "input_0.npy"))
        edit(model, {model.graph.input[0].name: x})
        ddir = os.path.join(out, name + "_confident")
        os.makedirs(ddir, exist_ok=True)
        for stale in os.listdir(ddir):
            os.remove(os.path.join(ddir, stale))
        onnx.save(model, os.path.join(ddir, "model.onnx"))
        np.save(os.path.join(ddir, "input_0.npy"), x)
        shutil.copy(os.path.join(sdir, "meta.json"), os.path.join(ddir, "meta.json"))
        manifest["models"][name + "_confident"] = exported["models"][name]
        print("wrote", ddir)
    with open(os.path.join(out, "export.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
