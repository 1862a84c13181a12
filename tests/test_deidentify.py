"""The Deidentifier API and the ``anonimed deidentify`` command, with a small fake detector and gold spans."""

from __future__ import annotations

import argparse
import io
import itertools
import json
import re
import time
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.deidentify import Deidentifier, deidentify_files
from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat, read_brat_dir
from anonimed.transform.surrogates import KEPT_TYPES
from anonimed.transform.surrogates.dates import parse_date
from anonimed.transform.surrogates.numbers import dni_is_valid, looks_like_dni
from anonimed.transform.surrogates.text import fold

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTE = "Nombre: Ana Ros Pla. Fecha de ingreso: 03/03/2016. Alta: 10/03/2016. Remitida por la Dra. Ferrer.\n"


class FakeDetector:
    """Dates ``dd/mm/yyyy`` and the capitalised words after ``Nombre:`` or ``Dra.``."""

    name = "fake"

    def detect(self, document: Document) -> list[Span]:
        spans = []
        for match in re.finditer(r"\d\d/\d\d/\d{4}", document.text):
            spans.append(Span(match.start(), match.end(), "FECHAS", 0.9, self.name))
        for match in re.finditer(r"(?:Nombre: |Dra\. )((?:[A-ZÁÉÍÓÚ]\w+ ?)+)", document.text):
            label = "NOMBRE_SUJETO_ASISTENCIA" if match.group().startswith("Nombre") else "NOMBRE_PERSONAL_SANITARIO"
            spans.append(Span(match.start(1), match.end(1), label, 0.8, self.name))
        return spans


def test_fake_detector_follows_the_protocol():
    assert isinstance(FakeDetector(), Detector)


def test_deidentify_text_with_a_detector():
    result = Deidentifier(model=FakeDetector(), seed=1).deidentify(NOTE)
    assert result.text != NOTE
    assert result.text.startswith("Nombre: ") and "Fecha de ingreso: " in result.text
    assert len(result.spans) == 4
    for span_in, span_out in result.mapping.items():
        assert span_out is not None and span_out.label == span_in.label
        assert result.text[span_out.start : span_out.end] != NOTE[span_in.start : span_in.end]
    dates = [parse_date(result.text[s.start : s.end]) for s in result.spans if s.label == "FECHAS"]
    assert (dates[1] - dates[0]).days == 7
    assert result.document.text == result.text and result.document.spans == sorted(result.spans)


def test_same_key_same_output_and_seed_reproducible(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(b"a secret of the hospital\n")
    first = Deidentifier(model=FakeDetector(), key=key).deidentify(NOTE).text
    assert Deidentifier(model=FakeDetector(), key=key).deidentify(NOTE).text == first
    assert Deidentifier(model=FakeDetector(), key=b"another").deidentify(NOTE).text != first
    assert (
        Deidentifier(model=FakeDetector(), seed=3).deidentify(NOTE).text
        == Deidentifier(model=FakeDetector(), seed=3).deidentify(NOTE).text
    )


def test_a_patient_key_shifts_all_notes_of_the_patient_alike():
    deidentifier = Deidentifier(model=FakeDetector(), key=b"k")
    first = deidentifier.deidentify("Ingreso: 03/03/2016.", "n1", patient="P7")
    second = deidentifier.deidentify("Alta: 10/03/2016.", "n2", patient="P7")
    shifted = [parse_date(r.text[r.spans[0].start : r.spans[0].end]) for r in (first, second)]
    assert (shifted[1] - shifted[0]).days == 7


def test_operators_by_spec_mapping_and_file(tmp_path):
    config = tmp_path / "ops.toml"
    config.write_text('default = "tag"\n')
    assert "[FECHAS]" in Deidentifier(model=FakeDetector(), operators=config).deidentify(NOTE).text
    assert "[FECHA]" in Deidentifier(model=FakeDetector(), operators="tag:coarse").deidentify(NOTE).text
    masked = Deidentifier(model=FakeDetector(), operators={"operators": {"DATE": "mask:keep"}}, seed=1)
    assert "**/**/****" in masked.deidentify(NOTE).text


def test_transform_uses_the_documents_own_spans():
    document = Document("d", "Vive en Cuenca.", [Span(8, 14, "TERRITORIO")])
    result = Deidentifier(seed=1).transform(document)
    assert result.text.startswith("Vive en ") and result.text.endswith(".") and "Cuenca" not in result.text


# --- the command -----------------------------------------------------------------------------------------------


@pytest.fixture
def fake_model(monkeypatch):
    monkeypatch.setattr("anonimed.models.load_detector", lambda name=None, vote=None: FakeDetector())


def test_cli_folder_recursive_brat_output_and_audit(tmp_path, fake_model, capsys):
    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    (source / "a.txt").write_text(NOTE, encoding="utf-8")
    (source / "sub" / "b.txt").write_text("Nombre: Luis Gil.\n", encoding="utf-8")
    audit = tmp_path / "audit.jsonl"
    code = main(
        ["deidentify", str(source), str(tmp_path / "out"), "--format", "brat", "--seed", "1", "--audit", str(audit)]
    )
    assert code == 0
    written = read_brat(tmp_path / "out" / "a.txt")  # the .ann points at the surrogate text (read_brat checks it)
    assert len(written.spans) == 4 and "Ana Ros Pla" not in written.text
    assert (tmp_path / "out" / "sub" / "b.ann").is_file()
    lines = [json.loads(line) for line in audit.read_text().splitlines()]
    assert {line["document"] for line in lines} == {"a", "b"}
    first = lines[0]["spans"][0]
    assert set(first) == {"label", "input", "output", "score", "source", "operator"}
    assert "2 documents de-identified" in capsys.readouterr().err


def test_cli_audit_originals_and_text_file_output(tmp_path, fake_model):
    note = tmp_path / "note.txt"
    note.write_text(NOTE, encoding="utf-8")
    audit = tmp_path / "audit.jsonl"
    out = tmp_path / "clean.txt"
    assert main(["deidentify", str(note), str(out), "--audit", str(audit), "--audit-originals"]) == 0
    assert out.read_text(encoding="utf-8").startswith("Nombre: ")
    assert json.loads(audit.read_text())["spans"][0]["original"] == "Ana Ros Pla"


def test_cli_stdin_to_stdout(monkeypatch, capsys, fake_model):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(NOTE.encode("utf-8"))))
    assert main(["deidentify", "-", "-", "--operator", "tag"]) == 0
    assert capsys.readouterr().out == (
        "Nombre: [NOMBRE_SUJETO_ASISTENCIA]. Fecha de ingreso: [FECHAS]. Alta: [FECHAS]. Remitida por la Dra. "
        "[NOMBRE_PERSONAL_SANITARIO].\n"
    )


def test_cli_sex_swap_and_xml_output(tmp_path):
    assert (
        main(
            [
                "deidentify",
                str(EXAMPLES),
                str(tmp_path / "out"),
                "--gold-spans",
                "--format",
                "xml",
                "--sex",
                "swap",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    xml = (tmp_path / "out" / "nota-02-neumologia.xml").read_text(encoding="utf-8")
    assert "Sexo: Hombre" in xml and "SEXO_SUJETO_ASISTENCIA" in xml


def test_cli_jsonl_output(tmp_path, fake_model):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    assert main(["deidentify", str(tmp_path / "in"), str(tmp_path / "out.jsonl"), "--format", "jsonl"]) == 0
    record = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert record["id"] == "a" and len(record["spans"]) == 4


def test_cli_refuses_to_overwrite_inputs(tmp_path, fake_model, capsys):
    (tmp_path / "in").mkdir()
    note = tmp_path / "in" / "a.txt"
    note.write_text(NOTE, encoding="utf-8")
    assert main(["deidentify", str(tmp_path / "in"), str(tmp_path / "in")]) == 2
    assert main(["deidentify", str(tmp_path / "in"), str(tmp_path / "in" / "out")]) == 2
    assert main(["deidentify", str(note), str(note)]) == 2
    assert "never overwritten" in capsys.readouterr().err
    assert note.read_text(encoding="utf-8") == NOTE


def test_cli_a_bad_note_fails_alone(tmp_path, fake_model, capsys):
    source = tmp_path / "in"
    source.mkdir()
    (source / "good.txt").write_text(NOTE, encoding="utf-8")
    (source / "bad.txt").write_bytes(b"Nombre: Jos\xe9 Gil.\n")
    code = main(["deidentify", str(source), str(tmp_path / "out")])
    assert code == 1
    error = capsys.readouterr().err
    assert "bad.txt" in error and "byte 11" in error
    assert (tmp_path / "out" / "good.txt").is_file() and not (tmp_path / "out" / "bad.txt").exists()


def test_cli_gold_spans_need_ann_files(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    assert main(["deidentify", str(tmp_path / "in"), str(tmp_path / "out"), "--gold-spans"]) == 1
    assert "a.ann" in capsys.readouterr().err


def test_bundled_examples_deidentify_with_their_annotations(tmp_path):
    summary = deidentify_files(Deidentifier(seed=2), EXAMPLES, tmp_path, "brat", gold_spans=True)
    assert summary.documents == len(list(EXAMPLES.glob("*.txt"))) >= 6 and not summary.failures
    for original, new in zip(read_brat_dir(EXAMPLES), read_brat_dir(tmp_path)):
        assert len(original.spans) == len(new.spans)
        for before, after in zip(original.spans, new.spans):
            if before.label not in KEPT_TYPES:
                assert fold(original.span_text(before)) != fold(new.span_text(after))


# --- the corpus --------------------------------------------------------------------------------------------------


def test_dev_corpus_with_gold_spans(meddocan):
    """All dev notes: no surrogate equals its original, dates keep their differences, DNI/NIE letters are valid."""
    started = time.perf_counter()
    deidentifier = Deidentifier(seed=11)
    documents = read_brat_dir(meddocan / "dev" / "brat")
    assert len(documents) == 250
    dates_checked = 0
    for document in documents:
        result = deidentifier.transform(document)
        pairs = []
        for replacement in result.replacements:
            label, before, after = replacement.input.label, replacement.original, replacement.replacement
            if label not in KEPT_TYPES:
                assert fold(before) != fold(after), (document.id, label, before)
            if label == "FECHAS" and parse_date(before):
                assert parse_date(after) is not None, (document.id, before, after)
                pairs.append((parse_date(before), parse_date(after)))
            if looks_like_dni(before):
                assert dni_is_valid(after), (document.id, before, after)
        for (a1, b1), (a2, b2) in itertools.combinations(pairs, 2):
            assert (a1 - a2) == (b1 - b2), document.id
        dates_checked += len(pairs)
    assert dates_checked > 100
    assert time.perf_counter() - started < 60


def test_an_ensemble_de_identifies_with_its_recall_vote_where_it_has_one(monkeypatch, tmp_path):
    """The shipped model and an ensemble folder alike: a folder of the same members must not leak more than
    ``default`` because it voted ``balanced``."""
    from anonimed.cli.options import add_model_options, detector_spec
    from anonimed.deidentify import load_model

    def ensemble(name: str, votes: list[str]) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        manifest = {"kind": "ensemble", "votes": {key: {} for key in votes}, "default_vote": votes[0]}
        (folder / "model.json").write_text(json.dumps(manifest), encoding="utf-8")
        return folder

    with_recall, without = ensemble("with", ["balanced", "recall"]), ensemble("without", ["balanced"])
    crf = tmp_path / "crf"
    crf.mkdir()
    (crf / "model.json").write_text('{"kind": "crf"}', encoding="utf-8")
    asked = []
    monkeypatch.setattr("anonimed.models.load_detector", lambda name=None, vote=None: asked.append((name, vote)))
    for model, vote in [(None, None), ("default", "balanced"), (with_recall, None), (without, None), (crf, None)]:
        load_model(model, vote)
        load_model("fast")
    assert asked[::2] == [
        (None, "recall"),
        ("default", "balanced"),
        (with_recall, "recall"),
        (without, None),
        (crf, None),
    ]
    assert set(asked[1::2]) == {("fast", None)}

    parser = argparse.ArgumentParser()
    add_model_options(parser)
    spec = detector_spec(parser.parse_args(["--model", str(with_recall)]), for_deidentify=True)
    assert spec.vote == "recall"
    assert detector_spec(parser.parse_args(["--model", str(with_recall)])).vote is None
