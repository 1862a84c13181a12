"""BRAT standoff: ``NAME.txt`` holds the text, ``NAME.ann`` one text-bound annotation a line.

``T1<TAB>LABEL START END<TAB>covered text``.  Discontinuous annotations (``START END;START END``) are read as one
span from the first start to the last end, as the MEDDOCAN scorer does.  Lines of other kinds (relations, notes,
attributes) are ignored on reading.  The covered text is everything after the second tab (it may hold a tab), with
each line-breaking character written as a space; lines are split on ``\n`` only, so a U+2028 or a form feed inside
a span does not cut its line.
"""

from __future__ import annotations

from pathlib import Path

from anonimed.document import Document, Span
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import LINE_BREAKS, read_text, write_text_atomic
from anonimed.schema import UnknownLabelError, canonical_label

# BRAT keeps one annotation a line, so inside the covered text of an annotation each line-breaking character is
# written as a space (the offsets, not that copy, say which characters are covered).
_LINE_BREAKS = str.maketrans({c: " " for c in LINE_BREAKS})


def _one_line(covered: str) -> str:
    return covered.translate(_LINE_BREAKS)


def parse_ann(content: str, text: str, path: str | Path = "<ann>", check_labels: bool = True) -> list[Span]:
    """Spans of an ``.ann`` file's content, checked against ``text`` (offsets in range, covered text equal)."""
    spans = []
    for number, line in enumerate(content.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip() or not line.startswith("T"):
            continue
        fields = line.split("\t", 2)  # the covered text may itself hold a tab
        if len(fields) < 2:
            raise FormatError(path, f"expected 'ID<TAB>LABEL START END<TAB>TEXT', got {line!r}", number)
        parts = fields[1].split(" ", 1)
        if len(parts) != 2:
            raise FormatError(path, f"annotation without offsets: {line!r}", number)
        label, offsets = parts
        try:
            pairs = [tuple(int(x) for x in piece.split()) for piece in offsets.split(";")]
            start, end = pairs[0][0], pairs[-1][1]
        except (ValueError, IndexError):
            raise FormatError(path, f"offsets are not integers: {offsets!r}", number) from None
        if check_labels:
            try:
                label = canonical_label(label)
            except UnknownLabelError as error:
                raise FormatError(path, str(error), number) from None
        if not 0 <= start < end <= len(text):
            raise FormatError(path, f"offsets {start} {end} fall outside the text ({len(text)} characters)", number)
        if len(fields) >= 3 and len(pairs) == 1 and fields[2] != _one_line(text[start:end]):
            raise FormatError(
                path,
                f"annotated text {fields[2]!r} does not match the text at {start}-{end}: {text[start:end]!r}",
                number,
            )
        spans.append(Span(start, end, label))
    return spans


def read_brat(
    txt_path: str | Path,
    ann_path: str | Path | None = None,
    check_labels: bool = True,
    encoding: str = "utf-8",
    errors: str = "strict",
) -> Document:
    """The document of ``NAME.txt`` with the spans of ``NAME.ann`` (none if that file does not exist).

    ``encoding`` and ``errors`` apply to the ``.txt``; the ``.ann`` is always UTF-8 (anonimed writes it so).
    """
    txt_path = Path(txt_path)
    ann_path = Path(ann_path) if ann_path is not None else txt_path.with_suffix(".ann")
    text = read_text(txt_path, encoding, errors)
    spans = parse_ann(read_text(ann_path), text, ann_path, check_labels) if ann_path.exists() else []
    return Document(txt_path.stem, text, sorted(spans), {"path": str(txt_path)})


def format_ann(document: Document) -> str:
    lines = []
    for number, span in enumerate(sorted(document.spans), start=1):
        covered = _one_line(document.text[span.start : span.end])
        lines.append(f"T{number}\t{span.label} {span.start} {span.end}\t{covered}")
    return "".join(line + "\n" for line in lines)


def write_ann(document: Document, ann_path: str | Path) -> None:
    write_text_atomic(ann_path, format_ann(document))


def write_brat(document: Document, directory: str | Path) -> None:
    """``DIR/ID.txt`` and ``DIR/ID.ann``: the text is written byte for byte as it was read."""
    directory = Path(directory)
    write_text_atomic(directory / f"{document.id}.txt", document.text)
    write_ann(document, directory / f"{document.id}.ann")


def read_brat_dir(directory: str | Path, check_labels: bool = True) -> list[Document]:
    directory = Path(directory)
    if not directory.is_dir():
        raise FormatError(directory, "is not a directory")
    return [read_brat(path, check_labels=check_labels) for path in sorted(directory.glob("*.txt"))]
