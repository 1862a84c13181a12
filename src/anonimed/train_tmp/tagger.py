"""Training API: annotated BRAT folders in, a model folder (``model.json`` + the tagger's file) out.

>>> info = train_model(["train/brat"], "models/crf", dev_dir="dev/brat", options=TrainOptions(seed=1))  # doctest: +SKIP
>>> info.dev_scores["subtask1"]["f1"]  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonimed import __version__
from anonimed.detect.crf import CrfSettings, train_crf
from anonimed.detect.ensemble import Vote, VoteTuner
from anonimed.detect.features import FeatureConfig, FeatureExtractor
from anonimed.detect.window import WindowSettings, train_window
from anonimed.document import Document
from anonimed.embeddings import CLUSTERS_FILE, WordClusters, WordEmbeddings
from anonimed.formats.brat import read_brat_dir
from anonimed.formats.errors import FormatError
from anonimed.models import folder_detector, load_member, pattern_detector, shared_pattern_detector
from anonimed.models.augment import Gazetteers, augmented_copies
from anonimed.models.ensemble import KIND as ENSEMBLE_KIND
from anonimed.models.ensemble import write_ensemble
from anonimed.models.folder import Kind, ModelInfo, read_manifest, write_model_info
from anonimed.stress import stress
from anonimed.text.tokenize import tokenize

if TYPE_CHECKING:
    from anonimed.detect.neural import NeuralConfig
    from anonimed.evaluate import EvaluationReport

log = logging.getLogger(__name__)

MODEL_FILES: dict[Kind, str] = {"crf": "model.crfsuite", "window": "model.npz"}
# What the shipped model does with the pattern recognizers' own spans: the tagger's label wins an overlap, the
# extent is the union, and pattern spans scoring under 0.5 are dropped (tuned on MEDDOCAN dev, see MODEL_CARD.md).
DEFAULT_RESOLVER: dict[str, Any] = {
    "mode": "recall",
    "thresholds": {"patterns": 0.5},
    "priorities": {"crf": 1, "window": 1},
}
_GAZETTEER_MARKER = "spanish-names-ine"
MIN_MENTIONS_FOR_OWN_THRESHOLD = 50


@dataclass
class TrainOptions:
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
    documents = [document for directory in train_dirs for document in _read_annotated(directory)]
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
    """Train on the BRAT folders ``train_dirs``, write the model folder ``out_dir``, score it on ``dev_dir`` if given."""
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
        "data": [str(Path(d)) for d in train_dirs],
        "documents": originals,
        "augmented_copies": len(documents) - originals,
        "augment": options.augment,
        "layouts": options.layouts,
        "seed": options.seed,
        "embeddings": str(options.embeddings) if options.features.clusters else None,
        "seconds": round(seconds, 1),
        "anonimed_version": __version__,
    }
    log.info("trained in %.0f s", seconds)
    if dev_dir is not None:
        info.dev_scores = score_on(info, out_dir, dev_dir)
    write_model_info(out_dir, info)
    return info


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

    documents, originals = training_documents(train_dirs, options)
    dev_docs = _read_annotated(dev_dir)
    counts = _official_sentence_counts(dev_dir, dev_docs)
    log.info(
        "training a neural tagger on %d documents (%d augmented copies)", len(documents), len(documents) - originals
    )
    provenance = {
        "data": [str(Path(d)) for d in train_dirs],
        "dev": str(Path(dev_dir)),
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


def train_ensemble_model(
    member_folders: Mapping[str, str | Path | None],
    out_dir: str | Path,
    dev_dir: str | Path,
    weight_choices: Sequence[float] = (0.0, 0.5, 1.0, 1.5, 2.0),
    thresholds: Sequence[float] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8),
    stress_sets: Sequence[str] = (),
    soft_choices: Sequence[bool] = (False, True),
) -> dict[str, Any]:
    """Tune the vote of trained members on the annotated folder ``dev_dir`` and write the ensemble folder.

    ``member_folders`` maps member names to model folders (``None``: the built-in pattern recognizers).  Every
    combination of weights (the first member's weight fixed at 1), threshold, and hard or soft votes
    (``soft_choices``) is scored on the dev notes and on their ``stress_sets`` (:mod:`anonimed.stress`) pooled, so
    that a vote which is right for MEDDOCAN's template only does not win.  The ``balanced`` vote has the best
    subtask-1 F1, the ``recall`` vote the best F2 of subtask 2 merged (recall counted twice), with the weights of the
    ``balanced`` one.  The ``balanced`` vote then lets frequent types have their own threshold where that raises
    subtask-1 F1.  Returns both votes' figures on dev alone and on the pooled tuning notes.
    """
    if len(member_folders) < 2:
        raise ValueError(f"an ensemble needs at least two members, got {list(member_folders)}")
    dev = _read_annotated(dev_dir)
    counts = _official_sentence_counts(dev_dir, dev)
    gold = list(dev)
    for name in stress_sets:
        for original, changed in zip(dev, stress(dev, name)):
            changed.id = f"{original.id}~{name}"
            gold.append(changed)
            if counts is not None and original.id in counts:
                counts[changed.id] = counts[original.id]
    patterns = shared_pattern_detector()
    answers = {}
    for name, folder in member_folders.items():
        detector = patterns if folder is None else load_member(Path(folder), name, patterns)
        log.info("member %s: detecting on %d notes (dev and %d stress sets)", name, len(gold), len(stress_sets))
        answers[name] = {document.id: detector.detect(document) for document in gold}
    tuner = VoteTuner(gold, answers, counts)
    names = list(member_folders)
    tried = []
    started = time.perf_counter()
    for others in itertools.product(weight_choices, repeat=len(names) - 1):
        weights = dict(zip(names, (1.0, *others)))
        for threshold, soft in itertools.product(thresholds, soft_choices):
            vote = Vote(weights, threshold, soft=soft)
            tried.append((vote, _figures(tuner.report(vote))))
    log.info("%d votes tried in %.0f s", len(tried), time.perf_counter() - started)
    balanced, balanced_figures = max(
        tried, key=lambda item: (item[1]["subtask1"]["f1"], item[1]["subtask2_merged"]["recall"])
    )
    same_weights = [item for item in tried if item[0].weights == balanced.weights and item[0].soft == balanced.soft]
    recall, _ = max(same_weights, key=lambda item: _f_beta(item[1]["subtask2_merged"], 2.0))
    balanced, balanced_figures = _tune_label_thresholds(
        tuner, balanced, balanced_figures, thresholds, gold, MIN_MENTIONS_FOR_OWN_THRESHOLD * (1 + len(stress_sets))
    )
    dev_ids = [document.id for document in dev]
    settings = {"balanced": balanced, "recall": recall}
    about: dict[str, Any] = {
        "training": {
            "dev": str(Path(dev_dir)),
            "documents": len(dev),
            "stress_sets": list(stress_sets),
            "votes_tried": len(tried),
            "weight_choices": list(weight_choices),
            "thresholds": list(thresholds),
            "soft_choices": list(soft_choices),
            "members": {name: str(folder) if folder else "built-in" for name, folder in member_folders.items()},
            "anonimed_version": __version__,
        },
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        # The shipped detector also adds the other mentions of what the vote found: its figures are those.
        "dev_scores": {key: _figures(tuner.report(vote, dev_ids, propagate=True)) for key, vote in settings.items()},
        "tuning_scores": {key: _figures(tuner.report(vote, propagate=True)) for key, vote in settings.items()},
    }
    write_ensemble(
        out_dir,
        {n: Path(f) if f else None for n, f in member_folders.items()},
        settings,
        "balanced",
        about,
    )
    return about["dev_scores"] | {"votes": {"balanced": balanced.to_dict(), "recall": recall.to_dict()}}


def refit_ensemble_model(
    member_folders: Mapping[str, str | Path | None], out_dir: str | Path, votes_from: str | Path
) -> dict[str, Any]:
    """Write an ensemble of ``member_folders`` that votes as the tuned ensemble ``votes_from`` does: no tuning.

    The last step of a release build: once members are retrained with the same settings on more data (dev included),
    dev can no longer tune their vote, so they take the vote tuned for their predecessors.  The members must have the
    names of ``votes_from``'s members; its figures are kept in ``tuned_model`` (they are not the new model's).
    Returns the votes.
    """

    def tuned(manifest: dict[str, Any], path: Path) -> tuple[dict[str, Any], dict[str, Vote]]:
        if manifest.get("kind") != ENSEMBLE_KIND:
            raise FormatError(path, f"is a {manifest.get('kind')!r} model, not an ensemble: it has no vote to take")
        names = [member["name"] for member in manifest["members"]]
        if sorted(names) != sorted(member_folders):
            raise FormatError(path, f"votes for members {', '.join(names)}, not for {', '.join(member_folders)}")
        return manifest, {key: Vote.from_dict(values) for key, values in manifest["votes"].items()}

    manifest, votes = read_manifest(votes_from, tuned)
    about = {
        "training": {
            "votes_from": str(Path(votes_from)),
            "members": {name: str(folder) if folder else "built-in" for name, folder in member_folders.items()},
            "anonimed_version": __version__,
        },
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "tuned_model": {key: manifest[key] for key in ("training", "dev_scores") if key in manifest},
    }
    write_ensemble(
        out_dir,
        {name: Path(folder) if folder else None for name, folder in member_folders.items()},
        votes,
        manifest["default_vote"],
        about,
        manifest.get("propagate", False),
    )
    return {key: vote.to_dict() for key, vote in votes.items()}


def _tune_label_thresholds(
    tuner: VoteTuner,
    vote: Vote,
    figures: dict[str, Any],
    thresholds: Sequence[float],
    gold: Sequence[Document],
    min_mentions: int,
) -> tuple[Vote, dict[str, Any]]:
    """Let each frequent type (``min_mentions`` gold mentions or more) have its own threshold where that raises
    subtask-1 F1: the "labels that need several votes" of NLNDE.  Rare types keep the common one (no evidence)."""
    counts = Counter(span.label for document in gold for span in document.spans)
    for label in sorted(label for label, count in counts.items() if count >= min_mentions):
        for threshold in thresholds:
            if threshold == vote.label_thresholds.get(label, vote.threshold):
                continue
            candidate = replace(vote, label_thresholds={**vote.label_thresholds, label: threshold})
            candidate_figures = _figures(tuner.report(candidate))
            if candidate_figures["subtask1"]["f1"] > figures["subtask1"]["f1"]:
                vote, figures = candidate, candidate_figures
    log.info("type thresholds: %s", dict(vote.label_thresholds) or "none")
    return vote, figures


def _figures(report: EvaluationReport) -> dict[str, Any]:
    figures = report.to_dict()
    return {key: figures[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged", "characters")}


def _f_beta(counts: Mapping[str, float], beta: float) -> float:
    precision, recall = counts["precision"], counts["recall"]
    if precision + recall == 0:
        return 0.0
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def _official_sentence_counts(dev_dir: str | Path, documents: Sequence[Document]) -> dict[str, int] | None:
    """MEDDOCAN's layout keeps the official sentence splits in ``sentences`` beside ``brat``: the leak needs them."""
    from anonimed.evaluate import read_sentence_counts

    sentences = Path(dev_dir).parent / "sentences"
    return read_sentence_counts(sentences, [d.id for d in documents]) if sentences.is_dir() else None


def score_on(info: ModelInfo, model_dir: Path, dev_dir: str | Path) -> dict[str, Any]:
    """MEDDOCAN scores of the model folder's detector on the annotated folder ``dev_dir``, and its speed."""
    from anonimed.evaluate import score

    detector = folder_detector(info, model_dir / info.model_file)
    gold = _read_annotated(dev_dir)
    started = time.perf_counter()
    predictions = {document.id: detector.detect(document) for document in gold}
    seconds = time.perf_counter() - started
    report = score(gold, predictions).to_dict()
    tokens = sum(len(tokenize(document.text)) for document in gold)
    scores = {key: report[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged", "per_type")}
    scores.update(data=str(Path(dev_dir)), documents=len(gold), tokens_per_second=round(tokens / seconds))
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


def _read_annotated(directory: str | Path) -> list[Document]:
    documents = read_brat_dir(directory)
    if not documents:
        raise FormatError(directory, "holds no annotated notes (NAME.txt with NAME.ann)")
    return documents


def find_gazetteers(start: str | Path) -> Path:
    """The shared data folder (the one holding ``spanish-names-ine/``) among ``start`` and its parents."""
    for folder in [Path(start).resolve(), *Path(start).resolve().parents]:
        if (folder / _GAZETTEER_MARKER).is_dir():
            return folder
    raise FormatError(
        start, f"no gazetteer folder ({_GAZETTEER_MARKER}/...) here or above; pass the data folder explicitly"
    )
