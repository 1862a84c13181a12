"""Every file format anonimed reads and writes, behind one small registry.

| format  | a document is                                   | suffixes                      |
| ------- | ----------------------------------------------- | ----------------------------- |
| `brat`  | ``ID.txt`` + ``ID.ann`` in a folder             | ``.txt`` (``.ann`` beside it) |
| `xml`   | ``ID.xml`` (MEDDOCAN, i2b2-like) in a folder    | ``.xml``                      |
| `plain` | ``ID.txt`` in a folder, no spans                | ``.txt``                      |
| `jsonl` | one line of one file                            | ``.jsonl``, ``.ndjson``       |
| `conll` | one ``# doc_id`` block of one file              | ``.conll``, ``.bio``, ``.bioes``, ``.tsv`` |

:func:`read_documents` takes a file or a folder (the format guessed when not given), :func:`write_documents` writes
a folder (one file per document; a document's files all or none) or a single file (``jsonl``, ``conll``), and :func:`convert` goes from one to the
other, recording each bad file or document and going on with the rest.  Every file is written atomically.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from anonimed.document import Document
from anonimed.formats import brat, conll, jsonl, plain, xml
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import LINE_BREAKS, atomic_writer, read_text, write_files_atomic
from anonimed.text.tagging import Scheme

log = logging.getLogger(__name__)

#: Called with the file or document that failed and the error; without one, the first failure is raised.
ErrorHandler = Callable[[str, Exception], None]
Reader = Callable[[Path, bool, Callable[[FormatError], None] | None], Iterator[Document]]


@dataclass(frozen=True)
class Format:
    """How one format reads a file and writes a document.

    A format writes either one file per document (``files``: suffix → content, into a folder) or one part of a single
    file holding all documents (``part``).
    """

    name: str
    suffixes: tuple[str, ...]
    read: Reader
    files: Callable[[Document, Scheme], dict[str, str]] | None = None
    part: Callable[[Document, Scheme], str] | None = None

    @property
    def one_file_per_document(self) -> bool:
        return self.files is not None


def _one(read: Callable[[Path, bool], Document]) -> Reader:
    def read_file(path: Path, check_labels: bool, on_error: Callable[[FormatError], None] | None) -> Iterator[Document]:
        yield read(path, check_labels)

    return read_file


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            "brat",
            (".txt",),
            _one(lambda path, check: brat.read_brat(path, check_labels=check)),
            files=lambda d, _: {".txt": d.text, ".ann": brat.format_ann(d)},
        ),
        Format(
            "xml",
            (".xml",),
            _one(lambda path, check: xml.read_xml(path, check_labels=check)),
            files=lambda d, _: {".xml": xml.format_xml(d)},
        ),
        Format("plain", (".txt",), _one(lambda path, _: plain.read_plain(path)), files=lambda d, _: {".txt": d.text}),
        Format("jsonl", (".jsonl", ".ndjson"), jsonl.read_jsonl, part=lambda d, _: jsonl.format_jsonl_line(d)),
        Format("conll", (".conll", ".bio", ".bioes", ".tsv"), conll.read_conll, part=conll.format_conll),
    )
}


def get_format(name: str) -> Format:
    try:
        return FORMATS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; known formats: {', '.join(FORMATS)}") from None


def _guess_from_content(path: Path) -> Format:
    head = read_text(path)[:4096].lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return FORMATS["xml"]
    if head.startswith("{"):
        return FORMATS["jsonl"]
    if head.startswith(conll.DOC_ID) or re.match(r"\S+\t\d+\t\d+\t\S+\r?\n", head):
        return FORMATS["conll"]
    raise FormatError(path, "cannot tell its format from its name or content; give the format explicitly")


def guess_format(path: str | Path) -> Format:
    """The format of a file (by suffix, then content) or of a folder (by the files it holds: ``.ann`` means brat)."""
    path = Path(path)
    if not path.exists():
        raise FormatError(path, "does not exist")
    if path.is_dir():
        suffixes = Counter(p.suffix.lower() for p in path.iterdir() if p.is_file())
        if suffixes[".ann"]:
            return FORMATS["brat"]
        for candidate in ("xml", "jsonl", "conll", "plain"):
            if any(suffixes[s] for s in FORMATS[candidate].suffixes):
                return FORMATS[candidate]
        raise FormatError(path, "holds no document files (.txt/.ann, .xml, .jsonl, .conll)")
    suffix = path.suffix.lower()
    if suffix in (".txt", ".ann"):
        return FORMATS["brat"]  # a .txt without an .ann beside it reads as a document without spans
    for known in FORMATS.values():
        if suffix in known.suffixes:
            return known
    return _guess_from_content(path)


def _files(path: Path, chosen: Format) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in chosen.suffixes)
        if not files:
            raise FormatError(path, f"holds no {chosen.name} files ({', '.join(chosen.suffixes)})")
        return files
    if not path.exists():
        raise FormatError(path, "does not exist")
    if chosen.name == "brat" and path.suffix.lower() == ".ann":
        return [path.with_suffix(".txt")]
    return [path]


def read_documents(
    path: str | Path, format: str | None = None, check_labels: bool = True, on_error: ErrorHandler | None = None
) -> Iterator[Document]:
    """The documents of a file or a folder, lazily.

    ``format`` is one of :data:`FORMATS` (guessed when ``None``).  Labels are checked against the MEDDOCAN scheme
    (aliases made canonical) unless ``check_labels`` is false.  A bad file (or a bad line of a JSONL file, a bad
    document of a CoNLL file) raises :class:`FormatError`; with ``on_error`` it is reported there and skipped.
    """
    path = Path(path)
    chosen = get_format(format) if format else guess_format(path)

    def report(error: FormatError) -> None:
        if on_error is None:
            raise error
        on_error(str(error.path), error)

    for file in _files(path, chosen):
        try:
            yield from chosen.read(file, check_labels, report if on_error else None)
        except (FormatError, OSError) as error:
            report(error if isinstance(error, FormatError) else FormatError(file, f"cannot be read: {error}"))


def _stem(document: Document) -> str:
    # The id becomes a file name: refuse anything that would land outside the output folder or hide the file.
    if not document.id or document.id.startswith(".") or any(c in document.id for c in "/\\\0" + LINE_BREAKS):
        raise ValueError(f"document id {document.id!r} cannot be used as a file name")
    return document.id


def write_documents(
    documents: Iterable[Document],
    out: str | Path,
    format: str,
    scheme: Scheme = "BIOES",
    on_error: ErrorHandler | None = None,
) -> int:
    """Write ``documents`` into the folder ``out`` (``brat``, ``xml``, ``plain``) or the file ``out`` (``jsonl``,
    ``conll``; ``scheme`` is the CoNLL tagging scheme) and return how many were written.

    A document that cannot be written (an unknown label for XML, a text XML cannot hold, an id that is no file name,
    two documents with the same id in one folder) raises, or with ``on_error`` is reported there and skipped.
    """
    if scheme not in ("BIO", "BIOES"):
        raise ValueError(f"unknown tagging scheme {scheme!r}: use 'BIO' or 'BIOES'")
    chosen, out = get_format(format), Path(out)

    def report(where: str, error: Exception) -> None:
        if on_error is None:
            raise error
        on_error(where, error)

    written = 0
    if chosen.files is not None:
        if out.exists() and not out.is_dir():
            raise FormatError(out, f"is a file; {chosen.name} writes one file per document into a folder")
        seen: set[str] = set()
        for document in documents:
            try:
                stem = _stem(document)
                if stem in seen:
                    raise ValueError(f"a second document with id {stem!r}: its files would replace the first one's")
                contents = chosen.files(document, scheme)
                seen.add(stem)
                write_files_atomic({out / f"{stem}{suffix}": content for suffix, content in contents.items()})
            except (OSError, ValueError) as error:
                report(f"{out / document.id}", error)
                continue
            written += 1
        return written
    assert chosen.part is not None
    if out.is_dir():
        raise FormatError(out, f"is a folder; {chosen.name} writes all documents into one file (say OUT.{chosen.name})")
    with atomic_writer(out) as stream:
        for document in documents:
            try:
                part = chosen.part(document, scheme)
            except ValueError as error:
                report(f"{out}: document {document.id!r}", error)
                continue
            stream.write(part)
            written += 1
    return written


@dataclass
class ConvertSummary:
    source: str
    target: str
    output: str
    documents: int = 0  # written
    spans_read: int = 0
    failures: dict[str, str] = field(default_factory=dict)

    def line(self) -> str:
        failed = f", {len(self.failures)} failed" if self.failures else ""
        return (
            f"{self.documents} documents converted from {self.source} to {self.target} into {self.output} "
            f"({self.spans_read} PHI spans read){failed}"
        )


def convert(
    input_path: str | Path,
    output_path: str | Path,
    to: str,
    scheme: Scheme = "BIOES",
    source_format: str | None = None,
    check_labels: bool = True,
) -> ConvertSummary:
    """Convert a file or folder of documents to the format ``to``; every failure is recorded and the rest go on."""
    input_path, output_path = Path(input_path), Path(output_path)
    source = get_format(source_format) if source_format else guess_format(input_path)
    target = get_format(to)
    if output_path.exists() and output_path.resolve() == input_path.resolve():
        raise ValueError(f"{output_path}: the output must differ from the input (inputs are never overwritten)")
    summary = ConvertSummary(source.name, target.name, str(output_path))

    def record(where: str, error: Exception) -> None:
        summary.failures[where] = str(error)
        log.error("%s: %s", where, error)

    def counted(documents: Iterable[Document]) -> Iterator[Document]:
        for document in documents:
            summary.spans_read += len(document.spans)
            yield document

    documents = read_documents(input_path, source.name, check_labels, on_error=record)
    summary.documents = write_documents(counted(documents), output_path, target.name, scheme, on_error=record)
    return summary
