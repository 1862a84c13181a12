"""The window classifier of Cotik et al.: a linear SVM tags each token from its ±2 window features, alone.

It shares the CRF's features (:mod:`anonimed.detect.features`) but has no transition model: tags are predicted
independently, then repaired into valid BIO sequences.  It trains and predicts fast; the CRF is the accurate one.
The model is a ``.npz`` of plain arrays (feature names, weights, labels), loaded with ``allow_pickle=False``.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from anonimed.detect.base import Detector
from anonimed.detect.features import FeatureExtractor, TokenTagger, training_sequences
from anonimed.document import Document
from anonimed.formats.textio import atomic_writer

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WindowSettings:
    """``C`` of the SVM and the minimum count of a feature in the training data; stored in ``model.json``."""

    c: float = 0.1
    min_feature_count: int = 2
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _matrix(features: list[list[str]], index: dict[str, int]) -> csr_matrix:
    from scipy.sparse import csr_matrix  # imported here: scipy takes 0.1 s to import, and only this detector needs it

    columns: list[int] = []
    pointers = [0]
    for token_features in features:
        columns.extend(index[f] for f in token_features if f in index)
        pointers.append(len(columns))
    data = np.ones(len(columns), dtype=np.float32)
    return csr_matrix((data, np.array(columns, dtype=np.int64), np.array(pointers)), shape=(len(features), len(index)))


class WindowDetector(TokenTagger):
    name = "window"

    def __init__(
        self, model_file: str | Path, extractor: FeatureExtractor, hint_detector: Detector | None = None
    ) -> None:
        super().__init__(extractor, "BIO", hint_detector)
        model_file = Path(model_file)
        if not model_file.is_file():
            raise FileNotFoundError(f"{model_file}: window model file not found")
        with np.load(model_file, allow_pickle=False) as arrays:
            self._index = {str(name): i for i, name in enumerate(arrays["features"])}
            self._weights = arrays["weights"]  # features × labels
            self._bias = arrays["bias"]
            self._labels = [str(label) for label in arrays["labels"]]

    def tag(self, features: list[list[str]]) -> tuple[list[str], list[float]]:
        margins = _matrix(features, self._index) @ self._weights + self._bias
        best = margins.argmax(axis=1)
        # A margin is no probability; a logistic squashing of it is a usable confidence for the resolver's threshold.
        confidence = 1.0 / (1.0 + np.exp(-margins[np.arange(len(best)), best]))
        return [self._labels[i] for i in best], confidence.tolist()


def train_window(
    documents: Iterable[Document],
    model_file: str | Path,
    extractor: FeatureExtractor,
    settings: WindowSettings = WindowSettings(),
    hint_detector: Detector | None = None,
) -> None:
    """Train the window classifier on annotated ``documents`` and write it to ``model_file``."""
    from sklearn.svm import LinearSVC

    features: list[list[str]] = []
    tags: list[str] = []
    for sequence_features, sequence_tags in training_sequences(documents, extractor, "BIO", hint_detector):
        features.extend(sequence_features)
        tags.extend(sequence_tags)
    counts = Counter(f for token_features in features for f in token_features)
    names = sorted(f for f, n in counts.items() if n >= settings.min_feature_count)
    index = {name: i for i, name in enumerate(names)}
    log.info("window classifier: %d tokens, %d features", len(tags), len(names))
    svm = LinearSVC(C=settings.c, random_state=settings.seed)
    svm.fit(_matrix(features, index), tags)
    with atomic_writer(model_file, binary=True) as stream:
        np.savez_compressed(
            stream,
            features=np.array(names),
            weights=svm.coef_.T.astype(np.float32),
            bias=svm.intercept_.astype(np.float32),
            labels=np.array(svm.classes_),
        )
