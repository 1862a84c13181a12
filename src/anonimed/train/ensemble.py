"""An ensemble from trained members: every vote (member weights, threshold, hard or soft) scored on dev and its stress
sets, the best written as the ensemble folder; or the vote of a tuned ensemble given to retrained members.

Apart from training a tagger because nothing is trained here: the members' answers are computed once and only the
vote is searched (:class:`~anonimed.detect.ensemble.VoteTuner`).
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonimed import __version__
from anonimed.detect.ensemble import Vote, VoteTuner
from anonimed.document import Document
from anonimed.formats.errors import FormatError
from anonimed.models import load_member, shared_pattern_detector
from anonimed.models.ensemble import KIND as ENSEMBLE_KIND
from anonimed.models.ensemble import write_ensemble
from anonimed.models.folder import read_manifest
from anonimed.stress import stress
from anonimed.train.data import official_sentence_counts, portable_path, read_annotated

if TYPE_CHECKING:
    from anonimed.evaluate import EvaluationReport

log = logging.getLogger(__name__)

MIN_MENTIONS_FOR_OWN_THRESHOLD = 50


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
    dev = read_annotated(dev_dir)
    counts = official_sentence_counts(dev_dir, dev)
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
            "dev": portable_path(dev_dir),
            "documents": len(dev),
            "stress_sets": list(stress_sets),
            "votes_tried": len(tried),
            "weight_choices": list(weight_choices),
            "thresholds": list(thresholds),
            "soft_choices": list(soft_choices),
            "members": {
                name: portable_path(folder) if folder else "built-in" for name, folder in member_folders.items()
            },
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
    member_folders: Mapping[str, str | Path | None],
    out_dir: str | Path,
    votes_from: str | Path,
    votes_file: str | Path | None = None,
) -> dict[str, Any]:
    """Write an ensemble of ``member_folders`` that votes as the tuned ensemble ``votes_from`` does: no tuning.

    The last step of a release build: once members are retrained with the same settings on more data (dev included),
    dev can no longer tune their vote, so they take the vote tuned for their predecessors.  The members must have the
    names of ``votes_from``'s members; its figures are kept in ``tuned_model`` (they are not the new model's).
    ``votes_file``: a JSON object of vote settings by name (``{"balanced": {"weights": ...}, ...}``) that replace
    those of ``votes_from``, for votes decided elsewhere (on cross-validated folds); an entry without weights changes
    only the settings it names of the tuned vote of that name (``{"balanced": {"deferred": ["neural2"]}}``).  Returns
    the votes.
    """

    def tuned(manifest: dict[str, Any], path: Path) -> tuple[dict[str, Any], dict[str, Vote]]:
        if manifest.get("kind") != ENSEMBLE_KIND:
            raise FormatError(path, f"is a {manifest.get('kind')!r} model, not an ensemble: it has no vote to take")
        names = [member["name"] for member in manifest["members"]]
        if sorted(names) != sorted(member_folders):
            raise FormatError(path, f"votes for members {', '.join(names)}, not for {', '.join(member_folders)}")
        return manifest, {key: Vote.from_dict(values) for key, values in manifest["votes"].items()}

    manifest, votes = read_manifest(votes_from, tuned)
    if votes_file is not None:
        votes = {**votes, **read_votes(votes_file, member_folders, votes)}
    about = {
        "training": {
            "votes_from": portable_path(votes_from),
            **({"votes_file": portable_path(votes_file)} if votes_file is not None else {}),
            "members": {
                name: portable_path(folder) if folder else "built-in" for name, folder in member_folders.items()
            },
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


def read_votes(
    path: str | Path, member_names: Collection[str], base: Mapping[str, Vote] | None = None
) -> dict[str, Vote]:
    """The vote settings of a JSON file (an object of settings by name), each checked, for members ``member_names``.
    An entry without ``weights`` changes the vote of the same name in ``base`` (only the settings it gives), so that
    a file need not copy what tuning decided."""
    path = Path(path)
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(path, f"cannot read the votes: {error}") from error
    if not isinstance(values, dict) or not values:
        raise FormatError(path, 'expected a JSON object of vote settings by name: {"balanced": {"weights": ...}}')
    votes = {}
    for name, settings in values.items():
        if base is not None and name in base and isinstance(settings, dict) and "weights" not in settings:
            settings = {**base[name].to_dict(), **settings}
        try:
            votes[name] = Vote.from_dict(settings)
        except (TypeError, ValueError) as error:
            raise FormatError(path, f"vote {name!r}: {error}") from error
        unknown = sorted(set(votes[name].weights) - set(member_names))
        if unknown:
            raise FormatError(path, f"vote {name!r} weighs {', '.join(unknown)}, not a member")
    return votes


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
