"""Training the BiLSTM-CRF (:mod:`anonimed.detect.neural`, optional extra ``neural``) on the same notes and
augmented copies as a tagger, stopping early on dev."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonimed import __version__
from anonimed.train.data import official_sentence_counts, portable_path, read_annotated
from anonimed.train.tagger import TrainOptions, training_documents

if TYPE_CHECKING:
    from anonimed.detect.neural import NeuralConfig

log = logging.getLogger(__name__)


def train_neural_model(
    train_dirs: Sequence[str | Path],
    out_dir: str | Path,
    dev_dir: str | Path,
    embeddings: str | Path,
    config: NeuralConfig,
    options: TrainOptions = TrainOptions(),
) -> dict[str, Any]:
    """Train the BiLSTM-CRF on ``train_dirs`` (plus augmented copies), stopping early on ``dev_dir``.

    The leak is computed with the official sentence counts when ``dev_dir`` has a ``sentences`` folder beside it
    (MEDDOCAN's layout: ``dev/brat`` and ``dev/sentences``).  Returns what :func:`train_neural` returns.
    """
    from anonimed.detect.neural import train_neural
    from anonimed.detect.neural.encoding import char_lm_features

    char_lm_features(config.char_lm, cached_notes=0)  # a wrong folder fails now, not after the notes are read
    documents, originals = training_documents(train_dirs, options)
    dev_docs = read_annotated(dev_dir)
    counts = official_sentence_counts(dev_dir, dev_docs)
    log.info(
        "training a neural tagger on %d documents (%d augmented copies)", len(documents), len(documents) - originals
    )
    provenance = {
        "data": [portable_path(d) for d in train_dirs],
        "dev": portable_path(dev_dir),
        "documents": originals,
        "augmented_copies": len(documents) - originals,
        "augment": options.augment,
        "layouts": options.layouts,
        "anonimed_version": __version__,
    }
    return train_neural(
        documents,
        dev_docs,
        out_dir,
        config,
        options.seed,
        embeddings=embeddings,
        dev_sentence_counts=counts,
        provenance=provenance,
    )
