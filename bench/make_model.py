#!/usr/bin/python3
"""Writes attention.onnx, the graph onnxruntime runs in `npm run bench`:
softmax(Q K^T / sqrt(d)) V over batched heads, Q, K, V of shape [heads, N, d] (any size).

Run with Debian's python3-onnx: /usr/bin/python3 bench/make_model.py
"""
import pathlib

import onnx
from onnx import TensorProto, helper

D = 64  # the benchmark's head width; the scale initializer depends on it

shape = ["heads", "n", D]
graph = helper.make_graph(
    nodes=[
        helper.make_node("Transpose", ["K"], ["Kt"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["Q", "Kt"], ["scores"]),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"]),
        helper.make_node("Softmax", ["scaled"], ["weights"], axis=-1),
        helper.make_node("MatMul", ["weights", "V"], ["output"]),
    ],
    name="attention",
    inputs=[helper.make_tensor_value_info(name, TensorProto.FLOAT, shape) for name in "QKV"],
    outputs=[helper.make_tensor_value_info("output", TensorProto.FLOAT, shape)],
    initializer=[helper.make_tensor("scale", TensorProto.FLOAT, [], [1 / D ** 0.5])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="attention-stepper")
model.ir_version = 8
onnx.checker.check_model(model)
path = pathlib.Path(__file__).resolve().parent / "attention.onnx"
onnx.save(model, path)
print("wrote", path)
