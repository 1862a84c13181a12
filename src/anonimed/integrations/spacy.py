"""The ``anonimed`` spaCy pipeline component: anonimed's PHI detector inside a spaCy pipeline.

>>> import spacy
>>> nlp = spacy.blank("es")
>>> nlp.add_pipe("anonimed", config={"model": "default", "vote": None, "label_key": "phi"})  # doctest: +SKIP
>>> doc = nlp("Paciente: Ernesto Rivera Bueno, ingresa el 03/03/2019.")  # doctest: +SKIP
>>> [(span.text, span.label_) for span in doc.spans["phi"]]  # doctest: +SKIP
[('Ernesto Rivera Bueno', 'NOMBRE_SUJETO_ASISTENCIA'), ('03/03/2019', 'FECHAS')]

The factory is registered twice over, on purpose: by the ``Language.factory`` decorator below, and through the
``spacy_factories`` entry point of the installed package, which makes spaCy import this module whenever it builds a
``Language``; so ``add_pipe("anonimed")`` works without importing anonimed first, and a saved pipeline reloads.
Because spaCy imports this module for every pipeline it builds, importing it must stay cheap and safe: the model is
loaded only when a component is made.

What the component does with a doc:

- ``doc.spans[label_key]`` gets every span the detector found, labelled with its MEDDOCAN type.  spaCy spans are made
  of whole tokens, so a detector span that starts or ends inside a token is widened to the tokens it touches
  (``alignment_mode="expand"``); none is ever dropped.  The detector's exact character offsets and scores stay in
  ``doc.spans[label_key].attrs["offsets"]`` (one ``(start, end, label, score)`` a span, in the same order), since
  de-identification must act on exact characters, not on widened tokens.
- ``doc.ents`` (when ``set_ents``): the PHI spans that do not overlap (widening can make neighbours overlap: the
  longer one wins, as :func:`spacy.util.filter_spans` decides), plus the entities the doc already had (from an
  earlier NER component) that overlap no PHI span.  PHI wins a clash because a missed identifier is a leak, while a
  lost entity of another pipeline is not.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

if TYPE_CHECKING:
    from anonimed.detect.base import Detector

FACTORY = "anonimed"
DEFAULT_CONFIG: dict[str, Any] = {"model": "default", "vote": None, "label_key": "phi", "set_ents": True}


class AnonimedComponent:
    """Runs one anonimed detector, loaded when the component is made, on each doc's text."""

    def __init__(
        self,
        nlp: Language,
        name: str = FACTORY,
        model: str | None = "default",
        vote: str | None = None,
        label_key: str = "phi",
        set_ents: bool = True,
        detector: Detector | None = None,
    ) -> None:
        from anonimed.models import load_detector  # here, not at import: spaCy imports this module for every pipeline

        self.name = name
        self.label_key = label_key
        self.set_ents = set_ents
        # Loaded once per component (and the shipped model once per process): never once per doc.
        self.detector: Detector = detector if detector is not None else load_detector(model, vote)

    def __call__(self, doc: Doc) -> Doc:
        from anonimed.document import Document

        found = sorted(self.detector.detect(Document("spacy", doc.text)))
        spans = [_token_span(doc, span.start, span.end, span.label) for span in found]
        doc.spans[self.label_key] = spans
        doc.spans[self.label_key].attrs["offsets"] = [(span.start, span.end, span.label, span.score) for span in found]
        if self.set_ents:
            doc.ents = _entities(spans, list(doc.ents))
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        """``nlp.pipe``: the detector works a note at a time, so a batch is its docs one after the other."""
        for doc in stream:
            yield self(doc)


def _token_span(doc: Doc, start: int, end: int, label: str) -> Span:
    """The tokens that the characters ``[start, end)`` touch, never empty.

    ``char_span(..., alignment_mode="expand")`` gives nothing (or no token) for characters that lie only in a token's
    trailing white space; the span then takes the token that white space belongs to, so that no span is lost.
    """
    span = doc.char_span(start, end, label=label, alignment_mode="expand")
    if span is not None and len(span) > 0:
        return span
    touched = [t.i for t in doc if t.idx < end and start < t.idx + len(t.text_with_ws)]
    if not touched:  # offsets beyond the text cannot come from a detector, but never lose a span: take the last token
        touched = [len(doc) - 1]
    return Span(doc, touched[0], touched[-1] + 1, label=label)


def _entities(phi: list[Span], existing: list[Span]) -> list[Span]:
    """Non-overlapping PHI spans, and the earlier entities that overlap none of them (PHI wins a clash)."""
    kept = filter_spans(phi)
    taken = {token for span in kept for token in range(span.start, span.end)}
    others = [e for e in existing if not any(token in taken for token in range(e.start, e.end))]
    return sorted(kept + others, key=lambda span: span.start)


@Language.factory(FACTORY, default_config=DEFAULT_CONFIG, assigns=["doc.spans", "doc.ents"])
def make_component(
    nlp: Language, name: str, model: str | None, vote: str | None, label_key: str, set_ents: bool
) -> AnonimedComponent:
    """The factory behind ``nlp.add_pipe("anonimed", config={...})``; ``model`` and ``vote`` as for
    :func:`anonimed.models.load_detector` (``"default"``: the shipped model, with its ``balanced`` vote unless
    ``vote`` says otherwise)."""
    return AnonimedComponent(nlp, name, model, vote, label_key, set_ents)
