"""The model's own uncertainty about a note: the second way to rank notes for annotation.

A note's uncertainty is the mean, over its tokens, of how unsure the model is about each token:

* a CRF model folder gives token marginals: a token's uncertainty is ``1 - P(Viterbi tag)``, the probability that
  the tag the CRF chose for it is wrong (python-crfsuite's ``marginal``), for every token, PHI or not, so a name the
  CRF nearly tagged counts as well as a doubtful span;
* any other detector gives span scores only: a token inside a predicted span gets ``1 - |2 score - 1|`` (1 for a
  score of 0.5, 0 for 0 or 1), the highest over the spans that cover it; a token outside every span gets 0.

The mean over tokens, not the sum, so that a long note is not ranked first for being long: the ranking asks which
notes the model understands least, and an annotator's effort grows with the length of the note too.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol, runtime_checkable

import pycrfsuite

from anonimed.detect.base import Detector
from anonimed.detect.crf import CrfDetector
from anonimed.detect.features import hints_for
from anonimed.document import Document, Span
from anonimed.text.tokenize import Token, tokenize


@runtime_checkable
class TokenUncertainty(Protocol):
    """A detector that can say how unsure it is about each token of a note (in [0, 1], in token order)."""

    name: str

    def detect(self, document: Document) -> list[Span]: ...

    def token_uncertainties(self, document: Document, tokens: Sequence[Token]) -> list[float]: ...


def span_uncertainty(score: float) -> float:
    """How close a span's score is to a coin toss: 1 at 0.5, 0 at 0 or 1."""
    return 1.0 - abs(2.0 * score - 1.0)


def uncertainty_scores(detector: Detector, documents: Sequence[Document]) -> dict[str, float]:
    """Each document's uncertainty (higher = more uncertain), keyed by document id; see the module's docstring."""
    scores: dict[str, float] = {}
    for document in documents:
        tokens = tokenize(document.text)
        if not tokens:
            scores[document.id] = 0.0
            continue
        if isinstance(detector, TokenUncertainty):
            per_token = detector.token_uncertainties(document, tokens)
        else:
            per_token = _span_token_uncertainties(detector.detect(document), tokens)
        scores[document.id] = sum(per_token) / len(tokens)
    return scores


def _span_token_uncertainties(spans: Sequence[Span], tokens: Sequence[Token]) -> list[float]:
    uncertainties = [0.0] * len(tokens)
    for span in spans:
        doubt = span_uncertainty(span.score)
        for index, token in enumerate(tokens):
            if token.start < span.end and span.start < token.end:
                uncertainties[index] = max(uncertainties[index], doubt)
    return uncertainties


class CrfMarginals:
    """A CRF detector that also reports the marginal probability of each token's tag (see the module's docstring)."""

    def __init__(self, crf: CrfDetector, model_file: str | Path) -> None:
        self.crf = crf
        self.name = crf.name
        # A tagger of its own: the detector's tagger only computes marginals for the tokens of spans.
        self._tagger = pycrfsuite.Tagger()
        self._tagger.open(str(model_file))
        self._lock = threading.Lock()

    def detect(self, document: Document) -> list[Span]:
        return self.crf.detect(document)

    def token_uncertainties(self, document: Document, tokens: Sequence[Token]) -> list[float]:
        features = self.crf.extractor.features(document.text, tokens, hints_for(self.crf.hint_detector, document))
        with self._lock:
            self._tagger.set(features)
            tags = self._tagger.tag()
            return [1.0 - self._tagger.marginal(tag, index) for index, tag in enumerate(tags)]


def load_uncertainty_detector(model: str | Path) -> Detector:
    """The detector that ranks by uncertainty: token marginals for a CRF model folder, else the model's spans."""
    from anonimed.models import build_detector, load_detector
    from anonimed.models.ensemble import folder_kind
    from anonimed.models.folder import read_model_info

    directory = Path(model)
    if directory.is_dir() and folder_kind(directory) == "crf":
        info = read_model_info(directory)
        model_file = directory / info.model_file
        crf = build_detector(replace(info, resolver=None), model_file)
        if isinstance(crf, CrfDetector):
            return CrfMarginals(crf, model_file)
    return load_detector(model)
