"""The Python API of the whole flow: text → Document → detector → spans → operators → de-identified text.

>>> from anonimed.deidentify import Deidentifier
>>> result = Deidentifier(seed=1).deidentify("Paciente: Ernesto Rivera Bueno, 03/03/1946.")  # doctest: +SKIP
>>> result.text  # doctest: +SKIP
'Paciente: Julián Soler Pardo, 27/01/1944.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.transform import (
    Keyring,
    Replacement,
    SurrogateContext,
    TransformConfig,
    apply_plan,
    build_config,
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


class Deidentifier:
    """De-identifies notes with a detector and per-type operators.

    ``model``: a :class:`~anonimed.detect.base.Detector`, a model name or folder for
    :func:`anonimed.models.load_detector`, or None for the shipped model (loaded on first use, and not at all when
    only gold spans are transformed).  ``operators``: a :class:`TransformConfig`, a settings mapping or the path of a
    YAML/TOML file (see :mod:`anonimed.transform.config`), or CLI-style specs (``["FECHAS=mask:keep"]``).  ``key``:
    secret bytes or a key file; with it surrogates and pseudonyms are stable across documents and runs.  ``seed``:
    reproducible output without a key (each document then has its own surrogates).
    """

    def __init__(
        self,
        model: Detector | str | Path | None = None,
        operators: TransformConfig | Mapping[str, Any] | str | Path | Iterable[str] | None = None,
        key: bytes | str | Path | None = None,
        seed: int | None = None,
    ) -> None:
        self.keyring = Keyring(key, seed)
        self.config = _config(operators, self.keyring.secret if key is not None else None)
        self._model = model

    @property
    def detector(self) -> Detector:
        if not isinstance(self._model, Detector):
            from anonimed.models import load_detector  # deferred: loading a model is the slow part

            self._model = load_detector(self._model)
        return self._model

    def deidentify(self, text_or_document: str | Document, document_id: str = "text") -> Result:
        """Detect PHI in the text (a document's own spans are ignored) and replace it."""
        document = (
            text_or_document
            if isinstance(text_or_document, Document)
            else Document(document_id, text_or_document)
        )
        detected = document.with_spans(self.detector.detect(document))
        return self.transform(detected)

    def transform(self, document: Document) -> Result:
        """Replace the spans the document already carries (gold annotations, or spans found elsewhere)."""
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
    if isinstance(operators, Path) or (isinstance(operators, str) and Path(operators).suffix in (".yaml", ".yml", ".toml", ".json")):
        return build_config(settings=load_settings(operators), key=key)
    if isinstance(operators, str):
        return build_config([operators], key=key)
    return build_config(list(operators), key=key)
