"""The Python API of the whole flow for one note: text → Document → detector → spans → operators → new text.

Batches of files (what ``anonimed deidentify`` runs) are in :mod:`anonimed.deidentify.batch`; both are re-exported by
:mod:`anonimed.deidentify`.

>>> from anonimed.deidentify import Deidentifier
>>> result = Deidentifier(seed=1).deidentify("Paciente: Ernesto Rivera Bueno, 03/03/1946.")  # doctest: +SKIP
>>> result.text  # doctest: +SKIP
'Paciente: Julián Soler Pardo, 27/01/1944.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.transform import (
    Keyring,
    Replacement,
    SurrogateContext,
    TransformConfig,
    apply_plan,
    build_config,
    covering_spans,
    load_settings,
)


@dataclass(frozen=True)
class Result:
    """What :meth:`Deidentifier.deidentify` gives: the input document with the spans acted on, the new text, the
    spans of the new text, and for each input span its output span (None when the operator removed it)."""

    input: Document
    text: str
    replacements: tuple[Replacement, ...]

    @property
    def spans(self) -> list[Span]:
        return [r.output for r in self.replacements if r.output is not None]

    @property
    def mapping(self) -> dict[Span, Span | None]:
        return {r.input: r.output for r in self.replacements}

    @property
    def document(self) -> Document:
        """The de-identified document (same id and metadata) with its spans on the replacements."""
        return Document(self.input.id, self.text, self.spans, dict(self.input.metadata))


def load_model(model: str | Path | None = None, vote: str | None = None) -> Detector:
    """The detector that de-identification uses: :func:`anonimed.models.load_detector`, except that an ensemble
    (the shipped model or a folder) runs with its ``recall`` vote when it has one and no ``vote`` is named
    (:func:`anonimed.models.vote_for_deidentify`; ``predict`` keeps the model's default vote)."""
    from anonimed.models import load_detector, vote_for_deidentify  # deferred: loading a model is the slow part

    return load_detector(model, vote if vote is not None else vote_for_deidentify(model))


class Deidentifier:
    """De-identifies notes with a detector and per-type operators.

    ``model``: a :class:`~anonimed.detect.base.Detector`, a model name or folder for
    :func:`anonimed.models.load_detector`, or None for the shipped model (loaded on first use, and not at all when
    only gold spans are transformed).  ``vote``: an ensemble's vote setting; the shipped model de-identifies with its
    ``recall`` vote unless told otherwise (see :func:`load_model`).  ``operators``: a :class:`TransformConfig`, a
    settings mapping or the path of a YAML/TOML file (see :mod:`anonimed.transform.config`), or CLI-style specs
    (``["FECHAS=mask:keep"]``).  ``key``: secret bytes or a key file; with it surrogates and pseudonyms are stable
    across documents and runs.  ``seed``: reproducible output without a key (each document then has its own
    surrogates).
    """

    def __init__(
        self,
        model: Detector | str | Path | None = None,
        operators: TransformConfig | Mapping[str, Any] | str | Path | Iterable[str] | None = None,
        key: bytes | str | Path | None = None,
        seed: int | None = None,
        vote: str | None = None,
    ) -> None:
        self.keyring = Keyring(key, seed)
        self.config = _config(operators, self.keyring.secret if key is not None else None)
        self._model = model
        self._vote = vote

    @property
    def detector(self) -> Detector:
        if not isinstance(self._model, Detector):
            self._model = load_model(self._model, self._vote)
        return self._model

    def deidentify(
        self, text_or_document: str | Document, document_id: str = "text", patient: str | None = None
    ) -> Result:
        """Detect PHI in the text (a document's own spans are ignored) and replace it.

        ``patient`` names the patient, so that all of their notes get one date offset (else each note has its own).
        """
        if isinstance(text_or_document, Document):
            document = text_or_document
        else:
            document = Document(document_id, text_or_document)
        if patient is not None:
            document = Document(document.id, document.text, document.spans, {**document.metadata, "patient": patient})
        detected = document.with_spans(self.detector.detect(document))
        return self.transform(detected)

    def transform(self, document: Document) -> Result:
        """Replace the spans the document already carries (gold annotations, or spans found elsewhere).

        Spans that overlap are first merged into one span over all their characters (see :func:`covering_spans`),
        so that no character of any span is left as it was.
        """
        document = document.with_spans(covering_spans(document.spans))
        context = SurrogateContext(document, self.keyring, self.config.options)
        transformed = apply_plan(document, self.config.plan, context)
        return Result(document, transformed.text, transformed.replacements)


def _config(
    operators: TransformConfig | Mapping[str, Any] | str | Path | Iterable[str] | None, key: bytes | None
) -> TransformConfig:
    if operators is None:
        return build_config(key=key)
    if isinstance(operators, TransformConfig):
        return operators
    if isinstance(operators, Mapping):
        return build_config(settings=operators, key=key)
    if isinstance(operators, Path) or (
        isinstance(operators, str) and Path(operators).suffix in (".yaml", ".yml", ".toml", ".json")
    ):
        return build_config(settings=load_settings(operators), key=key)
    if isinstance(operators, str):
        return build_config([operators], key=key)
    return build_config(list(operators), key=key)
