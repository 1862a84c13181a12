"""``model.json``: what a model folder holds and how it was made.

``kind`` (``crf`` or ``window``), ``format_version``, ``model_file`` (the tagger's file beside it), ``scheme``,
``features`` (a :class:`FeatureConfig`), ``settings`` (training settings), ``resolver`` (``Resolver`` settings to
merge the pattern recognizers' spans, or ``null`` for the tagger alone), ``training`` (data, seed, augmentation,
time), ``created`` and ``dev_scores``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from anonimed.detect.features import FeatureConfig
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import read_text, write_text_atomic

FORMAT_VERSION = 1
INFO_FILE = "model.json"
Kind = Literal["crf", "window"]
KINDS: tuple[Kind, ...] = ("crf", "window")
T = TypeVar("T")


@dataclass
class ModelInfo:
    kind: Kind
    model_file: str
    scheme: Literal["BIO", "BIOES"]
    features: FeatureConfig
    settings: dict[str, Any]
    resolver: dict[str, Any] | None
    training: dict[str, Any] = field(default_factory=dict)
    created: str = ""
    dev_scores: dict[str, Any] | None = None
    format_version: int = FORMAT_VERSION

    def to_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["features"] = self.features.to_dict()
        return values


def write_model_info(directory: str | Path, info: ModelInfo) -> None:
    write_text_atomic(Path(directory) / INFO_FILE, json.dumps(info.to_dict(), indent=2, ensure_ascii=False) + "\n")


def read_model_info(directory: str | Path) -> ModelInfo:
    def build(values: dict[str, Any], path: Path) -> ModelInfo:
        if values.get("format_version") != FORMAT_VERSION:
            raise FormatError(
                path, f"model format {values.get('format_version')!r}; this anonimed reads {FORMAT_VERSION}"
            )
        if values.get("kind") not in KINDS:
            raise FormatError(path, f"unknown model kind {values.get('kind')!r}; known: {', '.join(KINDS)}")
        values["features"] = FeatureConfig.from_dict(values["features"])
        return ModelInfo(**values)

    return read_manifest(directory, build)


def read_manifest(directory: str | Path, build: Callable[[dict[str, Any], Path], T]) -> T:
    """``build(values, path)`` of a folder's ``model.json``; a missing file or a bad value is a :class:`FormatError`."""
    path = Path(directory) / INFO_FILE
    if not path.is_file():
        raise FormatError(path, "not found: a model folder holds a model.json written by 'anonimed train'")
    try:
        values = json.loads(read_text(path))
        if not isinstance(values, dict):
            raise FormatError(path, "is not a JSON object")
        return build(values, path)
    except json.JSONDecodeError as error:
        raise FormatError(path, f"is not valid JSON: {error}") from None
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, FormatError):
            raise
        raise FormatError(path, f"is not a valid model description: {error!r}") from None
