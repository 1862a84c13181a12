"""The JSON bodies of the service: what a request may hold (checked before any model runs) and what it gets back."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Vote = Literal["balanced", "recall", "styles"]


def _checked_text(text: str) -> str:
    """A note's text as the rest of anonimed reads it: no NUL (a binary file) and no lone surrogate (not Unicode)."""
    if "\x00" in text:
        raise ValueError("the text contains a NUL character (binary data, not text)")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"the text is not valid Unicode: a lone surrogate at character {error.start}") from None
    return text


class _Strict(BaseModel):
    # An unknown field is a mistake to report (a misspelt option would otherwise be silently ignored).
    model_config = ConfigDict(extra="forbid")


class DocumentIn(_Strict):
    id: str = Field(min_length=1, max_length=200)
    text: str
    patient: str | None = Field(default=None, description="the patient's key: their notes share one date offset")

    @field_validator("text")
    @classmethod
    def _valid_text(cls, text: str) -> str:
        return _checked_text(text)


class _Notes(_Strict):
    """One ``text`` or a list of ``documents`` (ids unique), never both."""

    text: str | None = None
    documents: list[DocumentIn] | None = Field(default=None, min_length=1)
    vote: Vote | None = Field(default=None, description="an ensemble's vote (default: the server's)")

    @field_validator("text")
    @classmethod
    def _valid_text(cls, text: str | None) -> str | None:
        return text if text is None else _checked_text(text)

    @model_validator(mode="after")
    def _one_input(self) -> _Notes:
        if (self.text is None) == (self.documents is None):
            raise ValueError("give either 'text' or 'documents', not both and not neither")
        if self.documents is not None:
            ids = [document.id for document in self.documents]
            if len(set(ids)) != len(ids):
                raise ValueError("document ids must be unique")
        return self


class DetectRequest(_Notes):
    pass


class DeidentifyRequest(_Notes):
    operators: list[str] = Field(
        default_factory=list,
        description="as the CLI's --operator: tag, tag:coarse, redact, redact:MARKER, mask, mask:keep, hash, "
        "hash:LENGTH, surrogate, or TYPE=OPERATOR; later ones win",
    )
    sex: Literal["keep", "swap"] | None = None
    kinship: Literal["swap", "keep"] | None = None
    seed: int | None = Field(default=None, description="reproducible surrogates without a key (per document)")
    key: str | None = Field(
        default=None, min_length=1, description="a secret for stable surrogates across requests (default: the server's)"
    )

    @model_validator(mode="after")
    def _seed_or_key(self) -> DeidentifyRequest:
        if self.seed is not None and self.key is not None:
            raise ValueError("give a seed or a key, not both")
        return self


class SpanOut(BaseModel):
    start: int
    end: int
    label: str
    score: float


class DetectedDocument(BaseModel):
    id: str
    spans: list[SpanOut] | None = None
    error: str | None = None


class DetectResponse(BaseModel):
    spans: list[SpanOut] | None = None
    documents: list[DetectedDocument] | None = None


class OutputSpan(BaseModel):
    start: int
    end: int


class ReplacementOut(BaseModel):
    input: SpanOut
    output: OutputSpan | None
    operator: str
    original: str
    replacement: str


class DeidentifiedDocument(BaseModel):
    id: str
    text: str | None = None
    replacements: list[ReplacementOut] | None = None
    error: str | None = None


class DeidentifyResponse(BaseModel):
    text: str | None = None
    replacements: list[ReplacementOut] | None = None
    documents: list[DeidentifiedDocument] | None = None


class ReviewSpan(_Strict):
    start: int = Field(ge=0)
    end: int = Field(gt=0)
    label: str
    score: float = 1.0
    source: str = "review"


class ReviewSpans(_Strict):
    spans: list[ReviewSpan]
