"""Fuzz the tokenizer, the readers and ``deidentify`` with hypothesis at a large budget: no crash, no hang.

    .venv/bin/python benchmarks/fuzz.py [--examples 20000] [--timeout 5] [--model default|PATH] [--only TARGET ...]

Targets (each gets ``--examples`` inputs, half random and half mutations of the fictitious notes in ``examples/``):

- ``tokenize``: any text; every token must be its exact slice of the text, in order, without whitespace.
- ``readers``: random and mutated bytes as a brat pair (``.txt`` + ``.ann``), MEDDOCAN XML, JSONL and CoNLL; the
  reader must give valid documents or raise ``FormatError`` naming the file, nothing else.
- ``deidentify``: random and mutated notes through ``deidentify_files`` (bytes on disk, with and without gold spans,
  text and brat output) and random spans through ``Deidentifier.transform``; no exception may escape, a failed note
  leaves no output, and no character of any span may survive.

A hang is an example that runs longer than ``--timeout`` seconds (SIGALRM).  The detector is the pattern detector,
or the model given with ``--model``.  Prints one line per target and writes benchmarks/results/fuzz.json (or ``--out``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonimed.deidentify import Deidentifier, deidentify_files
from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.formats import read_documents
from anonimed.formats.errors import FormatError
from anonimed.schema import LABELS
from anonimed.text.tokenize import tokenize

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
RESULTS = ROOT / "benchmarks" / "results"

SEEDS = {
    path.stem: (path.read_bytes(), path.with_suffix(".ann").read_bytes()) for path in sorted(EXAMPLES.glob("*.txt"))
}
TEXTS = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=2000)


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` with a few random byte-level edits: insert, delete, overwrite or duplicate a stretch."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            data += draw(st.binary(min_size=1, max_size=16))
            continue
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["insert", "delete", "overwrite", "duplicate"]))
        size = draw(st.integers(1, 32))
        if kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=size))
        elif kind == "delete":
            del data[at : at + size]
        elif kind == "overwrite":
            data[at : at + size] = draw(st.binary(min_size=size, max_size=size))
        else:
            data[at:at] = data[at : at + size]
    return bytes(data)


def text_bytes() -> st.SearchStrategy[bytes]:
    """Half random, half mutated example notes: bytes that are mostly, but not always, UTF-8 text."""
    seeds = [txt for txt, _ in SEEDS.values()]
    return st.one_of(
        st.binary(max_size=3000),
        TEXTS.map(lambda t: t.encode("utf-8")),
        st.sampled_from(seeds).flatmap(mutated),
    )


def ann_bytes() -> st.SearchStrategy[bytes]:
    anns = [ann for _, ann in SEEDS.values()]
    return st.one_of(st.binary(max_size=2000), st.sampled_from(anns).flatmap(mutated))


def serialised(format_name: str) -> st.SearchStrategy[bytes]:
    """Valid files of the format (written from the examples) with mutations, and random bytes."""
    from anonimed.formats import write_documents

    with tempfile.TemporaryDirectory() as folder:
        documents = list(read_documents(EXAMPLES, "brat"))
        out = Path(folder) / ("all" if format_name == "xml" else f"all.{format_name}")
        write_documents(documents, out, format_name)
        files = [p.read_bytes() for p in sorted(out.iterdir())] if out.is_dir() else [out.read_bytes()]
    return st.one_of(st.binary(max_size=3000), st.sampled_from(files).flatmap(mutated))


class Hang(Exception):
    pass


def with_timeout(seconds: float, run: Callable[[], None]) -> None:
    def interrupt(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- the properties each target checks ----------------------------------------------------------------------------


def check_tokenize(text: str) -> None:
    tokens = tokenize(text)
    cursor = 0
    for token in tokens:
        assert cursor <= token.start < token.end <= len(text), token
        assert text[token.start : token.end] == token.text and not any(c.isspace() for c in token.text)
        assert text[cursor : token.start].strip() == "", (cursor, token)
        cursor = token.end
    assert text[cursor:].strip() == ""


def check_reader(format_name: str, files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files.items():
            (Path(folder) / name).write_bytes(data)
        target = Path(folder) / next(iter(files))
        failures: list[str] = []
        documents = list(read_documents(target, format_name, on_error=lambda where, error: failures.append(where)))
        for document in documents:
            assert all(0 <= s.start < s.end <= len(document.text) for s in document.spans)
        try:
            list(read_documents(target, format_name))
        except FormatError as error:
            assert str(error.path).startswith(folder), error


def check_deidentify_file(deidentifier: Deidentifier, note: bytes, ann: bytes | None, output_format: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in"
        source.mkdir()
        (source / "note.txt").write_bytes(note)
        if ann is not None:
            (source / "note.ann").write_bytes(ann)
        out = Path(folder) / "out"
        summary = deidentify_files(deidentifier, source, out, output_format=output_format, gold_spans=ann is not None)
        written = sorted(p.name for p in out.rglob("*") if p.is_file()) if out.exists() else []
        assert (summary.documents, len(summary.failures)) in ((1, 0), (0, 1)), summary
        if summary.failures:
            assert written == [], f"a failed note left {written}"
        else:
            assert written == (["note.txt"] if output_format == "text" else ["note.ann", "note.txt"]), written


def check_transform(deidentifier: Deidentifier, text: str, spans: list[Span]) -> None:
    result = deidentifier.transform(Document("fuzz", text, spans))
    phi = {i for s in spans for i in range(s.start, s.end)}
    replaced = {i for r in result.replacements for i in range(r.input.start, r.input.end)}
    assert phi == replaced, "a PHI character was left"


@st.composite
def text_and_spans(draw) -> tuple[str, list[Span]]:
    text = draw(st.one_of(TEXTS, st.sampled_from([t.decode("utf-8") for t, _ in SEEDS.values()])))
    spans = []
    for _ in range(draw(st.integers(0, 12)) if text else 0):
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, min(len(text), start + 60)))
        spans.append(Span(start, end, draw(st.sampled_from(LABELS))))
    return text, spans


# --- running ------------------------------------------------------------------------------------------------------


def run_target(
    name: str, strategy: st.SearchStrategy, check: Callable[..., None], examples: int, timeout: float
) -> dict:
    count = {"examples": 0}
    failures: list[str] = []

    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=False, suppress_health_check=list(HealthCheck)
    )
    @given(strategy)
    def fuzz(arguments: tuple) -> None:
        count["examples"] += 1
        try:
            with_timeout(timeout, lambda: check(*arguments))
        except Exception:
            if len(failures) < 20:
                failures.append(f"{traceback.format_exc(limit=6)}\ninput: {arguments!r:.400}")

    started = time.perf_counter()
    fuzz()
    seconds = time.perf_counter() - started
    result = {
        "target": name,
        "examples": count["examples"],
        "failures": len(failures),
        "seconds": round(seconds, 1),
        "first_failures": failures[:5],
    }
    print(f"{name:12} {count['examples']:7d} examples in {seconds:7.1f} s: {len(failures)} failures", flush=True)
    for failure in failures[:3]:
        print(failure, file=sys.stderr)
    return result


def targets(detector: Detector) -> dict[str, tuple[st.SearchStrategy, Callable[..., None]]]:
    deidentifier = Deidentifier(model=detector, seed=7)
    tagger = Deidentifier(model=detector, operators=["tag"])
    reader_inputs = st.one_of(
        st.tuples(
            st.just("brat"),
            st.tuples(text_bytes(), ann_bytes()).map(lambda pair: {"note.txt": pair[0], "note.ann": pair[1]}),
        ),
        st.tuples(st.just("xml"), serialised("xml").map(lambda data: {"note.xml": data})),
        st.tuples(st.just("jsonl"), serialised("jsonl").map(lambda data: {"notes.jsonl": data})),
        st.tuples(st.just("conll"), serialised("conll").map(lambda data: {"notes.conll": data})),
    )
    deidentify_inputs = st.one_of(
        st.tuples(st.just(deidentifier), text_bytes(), st.none(), st.sampled_from(["text", "brat"])),
        st.tuples(st.just(tagger), text_bytes(), st.one_of(st.none(), ann_bytes()), st.sampled_from(["text", "brat"])),
    )
    transform_inputs = text_and_spans().map(lambda pair: (deidentifier, *pair))
    return {
        "tokenize": (TEXTS.map(lambda text: (text,)), check_tokenize),
        "readers": (reader_inputs, check_reader),
        "deidentify": (deidentify_inputs, check_deidentify_file),
        "transform": (transform_inputs, check_transform),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=20_000, help="inputs per target (default: 20000)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds before an example counts as a hang")
    parser.add_argument("--model", help="a model for deidentify (default: the pattern detector)")
    parser.add_argument("--only", nargs="+", choices=("tokenize", "readers", "deidentify", "transform"))
    parser.add_argument("--out", type=Path, default=RESULTS / "fuzz.json", help="the JSON report to write")
    arguments = parser.parse_args()
    if arguments.model:
        from anonimed.models import load_detector

        detector, detector_name = load_detector(arguments.model), arguments.model
    else:
        from anonimed.detect.patterns import PatternDetector

        detector, detector_name = PatternDetector(), "patterns"
    results = []
    for name, (strategy, check) in targets(detector).items():
        if arguments.only and name not in arguments.only:
            continue
        results.append(run_target(name, strategy, check, arguments.examples, arguments.timeout))
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), python {platform.python_version()}",
        "command": " ".join(["benchmarks/fuzz.py", *sys.argv[1:]]),
        "detector": detector_name,
        "timeout_seconds": arguments.timeout,
        "targets": results,
    }
    arguments.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if any(r["failures"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
