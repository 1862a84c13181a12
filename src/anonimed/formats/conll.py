"""CoNLL: one token a line, a blank line after each sentence, a ``# doc_id = ID`` line before each document.

Written layout (tab-separated), with the character offsets of each token in the original text::

    # doc_id = caso-1
    Nombre	0	6	O
    :	6	7	O
    Ana	8	11	S-NOMBRE_SUJETO_ASISTENCIA

Tokens come from ``anonimed.text.tokenize`` and tags from ``anonimed.text.tagging`` (BIO or BIOES, computed over the
whole document); a sentence is a line of the text, so a span that crosses a line break simply continues its tags into
the next sentence.  Because tokens never contain whitespace, the offsets are all that is needed to read the file back
without the original text: the text is rebuilt with every token at its offset and spaces between tokens (a line feed
at the first gap between two sentences), so each span gets back its exact offsets and its non-blank characters.
Whitespace inside the text is not kept (tabs, CRLF and runs of blank lines become spaces and single line feeds), and
a span that starts or ends inside a token comes back widened to whole tokens.

The reader also accepts the common two-column ``TOKEN TAG`` form (tab or spaces); the text is then rebuilt as the
tokens joined by spaces, one sentence a line.  Tags are decoded per document, BIO and BIOES alike, repairing invalid
sequences as ``tagging.tags_to_token_ranges`` does.  Lines starting with ``#`` that are not token lines are comments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from anonimed.document import Document
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import LINE_BREAKS, read_text
from anonimed.schema import UnknownLabelError, canonical_label
from anonimed.text.tagging import OUTSIDE, Scheme, spans_to_tags, tags_to_spans
from anonimed.text.tokenize import Token, tokenize

DOC_ID = "# doc_id = "
_PREFIXES = ("B", "I", "E", "S")


def format_conll(document: Document, scheme: Scheme = "BIOES") -> str:
    """The CoNLL block of ``document``: its ``# doc_id`` line, then its sentences, each followed by a blank line."""
    if not document.id or document.id != document.id.strip() or any(c in document.id for c in LINE_BREAKS):
        raise ValueError(f"document id {document.id!r} cannot be written on a '# doc_id = ' line")
    tokens = tokenize(document.text)
    tags = spans_to_tags(tokens, document.spans, scheme)
    lines = [f"{DOC_ID}{document.id}\n"]
    for index, (token, tag) in enumerate(zip(tokens, tags)):
        if index and "\n" in document.text[tokens[index - 1].end : token.start]:
            lines.append("\n")
        lines.append(f"{token.text}\t{token.start}\t{token.end}\t{tag}\n")
    if tokens:
        lines.append("\n")
    return "".join(lines)


@dataclass(slots=True)
class _Row:
    line: int
    text: str
    tag: str
    offsets: tuple[int, int] | None
    starts_sentence: bool


@dataclass
class _Block:
    id: str
    line: int
    declared: bool  # opened by a '# doc_id' line (an empty document is still a document)
    rows: list[_Row] = field(default_factory=list)
    error: FormatError | None = None  # the first malformed line: the document is skipped, the others go on


def _is_tag(value: str) -> bool:
    prefix, dash, label = value.partition("-")
    return value == OUTSIDE or (dash == "-" and prefix in _PREFIXES and bool(label))


def _row(line: str, number: int, starts_sentence: bool, path: Path) -> _Row | None:
    """The token row of ``line``, or ``None`` when it is not one (a comment if it starts with ``#``)."""
    fields = line.split("\t")
    if len(fields) == 4:
        try:
            offsets = (int(fields[1]), int(fields[2]))
        except ValueError:
            raise FormatError(path, f"offsets are not integers in {line!r}", number) from None
        return _Row(number, fields[0], fields[3].strip(), offsets, starts_sentence)
    fields = line.split()
    if len(fields) == 2 and _is_tag(fields[1]):
        return _Row(number, fields[0], fields[1], None, starts_sentence)
    if line.startswith("#"):
        return None
    raise FormatError(path, f"expected 'TOKEN<TAB>START<TAB>END<TAB>TAG' or 'TOKEN TAG', got {line!r}", number)


def _blocks(content: str, path: Path) -> Iterator[_Block]:
    marker = DOC_ID.rstrip()
    block = _Block(path.stem, 1, declared=False)
    sentence_open = False
    for number, line in enumerate(content.split("\n"), start=1):
        line = line.removesuffix("\r")
        if line.startswith(marker):
            if block.declared or block.rows or block.error:
                yield block
            block = _Block(line[len(marker) :].strip(), number, declared=True)
            sentence_open = False
        elif not line.strip():
            sentence_open = False
        else:
            try:
                row = _row(line, number, not sentence_open, path)
            except FormatError as error:
                block.error = block.error or error
                continue
            if row is not None:
                block.rows.append(row)
                sentence_open = True
    if block.declared or block.rows or block.error:
        yield block


def _label(row: _Row, path: Path, check_labels: bool) -> str:
    if not _is_tag(row.tag):
        raise FormatError(path, f"invalid tag {row.tag!r}: expected O or B-/I-/E-/S- followed by a label", row.line)
    if row.tag == OUTSIDE or not check_labels:
        return row.tag
    prefix, _, label = row.tag.partition("-")
    try:
        return f"{prefix}-{canonical_label(label)}"
    except UnknownLabelError as error:
        raise FormatError(path, str(error), row.line) from None


def _rebuild(block: _Block, path: Path) -> tuple[str, list[Token]]:
    """The text and tokens of a block: tokens at their offsets when the file has them, joined by spaces otherwise."""
    with_offsets = {row.offsets is not None for row in block.rows}
    if len(with_offsets) > 1:
        raise FormatError(path, f"document {block.id!r} mixes token lines with and without offsets", block.line)
    pieces: list[str] = []
    tokens: list[Token] = []
    cursor = 0
    for row in block.rows:
        start, end = row.offsets if row.offsets is not None else (cursor + (1 if tokens else 0), None)
        end = start + len(row.text) if end is None else end
        if start < cursor or end - start != len(row.text):
            raise FormatError(
                path,
                f"token {row.text!r} at {start}-{end} overlaps the previous token or does not fit its offsets",
                row.line,
            )
        gap = start - cursor
        if gap:
            pieces.append(("\n" if row.starts_sentence and tokens else " ") + " " * (gap - 1))
        pieces.append(row.text)
        tokens.append(Token(start, end, row.text))
        cursor = end
    return "".join(pieces), tokens


def _document(block: _Block, path: Path, check_labels: bool) -> Document:
    text, tokens = _rebuild(block, path)
    tags = [_label(row, path, check_labels) for row in block.rows]
    spans = tags_to_spans(tokens, tags, source="gold")
    return Document(block.id, text, sorted(spans), {"path": str(path), "text_rebuilt_from_tokens": True})


def read_conll(
    path: str | Path, check_labels: bool = True, on_error: Callable[[FormatError], None] | None = None
) -> Iterator[Document]:
    """The documents of a CoNLL file; a bad document raises :class:`FormatError`, or goes to ``on_error``."""
    path = Path(path)
    for block in _blocks(read_text(path), path):
        try:
            if block.error is not None:
                raise block.error
            document = _document(block, path, check_labels)
        except FormatError as error:
            if on_error is None:
                raise
            on_error(error)
            continue
        yield document
