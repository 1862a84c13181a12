"""Contextual character features at inference: a character language model's ONNX network run by onnxruntime.

A word's feature is the forward model's hidden state after the word's last character and the backward model's
state after (in its reversed reading) the word's first character (Akbik et al. 2018).  The models are trained by
:mod:`anonimed.detect.neural.charlm`; this module needs numpy and onnxruntime only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from anonimed.text.tokenize import Token

MANIFEST_FILE = "charlm.json"
NETWORK_FILE = "charlm.onnx"
UNKNOWN = 1


class CharLmStates:
    """One trained character language model (a folder written by ``anonimed embed --char-lm``)."""

    def __init__(self, folder: str | Path) -> None:
        import onnxruntime  # imported here so that the package imports without it

        folder = Path(folder)
        manifest_path = folder / MANIFEST_FILE
        if not manifest_path.is_file():
            raise FileNotFoundError(f"{folder}: not a character language model folder (no {MANIFEST_FILE})")
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        self.direction: str = manifest["config"]["direction"]
        self.hidden: int = manifest["config"]["hidden"]
        self._ids = {char: index + 2 for index, char in enumerate(manifest["chars"])}
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(folder / NETWORK_FILE), options, providers=["CPUExecutionProvider"]
        )

    def states(self, text: str) -> np.ndarray:
        """Hidden states [len(text), H] after each character of ``text`` as the model reads it."""
        oriented = text if self.direction == "forward" else text[::-1]
        ids = np.fromiter((self._ids.get(char, UNKNOWN) for char in oriented), dtype=np.int64, count=len(oriented))
        if not len(ids):
            return np.zeros((0, self.hidden), dtype=np.float32)
        return self.session.run(["states"], {"char_ids": ids[None, :]})[0][0]

    def word_features(self, text: str, tokens: Sequence[Token]) -> np.ndarray:
        """[len(tokens), H]: each token's state — after its last character (forward), or after its first character
        in the reversed reading (backward)."""
        states = self.states(text)
        if self.direction == "forward":
            positions = [token.end - 1 for token in tokens]
        else:
            positions = [len(text) - 1 - token.start for token in tokens]
        return states[positions] if positions else np.zeros((0, self.hidden), dtype=np.float32)
