"""A linear-chain CRF tagger (python-crfsuite) over :mod:`anonimed.detect.features`.

A span's score is the mean marginal probability of its tokens' tags, so the resolver can drop doubtful spans.
"""

from __future__ import annotations

import logging
import os
import struct
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pycrfsuite

from anonimed.detect.base import Detector
from anonimed.detect.features import FeatureExtractor, TokenTagger, training_sequences
from anonimed.document import Document
from anonimed.text.tagging import Scheme

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CrfSettings:
    """L-BFGS training settings (crfsuite's names); stored in ``model.json``."""

    c1: float = 0.05
    c2: float = 0.05
    max_iterations: int = 200
    min_feature_count: int = 1
    scheme: Scheme = "BIO"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class CrfDetector(TokenTagger):
    name = "crf"

    def __init__(
        self, model_file: str | Path, extractor: FeatureExtractor, scheme: Scheme, hint_detector: Detector | None = None
    ) -> None:
        model_file = Path(model_file)
        if not model_file.is_file():
            raise FileNotFoundError(f"{model_file}: CRF model file not found")
        # crfsuite ignores the features it has no weight for: they are left out before they are built.
        super().__init__(extractor.restricted_to(model_attributes(model_file)), scheme, hint_detector)
        self._tagger = pycrfsuite.Tagger()
        self._tagger.open(str(model_file))
        # A crfsuite tagger holds the sequence it is working on: one caller at a time.
        self._lock = threading.Lock()

    def tag(self, features: list[list[str]]) -> tuple[list[str], list[float]]:
        with self._lock:
            self._tagger.set(features)
            tags = self._tagger.tag()
            # Only the tokens of spans need a score (most tokens are O): marginals are computed for those alone.
            scores = [1.0 if tag == "O" else self._tagger.marginal(tag, index) for index, tag in enumerate(tags)]
        return tags, scores


# The header of a crfsuite model file (crf1dmodel.c): magic, then little-endian 32-bit fields; the attributes' offset
# is the tenth.  The attributes are a CQDB chunk: its magic, size, flags, byte order, then the backward array's
# length and offset (an offset per attribute id, 0 for none); a record there is its id, its size and the name
# (NUL-terminated).
_MODEL_MAGIC, _ATTRIBUTES_OFFSET = b"lCRF", 36
_CQDB_MAGIC = b"CQDB"


def model_attributes(model_file: str | Path) -> frozenset[str]:
    """The attributes (feature strings) a crfsuite model file has weights for, read straight from the file (the
    tagger's own ``info()`` parses a text dump of the whole model: 30 times slower)."""
    data = Path(model_file).read_bytes()
    if data[:4] != _MODEL_MAGIC:
        raise ValueError(f"{model_file}: not a crfsuite model file")
    (chunk,) = struct.unpack_from("<I", data, _ATTRIBUTES_OFFSET)
    if data[chunk : chunk + 4] != _CQDB_MAGIC:
        raise ValueError(f"{model_file}: no attribute dictionary where the header puts it")
    count, backward = struct.unpack_from("<2I", data, chunk + 16)
    names = []
    for (record,) in struct.iter_unpack("<I", data[chunk + backward : chunk + backward + 4 * count]):
        if record:
            (size,) = struct.unpack_from("<I", data, chunk + record + 4)
            names.append(data[chunk + record + 8 : chunk + record + 7 + size].decode("utf-8"))
    return frozenset(names)


def train_crf(
    documents: Iterable[Document],
    model_file: str | Path,
    extractor: FeatureExtractor,
    settings: CrfSettings = CrfSettings(),
    hint_detector: Detector | None = None,
) -> None:
    """Train a CRF on annotated ``documents`` and write it to ``model_file``."""
    trainer = pycrfsuite.Trainer(verbose=False)
    for features, tags in training_sequences(documents, extractor, settings.scheme, hint_detector):
        trainer.append(features, tags)
    trainer.select("lbfgs")
    trainer.set_params(
        {
            "c1": settings.c1,
            "c2": settings.c2,
            "max_iterations": settings.max_iterations,
            "feature.minfreq": settings.min_feature_count,
            "feature.possible_transitions": True,
        }
    )
    model_file = Path(model_file)
    model_file.parent.mkdir(parents=True, exist_ok=True)
    partial = model_file.with_name(f".{model_file.name}.partial")
    trainer.train(str(partial))
    os.replace(partial, model_file)  # readers never see a half-written model
    last = trainer.logparser.last_iteration or {}
    log.info("CRF trained: %s iterations, loss %.1f", last.get("num"), last.get("loss", float("nan")))
