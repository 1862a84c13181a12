"""Operators: what replaces a detected span.  One small class per operator behind one interface.

An operator sees the span's text, its label and the document's surrogate context, and returns the replacement
text; it never looks outside the span, so every other character of the note stays as it was.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from anonimed.schema import PHI_TYPES, canonical_label
from anonimed.transform.surrogates import SurrogateContext, surrogate
from anonimed.transform.surrogates.text import fold

# Spanish names of the coarse classes, for tags that a reader of the note understands ("[NOMBRE]").
_COARSE_TAGS = {
    "NAME": "NOMBRE",
    "DIR": "DIRECCION",
    "LOC": "LUGAR",
    "NUM": "NUMERO",
    "FECHA": "FECHA",
    "INST": "INSTITUCION",
}
_UNGROUPED_TAGS = {"PROFESION": "PROFESION", "SEXO_SUJETO_ASISTENCIA": "SEXO"}


@runtime_checkable
class Operator(Protocol):
    @property
    def name(self) -> str: ...  # read-only: the operators are frozen dataclasses

    def replace(self, original: str, label: str, context: SurrogateContext) -> str: ...


@dataclass(frozen=True)
class Tag:
    """``[NOMBRE_SUJETO_ASISTENCIA]`` (``coarse=False``) or the coarse class, ``[NOMBRE]``."""

    coarse: bool = False
    name: str = "tag"

    def replace(self, original: str, label: str, context: SurrogateContext) -> str:
        label = canonical_label(label)
        if not self.coarse:
            return f"[{label}]"
        coarse = PHI_TYPES[label].coarse
        return f"[{_COARSE_TAGS[coarse] if coarse else _UNGROUPED_TAGS[label]}]"


@dataclass(frozen=True)
class Redact:
    """Removes the span, or puts ``marker`` in its place."""

    marker: str = ""
    name: str = "redact"

    def replace(self, original: str, label: str, context: SurrogateContext) -> str:
        return self.marker


@dataclass(frozen=True)
class Mask:
    """The same number of ``character``; with ``keep_separators``, ``/ - @ . :`` and spaces stay (``**/**/****``)."""

    character: str = "*"
    keep_separators: bool = False
    name: str = "mask"

    def __post_init__(self) -> None:
        if len(self.character) != 1:
            raise ValueError(f"the mask character must be one character, got {self.character!r}")

    def replace(self, original: str, label: str, context: SurrogateContext) -> str:
        kept = " /-@.:\n\t" if self.keep_separators else "\n"  # a line break stays: masking must not join lines
        return "".join(c if c in kept else self.character for c in original)


@dataclass(frozen=True)
class Hash:
    """A keyed pseudonym: ``HMAC-SHA256(key, type group + text)``, ``length`` hex digits.

    The same text of the same kind gets the same pseudonym in every document and run that uses the same key, and
    without the key nobody can test a guess.
    """

    key: bytes
    length: int = 12
    name: str = "hash"

    def __post_init__(self) -> None:
        if not self.key:
            raise ValueError("the hash operator needs a secret key (--key FILE)")
        if not 4 <= self.length <= 64:
            raise ValueError(f"hash length must be between 4 and 64 hex digits, got {self.length}")

    def replace(self, original: str, label: str, context: SurrogateContext) -> str:
        message = f"{PHI_TYPES[canonical_label(label)].group}\x1f{fold(original)}".encode()
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()[: self.length]


@dataclass(frozen=True)
class Surrogate:
    """A realistic value of the same type (see :mod:`anonimed.transform.surrogates`)."""

    name: str = "surrogate"

    def replace(self, original: str, label: str, context: SurrogateContext) -> str:
        return surrogate(label, original, context)
