"""Bad input for ``predict`` and ``deidentify``, through the command line and the API.

Every case checks the same contract: a clear message naming the file, a non-zero exit code when anything failed, a
summary of what succeeded, and fail-closed output: nothing is written for a note that failed (so never its original
text), and no half-written or temporary file is left behind.  A fast fake detector stands in for the model.
"""

from __future__ import annotations

import errno
import os
import re
import time
import tracemalloc
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

import anonimed.formats.textio as textio
from anonimed.cli import main
from anonimed.deidentify import Deidentifier, deidentify_files
from anonimed.document import Document, Span
from anonimed.formats import convert
from anonimed.formats.brat import read_brat
from anonimed.predict import predict_dir

COMMANDS = ("predict", "deidentify")
REAL_FSYNC = os.fsync  # textio.os is the os module: a test patches it there, and a second patch must not wrap the first
NAME = re.compile(r"(?:Nombre|Dra\.): ((?:[A-ZÁÉÍÓÚ][\w\u0300-\u036f]*)(?: [A-ZÁÉÍÓÚ][\w\u0300-\u036f]*)*)")
DATE = re.compile(r"\d\d/\d\d/\d{4}")


class FastDetector:
    """Names after ``Nombre:`` and ``dd/mm/yyyy`` dates: two regular expressions, fast on a 20 MB note."""

    name = "fast"

    def detect(self, document: Document) -> list[Span]:
        names = [
            Span(m.start(1), m.end(1), "NOMBRE_SUJETO_ASISTENCIA", 0.9, self.name) for m in NAME.finditer(document.text)
        ]
        dates = [Span(m.start(), m.end(), "FECHAS", 0.9, self.name) for m in DATE.finditer(document.text)]
        return names + dates


class Saboteur(FastDetector):
    """Breaks on notes that mention ``trigger``: raises ``error``, or returns an unknown label or a span past the end."""

    def __init__(self, trigger: str, failure: str) -> None:
        self.trigger, self.failure = trigger, failure

    def detect(self, document: Document) -> list[Span]:
        spans = super().detect(document)
        if self.trigger not in document.text:
            return spans
        if self.failure == "crash":
            raise KeyError("a detector bug")
        if self.failure == "label":
            return spans + [Span(0, 6, "DIAGNOSTICO")]
        return spans + [Span(0, len(document.text) + 5, "FECHAS")]


@pytest.fixture(autouse=True)
def fast_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("anonimed.models.load_detector", lambda name=None, vote=None: FastDetector())


def cli(command: str, source: Path, out: Path, *options: str) -> int:
    seed = ("--seed", "1") if command == "deidentify" else ()
    return main([command, str(source), str(out), *seed, *options])


def api(command: str, source: Path, out: Path, detector: FastDetector | None = None, **options) -> tuple[int, dict]:
    """(documents written, failures) of the command's Python API."""
    detector = detector or FastDetector()
    if command == "predict":
        summary = predict_dir(detector, source, out, **options)
    else:
        summary = deidentify_files(Deidentifier(model=detector, seed=1), source, out, **options)
    return summary.documents, summary.failures


def notes(folder: Path, **contents: str | bytes) -> Path:
    """``folder/NAME.txt`` for each keyword (bytes are written as they are, text as UTF-8 with no newline change)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in contents.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        (folder / f"{name}.txt").write_bytes(data)
    return folder


def files_under(folder: Path) -> Iterator[Path]:
    return (p for p in folder.rglob("*") if p.is_file()) if folder.exists() else iter(())


def assert_fail_closed(out: Path, *secrets: str) -> None:
    """No temporary file is left, and no output holds any of ``secrets`` (text of notes that failed)."""
    for path in files_under(out):
        assert not path.name.endswith(".tmp"), f"temporary file left behind: {path}"
        content = path.read_bytes()
        for secret in secrets:
            assert secret.encode("utf-8") not in content, f"{path} holds {secret!r} of a note that failed"


def output_text(out: Path, name: str) -> str:
    """The text written for note ``name``: predict's copy, or deidentify's new text (folder mode)."""
    return textio.read_text(out / f"{name}.txt")


GOOD = "Nombre: Ana Ros Pla. Ingreso: 03/03/2016.\n"


# --- empty, blank -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("content", ["", " \n\t\r\n  "], ids=["empty", "whitespace"])
def test_empty_and_blank_notes_are_written_unchanged(tmp_path: Path, command: str, content: str, capsys):
    source = notes(tmp_path / "in", blank=content, good=GOOD)
    assert cli(command, source, tmp_path / "cli") == 0
    assert "2 documents" in "".join(capsys.readouterr())
    assert api(command, source, tmp_path / "api") == (2, {})
    for out in (tmp_path / "cli", tmp_path / "api"):
        assert output_text(out, "blank") == content
        if command == "predict":
            assert read_brat(out / "blank.txt").spans == []
    assert Deidentifier(model=FastDetector()).deidentify(content).text == content


# --- encodings ----------------------------------------------------------------------------------------------------

LATIN1 = "Nombre: Secreto Núñez. Ingreso: 03/03/2016.\n".encode("latin-1")  # ú and ñ are single bytes: not UTF-8


@pytest.mark.parametrize("command", COMMANDS)
def test_invalid_utf8_fails_alone_naming_file_and_byte(tmp_path: Path, command: str, capsys):
    source = notes(tmp_path / "in", good=GOOD, bad=LATIN1)
    assert cli(command, source, tmp_path / "cli") == 1
    captured = capsys.readouterr()
    byte = LATIN1.index(b"\xfa")
    assert f"bad.txt: is not valid utf-8: byte {byte}" in captured.err and "--encoding" in captured.err
    assert "1 documents" in captured.out + captured.err and "1 failed" in captured.out + captured.err
    documents, failures = api(command, source, tmp_path / "api")
    assert documents == 1 and list(failures) == [str(source / "bad.txt")]
    for out in (tmp_path / "cli", tmp_path / "api"):
        assert (out / "good.txt").exists() and not (out / "bad.txt").exists()
        assert_fail_closed(out, "Secreto")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("options", "expected"), [({"encoding": "latin-1"}, "Núñez"), ({"errors": "replace"}, "N\ufffd\ufffdez")]
)
def test_other_encodings_on_request(tmp_path: Path, command: str, options: dict, expected: str):
    source = notes(tmp_path / "in", note=LATIN1.replace(b"Secreto ", b"").replace(b"Nombre: ", b"Apellido "))
    flags = [f"--{name}={value}" for name, value in options.items()]
    assert cli(command, source, tmp_path / "cli", *flags) == 0
    assert api(command, source, tmp_path / "api", **options) == (1, {})
    for out in (tmp_path / "cli", tmp_path / "api"):
        text = output_text(out, "note")  # always written as UTF-8
        assert expected in text and text.startswith("Apellido ")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_bom_is_kept_and_counted_as_a_character(tmp_path: Path, command: str):
    source = notes(tmp_path / "in", bom="\ufeffNombre: Ana Ros\n")
    assert cli(command, source, tmp_path / "cli") == 0
    assert api(command, source, tmp_path / "api") == (1, {})
    for out in (tmp_path / "cli", tmp_path / "api"):
        data = (out / "bom.txt").read_bytes()
        assert data.startswith(b"\xef\xbb\xbfNombre: ")
        if command == "predict":
            document = read_brat(out / "bom.txt")  # checks each span's covered text
            assert [document.span_text(s) for s in document.spans] == ["Ana Ros"]
            assert document.spans[0].start == len("\ufeffNombre: ")
        else:
            assert b"Ana Ros" not in data


# --- line ends, Unicode -------------------------------------------------------------------------------------------

LINE_END = re.compile(r"\r\n|\r|\n")
MIXED = "Nombre: Ana Ros\r\nIngreso: 03/03/2016\rAlta: 10/03/2016\r\n\r\nFin\r"


@pytest.mark.parametrize("command", COMMANDS)
def test_crlf_and_lone_cr_keep_offsets_and_line_ends(tmp_path: Path, command: str):
    source = notes(tmp_path / "in", mixed=MIXED)
    assert cli(command, source, tmp_path / "cli") == 0
    assert api(command, source, tmp_path / "api") == (1, {})
    for out in (tmp_path / "cli", tmp_path / "api"):
        text = output_text(out, "mixed")
        assert LINE_END.findall(text) == LINE_END.findall(MIXED)
        lines = LINE_END.split(text)
        assert [line.split(":")[0] for line in lines] == ["Nombre", "Ingreso", "Alta", "", "Fin", ""]
        if command == "predict":
            document = read_brat(out / "mixed.txt")
            assert [document.span_text(s) for s in document.spans] == ["Ana Ros", "03/03/2016", "10/03/2016"]
        else:
            assert "Ana Ros" not in text and "03/03/2016" not in text


def test_api_keeps_every_line_end_and_character_outside_spans():
    result = Deidentifier(model=FastDetector(), seed=3).deidentify(MIXED)
    assert len(result.replacements) == 3
    input_cursor = output_cursor = 0
    for replacement in result.replacements:
        assert replacement.output is not None
        assert MIXED[input_cursor : replacement.input.start] == result.text[output_cursor : replacement.output.start]
        input_cursor, output_cursor = replacement.input.end, replacement.output.end
    assert MIXED[input_cursor:] == result.text[output_cursor:]


NFD = unicodedata.normalize("NFD", "Nombre: José Pérez Ibáñez\nIngreso: 03/03/2016\n")


@pytest.mark.parametrize("command", COMMANDS)
def test_nfd_accents_stay_inside_their_spans(tmp_path: Path, command: str):
    assert unicodedata.normalize("NFC", NFD) != NFD
    source = notes(tmp_path / "in", nfd=NFD)
    assert cli(command, source, tmp_path / "cli") == 0
    assert api(command, source, tmp_path / "api") == (1, {})
    for out in (tmp_path / "cli", tmp_path / "api"):
        text = output_text(out, "nfd")
        if command == "predict":
            document = read_brat(out / "nfd.txt")
            assert document.span_text(document.spans[0]) == NFD[len("Nombre: ") : NFD.index("\n")]
        else:  # the whole decomposed name is replaced: no combining accent is left dangling
            assert text.startswith("Nombre: ") and not any(unicodedata.combining(c) for c in text)


ASTRAL = "Nombre: Ana Ros 😀\n𝔸𝔹 Ingreso: 03/03/2016 🏥 \U0001f9d1\u200d\u2695\ufe0f\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_emoji_and_astral_characters_count_as_one_character(tmp_path: Path, command: str):
    source = notes(tmp_path / "in", astral=ASTRAL)
    assert cli(command, source, tmp_path / "cli") == 0
    assert api(command, source, tmp_path / "api") == (1, {})
    for out in (tmp_path / "cli", tmp_path / "api"):
        text = output_text(out, "astral")
        if command == "predict":
            document = read_brat(out / "astral.txt")
            assert [document.span_text(s) for s in document.spans] == ["Ana Ros", "03/03/2016"]
            assert document.spans[1].start == ASTRAL.index("03/")
        else:
            assert "03/03/2016" not in text
            assert all(c in text for c in "😀𝔸𝔹🏥\U0001f9d1\u2695")


# --- size ---------------------------------------------------------------------------------------------------------


def big_note(megabytes: int) -> str:
    """Plain clinical-looking filler with a name and a date every ~2 kB (10,000 spans in 20 MB)."""
    filler = "Exploración física sin hallazgos relevantes; se pauta tratamiento y control en consulta. " * 22
    block = f"Nombre: Ana Ros Pla. Ingreso: 03/03/2016.\n{filler}\n"
    return block * (megabytes * 1_000_000 // len(block))


@pytest.mark.parametrize("command", COMMANDS)
def test_a_20_mb_note_runs_in_linear_time_and_memory(tmp_path: Path, command: str, monkeypatch):
    text = big_note(20)
    source = notes(tmp_path / "in", big=text)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        assert api(command, source, tmp_path / "api", detector=FastDetector()) == (1, {})
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = len(text.encode("utf-8"))
    assert peak < 12 * size, f"peak memory {peak / 1e6:.0f} MB for a {size / 1e6:.0f} MB note"
    assert seconds < 30, f"{seconds:.1f} s for a {size / 1e6:.0f} MB note"
    out = output_text(tmp_path / "api", "big")
    assert len(out) > 0.9 * len(text) and ("Ana Ros" in out) == (command == "predict")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_20_mb_note_through_the_cli(tmp_path: Path, command: str, capsys):
    text = big_note(20)
    source = notes(tmp_path / "in", big=text)
    options = ("--operator", "tag") if command == "deidentify" else ()
    assert cli(command, source, tmp_path / "out", *options) == 0
    blocks = text.count("Ana Ros Pla")  # a name and a date each
    assert f"1 documents {'de-identified' if command == 'deidentify' else 'annotated'}, {2 * blocks} PHI spans" in (
        "".join(capsys.readouterr())
    )
    if command == "deidentify":
        assert textio.read_text(tmp_path / "out" / "big.txt").count("[NOMBRE_SUJETO_ASISTENCIA]") == blocks


@pytest.fixture(scope="module")
def ten_thousand_notes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("many")
    return notes(folder / "in", **{f"n{i:05}": f"Nombre: Ana {i}\n" for i in range(10_000)})


@pytest.mark.parametrize("interface", ["cli", "api"])
@pytest.mark.parametrize("command", COMMANDS)
def test_ten_thousand_small_notes(
    ten_thousand_notes: Path, tmp_path: Path, command: str, interface: str, monkeypatch, capsys
):
    # Each atomic write syncs its file to disk, which is what makes 10,000 notes slow on a real disk; the test checks
    # the batch (no per-note cost that grows with the batch), so the sync is skipped here.
    monkeypatch.setattr(textio.os, "fsync", lambda descriptor: None)
    started = time.perf_counter()
    if interface == "cli":
        options = ("--operator=tag",) if command == "deidentify" else ()
        assert cli(command, ten_thousand_notes, tmp_path / "out", *options) == 0
        assert "10000 documents" in "".join(capsys.readouterr())
    else:
        assert api(command, ten_thousand_notes, tmp_path / "out") == (10_000, {})
    seconds = time.perf_counter() - started
    assert sum(1 for _ in files_under(tmp_path / "out")) == (20_000 if command == "predict" else 10_000)
    assert seconds < 40


# --- files that are not notes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_a_binary_file_fails_alone(tmp_path: Path, command: str, capsys):
    source = notes(tmp_path / "in", good=GOOD, scan=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR Nombre: Secreto")
    assert cli(command, source, tmp_path / "cli") == 1
    captured = capsys.readouterr()
    assert "scan.txt: looks like a binary file" in captured.err
    assert "1 documents" in captured.out + captured.err and "1 failed" in captured.out + captured.err
    documents, failures = api(command, source, tmp_path / "api")
    assert documents == 1 and "binary" in failures[str(source / "scan.txt")]
    for out in (tmp_path / "cli", tmp_path / "api"):
        assert_fail_closed(out, "Secreto")
        assert not (out / "scan.txt").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_named_like_a_note_is_skipped(tmp_path: Path, command: str):
    source = notes(tmp_path / "in", good=GOOD)
    (source / "trap.txt").mkdir()
    assert cli(command, source, tmp_path / "cli") == 0
    assert api(command, source, tmp_path / "api") == (1, {})


# --- bad annotations and labels -----------------------------------------------------------------------------------


def annotated_batch(folder: Path) -> Path:
    notes(
        folder,
        good=GOOD,
        outside="Nombre: Secreto Uno\n",
        mismatch="Nombre: Secreto Dos\n",
        unknown="Nombre: Secreto Tres\n",
    )
    (folder / "good.ann").write_text("T1\tNOMBRE_SUJETO_ASISTENCIA 8 19\tAna Ros Pla\n", encoding="utf-8")
    (folder / "outside.ann").write_text("T1\tNOMBRE_SUJETO_ASISTENCIA 8 90\tSecreto Uno\n", encoding="utf-8")
    (folder / "mismatch.ann").write_text("T1\tNOMBRE_SUJETO_ASISTENCIA 8 19\tOtra Persona\n", encoding="utf-8")
    (folder / "unknown.ann").write_text("T1\tDIAGNOSTICO 8 20\tSecreto Tres\n", encoding="utf-8")
    return folder


def test_bad_ann_files_fail_alone_with_gold_spans(tmp_path: Path, capsys):
    source = annotated_batch(tmp_path / "in")
    assert main(["deidentify", str(source), str(tmp_path / "cli"), "--gold-spans", "--format", "brat"]) == 1
    err = capsys.readouterr().err
    assert "outside.ann:1: offsets 8 90 fall outside the text (20 characters)" in err
    assert "mismatch.ann:1: annotated text 'Otra Persona' does not match" in err
    assert "unknown.ann:1: unknown PHI label 'DIAGNOSTICO'" in err
    assert "1 documents de-identified" in err and "3 failed" in err
    summary = deidentify_files(Deidentifier(seed=1), source, tmp_path / "api", output_format="brat", gold_spans=True)
    assert summary.documents == 1 and len(summary.failures) == 3
    for out in (tmp_path / "cli", tmp_path / "api"):
        assert sorted(p.name for p in files_under(out)) == ["good.ann", "good.txt"]
        assert_fail_closed(out, "Secreto", "Ana Ros")


def test_bad_ann_files_fail_alone_in_convert(tmp_path: Path, capsys):
    source = annotated_batch(tmp_path / "in")
    assert main(["convert", str(source), str(tmp_path / "out.jsonl"), "--to", "jsonl"]) == 1
    assert "3 failed" in capsys.readouterr().out
    summary = convert(source, tmp_path / "api.jsonl", "jsonl")
    assert summary.documents == 1 and len(summary.failures) == 3
    for out in (tmp_path / "out.jsonl", tmp_path / "api.jsonl"):
        assert "Secreto" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("failure", ["label", "outside", "crash"])
def test_a_detector_failing_on_one_note_fails_that_note_alone(
    tmp_path: Path, command: str, failure: str, monkeypatch, capsys
):
    saboteur = Saboteur("Secreto", failure)
    monkeypatch.setattr("anonimed.models.load_detector", lambda name=None, vote=None: saboteur)
    source = notes(tmp_path / "in", good=GOOD, bad="Nombre: Secreto Ruiz\n")
    assert cli(command, source, tmp_path / "cli") == 1
    problem = {"label": "unknown PHI label 'DIAGNOSTICO'", "outside": "ends past the text", "crash": "KeyError"}[
        failure
    ]
    assert problem in capsys.readouterr().err
    documents, failures = api(command, source, tmp_path / "api", detector=saboteur)
    assert documents == 1 and problem in failures[str(source / "bad.txt")]
    for out in (tmp_path / "cli", tmp_path / "api"):
        assert (out / "good.txt").exists()
        assert_fail_closed(out, "Secreto")


# --- output that cannot be written --------------------------------------------------------------------------------


def refuse_writes(monkeypatch: pytest.MonkeyPatch, code: int, allowed: int = 0) -> None:
    """Make the disk refuse every sync after the first ``allowed``: a full disk (ENOSPC) or a read-only one."""
    calls = {"count": 0}

    def fsync(descriptor: int) -> None:
        calls["count"] += 1
        if calls["count"] > allowed:
            raise OSError(code, os.strerror(code))
        REAL_FSYNC(descriptor)

    monkeypatch.setattr(textio.os, "fsync", fsync)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["full", "read-only"])
def test_an_output_that_cannot_be_written_fails_each_note_and_leaves_nothing(
    tmp_path, command, code, monkeypatch, capsys
):
    source = notes(tmp_path / "in", a=GOOD, b="Nombre: Secreto Uno\n", c="Nombre: Secreto Dos\n")
    per_note = 2 if command == "predict" else 1  # predict writes the .ann and the text
    refuse_writes(monkeypatch, code, allowed=per_note)
    assert cli(command, source, tmp_path / "cli") == 1
    captured = capsys.readouterr()
    assert os.strerror(code) in captured.err
    assert "1 documents" in captured.out + captured.err and "2 failed" in captured.out + captured.err
    refuse_writes(monkeypatch, code, allowed=per_note)
    documents, failures = api(command, source, tmp_path / "api")
    assert documents == 1 and sorted(failures) == [str(source / "b.txt"), str(source / "c.txt")]
    for out in (tmp_path / "cli", tmp_path / "api"):
        assert_fail_closed(out, "Secreto")
        assert sorted(p.name for p in files_under(out)) == (["a.ann", "a.txt"] if command == "predict" else ["a.txt"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders anyway")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_read_only_output_folder(tmp_path: Path, command: str, capsys):
    source = notes(tmp_path / "in", a=GOOD)
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        assert cli(command, source, out) == 1
    finally:
        out.chmod(0o755)
    assert "Permission denied" in capsys.readouterr().err and not any(files_under(out))


def test_a_note_and_its_annotations_are_written_both_or_neither(tmp_path: Path, monkeypatch, capsys):
    source = notes(tmp_path / "in", a=GOOD)
    refuse_writes(monkeypatch, errno.ENOSPC, allowed=1)  # the text is staged, its .ann is not
    assert main(["deidentify", str(source), str(tmp_path / "out"), "--format", "brat"]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert not any(files_under(tmp_path / "out"))


@pytest.mark.parametrize("target", ["jsonl", "audit"])
def test_a_shared_output_that_cannot_be_finished_is_not_written_at_all(
    tmp_path: Path, target: str, monkeypatch, capsys
):
    source = notes(tmp_path / "in", a=GOOD, b="Nombre: Secreto Uno\n")
    if target == "jsonl":
        options, shared, allowed = ["--format", "jsonl"], tmp_path / "out.jsonl", 0
        out = shared
    else:
        options, shared, allowed = ["--audit", str(tmp_path / "audit.jsonl")], tmp_path / "audit.jsonl", 2
        out = tmp_path / "out"
    refuse_writes(monkeypatch, errno.ENOSPC, allowed=allowed)
    assert main(["deidentify", str(source), str(out), *options]) == 1
    err = capsys.readouterr().err
    assert str(shared) in err and "not written: [Errno 28] No space left on device" in err
    assert not shared.exists()
    assert_fail_closed(tmp_path / "out", "Secreto")
    if target == "jsonl":
        assert "0 documents de-identified" in err and "2 failed" in err
    else:  # the notes' own files were written; only the audit is missing
        assert "2 documents de-identified" in err


def test_an_xml_file_declaring_an_unknown_encoding_is_a_format_error(tmp_path: Path, capsys):
    # Found by benchmarks/fuzz.py: the parser's LookupError escaped the reader.
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.xml").write_text("<?xml version='1.0' encoding='UTTF-8'?>\n<MEDDOCAN/>", encoding="utf-8")
    (tmp_path / "in" / "b.xml").write_text("<MEDDOCAN><TEXT>Hola</TEXT><TAGS/></MEDDOCAN>", encoding="utf-8")
    assert main(["convert", str(tmp_path / "in"), str(tmp_path / "out.jsonl"), "--to", "jsonl"]) == 1
    captured = capsys.readouterr()
    assert "a.xml: cannot be parsed as XML: unknown encoding: UTTF-8" in captured.err
    assert "1 documents converted" in captured.out


def test_overlapping_spans_are_replaced_whole(tmp_path: Path):
    # Keeping only the longer of two partly overlapping spans would leave "Pla" in the output.
    text = "Nombre: Ana Ros Pla, vive en Madrid"
    document = Document("x", text, [Span(8, 15, "NOMBRE_SUJETO_ASISTENCIA"), Span(12, 19, "NOMBRE_PERSONAL_SANITARIO")])
    result = Deidentifier(operators=["tag"]).transform(document)
    assert result.text == "Nombre: [NOMBRE_SUJETO_ASISTENCIA], vive en Madrid"


def test_convert_writes_a_document_s_files_both_or_neither(tmp_path: Path, monkeypatch, capsys):
    source = notes(tmp_path / "in", a=GOOD)
    refuse_writes(monkeypatch, errno.ENOSPC, allowed=1)  # the .txt is staged, its .ann is not
    assert main(["convert", str(source), str(tmp_path / "out"), "--to", "brat", "--from", "plain"]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert not any(files_under(tmp_path / "out"))


def test_a_jsonl_output_that_cannot_be_created_fails_every_note(tmp_path: Path, capsys):
    source = notes(tmp_path / "in", a=GOOD)
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    assert main(["deidentify", str(source), str(tmp_path / "file" / "out.jsonl"), "--format", "jsonl"]) == 1
    err = capsys.readouterr().err
    assert "out.jsonl not written" in err and "0 documents de-identified" in err and "1 failed" in err


def test_an_unreadable_note_fails_alone_in_a_jsonl_batch(tmp_path: Path, monkeypatch, capsys):
    source = notes(tmp_path / "in", a=GOOD, b="Nombre: Secreto Uno\n")
    real_read_bytes = Path.read_bytes

    def read_bytes(path: Path) -> bytes:
        if path.name == "b.txt":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert main(["deidentify", str(source), str(tmp_path / "out.jsonl"), "--format", "jsonl"]) == 1
    err = capsys.readouterr().err
    assert "b.txt" in err and "Permission denied" in err and "1 documents de-identified" in err
    monkeypatch.undo()
    assert "Secreto" not in (tmp_path / "out.jsonl").read_text(encoding="utf-8")
