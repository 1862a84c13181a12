"""Many documents in, many out: :func:`read_documents` from a file or a folder (lazily, the format guessed when not
given) and :func:`write_documents` into a folder (one file per document; a document's files all or none) or a single
file (``jsonl``, ``conll``).  A bad file or document is raised, or reported to an error handler and skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from anonimed.document import Document
from anonimed.formats.errors import FormatError
from anonimed.formats.registry import Format, get_format, guess_format
from anonimed.formats.textio import LINE_BREAKS, atomic_writer, write_files_atomic
from anonimed.text.tagging import Scheme

#: Called with the file or document that failed and the error; without one, the first failure is raised.
ErrorHandler = Callable[[str, Exception], None]


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
