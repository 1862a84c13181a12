"""A BiLSTM-CRF PHI tagger: trained with PyTorch, run without it (ONNX network + numpy CRF).

>>> report = train_neural(train_docs, dev_docs, "runs/neural/model", preset("default"), seed=13,
...                       embeddings="runs/embeddings/clinical-es-100d.npz")      # doctest: +SKIP
>>> detector = load_neural("runs/neural/model")                                   # doctest: +SKIP
>>> detector.detect(document)                                                     # doctest: +SKIP

Importing this package does not import torch or onnxruntime: ``train_neural`` imports torch when it is called and
the detector imports onnxruntime when it is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from anonimed.detect.neural.config import PRESETS, NeuralConfig, preset
from anonimed.detect.neural.inference import NeuralDetector, load_neural
from anonimed.document import Document


def train_neural(
    train_docs: Sequence[Document],
    dev_docs: Sequence[Document],
    out_dir: str | Path,
    config: NeuralConfig = NeuralConfig(),
    seed: int = 13,
    **options: Any,
) -> dict:
    """See :func:`anonimed.detect.neural.training.train_neural` (``embeddings=`` is required)."""
    from anonimed.detect.neural.training import train_neural as train  # torch is a training-time dependency

    return train(train_docs, dev_docs, out_dir, config, seed, **options)


__all__ = ["PRESETS", "NeuralConfig", "NeuralDetector", "load_neural", "preset", "train_neural"]
