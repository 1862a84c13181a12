"""The registry of file formats: what each one is called, its suffixes, how it reads a file and writes a document, and
how a file or folder's format is guessed.  Reading and writing many documents is in :mod:`anonimed.formats.documents`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from anonimed.document import Document
from anonimed.formats import brat, conll, jsonl, plain, xml
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import read_text
from anonimed.text.tagging import Scheme

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


# What ``deidentify`` writes a de-identified note as: its text, or one of the formats that carry spans beside it.
OUTPUT_FORMATS = ("text", "brat", "xml", "jsonl")


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
