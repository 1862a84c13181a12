"""JSON Lines: one document a line.

``{"id": ..., "text": ..., "spans": [{"start", "end", "label", "score", "source"}, ...], "metadata": {...}}``.

Written as UTF-8 without ``\\uXXXX`` escapes; lines are split on ``\\n`` only (JSON escapes a line feed inside a
string, but may leave U+2028 raw, which ``str.splitlines`` would wrongly break on).  ``spans`` and ``metadata`` may be
left out on reading, as may a span's ``score`` (1.0) and ``source`` ("gold").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from anonimed.document import Document, Span
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import read_text
from anonimed.schema import UnknownLabelError, canonical_label


def format_jsonl_line(document: Document) -> str:
    record = {
        "id": document.id,
        "text": document.text,
        "spans": [
            {"start": s.start, "end": s.end, "label": s.label, "score": s.score, "source": s.source}
            for s in sorted(document.spans)
        ],
        "metadata": document.metadata,
    }
    try:
        return json.dumps(record, ensure_ascii=False) + "\n"
    except (TypeError, ValueError) as error:
        raise ValueError(f"document {document.id!r}: metadata cannot be written as JSON: {error}") from None


def _field(record: dict[str, Any], name: str, kinds: tuple[type, ...], default: Any = None) -> Any:
    value = record.get(name, default)
    if not isinstance(value, kinds) or isinstance(value, bool):  # JSON true/false are no numbers here
        raise ValueError(f"field {name!r} must be {' or '.join(k.__name__ for k in kinds)}, got {value!r}")
    return value


def _span(record: Any, text: str, check_labels: bool) -> Span:
    if not isinstance(record, dict):
        raise ValueError(f"a span must be an object, got {record!r}")
    start, end = _field(record, "start", (int,)), _field(record, "end", (int,))
    label = _field(record, "label", (str,))
    if check_labels:
        label = canonical_label(label)
    if not 0 <= start < end <= len(text):
        raise ValueError(f"span {start} {end} {label} falls outside the text ({len(text)} characters)")
    score = float(_field(record, "score", (int, float), 1.0))
    return Span(start, end, label, score, _field(record, "source", (str,), "gold"))


def parse_jsonl_line(line: str, check_labels: bool = True) -> Document:
    """The document of one JSONL line; ``ValueError`` (or ``UnknownLabelError``) says what is wrong with it."""
    record = json.loads(line)
    if not isinstance(record, dict):
        raise ValueError(f"a line must hold a JSON object, got {type(record).__name__}")
    identifier, text = _field(record, "id", (str,)), _field(record, "text", (str,))
    try:
        spans = [_span(span, text, check_labels) for span in _field(record, "spans", (list,), [])]
    except (ValueError, UnknownLabelError) as error:
        raise ValueError(f"document {identifier!r}: {error}") from None
    return Document(identifier, text, sorted(spans), dict(_field(record, "metadata", (dict,), {})))


def read_jsonl(
    path: str | Path, check_labels: bool = True, on_error: Callable[[FormatError], None] | None = None
) -> Iterator[Document]:
    """The documents of a JSONL file; a bad line raises :class:`FormatError`, or goes to ``on_error`` and is skipped."""
    path = Path(path)
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            document = parse_jsonl_line(line, check_labels)
        except ValueError as error:  # json.JSONDecodeError and UnknownLabelError are ValueErrors too
            problem = FormatError(path, str(error), number)
            if on_error is None:
                raise problem from None
            on_error(problem)
            continue
        yield document
