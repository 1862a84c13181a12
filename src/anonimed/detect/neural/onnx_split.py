"""The exported tagger cut in two for inference: the character encoder, and the network from token features on.

A token's character features depend on its characters alone, and most words of a note were met in earlier notes:
:class:`~anonimed.detect.neural.inference.NeuralDetector` runs the encoder once per distinct word and keeps the
result, so the network proper reads ready features.  The cut is made in the exported ONNX graph, where the
character features of all the tokens of a batch ([B × T, F], before they are reshaped to [B, T, F] and joined to the
word vectors) leave the character encoder; the torch modules know nothing of it.

Needs the ``onnx`` package (a training dependency): training writes both files, and
``scripts/split_neural_onnx.py`` cuts the network of a model folder written before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from onnx import ModelProto

CHAR_ENCODER_FILE = "char_encoder.onnx"
CHAR_FEATURES = "char_features"  # the encoder's output [N, F] and the network's input [B, T, F]


def reads_characters(network: bytes) -> bool:
    """Whether a serialized network reads ``char_ids``: the whole tagger, not yet cut."""
    import onnx

    return any(value.name == "char_ids" for value in onnx.load_from_string(network).graph.input)


def split_network(network: bytes) -> tuple[bytes, bytes]:
    """The character encoder (``char_ids`` [1, N, C] → ``char_features`` [N, F]) and the rest of the network
    (``word_vectors``, ``char_features`` [B, T, F], ``casing``, ``lengths``, and ``char_lm`` where the network reads
    it → ``emissions``) of a whole exported tagger, serialized."""
    import onnx
    from onnx.utils import Extractor

    model = onnx.shape_inference.infer_shapes(onnx.load_from_string(network))
    inputs = [value.name for value in model.graph.input]
    if "char_ids" not in inputs:
        raise ValueError("this network reads no char_ids: it was cut already")
    joined = next(node for node in model.graph.node if node.op_type == "Concat" and "word_vectors" in node.input)
    per_token = joined.input[list(joined.input).index("word_vectors") + 1]  # the char features, [B, T, F]
    reshape = next(node for node in model.graph.node if per_token in node.output)
    if reshape.op_type != "Reshape":
        raise ValueError(f"unexpected network: the char features come from a {reshape.op_type}, not a Reshape")
    flat = reshape.input[0]  # [B × T, F]
    extractor = Extractor(model)
    encoder = extractor.extract_model(["char_ids"], [flat])
    rest_inputs = [per_token if name == "char_ids" else name for name in inputs]
    rest = extractor.extract_model(rest_inputs, ["emissions"])
    _rename(encoder, flat, CHAR_FEATURES)
    _rename(rest, per_token, CHAR_FEATURES)
    return encoder.SerializeToString(), rest.SerializeToString()


def _rename(model: ModelProto, old: str, new: str) -> None:
    graph = model.graph
    values: Iterable = [*graph.input, *graph.output, *graph.value_info]
    for value in values:
        if value.name == old:
            value.name = new
    for node in graph.node:
        for names in (node.input, node.output):
            for index, name in enumerate(names):
                if name == old:
                    names[index] = new
