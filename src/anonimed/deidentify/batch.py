"""Batches of files, what ``anonimed deidentify`` runs: a file, a folder of notes or standard input, written as
text, BRAT, XML or JSONL, with an optional audit, fail-closed note by note.

Kept apart from :mod:`anonimed.deidentify.api` because it is about files, formats and failures on disk, not about
de-identifying a note; the Spark engine (:mod:`anonimed.spark`) reuses its input listing and overwrite guard.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from anonimed.deidentify.api import Deidentifier, Result
from anonimed.document import Document
from anonimed.formats import get_format
from anonimed.formats.brat import read_brat
from anonimed.formats.errors import FormatError, describe_failure
from anonimed.formats.jsonl import format_jsonl_line
from anonimed.formats.registry import OUTPUT_FORMATS
from anonimed.formats.textio import atomic_writer, decode_text, read_text, write_files_atomic, write_text_atomic
from anonimed.parallel import ParallelDetector, ReadAhead

STDIO = "-"


@dataclass
class BatchSummary:
    documents: int = 0
    spans: Counter = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        failed = f", {len(self.failures)} failed" if self.failures else ""
        spans = sum(self.spans.values())
        rate = f" ({self.documents / self.seconds:.1f} notes/s)" if self.seconds and self.documents > 1 else ""
        head = f"{self.documents} documents de-identified, {spans} PHI spans in {self.seconds:.1f} s{rate}{failed}"
        return [head] + [f"  {label}: {count}" for label, count in self.spans.most_common()]


@dataclass(frozen=True)
class _Source:
    """One input note: where it is read from and where (relative to OUTPUT) its results go."""

    path: Path | None  # None: standard input
    relative: Path


def deidentify_files(
    deidentifier: Deidentifier,
    input_path: str | Path,
    output_path: str | Path,
    output_format: str = "text",
    gold_spans: bool = False,
    audit_path: str | Path | None = None,
    audit_originals: bool = False,
    progress: Callable[[list[Any]], Iterable[Any]] = lambda items: items,
    encoding: str = "utf-8",
    errors: str = "strict",
    parallel: ParallelDetector | None = None,
) -> BatchSummary:
    """De-identify a file, a folder of ``*.txt`` (recursively) or standard input (``-``) into ``output_path``.

    ``text``: the new text (a file, a folder mirroring the input, or ``-``); ``brat``/``xml``: a folder of files with
    the spans of the new text; ``jsonl``: one file (or ``-``).  ``gold_spans`` takes the spans from the ``.ann``
    beside each note instead of the detector.  A note that fails is recorded with its file name and nothing is written
    for it; the others go on.  Inputs are never overwritten.  ``encoding`` and ``errors`` say how notes are decoded.

    Fail-closed: nothing is ever written for a note that failed, a note's files (``brat``: text and annotations) are
    written both or neither, and when a write into the one ``jsonl`` file (or the audit) fails, that file is not
    written at all and every note meant for it counts as failed.

    ``parallel`` (``--jobs``): the notes are read and detected in batches over its processes (the deidentifier's own
    detector is then not used); replacing and writing stay here, in order, so the output is that of one process.
    """
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"unknown output format {output_format!r}; choose one of {', '.join(OUTPUT_FORMATS)}")
    sources = _sources(Path(input_path) if str(input_path) != STDIO else None)
    if gold_spans and any(source.path is None for source in sources):
        raise ValueError("--gold-spans needs notes in files (their .ann beside them), not standard input")
    output = None if str(output_path) == STDIO else Path(output_path)
    _refuse_overwrite(sources, input_path, output)
    # A single note as text goes to the file OUTPUT, unless OUTPUT is a folder; a folder of notes mirrors into OUTPUT.
    into_folder = output is not None and (Path(input_path).is_dir() or output.is_dir())
    summary = BatchSummary()
    started = time.perf_counter()
    done: list[tuple[str, Counter]] = []  # each written note and its span counts, until the shared files are closed
    collects = output is None or output_format == "jsonl"  # every note goes into one stream
    try:
        with ExitStack() as stack:
            collection = _collection(stack, output, output_format, len(sources))
            audit = stack.enter_context(atomic_writer(audit_path)) if audit_path is not None else None
            ahead = None
            if parallel is not None and not gold_spans:
                ahead = ReadAhead(parallel, sources, lambda source: _read(source, gold_spans, encoding, errors))
            for source in progress(sources):
                name = _name(source)
                try:
                    if ahead is not None:
                        document, found = ahead.take(source)
                        result = deidentifier.transform(document.with_spans(found))
                    else:
                        document = _read(source, gold_spans, encoding, errors)
                        result = deidentifier.transform(document) if gold_spans else deidentifier.deidentify(document)
                except Exception as error:
                    summary.failures[name] = describe_failure(error)
                    continue
                try:
                    written = _write(result, source, output, output_format, collection, into_folder)
                except ValueError as error:  # the note cannot be put in this format: found before a byte is written
                    summary.failures[name] = describe_failure(error)
                    continue
                except OSError as error:
                    if collects:  # the shared stream may now hold part of this note: give it up
                        raise
                    summary.failures[name] = describe_failure(error)
                    continue
                if audit is not None:
                    audit.write(_audit_line(result, name, written, audit_originals))
                done.append((name, Counter(r.input.label for r in result.replacements)))
    except OSError as error:
        # Writing the jsonl file or the audit failed, now or when it was closed: the with block removed it.
        shared = [str(p) for p in (str(output or STDIO) if collects else None, audit_path) if p is not None]
        problem = f"{' and '.join(shared)} not written: {describe_failure(error)}"
        _give_up_shared_output(summary, sources, done, problem, notes_lost=collects)
        if not collects:
            summary.failures[str(audit_path)] = f"not written: {describe_failure(error)}"
    else:
        for _, counts in done:
            summary.documents += 1
            summary.spans.update(counts)
    summary.seconds = time.perf_counter() - started
    return summary


def _name(source: _Source) -> str:
    return str(source.path) if source.path else "<stdin>"


def _give_up_shared_output(
    summary: BatchSummary, sources: list[_Source], done: list[tuple[str, Counter]], problem: str, notes_lost: bool
) -> None:
    """Account for a batch stopped by a shared file that could not be written.

    ``notes_lost``: the notes went into that file (jsonl), so none of them is de-identified anywhere; otherwise (the
    audit failed) the notes already written to files of their own stay written and count.  Notes not reached yet fail.
    """
    for name, counts in done:
        if notes_lost:
            summary.failures[name] = problem
        else:
            summary.documents += 1
            summary.spans.update(counts)
    finished = {name for name, _ in done}
    for source in sources:
        name = _name(source)
        if name not in finished and name not in summary.failures:
            summary.failures[name] = f"not de-identified: {problem}"


def _sources(input_path: Path | None) -> list[_Source]:
    if input_path is None:
        return [_Source(None, Path("stdin.txt"))]
    if input_path.is_dir():
        files = sorted(p for p in input_path.rglob("*.txt") if p.is_file())
        if not files:
            raise FormatError(input_path, "holds no .txt notes")
        return [_Source(p, p.relative_to(input_path)) for p in files]
    if not input_path.is_file():
        raise FormatError(input_path, "does not exist")
    return [_Source(input_path, Path(input_path.name))]


def _refuse_overwrite(sources: list[_Source], input_path: str | Path, output: Path | None) -> None:
    if output is None or str(input_path) == STDIO:
        return
    source_root = Path(input_path).resolve()
    target = output.resolve()
    if target == source_root or (source_root.is_dir() and source_root in target.parents):
        raise ValueError(f"{output}: the output must not be the input or lie inside it (inputs are never overwritten)")
    inputs = {s.path.resolve() for s in sources if s.path}
    inputs |= {p.with_suffix(".ann") for p in inputs}
    if target in inputs:
        raise ValueError(f"{output}: is an input file (inputs are never overwritten)")


def _collection(stack: ExitStack, output: Path | None, output_format: str, count: int) -> IO[str] | None:
    """The one stream that all documents go to (JSONL, or text to stdout); None when each document has its files."""
    if output_format == "jsonl":
        return sys.stdout if output is None else stack.enter_context(atomic_writer(output))
    if output is None:
        if output_format != "text" or count != 1:
            raise ValueError("output '-' (standard output) takes one note as text, or any number as jsonl")
        return sys.stdout
    return None


def _read(source: _Source, gold_spans: bool, encoding: str, errors: str) -> Document:
    if source.path is None:
        text = decode_text(sys.stdin.buffer.read(), "<stdin>", encoding, errors)
        return Document("stdin", text, metadata={"path": STDIO})
    if gold_spans:
        if not source.path.with_suffix(".ann").is_file():
            raise FormatError(source.path.with_suffix(".ann"), "does not exist (--gold-spans reads the spans from it)")
        return read_brat(source.path, encoding=encoding, errors=errors)
    return Document(source.path.stem, read_text(source.path, encoding, errors), metadata={"path": str(source.path)})


def _write(
    result: Result,
    source: _Source,
    output: Path | None,
    output_format: str,
    collection: IO[str] | None,
    into_folder: bool,
) -> str:
    """Write one result; returns where it went (for the audit)."""
    document = result.document
    if collection is not None:
        collection.write(format_jsonl_line(document) if output_format == "jsonl" else result.text)
        return str(output or STDIO)
    assert output is not None
    if output_format == "text":
        target = output / source.relative if into_folder else output
        write_text_atomic(target, result.text)
        return str(target)
    folder = output / source.relative.parent
    write_files = get_format(output_format).files
    assert write_files is not None, f"{output_format} is written as files"
    contents = write_files(document, "BIOES")
    write_files_atomic({folder / f"{document.id}{suffix}": content for suffix, content in contents.items()})
    return str(folder / document.id)


def _audit_line(result: Result, name: str, written: str, with_originals: bool) -> str:
    """One JSON line: the document, where it went, and every replaced span (its original text only on request)."""
    spans = []
    for replacement in result.replacements:
        entry: dict[str, Any] = {
            "label": replacement.input.label,
            "input": [replacement.input.start, replacement.input.end],
            "output": [replacement.output.start, replacement.output.end] if replacement.output else None,
            "score": replacement.input.score,
            "source": replacement.input.source,
            "operator": replacement.operator,
        }
        if with_originals:
            entry["original"] = replacement.original
        spans.append(entry)
    record = {"document": result.input.id, "input": name, "output": written, "spans": spans}
    return json.dumps(record, ensure_ascii=False) + "\n"
