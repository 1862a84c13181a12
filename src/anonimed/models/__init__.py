"""Models: the shipped default detector and model folders written by ``anonimed train``.

A model folder holds ``model.json`` (see :mod:`anonimed.models.folder`) and the tagger's file.  Loading one gives a
detector: the tagger (CRF or window classifier) fed with the pattern recognizers' hints, and, when the folder says
so, merged with those recognizers' own spans through the resolver.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from anonimed.detect.base import Detector
from anonimed.detect.crf import CrfDetector
from anonimed.detect.features import FeatureExtractor
from anonimed.detect.resolver import ResolvedDetector, Resolver
from anonimed.detect.window import WindowDetector
from anonimed.document import Document, Span
from anonimed.models.folder import ModelInfo, read_model_info

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent / "default"


class ModelNotFoundError(ValueError):
    """Neither the name of a shipped model nor a model folder."""


def load_detector(name_or_path: str | Path | None = None) -> Detector:
    """``None`` or ``"default"``: the shipped model (loaded once, then shared); otherwise a model folder's path."""
    if name_or_path is None or name_or_path == "default":
        return _default_detector()
    path = Path(name_or_path)
    if not path.is_dir():
        raise ModelNotFoundError(
            f"{name_or_path}: not a model; give 'default' or a model folder written by 'anonimed train'"
        )
    return load_model_dir(path)


@lru_cache(maxsize=1)
def _default_detector() -> Detector:
    if not (DEFAULT_MODEL_DIR / "model.json").is_file():
        raise ModelNotFoundError(f"{DEFAULT_MODEL_DIR}: the shipped default model is missing (broken installation?)")
    return load_model_dir(DEFAULT_MODEL_DIR)


def load_model_dir(directory: str | Path) -> Detector:
    directory = Path(directory)
    info = read_model_info(directory)
    return build_detector(info, directory / info.model_file)


def build_detector(info: ModelInfo, model_file: Path) -> Detector:
    """The detector a model folder describes, its tagger read from ``model_file``."""
    extractor = FeatureExtractor(info.features)
    patterns = pattern_detector() if info.features.hints or info.resolver is not None else None
    hints = _RememberLast(patterns) if patterns is not None else None
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
