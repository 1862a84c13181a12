"""Training one tagger (a CRF or the window classifier): annotated BRAT folders in, a model folder (``model.json`` +
the tagger's file) out, scored on dev when one is given.

>>> info = train_model(["train/brat"], "models/crf", dev_dir="dev/brat", options=TrainOptions(seed=1))  # doctest: +SKIP
>>> info.dev_scores["subtask1"]["f1"]  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from anonimed import __version__
from anonimed.detect.crf import CrfSettings, train_crf
from anonimed.detect.features import FeatureConfig, FeatureExtractor
from anonimed.detect.window import WindowSettings, train_window
from anonimed.document import Document
from anonimed.embeddings import CLUSTERS_FILE, WordClusters, WordEmbeddings
from anonimed.models import folder_detector, pattern_detector
from anonimed.models.augment import Gazetteers, augmented_copies
from anonimed.models.folder import Kind, ModelInfo, write_model_info
from anonimed.text.tokenize import tokenize
from anonimed.train.data import find_gazetteers, portable_path, read_annotated

log = logging.getLogger(__name__)

MODEL_FILES: dict[Kind, str] = {"crf": "model.crfsuite", "window": "model.npz"}
# What the shipped model does with the pattern recognizers' own spans: the tagger's label wins an overlap, the
# extent is the union, and pattern spans scoring under 0.5 are dropped (tuned on MEDDOCAN dev, see MODEL_CARD.md).
DEFAULT_RESOLVER: dict[str, Any] = {
    "mode": "recall",
    "thresholds": {"patterns": 0.5},
    "priorities": {"crf": 1, "window": 1},
}


@dataclass
class TrainOptions:
    """How a tagger is trained (features, settings of its kind, resolver of the pattern spans) and on what (augmented
    copies, their layouts, the gazetteers they draw from); the neural training takes the data part of it too."""

    kind: Kind = "crf"
    features: FeatureConfig = field(default_factory=FeatureConfig)
    crf: CrfSettings = field(default_factory=CrfSettings)
    window: WindowSettings = field(default_factory=WindowSettings)
    resolver: dict[str, Any] | None = field(default_factory=lambda: dict(DEFAULT_RESOLVER))
    seed: int = 0
    augment: int = 0
    layouts: bool = False  # augmented copies also change layout (capitals, no keys...): see augmented_copies
    gazetteer_dir: Path | None = None
    embeddings: Path | None = None  # word vectors to cluster when ``features.clusters`` is on
    cluster_sizes: tuple[int, ...] = (64, 256, 1024)


def training_documents(train_dirs: Sequence[str | Path], options: TrainOptions) -> tuple[list[Document], int]:
    """The annotated notes of ``train_dirs`` followed by their augmented copies, and the number of originals."""
    documents = [document for directory in train_dirs for document in read_annotated(directory)]
    originals = len(documents)
    if options.augment:
        gazetteer_dir = options.gazetteer_dir or find_gazetteers(train_dirs[0])
        documents += augmented_copies(
            documents, Gazetteers.load(gazetteer_dir), options.augment, options.seed, options.layouts
        )
    elif options.layouts:
        raise ValueError("layouts change the augmented copies: give augment >= 1 with them")
    return documents, originals


def train_model(
    train_dirs: Sequence[str | Path],
    out_dir: str | Path,
    dev_dir: str | Path | None = None,
    options: TrainOptions = TrainOptions(),
) -> ModelInfo:
    """Train on the BRAT folders ``train_dirs``, write the model folder ``out_dir``, score it on ``dev_dir`` if any."""
    if options.kind not in MODEL_FILES:
        raise ValueError(f"unknown model kind {options.kind!r}: use one of {', '.join(MODEL_FILES)}")
    out_dir = Path(out_dir)
    documents, originals = training_documents(train_dirs, options)
    log.info(
        "training a %s on %d documents (%d augmented copies)", options.kind, len(documents), len(documents) - originals
    )
    info = ModelInfo(
        kind=options.kind,
        model_file=MODEL_FILES[options.kind],
        scheme=options.crf.scheme if options.kind == "crf" else "BIO",
        features=options.features,
        settings=(options.crf if options.kind == "crf" else options.window).to_dict(),
        resolver=options.resolver,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    hints = pattern_detector() if options.features.hints else None
    started = time.perf_counter()
    extractor = FeatureExtractor(options.features, _fit_clusters(options, out_dir))
    if options.kind == "crf":
        train_crf(documents, out_dir / info.model_file, extractor, options.crf, hints)
    else:
        train_window(documents, out_dir / info.model_file, extractor, options.window, hints)
    seconds = time.perf_counter() - started
    info.training = {
        "data": [portable_path(d) for d in train_dirs],
        "documents": originals,
        "augmented_copies": len(documents) - originals,
        "augment": options.augment,
        "layouts": options.layouts,
        "seed": options.seed,
        "embeddings": portable_path(options.embeddings) if options.features.clusters and options.embeddings else None,
        "seconds": round(seconds, 1),
        "anonimed_version": __version__,
    }
    log.info("trained in %.0f s", seconds)
    if dev_dir is not None:
        info.dev_scores = score_on(info, out_dir, dev_dir)
    write_model_info(out_dir, info)
    return info


def score_on(info: ModelInfo, model_dir: Path, dev_dir: str | Path) -> dict[str, Any]:
    """MEDDOCAN scores of the model folder's detector on the annotated folder ``dev_dir``, and its speed."""
    from anonimed.evaluate import score

    detector = folder_detector(info, model_dir / info.model_file)
    gold = read_annotated(dev_dir)
    started = time.perf_counter()
    predictions = {document.id: detector.detect(document) for document in gold}
    seconds = time.perf_counter() - started
    report = score(gold, predictions).to_dict()
    tokens = sum(len(tokenize(document.text)) for document in gold)
    scores = {key: report[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged", "per_type")}
    scores.update(data=portable_path(dev_dir), documents=len(gold), tokens_per_second=round(tokens / seconds))
    log.info(
        "dev: subtask 1 P/R/F1 %.4f/%.4f/%.4f, subtask 2 merged R %.4f, %d tokens/s",
        *(report["subtask1"][k] for k in ("precision", "recall", "f1")),
        report["subtask2_merged"]["recall"],
        scores["tokens_per_second"],
    )
    return scores


def _fit_clusters(options: TrainOptions, out_dir: Path) -> WordClusters | None:
    """The word clusters the features use, fitted on ``options.embeddings`` and saved beside the model."""
    if not options.features.clusters:
        return None
    if options.embeddings is None:
        raise ValueError("features with word clusters need word vectors: give the embeddings ('anonimed embed')")
    clusters = WordClusters.fit(WordEmbeddings.load(options.embeddings), options.cluster_sizes, options.seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    clusters.save(out_dir / CLUSTERS_FILE)
    log.info("word clusters of sizes %s fitted on %s", clusters.sizes, options.embeddings)
    return clusters
