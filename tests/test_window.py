"""A tiny window classifier trained on a few MEDDOCAN notes: valid BIO spans with valid offsets."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from anonimed.detect.features import FeatureConfig, FeatureExtractor
from anonimed.detect.window import WindowDetector, WindowSettings, train_window
from anonimed.document import Document
from anonimed.formats.brat import read_brat_dir


def test_a_tiny_window_classifier_learns_and_predicts_spans_with_valid_offsets(meddocan: Path, tmp_path: Path) -> None:
    documents = read_brat_dir(meddocan / "train" / "brat")[:12]
    extractor = FeatureExtractor(FeatureConfig(hints=False, word_frequency=False))
    model_file = tmp_path / "tiny.npz"
    train_window(documents[:10], model_file, extractor, WindowSettings(min_feature_count=1))
    with np.load(model_file, allow_pickle=False) as arrays:  # plain arrays: nothing pickled
        assert arrays["weights"].shape == (len(arrays["features"]), len(arrays["labels"]))
    detector = WindowDetector(model_file, extractor)
    found = 0
    for document in documents[10:]:
        spans = detector.detect(Document(document.id, document.text))
        found += len(spans)
        for span in spans:
            assert 0 <= span.start < span.end <= len(document.text)
            assert 0.0 <= span.score <= 1.0 and span.source == "window"
    assert found, "a classifier trained on ten notes finds something in the next ones"
