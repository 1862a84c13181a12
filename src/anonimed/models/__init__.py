"""Models: the shipped default detector and model folders written by ``anonimed train``.

A model folder holds ``model.json`` and the model's files; its ``kind`` says how to load it:

- ``crf`` / ``window`` (:mod:`anonimed.models.folder`): the tagger fed with the pattern recognizers' hints, and, when
  the folder says so, merged with those recognizers' own spans through the resolver;
- ``neural`` (:mod:`anonimed.detect.neural`): the BiLSTM-CRF, run by onnxruntime;
- ``ensemble`` (:mod:`anonimed.models.ensemble`): member folders and the pattern recognizers combined by a vote.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from anonimed.detect.base import Detector
from anonimed.detect.boundaries import TidyBoundaries
from anonimed.detect.composed import ComposedText
from anonimed.detect.crf import CrfDetector
from anonimed.detect.features import FeatureExtractor
from anonimed.detect.not_phi import NAME_TYPES
from anonimed.detect.plausible import PlausibleSpans, plausible
from anonimed.detect.propagate import Propagator, propagated
from anonimed.detect.resolver import ResolvedDetector, Resolver
from anonimed.detect.window import WindowDetector
from anonimed.document import Document, Span
from anonimed.embeddings import CLUSTERS_FILE, WordClusters
from anonimed.formats.errors import FormatError
from anonimed.models.ensemble import KIND as ENSEMBLE
from anonimed.models.ensemble import folder_kind, load_ensemble, vote_names
from anonimed.models.folder import ModelInfo, read_manifest, read_model_info
from anonimed.rules.ruleset import SOURCE as RULES_SOURCE

NEURAL = "neural"
FAST = "fast"
# The vote setting that de-identification prefers (see vote_for_deidentify).
RECALL_VOTE = "recall"
# The member of the default ensemble that the fast model runs alone.
FAST_MEMBER = "crf"

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent / "default"


class ModelNotFoundError(ValueError):
    """Neither the name of a shipped model nor a model folder."""


def load_detector(name_or_path: str | Path | None = None, vote: str | None = None) -> Detector:
    """``None`` or ``"default"``: the shipped model; ``"fast"``: its CRF member with the pattern recognizers and the
    shipped rules (several times faster, a little less recall); otherwise a model folder's path.  Shipped models are
    loaded once, then shared.

    ``vote`` names one of an ensemble's vote settings (``balanced``, ``recall``); other models take none.
    """
    if name_or_path is None or name_or_path == "default":
        return _default_detector(vote)
    if name_or_path == FAST:
        if vote is not None:
            raise ValueError(f"the fast model has no vote settings (only ensembles do), got vote={vote!r}")
        return _fast_detector()
    path = Path(name_or_path)
    if not path.is_dir():
        raise ModelNotFoundError(
            f"{name_or_path}: not a model; give 'default', 'fast' or a model folder written by 'anonimed train'"
        )
    # Models learnt composed (NFC) text: notes with decomposed accents are read composed, spans mapped back.
    return ComposedText(load_model_dir(path, vote))


def vote_for_deidentify(name_or_path: str | Path | None = None) -> str | None:
    """The vote that de-identification runs a model with when none is named: an ensemble's ``recall`` vote where it
    has one (a missed name is a leak, an extra masked word is not), the shipped model's and a folder's alike;
    otherwise ``None`` (the model's own default)."""
    if name_or_path == FAST:
        return None
    folder = DEFAULT_MODEL_DIR if name_or_path in (None, "default") else Path(name_or_path)
    if not (folder / "model.json").is_file():
        return None  # loading it says what is wrong
    return RECALL_VOTE if RECALL_VOTE in vote_names(folder) else None


@lru_cache(maxsize=4)
def _default_detector(vote: str | None) -> Detector:
    if not (DEFAULT_MODEL_DIR / "model.json").is_file():
        raise ModelNotFoundError(f"{DEFAULT_MODEL_DIR}: the shipped default model is missing (broken installation?)")
    return ComposedText(load_model_dir(DEFAULT_MODEL_DIR, vote))


@lru_cache(maxsize=1)
def _fast_detector() -> Detector:
    """The default model's CRF member on its own (its tagger fed with the pattern recognizers' hints and merged with
    their spans, the boundary rules, propagation, the plausibility checks) and the shipped rules: the same files as
    the default model, none copied; the rules' spans go through the same checks as the default model's."""
    member = DEFAULT_MODEL_DIR / FAST_MEMBER
    if not (member / "model.json").is_file():
        raise ModelNotFoundError(f"{member}: the shipped model's CRF member is missing (broken installation?)")
    return ComposedText(_with_checked_rules(load_model_dir(member), "default"))


def load_model_dir(directory: str | Path, vote: str | None = None, plain: bool = False) -> Detector:
    """The detector of a model folder of any kind: its model's spans, none of them implausible
    (:mod:`anonimed.detect.plausible`), and the spans of the rules its ``model.json`` names (``"rules"``: the rule
    files or folders, relative to the model folder, or ``"default"`` for the shipped set), where the model found
    nothing.  ``plain``: the model's spans alone, without those checks and rules (to measure what they add)."""
    directory = Path(directory)
    if plain:
        return _load_kind(directory, vote)
    model = _load_kind(directory, vote)
    detector: Detector = PlausibleSpans(model)
    rules = folder_rules(directory)
    if rules:
        detector = _with_checked_rules(detector, rules)
    return _PropagatedAfterTheChecks(detector) if isinstance(model, Propagator) else detector


class _PropagatedAfterTheChecks:
    """A propagating model's checked spans and its rules' spans, with the other mentions of what they found where
    nothing lies: a span the checks drop (a vote's "street" running over ``Jo, Joaquim Roca Vidal, amb DNI``) may have
    hidden another mention of a name found elsewhere in the note, which propagation had skipped, and a person's name
    of two words or more that only a rule found (``la filla d'en ton rovira``) recurs too (``- ton rovira,c/ del pont
    14``), as a whole; a rule's other findings and a word of its names are not copied (one word a rule took for a name
    or a place, ``prep``, ``saúde``, ``Petita``, is more often wrong than the vote's).  The new mentions go through
    the same checks."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        kept = self.detector.detect(document)
        sources = [span for span in kept if span.source != RULES_SOURCE or span.label in NAME_TYPES]
        rule_names = {text[span.start : span.end].lower() for span in kept if _full_name_of_a_rule(text, span)}

        def wanted(copy: Span) -> bool:
            whole = copy.source != RULES_SOURCE or text[copy.start : copy.end].lower() in rule_names
            return whole and not any(copy.overlaps(span) for span in kept)

        return sorted(kept + plausible(text, [copy for copy in propagated(text, sources) if wanted(copy)]))


def _full_name_of_a_rule(text: str, span: Span) -> bool:
    """Whether a rule found ``span``, a person's name of two words or more: its whole text is looked for again."""
    return span.source == RULES_SOURCE and span.label in NAME_TYPES and len(text[span.start : span.end].split()) >= 2


def _with_checked_rules(detector: Detector, rules: str | Path | Sequence[str | Path]) -> Detector:
    """``detector`` with the spans of ``rules`` where it found nothing, the rules' spans through the same boundary
    rules and plausibility checks (a rule's match may run on into a glued word, 45128876k.ve, take an hour for a
    hospital, 8 h. Percusión, or a word in a context that is never PHI, med. familia)."""
    from anonimed.rules import WithRules, load_rules

    return WithRules(detector, PlausibleSpans(TidyBoundaries(load_rules(rules))))


def folder_rules(directory: str | Path) -> list[str | Path]:
    """The rule sources a model folder's ``model.json`` names (none when it names none)."""

    def sources(values: dict[str, Any], path: Path) -> list[str | Path]:
        named = values.get("rules", [])
        named = [named] if isinstance(named, str) else named
        if not isinstance(named, list) or not all(isinstance(item, str) for item in named):
            raise FormatError(path, "'rules' must be 'default', a rule file or folder, or a list of them")
        return [item if item == "default" else path.parent / item for item in named]

    return read_manifest(directory, sources)


def _load_kind(directory: Path, vote: str | None) -> Detector:
    kind = folder_kind(directory)
    if vote is not None and kind != ENSEMBLE:
        raise ValueError(f"{directory}: a {kind} model has no vote settings (only ensembles do), got vote={vote!r}")
    if kind == ENSEMBLE:  # its vote's spans get the boundary rules, before propagation
        shared = shared_pattern_detector()
        return load_ensemble(directory, lambda folder, name: load_member(folder, name, shared), shared, vote)
    if kind == NEURAL:
        return _on_its_own(_load_neural(directory))
    info = read_model_info(directory)
    return folder_detector(info, directory / info.model_file)


def folder_detector(info: ModelInfo, model_file: Path) -> Detector:
    """The detector of a CRF or window folder on its own: its tagger and pattern spans (see :func:`_on_its_own`)."""
    return _on_its_own(build_detector(info, model_file))


def _on_its_own(tagger: Detector) -> Detector:
    """A model used alone: its spans get the boundary rules, then the other mentions of what it found, as an
    ensemble's vote does."""
    return Propagator(TidyBoundaries(tagger))


def _load_neural(directory: Path) -> Detector:
    from anonimed.detect.neural import load_neural

    return load_neural(directory)


def load_member(folder: Path, name: str, patterns: Detector) -> Detector:
    """An ensemble member: the tagger alone (the patterns vote on their own), answering under ``name``."""
    kind = folder_kind(folder)
    if kind == NEURAL:
        detector = _load_neural(folder)
    elif kind == ENSEMBLE:
        detector = load_model_dir(folder)
    else:
        info = read_model_info(folder)
        detector = build_detector(replace(info, resolver=None), folder / info.model_file, patterns)
    detector.name = name
    return detector


def build_detector(info: ModelInfo, model_file: Path, patterns: Detector | None = None) -> Detector:
    """The detector a model folder describes, its tagger read from ``model_file``.

    ``patterns`` are recognizers that remember their last answer (shared with others that run on the same notes);
    by default the detector gets its own.
    """
    clusters = WordClusters.load(model_file.parent / CLUSTERS_FILE) if info.features.clusters else None
    extractor = FeatureExtractor(info.features, clusters)
    hints = None
    if info.features.hints or info.resolver is not None:
        hints = patterns if patterns is not None else shared_pattern_detector()
    if info.kind == "crf":
        tagger: Detector = CrfDetector(model_file, extractor, info.scheme, hints)
    else:
        tagger = WindowDetector(model_file, extractor, hints)
    if info.resolver is None or hints is None:
        return tagger
    return ResolvedDetector([tagger, hints], Resolver(**info.resolver), name=f"{info.kind}+patterns")


def pattern_detector() -> Detector:
    """The pattern recognizers: the taggers' hints, and a detector of their own in the resolver."""
    from anonimed.detect.patterns import PatternDetector

    return PatternDetector()


def shared_pattern_detector() -> Detector:
    """Pattern recognizers that remember their last answer, to be shared by the detectors that run on one note."""
    return _RememberLast(pattern_detector())


class _RememberLast:
    """A detector that remembers its last answer: the tagger's hints and the resolver's pattern spans are the same
    call on the same document, so the patterns run once a document."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name
        self._last: tuple[str, list[Span]] | None = None
        self._lock = threading.Lock()

    def detect(self, document: Document) -> list[Span]:
        with self._lock:
            last = self._last
            if last is None or last[0] is not document.text:
                last = (document.text, self.detector.detect(document))
                self._last = last
            return list(last[1])
